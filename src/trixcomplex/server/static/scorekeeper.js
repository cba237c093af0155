// The score keeper's page: a match played with real cards, kept from each deal as the
// players report it.  The browser holds the scorebook (localStorage); the library scores
// each deal (POST /api/scorebook) and keeps nothing.  The request goes through the page's
// transport (transport.js): to the server, or, in a folder `trixcomplex web build` wrote,
// to the engine in the page's Web Worker, which answers it with the server's own function.
"use strict";

let MSG = { dir: "ltr", lang: "en" };
const LOCALE_KEY = "trixcomplex-locale";
const BOOK_KEY = "trixcomplex-scorebook";
const $ = (id) => document.getElementById(id);
const t = (id, params) => (MSG[id] === undefined ? id : MSG[id]).replace(/\{(\w+)\}/g,
  (_, k) => (params && params[k] !== undefined ? String(params[k]) : "{" + k + "}"));
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const cardText = (code) => (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
// K♥, the Queens and the diamonds, each once (Q♦ with the Queens).
const COUNTED = ["KH", "QS", "QH", "QD", "QC", ..."23456789TJKA".split("").map((r) => r + "D")];
// Which cards each trick contract charges (the rest of the form is hidden for it).
const CHARGED = { KING_OF_HEARTS: ["KH"], QUEENS: ["QS", "QH", "QD", "QC"],
  DIAMONDS: COUNTED.filter((c) => c.endsWith("D")), LTOOSH: [], COMPLEX: COUNTED };
// The cards a contract lets a seat double (R-DBL-1, R-CL-7); the library refuses a double
// the game does not allow (R-OPT-1), with its clause.
const DOUBLABLE = ["KH", "QS", "QH", "QD", "QC"];
const CLASSIC = ["KING_OF_HEARTS", "QUEENS", "DIAMONDS", "LTOOSH", "TRIX"];
// Each game's contracts (R-MATCH-1, R-CL-1): the form offers only these.
const CONTRACTS = { "partnership": ["COMPLEX", "TRIX"], "individual-complex": ["COMPLEX", "TRIX"],
  "classic": CLASSIC, "classic-partnership": CLASSIC };
let state = { book: null, sheet: null, ruleset: "partnership" };
const seat = (s) => t("keeper.seat", { n: s + 1 });
// The library's words as the form's: "seat 2" (المقعد 2) is the form's "Player 3", and a
// card code (KH, TD) is written K♥, 10♦.
const inPageWords = (text) => String(text)
  .replace(/\bseat (\d)\b/g, (_, s) => seat(Number(s)))
  .replace(/المقعد (\d)/g, (_, s) => seat(Number(s)))
  .replace(/\b([2-9TJQKA])([SHDC])\b/g, (_, r, u) => cardText(r + u));

function seatSelect(id, withNone) {
  const select = document.createElement("select");
  select.id = id;
  if (withNone) select.append(new Option(t("keeper.not_taken"), ""));
  for (let s = 0; s < 4; s++) select.append(new Option(seat(s), String(s)));
  return select;
}

function labelled(text, control) {
  const label = document.createElement("label");
  label.append(text + " ", control);
  return label;
}

function contractOptions() {
  const contract = $("contract");
  contract.textContent = "";
  for (const c of CONTRACTS[state.ruleset]) contract.append(new Option(t("contract." + c), c));
  showFields();
}

function buildForm() {
  contractOptions();
  const owner = $("owner");
  owner.textContent = "";
  for (let s = 0; s < 4; s++) owner.append(new Option(seat(s), String(s)));
  const tricks = $("tricks-box");
  for (let s = 0; s < 4; s++) {
    const input = document.createElement("input");
    input.type = "number"; input.min = "0"; input.max = "13"; input.value = "0"; input.id = "tricks" + s;
    tricks.append(labelled(seat(s), input));
  }
  for (const code of COUNTED) {
    const face = document.createElement("bdi");  // 7♦ in every writing direction
    face.dir = "ltr";
    face.textContent = cardText(code);
    const row = document.createElement("div");
    row.className = DOUBLABLE.includes(code) ? "card-row doublable" : "card-row";
    row.dataset.card = code;
    const label = document.createElement("label");
    label.append(face, " ", seatSelect("taken-" + code, true));
    row.append(label);
    if (DOUBLABLE.includes(code)) row.append(doubleFields(code));
    $("taken-box").append(row);
  }
  for (let place = 1; place <= 4; place++) {
    $("order-box").append(labelled(t("place." + place), seatSelect("place" + place, false)));
  }
  contract.onchange = showFields;
}

// Who doubled a K♥ or Queen, and who led the trick it fell in (R-DBL-4's cases 2 and 3
// depend on it): the second choice appears once the first names a doubler.
function doubleFields(code) {
  const box = document.createElement("span");
  box.className = "double";
  const doubler = seatSelect("doubler-" + code, true);
  doubler.options[0].textContent = t("keeper.not_doubled");
  doubler.setAttribute("aria-label", t("keeper.doubled_by_card", { card: cardText(code) }));
  const leader = seatSelect("leader-" + code, false);
  leader.setAttribute("aria-label", t("keeper.led_by_card", { card: cardText(code) }));
  const led = labelled(t("keeper.led_by"), leader);
  led.hidden = true;
  doubler.onchange = () => { led.hidden = doubler.value === ""; };
  box.append(labelled(t("keeper.doubled_by"), doubler), led);
  return box;
}

function showFields() {
  const c = $("contract").value;
  $("tricks-box").hidden = c === "TRIX";
  $("order-box").hidden = c !== "TRIX";
  $("taken-box").hidden = c === "TRIX" || !CHARGED[c].length;
  for (const row of $("taken-box").querySelectorAll(".card-row")) row.hidden = !CHARGED[c].includes(row.dataset.card);
}

function outcome() {
  const c = $("contract").value;
  const taken = {};
  const doubled = {};
  if (c !== "TRIX") {
    for (const code of CHARGED[c]) {
      const value = $("taken-" + code).value;
      if (value !== "") taken[code] = Number(value);
      const doubler = DOUBLABLE.includes(code) ? $("doubler-" + code).value : "";
      if (doubler !== "") doubled[code] = [Number(doubler), Number($("leader-" + code).value)];
    }
  }
  return {
    contract: c, owner: Number($("owner").value), taken: taken, doubled: doubled,
    tricks: c === "TRIX" ? [0, 0, 0, 0] : [0, 1, 2, 3].map((s) => Number($("tricks" + s).value)),
    finishing_order: c === "TRIX" ? [1, 2, 3, 4].map((p) => Number($("place" + p).value)) : [],
  };
}

async function addDeal(event) {
  event.preventDefault();
  const reply = await transport.fetch("/api/scorebook", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ book: state.book, ruleset: state.ruleset, deal: outcome(), locale: MSG.lang }),
  });
  const answer = await reply.json();
  if (!reply.ok) {
    const error = answer.error;
    const rule = error.rule && !error.message.includes(error.rule) ? " (" + error.rule + ")" : "";
    $("refusal").textContent = t("refused", { why: inPageWords(error.message) + rule });
    $("refusal").style.display = "block";
    return;
  }
  $("refusal").style.display = "none";
  state.book = answer.book;
  state.sheet = answer.sheet;
  localStorage.setItem(BOOK_KEY, JSON.stringify(state.book));
  drawSheet();
}

function drawSheet() {
  const table = $("sheet");
  table.textContent = "";
  const head = table.createTHead().insertRow();
  for (const text of [t("sheet.deal"), t("sheet.contract"), seat(0), seat(1), seat(2), seat(3)]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.appendChild(th);
  }
  const body = table.createTBody();
  const sheet = state.sheet;
  const deals = sheet ? sheet.deals : [];
  for (const deal of deals) {
    const row = body.insertRow();
    for (const cell of [deal.number, deal.contract, ...deal.points]) row.insertCell().textContent = String(cell);
  }
  const total = table.createTFoot().insertRow();
  total.className = "total";
  total.insertCell().textContent = t("sheet.total");
  total.insertCell();
  for (const points of sheet ? sheet.totals : [0, 0, 0, 0]) total.insertCell().textContent = String(points);
  const next = sheet ? sheet.next_kingdom : 1;
  $("deal-title").textContent = t("keeper.deal", { n: deals.length + 1, kingdom: Math.min(next, 4) });
  if (sheet && sheet.next_owner !== null) $("owner").value = String(sheet.next_owner);
  $("deal").hidden = Boolean(sheet && sheet.over);
  $("over").textContent = sheet && sheet.over ? t("keeper.over") : "";
}

// A book kept in this browser: sent back once with no deal would need a second
// endpoint, so it is replayed deal by deal (each checked again by the library).
async function restore(saved) {
  let book = null;
  for (const deal of saved.deals) {
    const reply = await transport.fetch("/api/scorebook", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ book: book, ruleset: saved.ruleset, deal: deal, locale: MSG.lang }),
    });
    if (!reply.ok) return;
    const answer = await reply.json();
    book = answer.book;
    state.sheet = answer.sheet;
  }
  state.book = book;
  state.ruleset = saved.ruleset;
  $("ruleset").value = saved.ruleset;
  contractOptions();
}

async function start() {
  const reply = await transport.fetch("/api/messages" + (localStorage.getItem(LOCALE_KEY) ? "?locale=" + encodeURIComponent(localStorage.getItem(LOCALE_KEY)) : ""));
  MSG = await reply.json();
  document.documentElement.lang = MSG.lang;
  document.documentElement.dir = MSG.dir;
  document.title = t("keeper.title");
  for (const el of document.querySelectorAll("[data-msg]")) el.textContent = t(el.dataset.msg);
  $("language").value = MSG.lang;
  $("language").onchange = () => { localStorage.setItem(LOCALE_KEY, $("language").value); location.reload(); };
  buildForm();
  showFields();
  const saved = localStorage.getItem(BOOK_KEY);
  if (saved) await restore(JSON.parse(saved));
  $("ruleset").onchange = () => {
    if (!state.book) { state.ruleset = $("ruleset").value; contractOptions(); }
  };
  $("new").onclick = () => {
    localStorage.removeItem(BOOK_KEY);
    state = { book: null, sheet: null, ruleset: $("ruleset").value };
    contractOptions();
    drawSheet();
  };
  $("deal").onsubmit = addDeal;
  drawSheet();
  document.body.dataset.ready = "true";
}
start();
