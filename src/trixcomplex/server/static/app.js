// The table page: plain JavaScript, no build step.  It speaks the server's
// WebSocket protocol (docs: "Run a table server") and draws what it is sent:
// everything on the page is rebuilt from the last update (the seat's view),
// so a reload or a reconnect shows the same table, tricks and scoresheet.
"use strict";

// Every player-facing string of the page, by message id: the library's one catalog
// (trixcomplex.server.page_messages), fetched from /api/messages in the chosen language
// (the selector's choice, remembered; else the browser's), with "{name}" placeholders
// filled by t().  MSG.dir is the writing direction; the page lays out with CSS logical
// properties, and the table's geometry stays the game's.
let MSG = { dir: "ltr", lang: "en" };
const LOCALE_KEY = "trixcomplex-locale";
const t = (id, params) => (MSG[id] === undefined ? id : MSG[id]).replace(/\{(\w+)\}/g,
  (_, k) => (params && params[k] !== undefined ? String(params[k]) : "{" + k + "}"));

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = ["S", "H", "D", "C"];
const RANKS = { T: "10" };
const RANK_CODES = ["", "", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const BOTS = ["rule", "random", "mc", "level:1", "level:2", "level:3", "level:4", "level:5"];
const CONTRACTS = {};
const $ = (id) => document.getElementById(id);
let socket = null;
let me = { table: null, seat: null, hint: null, partnership: false, online: false, gone: false };
let seats = [];          // the public seats, from the last update or seats message
let last = null;         // the last update message
let pending = null;      // the move sent and not yet seen applied: {move, key}
let clock = { left: null, at: 0 };
let retries = 0;

function cardText(code) {
  const rank = code.slice(0, -1), suit = code.slice(-1);
  return (RANKS[rank] || rank) + SUITS[suit];
}
const isRed = (code) => "HD".includes(code.slice(-1));
const contractName = (c) => c ? c.split("+").map((p) => t("contract." + p)).join(" + ") : "";
// What a screen reader says for a card: "queen of spades".
const cardSpoken = (code) => t("card.spoken", { rank: t("rank." + code.slice(0, -1)), suit: t("suit." + code.slice(-1)) });
// One notation on the page: codes in the engine's words ("7D", "TH") become 7♦, 10♥,
// and "seat N" becomes the seat's name, so a refusal reads like the rest of the page.
function inPageWords(text) {
  const yours = { plays: "play", has: "have", is: "are", holds: "hold", leads: "lead", takes: "take",
    passes: "pass", doubles: "double", lays: "lay", was: "were" };
  return String(text)
    .replace(/\bseat (\d) (\w+)\b/g, (m, s, word) => isMe(Number(s)) && yours[word] ? t("you") + " " + yours[word] : m)
    .replace(/\bseat (\d)'s\b( \w)?/g, (_, s, next) => next ? possessive(Number(s)) + next
      : isMe(Number(s)) ? "yours" : possessive(Number(s)))
    .replace(/\bseat (\d)\b/g, (_, s) => who(Number(s)))
    .replace(/المقعد (\d)/g, (_, s) => who(Number(s)))
    .replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (m, r, u) => cardText((r === "10" ? "T" : r) + u));
}

// One token per table and seat: a person may play two seats in two tabs.
function tokenKey(table, seat) { return "trixcomplex-token-" + table + "-" + seat; }

// -- names ------------------------------------------------------------------------

// A bot's kind in the page's language ("rule" is the rule bot); an unknown kind as it is.
const botName = (kind) => MSG["botname." + kind] || kind;

function seatName(s) {
  const seat = seats[s];
  if (!seat) return t("player", { number: s + 1 });
  if (seat.kind === "bot") return t("bot", { kind: botName(seat.name), number: s + 1 });
  return seat.name || t("empty_seat", { number: s + 1 });
}
const partnerOf = (s) => me.partnership ? (s + 2) % 4 : null;
const isMe = (s) => me.seat !== null && s === me.seat;
const isPartner = (s) => me.seat !== null && partnerOf(me.seat) === s;
// One naming of the seats: "you", "your partner", else the name (seat numbers only in data-seat).
const who = (s) => isMe(s) ? t("you") : isPartner(s) ? t("your_partner") : seatName(s);
const Who = (s) => isMe(s) ? t("You") : isPartner(s) ? t("Your_partner") : seatName(s);
const possessive = (s) => isMe(s) ? "your" : who(s) + "'s";
const verb = (s, mine, theirs) => Who(s) + " " + (isMe(s) ? mine : theirs);
// The doubled cards of what is shown: card -> the seat that doubled it (from the view).
let doubledBy = new Map();
const doubledNote = (code) => doubledBy.has(code) ? t("card.doubled", { who: who(doubledBy.get(code)) }) : "";

// -- the lobby ------------------------------------------------------------------

function seatKinds() {
  const box = $("seatkinds");
  for (let s = 0; s < 4; s++) {
    const select = document.createElement("select");
    select.id = "kind" + s;
    for (const kind of ["person", ...BOTS]) {
      const option = document.createElement("option");
      option.value = kind;
      option.textContent = kind === "person" ? t("lobby.person") : t("lobby.bot_kind", { kind: botName(kind) });
      select.appendChild(option);
    }
    select.value = s === 0 ? "person" : "rule";
    const label = document.createElement("label");
    label.textContent = t("player", { number: s + 1 }) + " ";
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function refreshLobby() {
  const reply = await transport.fetch("/api/tables");
  const { tables } = await reply.json();
  const body = $("tables");
  body.textContent = "";
  for (const table of tables) {
    const row = body.insertRow();
    row.insertCell().textContent = table.id;
    row.insertCell().textContent = MSG["page.ruleset." + table.settings.ruleset] || table.settings.ruleset;
    const cell = row.insertCell();
    table.seats.forEach((seat, s) => {
      if (seat.kind === "person" && !seat.taken && !table.finished) {
        const button = document.createElement("button");
        button.textContent = t("lobby.sit", { who: t("player", { number: s + 1 }) });
        button.dataset.seat = s;
        button.className = "sit";
        button.onclick = () => join(table.id, s);
        cell.appendChild(button);
      } else {
        const span = document.createElement("span");
        span.textContent = seat.kind === "bot" ? t("bot", { kind: botName(seat.name), number: s + 1 })
          : seat.name || t("empty_seat", { number: s + 1 });
        cell.appendChild(span);
      }
    });
    row.insertCell().textContent = phaseWords(table);
    const act = row.insertCell();
    const watch = document.createElement("button");
    watch.textContent = t("lobby.watch");
    watch.onclick = () => connect(table.id, { type: "watch", pictures: false });
    act.appendChild(watch);
    if (table.finished) {
      const link = document.createElement("a");
      link.href = "/api/tables/" + table.id + "/record";
      link.textContent = " " + t("lobby.record");
      if (transport.kind === "worker") {  // no server: the engine's worker answers the request
        link.onclick = async (event) => {
          event.preventDefault();
          const reply = await transport.fetch(link.getAttribute("href"));
          const record = new Blob([await reply.text()], { type: "application/json" });
          window.open(URL.createObjectURL(record));
        };
      }
      act.appendChild(link);
    }
  }
}

// A table's phase in words: "Deal 1 of 20 — COMPLEX", not "COMPLEX 1".
function phaseWords(table) {
  if (table.finished) return t("lobby.finished");
  const deals = table.deals || "?";
  if (table.phase === "DEAL") {
    return table.deal_number ? t("lobby.between", { done: table.deal_number, deals: deals }) : t("lobby.waiting");
  }
  if (table.phase === "CHOOSE" || !table.contract) return t("lobby.choosing", { n: table.deal_number, deals: deals });
  return t("lobby.deal", { n: table.deal_number, deals: deals, contract: contractName(table.contract) });
}

let lobbyTimer = null;
function showLobby() {
  $("lobby").style.display = "block";
  $("play").style.display = "none";
  refreshLobby();
  if (lobbyTimer === null) {
    lobbyTimer = setInterval(() => {  // new tables and free seats, until one sits down
      if ($("lobby").style.display === "none") { clearInterval(lobbyTimer); lobbyTimer = null; }
      else refreshLobby();
    }, 5000);
  }
}

async function createTable(event) {
  event.preventDefault();
  const request = {
    ruleset: $("ruleset").value,
    seats: [0, 1, 2, 3].map((s) => $("kind" + s).value),
    move_time: Number($("movetime").value),
  };
  const reply = await transport.fetch("/api/tables?locale=" + MSG.lang, {  // a refusal in the page's language
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const answer = await reply.json();
  if (!reply.ok) { refuse(answer.error); return; }
  const first = request.seats.indexOf("person");
  if (first >= 0) join(answer.id, first); else connect(answer.id, { type: "watch", pictures: false });
}

function join(table, seat) {
  connect(table, { type: "join", seat: seat, name: $("name").value, pictures: false }, seat);
}

// -- the connection ---------------------------------------------------------------

function connect(table, hello, seatHint) {
  if (socket) { socket.onclose = null; socket.close(); }
  me.table = table;
  me.hint = seatHint === undefined ? null : Number(seatHint);
  me.gone = false;
  const ws = transport.socket(table, MSG.lang);  // the server's WebSocket, or the engine's worker
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ ...hello, locale: MSG.lang }));  // the illegal cards' reasons in the page's language
  ws.onmessage = (e) => receive(JSON.parse(e.data), hello);
  ws.onclose = () => {
    if (socket !== ws || me.gone) return;
    offline();
    // The server went away (a restart, a network drop): come back to the same seat.
    const token = me.seat === null ? null : localStorage.getItem(tokenKey(table, me.seat));
    const again = token ? { type: "resume", token: token, pictures: false } : hello;
    const seat = me.seat === null ? me.hint : me.seat;
    setTimeout(() => connect(table, again, seat), 1000);
  };
}

// While the connection is down: the clock stops, the hand and buttons are off, a banner says so.
function offline() {
  if (me.online && clock.left !== null) clock = { left: secondsLeft(), at: null };
  me.online = false;
  if ($("play").style.display === "none") {
    notice(t("conn.cannot_reach", { table: me.table }));
  } else {
    $("banner").textContent = t("conn.lost");
    $("banner").style.display = "block";
    $("status").textContent = t("status.offline");
    $("hand").classList.add("off");
    for (const b of document.querySelectorAll("#hand button, #actions button, #actions input")) b.disabled = true;
    tick();
  }
}

function receive(message, hello) {
  if (message.type === "welcome") {
    me.seat = message.seat;
    me.partnership = Boolean(message.partnership);
    retries = 0;
    if (message.token) localStorage.setItem(tokenKey(message.table, message.seat), message.token);
    history.replaceState(null, "", "#" + message.table + (message.seat === null ? "" : "/" + message.seat));
    $("lobby").style.display = "none";
    $("play").style.display = "flex";
    $("where").textContent = t("page.table") + " " + message.table + " · " +
      t("page.ruleset." + message.settings.ruleset) + (message.seat === null ? " · " + t("page.watching") : "");
  } else if (message.type === "update") {
    me.online = true;
    $("banner").style.display = "none";
    draw(message);
  } else if (message.type === "seats") {
    seats = message.seats;
    if (last) drawTable(last.view);
  } else if (message.type === "refused") {
    const code = message.error.code;
    if (code === "server.seat-connected" && retries < 5) {
      retries += 1;  // a reloaded page: the old connection may still be closing
      notice(t("conn.other_tab_retry", { who: t("player", { number: Number(me.hint) + 1 }), table: me.table, n: retries, of: 5 }));
      me.gone = true;
      setTimeout(() => connect(me.table, hello, me.hint), 1000);
      return;
    }
    if (pending && !["server.seat-connected", "server.bad-token", "server.unknown-table"].includes(code)) pending = null;
    if (code === "server.seat-connected") {
      me.gone = true;
      $("banner").style.display = "none";
      refuse(message.error, t("conn.other_tab", { who: t("player", { number: Number(me.hint) + 1 }), table: me.table }));
      showLobby();
      return;
    }
    if (code === "server.bad-token") localStorage.removeItem(tokenKey(me.table, me.hint));
    if (["server.bad-token", "server.unknown-table"].includes(code)) {
      me.gone = true;
      $("banner").style.display = "none";
      refuse(message.error);
      showLobby();
      return;
    }
    refuse(message.error);
  }
}

function notice(text) {
  $("banner").textContent = text;
  $("banner").style.display = "block";
}

function send(move) {
  $("refusal").style.display = "none";
  $("explain").textContent = "";
  if (!socket || socket.readyState !== WebSocket.OPEN || !me.online) {
    refuse({ message: "" }, t("conn.not_sent"));
    return;
  }
  pending = { move: move, key: JSON.stringify(move) };
  socket.send(JSON.stringify(move));
}

function refuse(error, text) {
  const box = $("refusal");
  const rule = error.rule && !error.message.includes(error.rule) ? " (" + error.rule + ")" : "";
  box.textContent = text || t("refused", { why: inPageWords(error.message) + rule });
  box.style.display = "block";
}

// -- drawing ------------------------------------------------------------------

let reviewing = false;   // the last trick shown in the centre instead of the trick in play

function draw(message) {
  const view = message.view;
  const reconnected = last === null || !me.online || $("hand").classList.contains("off");
  const first = last === null;
  last = message;
  seats = message.seats;
  // A move sent just before the connection dropped: it was applied, or it is still to make.
  if (pending) {
    const stillLegal = view.legal_moves.some((m) => JSON.stringify(m) === pending.key);
    if (!stillLegal) pending = null;
    else if (reconnected) {
      refuse({ message: "" }, t("conn.lost_move"));
      pending = null;
    }
  }
  doubledBy = new Map(view.doubled.map(([code, seat]) => [code, seat]));
  if (!view.doubled.length && message.last_deal && !view.tricks.length) {
    doubledBy = new Map(message.last_deal.doubled.map(([code, seat]) => [code, seat]));
  }
  $("status").textContent = statusLine(view);
  clock = { left: message.clock.seconds_left, at: Date.now() };
  tick();
  $("hand").classList.remove("off");
  drawTable(view);
  drawHand(view, message.illegal || {});
  drawActions(view);
  drawHistory(view);
  drawScoresheet(view);
  drawSummary(message.last_deal);
  if (first) rebuildLog(view, message.last_deal);
  for (const event of message.events) logEvent(event);
  announce(view, message.events);
  $("download").textContent = "";
  if (message.record) {
    const link = document.createElement("a");
    link.href = message.record;
    link.id = "record";
    link.textContent = t("page.download");
    $("download").appendChild(link);
  }
}

function statusLine(view) {
  if (view.phase === "OVER") return t("status.over");
  if (view.phase === "DEAL") return view.deal_number ? t("status.deal_over", { n: view.deal_number }) : t("status.waiting");
  const head = t("sheet.deal") + " " + view.deal_number + " · ";
  if (view.phase === "CHOOSE") {
    return head + (isMe(view.turn) ? t("status.choose_mine") : t("status.choosing", { who: Who(view.turn) }));
  }
  const what = contractName(view.contract);
  if (view.phase === "DOUBLE") {
    const mine = view.legal_moves.some((m) => m.move === "double");
    return head + what + " · " + t("status.window") + " · " + (mine ? t("status.window_mine") : t("status.window_wait"));
  }
  if (view.turn === null) return head + what;
  return head + what + " · " + (isMe(view.turn) ? t("status.your_turn") : t("status.to_play", { who: Who(view.turn) }));
}

function legalOf(view, kind) { return view.legal_moves.filter((m) => m.move === kind); }

// Where a seat sits on the screen: the server says (places, from the library's
// trixcomplex.io.render.position): this page's seat at the bottom, the next seat to
// play on its right (R-SEAT-1), the partner opposite.
function place(s) { return last.places[s]; }

// A card face (in the trick, the TRIX rows, the history): an image with a spoken name.
function face(code, by) {
  const span = document.createElement("span");
  span.className = "face" + (isRed(code) ? " red" : "");
  span.textContent = cardText(code);
  span.dataset.card = code;
  span.setAttribute("role", "img");
  const spoken = [cardSpoken(code)];
  if (by !== undefined && by !== null) spoken.push(t("card.played_by", { who: who(by) }));
  if (doubledBy.has(code)) {
    span.classList.add("doubled");
    span.dataset.doubler = doubledBy.get(code);
    spoken.push(doubledNote(code));
  }
  span.setAttribute("aria-label", spoken.join(", "));
  span.title = spoken.join(", ");
  return span;
}

// The TRIX facts of a seat: its place once out, "passed" if its last turn was a pass.
function trixTags(view, s) {
  const tags = [];
  const out = view.finishing_order.indexOf(s);
  if (out >= 0) tags.push(t("seat.out", { place: t("place." + (out + 1)) }));
  else {
    const lastLay = view.laid.map(([seat], i) => seat === s ? i + 1 : 0).reduce((a, b) => Math.max(a, b), 0);
    const lastPass = view.passes.filter(([seat]) => seat === s).map(([, i]) => i + 1).reduce((a, b) => Math.max(a, b), 0);
    if (lastPass && lastPass > lastLay) tags.push(t("seat.passed"));
  }
  return tags;
}

function drawTable(view) {
  for (let s = 0; s < 4; s++) {
    const box = $("place-" + place(s));
    box.textContent = "";
    box.dataset.seat = s;
    const turn = view.turn === s || (view.phase === "DOUBLE" && view.legal_moves.length && isMe(s));
    box.className = "seat place-" + place(s) + (turn ? " turn" : "");
    const seat = seats[s];
    if (seat && seat.kind === "person" && seat.taken && !seat.connected) box.classList.add("away");
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = seatName(s);
    const tags = [];
    if (isMe(s)) tags.push(t("you"));
    else if (isPartner(s)) tags.push(t("your_partner"));
    if (me.seat === null && me.partnership) tags.push(t("seat.team", { n: s % 2 + 1 }));
    if (view.owner === s) tags.push(t("seat.owner"));
    if (seat && seat.kind === "person" && seat.taken && !seat.connected) tags.push(t("seat.away"));
    if (seat && seat.kind === "person" && !seat.taken) tags.push(t("seat.waiting"));
    tags.push(t("seat.cards", { n: view.hand_sizes[s] }));
    if (view.phase !== "DEAL" && view.phase !== "OVER") tags.push(t("seat.points", { points: (view.points[s] > 0 ? "+" : "") + view.points[s] }));
    if (view.phase === "TRIX") tags.push(...trixTags(view, s));
    const line = document.createElement("div");
    line.className = "tags";
    line.textContent = tags.join(" · ");
    box.append(name, line);
    if (turn) {
      const mark = document.createElement("div");
      mark.className = "to-play";
      mark.textContent = "▶ " + t("seat.to_play");
      box.appendChild(mark);
    }
  }
  drawCentre(view);
}

// The trick shown in the centre: the one in play, else (or while reviewing) the last
// one taken: of this deal, or of the deal just over (last_deal) so it never vanishes.
function shownTrick(view) {
  const lastDeal = last.last_deal;
  const previous = view.last_trick ? { trick: view.last_trick, note: "centre.last_trick" }
    : lastDeal && lastDeal.tricks.length ? { trick: lastDeal.tricks[lastDeal.tricks.length - 1], note: "centre.last_of_deal", n: lastDeal.deal_number }
    : null;
  if (view.trick.length && !reviewing) return { cards: view.trick, leader: view.leader, previous: previous };
  if (previous) return { cards: previous.trick.cards, leader: previous.trick.leader, last: previous, previous: previous };
  return { cards: view.trick, leader: view.leader, previous: null };
}

function drawCentre(view) {
  const centre = $("centre");
  centre.textContent = "";
  centre.className = "";
  // TRIX rows once a card is laid; until then the last deal's last trick stays.
  const rows = view.phase === "TRIX" && (view.laid.length || view.passes.length || !(last.last_deal && last.last_deal.tricks.length));
  $("felt").classList.toggle("trix", rows);
  // Shown or hidden once per drawing: hiding it for a moment would take its focus away.
  const shown = rows ? null : shownTrick(view);
  const review = Boolean(shown && shown.previous && view.trick.length);
  if (!review) reviewing = false;
  $("review").hidden = !review;
  if (rows) { drawRows(view, centre); return; }
  if (shown.last) {
    centre.className = "last";
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = t(shown.last.note, { who: who(shown.last.trick.taker), n: shown.last.n });
    centre.appendChild(note);
  }
  if (review) {
    $("review").textContent = reviewing ? t("review.hide") : t("review.show");
    $("review").setAttribute("aria-pressed", String(reviewing));
  }
  shown.cards.forEach((code, i) => {
    const seat = (shown.leader + i) % 4;
    const card = face(code, seat);
    card.classList.add("c-" + place(seat));
    card.dataset.seat = seat;
    centre.appendChild(card);
  });
}

// TRIX as cards: four rows, one per suit, each built out from its Jack (the J column
// fixed, lower ranks towards the start, higher towards the end), and the finishing order.
function drawRows(view, centre) {
  const rows = document.createElement("div");
  rows.id = "rows";
  rows.setAttribute("role", "group");
  rows.setAttribute("aria-label", t("trix.rows"));
  view.rows.forEach((row, i) => {
    const line = document.createElement("div");
    line.className = "row";
    line.dataset.suit = SUIT_ORDER[i];
    const sign = document.createElement("span");
    sign.className = "sign" + (i === 1 || i === 2 ? " red" : "");
    sign.textContent = SUITS[SUIT_ORDER[i]];
    sign.setAttribute("role", "img");
    sign.setAttribute("aria-label", t("suit." + SUIT_ORDER[i]) + (row ? "" : ": " + t("trix.row_empty")));
    line.appendChild(sign);
    for (let rank = 2; rank <= 14; rank++) {
      const cell = row && rank >= row[0] && rank <= row[1] ? face(RANK_CODES[rank] + SUIT_ORDER[i]) : document.createElement("span");
      if (!cell.dataset.card) { cell.className = "gap" + (rank === 11 ? " jack" : ""); cell.setAttribute("aria-hidden", "true"); }
      cell.style.gridColumn = String(rank);  // column 11 is the Jacks'
      line.appendChild(cell);
    }
    rows.appendChild(line);
  });
  centre.appendChild(rows);
  if (view.finishing_order.length) {
    const order = document.createElement("ol");
    order.id = "order";
    order.setAttribute("aria-label", t("trix.order"));
    view.finishing_order.forEach((s, i) => {
      const item = document.createElement("li");
      item.textContent = t("place." + (i + 1)) + " " + who(s);
      order.appendChild(item);
    });
    centre.appendChild(order);
  }
}

// The seat's one hand: each card a button; the legal ones raised, the others explain themselves.
function drawHand(view, illegal) {
  const hand = $("hand");
  const focused = document.activeElement && document.activeElement.parentElement === hand
    ? document.activeElement.dataset.card : null;
  const focusIndex = focused ? [...hand.children].findIndex((b) => b.dataset.card === focused) : -1;
  hand.textContent = "";
  const playable = new Map(legalOf(view, "play").map((m) => [m.card, m]));
  view.hand.forEach((code) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (isRed(code) ? " red" : "");
    // Its name is what a screen reader speaks ("queen of spades, doubled by your
    // partner, playable"); the sign drawn on it is hidden from the reader.
    const drawn = document.createElement("span");
    drawn.textContent = cardText(code);
    drawn.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "sr-only";
    b.append(drawn, name);
    b.dataset.card = code;
    b.tabIndex = -1;
    const spoken = [cardSpoken(code)];
    if (doubledBy.has(code)) {
      b.classList.add("doubled");
      b.dataset.doubler = doubledBy.get(code);
      spoken.push(doubledNote(code));
    }
    const move = playable.get(code);
    if (move) {
      b.classList.add("legal");
      name.textContent = [...spoken, t("card.playable")].join(", ");
      b.onclick = () => send(move);
    } else {
      const why = inPageWords(illegal[code] || (view.phase === "DEAL" || view.phase === "OVER" ? t("card.no_play_now") : t("card.not_legal_now")));
      b.classList.add("illegal");
      b.setAttribute("aria-disabled", "true");
      name.textContent = [...spoken, t("card.not_playable", { why: why })].join(", ");
      b.title = why;
      b.onclick = () => explain(code, why);
    }
    b.onfocus = () => { if (!playable.has(code)) explain(code, b.title); else $("explain").textContent = ""; };
    hand.appendChild(b);
  });
  const buttons = [...hand.children];
  if (!buttons.length) return;
  let index = buttons.findIndex((b) => b.dataset.card === focused);
  if (index < 0 && focusIndex >= 0) index = Math.min(focusIndex, buttons.length - 1);
  const start = index >= 0 ? index : Math.max(0, buttons.findIndex((b) => b.classList.contains("legal")));
  buttons[start].tabIndex = 0;
  if (focused !== null || focusIndex >= 0) buttons[start].focus();
}

function explain(code, why) {
  $("explain").textContent = cardText(code) + ": " + why;
}

// Arrow keys move along the hand (Home and End to its ends); Enter or Space plays the card.
// In a right-to-left page the arrows follow the reading direction.
$("hand").addEventListener("keydown", (e) => {
  const buttons = [...$("hand").children];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const rtl = document.documentElement.dir === "rtl" ? -1 : 1;
  const to = { ArrowLeft: at - rtl, ArrowUp: at - 1, ArrowRight: at + rtl, ArrowDown: at + 1, Home: 0, End: buttons.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = buttons[(to + buttons.length) % buttons.length];
  buttons.forEach((b) => { b.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
});

$("review").addEventListener("click", () => {
  reviewing = !reviewing;
  if (last) drawCentre(last.view);
});

function button(text, onclick, id) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.onclick = onclick;
  if (id) b.id = id;
  return b;
}

function drawActions(view) {
  const box = $("actions");
  box.textContent = "";
  for (const move of legalOf(view, "choose")) {
    box.appendChild(button(t("action.choose", { contract: contractName(move.contract) }), () => send(move), "choose-" + move.contract));
  }
  if (view.doublable.length && legalOf(view, "double").length) {
    const picks = [];
    box.appendChild(document.createTextNode(t("action.double") + " "));
    for (const code of view.doublable) {
      const label = document.createElement("label");
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.value = code;
      picks.push(tick);
      const drawn = document.createElement("span");
      drawn.textContent = " " + cardText(code);
      drawn.setAttribute("aria-hidden", "true");
      const spoken = document.createElement("span");
      spoken.className = "sr-only";
      spoken.textContent = cardSpoken(code);
      label.append(tick, drawn, spoken);
      box.appendChild(label);
    }
    box.appendChild(button(t("action.answer"), () => send({
      move: "double", seat: view.seat, cards: picks.filter((t) => t.checked).map((t) => t.value),
    }), "double"));
  } else if (view.my_answer !== null && view.doubling_open) {
    box.appendChild(document.createTextNode(t("action.answered")));
  }
  for (const move of legalOf(view, "pass")) box.appendChild(button(t("action.pass"), () => send(move), "pass"));
  for (const move of legalOf(view, "redeal")) box.appendChild(button(t("action.redeal"), () => send(move), "redeal"));
}

// A line of the history: words and card faces (each face carries its doubled mark).
function historyItem(parts, cls) {
  const item = document.createElement("li");
  if (cls) item.className = cls;
  for (const part of parts) item.append(typeof part === "string" ? document.createTextNode(part) : part);
  return item;
}

function trickItems(list, tricks) {
  tricks.forEach((trick, n) => {
    const parts = [t("history.trick", { n: n + 1 }) + ": "];
    trick.cards.forEach((code, i) => {
      const seat = (trick.leader + i) % 4;
      parts.push((i ? ", " : "") + who(seat) + " ", face(code, seat));
    });
    parts.push(" — " + t("history.takes", { who: Who(trick.taker) }));
    list.appendChild(historyItem(parts, "trick"));
  });
}

function trixItems(list, laid, passes, order) {
  let p = 0;
  const passUpTo = (n) => {
    while (p < passes.length && passes[p][1] <= n) {
      list.appendChild(historyItem([t("history.passed", { who: Who(passes[p][0]) })], "pass"));
      p += 1;
    }
  };
  laid.forEach(([s, code], i) => {
    passUpTo(i);
    const [before, after] = t("history.laid", { who: Who(s), card: "\u0000" }).split("\u0000");
    list.appendChild(historyItem([before, face(code, s), after], "lay"));
  });
  passUpTo(laid.length);
  order.forEach((s, i) => list.appendChild(historyItem([t("history.out", { who: Who(s), place: t("place." + (i + 1)) })], "out")));
}

// The tricks of this deal (or the TRIX lays and passes), from the view: a reload shows
// them again; before anything of a deal is played, the deal just over (last_deal).
function drawHistory(view) {
  const list = $("history");
  list.textContent = "";
  const lastDeal = last.last_deal;
  if (view.laid.length || view.passes.length) {
    trixItems(list, view.laid, view.passes, view.finishing_order);
  } else if (view.tricks.length) {
    trickItems(list, view.tricks);
  } else if (lastDeal) {
    list.appendChild(historyItem([t("history.last_deal", { n: lastDeal.deal_number, contract: contractName(lastDeal.contract) })], "heading"));
    const saved = doubledBy;
    doubledBy = new Map(lastDeal.doubled.map(([code, seat]) => [code, seat]));
    if (lastDeal.tricks.length) trickItems(list, lastDeal.tricks);
    else trixItems(list, lastDeal.laid, lastDeal.passes, lastDeal.finishing_order);
    doubledBy = saved;
  }
  list.scrollTop = list.scrollHeight;
}

// The scoresheet as a table: one row per finished deal, the deal in progress (marked),
// and the total, which includes the deal in progress while it is played.
function drawScoresheet(view) {
  const table = $("scoresheet");
  table.textContent = "";
  const score = view.score;
  const head = table.createTHead().insertRow();
  const names = [0, 1, 2, 3].map((s) => isMe(s) ? t("You") : isPartner(s) ? t("Your_partner") : seatName(s));
  for (const text of [t("sheet.deal"), t("sheet.contract"), ...names]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    th.title = text;
    head.appendChild(th);
  }
  const body = table.createTBody();
  const row = (cells, cls) => {
    const tr = body.insertRow();
    if (cls) tr.className = cls;
    cells.forEach((text, i) => {
      const td = tr.insertCell();
      td.textContent = text;
      if (i === 1) td.className = "what";
    });
    return tr;
  };
  for (const deal of score.deals) {
    row([String(deal.number), contractName(deal.contract) + " (" + who(deal.owner) + ")", ...deal.points.map(String)], "deal");
  }
  const playing = view.phase !== "DEAL" && view.phase !== "OVER" && view.contract;
  if (playing) {
    row([String(view.deal_number), t("sheet.in_progress", { contract: contractName(view.contract) }), ...score.current.map(String)], "current");
    row([t("sheet.total"), t("sheet.total_in_progress", { n: view.deal_number }), ...score.seats.map((p, s) => String(p + score.current[s]))], "total in-progress");
  } else {
    row([t("sheet.total"), "", ...score.seats.map(String)], "total");
  }
  $("teams").textContent = me.partnership && score.teams ? t("sheet.teams", {
    a: seatName(0), b: seatName(2), x: score.teams[0], c: seatName(1), d: seatName(3), y: score.teams[1],
  }) : "";
}

// The deal just over: each seat's points and the ledger's lines behind them.
function ledgerLine(line) {
  if (line.place) return t("ledger.place", { place: t("place." + line.place) });
  if (line.doubler !== null && line.doubler !== undefined) return t("ledger.double", { card: cardText(line.cards[0]), doubler: who(line.doubler) });
  const cards = line.cards.map(cardText).join(" ");
  return line.trick ? t("ledger.trick", { n: line.trick, cards: cards }) : t("ledger.other", { cards: cards });
}

function drawSummary(lastDeal) {
  const box = $("summary");
  box.textContent = "";
  box.hidden = !lastDeal;
  if (!lastDeal) return;
  const title = document.createElement("h2");
  title.textContent = t("summary.title", { n: lastDeal.deal_number, contract: contractName(lastDeal.contract) });
  box.appendChild(title);
  const list = document.createElement("ul");
  for (let s = 0; s < 4; s++) {
    const item = document.createElement("li");
    item.dataset.seat = s;
    const points = lastDeal.points[s];
    item.textContent = t("summary.seat", { who: Who(s), points: (points > 0 ? "+" : "") + points });
    const lines = lastDeal.ledger.filter((l) => l.seat === s);
    const sub = document.createElement("ul");
    for (const l of lines) {
      const li = document.createElement("li");
      li.className = "ledger";
      li.textContent = (l.points > 0 ? "+" : "") + l.points + " · " + ledgerLine(l) + " (" + l.rule + ")";
      sub.appendChild(li);
    }
    if (!lines.length) {
      const li = document.createElement("li");
      li.textContent = t("summary.none");
      sub.appendChild(li);
    }
    item.appendChild(sub);
    list.appendChild(item);
  }
  box.appendChild(list);
}

const cards = (list) => list.map(cardText).join(" ") || t("event.nothing");
const points = (list) => {
  const charged = list.map((p, s) => [p, s]).filter(([p]) => p);
  return charged.length ? charged.map(([p, s]) => who(s) + " " + (p > 0 ? "+" : "") + p).join(", ") : "";
};

// One line per event of the library's tc.events (see its "type" list).
function describe(e) {
  switch (e.type) {
    case "deal": return t("event.deal", { n: e.deal_number, kingdom: e.kingdom, who: who(e.owner) });
    case "contract": return t(e.timeout ? "event.contract_timeout" : "event.contract", { who: Who(e.owner), contract: contractName(e.contract) });
    case "doubling_open": return e.doublable.length ? t("event.window_mine", { cards: cards(e.doublable) }) : t("event.window");
    case "double": return t("event.double", { who: Who(e.seat), cards: cards(e.cards) });
    case "timeout": return t("event.timeout");
    case "doubles_revealed": return e.doubled.length
      ? t("event.doubles", { doubles: e.doubled.map((d) => t("event.doubled_by", { card: cardText(d.card), who: who(d.seat) })).join(", ") })
      : t("event.no_doubles");
    case "play": return t(last && last.view.phase === "TRIX" ? "event.laid" : "event.played", { who: Who(e.seat), card: cardText(e.card) });
    case "pass": return t("event.passed", { who: Who(e.seat) });
    case "redeal": return t("event.redeal", { who: Who(e.seat) });
    case "trick": { const p = points(e.points);
      return p ? t("event.trick_points", { n: e.number, who: Who(e.taker), points: p }) : t("event.trick", { n: e.number, who: Who(e.taker) }); }
    case "out": return t("event.out", { who: Who(e.seat), place: t("place." + e.place) });
    case "deal_over": return t("event.deal_over", { n: e.deal_number, points: e.points.map((p, s) => who(s) + " " + p).join(", ") });
    case "match_over": return t("event.match_over") + (e.result ? ": " + e.result : "");
    default: return JSON.stringify(e);
  }
}

// After a reload the event log starts empty: rebuild what the view holds (the doubles,
// the tricks or the lays of this deal), in the same words as the live log.
function rebuildLog(view, lastDeal) {
  $("events").textContent = "";
  if (view.contract) logEvent({ type: "contract", owner: view.owner, contract: view.contract });
  if (view.doubled.length) logEvent({ type: "doubles_revealed", doubled: view.doubled.map(([card, seat]) => ({ card: card, seat: seat })) });
  view.tricks.forEach((trick, i) => logEvent({ type: "trick", number: i + 1, taker: trick.taker, points: [0, 0, 0, 0] }));
  view.laid.forEach(([s, code]) => logEvent({ type: "play", seat: s, card: code }));
  if (!view.tricks.length && !view.laid.length && lastDeal) {
    logEvent({ type: "deal_over", deal_number: lastDeal.deal_number, points: lastDeal.points });
  }
}

// The live region: each card played and whose turn it is, in words.
function announce(view, events) {
  const said = [];
  for (const e of events) {
    if (e.type === "play") said.push(t(view.phase === "TRIX" ? "announce.laid" : "announce.played", { who: Who(e.seat), card: cardSpoken(e.card) }));
    else if (e.type === "trick") said.push(t("announce.took", { who: Who(e.taker) }));
  }
  if (view.turn !== null && view.phase !== "DEAL" && view.phase !== "OVER") {
    said.push(isMe(view.turn) ? t("announce.your_turn") : t("announce.to_play", { who: Who(view.turn) }));
  }
  if (said.length) $("announce").textContent = said.join(". ");
}

function logEvent(event) {
  const item = document.createElement("li");
  item.textContent = describe(event);
  const log = $("events");
  log.appendChild(item);
  while (log.children.length > 60) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}

// The clock counts down only while connected; offline it shows the time left when the line dropped.
function secondsLeft() {
  if (clock.left === null) return null;
  if (clock.at === null) return clock.left;
  return Math.max(0, clock.left - (Date.now() - clock.at) / 1000);
}

function tick() {
  const left = secondsLeft();
  if (left === null) { $("clock").textContent = ""; return; }
  $("clock").textContent = t(clock.at === null ? "clock.stopped" : "clock.left", { seconds: left.toFixed(0) });
}
setInterval(tick, 250);

// -- start ------------------------------------------------------------------------

// The page's words, then the page: the chosen language (the selector's, remembered),
// else the browser's (the server reads Accept-Language with the library's best_locale).
async function loadMessages(locale) {
  const reply = await transport.fetch("/api/messages" + (locale ? "?locale=" + encodeURIComponent(locale) : ""));
  MSG = await reply.json();
  document.documentElement.lang = MSG.lang;
  document.documentElement.dir = MSG.dir;
  document.title = t("page.title");
  for (const el of document.querySelectorAll("[data-msg]")) el.textContent = t(el.dataset.msg);
  for (const el of document.querySelectorAll("[data-msg-label]")) el.setAttribute("aria-label", t(el.dataset.msgLabel));
  $("language").value = MSG.lang;
}

async function start() {
  await loadMessages(localStorage.getItem(LOCALE_KEY));
  $("language").onchange = () => {
    localStorage.setItem(LOCALE_KEY, $("language").value);
    location.reload();
  };
  seatKinds();
  $("create").onsubmit = createTable;
  const [wanted, wantedSeat] = location.hash.slice(1).split("/");
  const token = wanted && wantedSeat && localStorage.getItem(tokenKey(wanted, wantedSeat));
  if (token) connect(wanted, { type: "resume", token: token, pictures: false }, wantedSeat);
  else if (wanted) connect(wanted, { type: "watch", pictures: false });
  else showLobby();
}
start();
