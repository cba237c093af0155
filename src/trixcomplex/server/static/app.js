// The table page: plain JavaScript, no build step.  It speaks the server's
// WebSocket protocol (docs: "Run a table server") and draws what it is sent:
// everything on the page is rebuilt from the last update (the seat's view),
// so a reload or a reconnect shows the same table, tricks and scoresheet.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = ["S", "H", "D", "C"];
const RANKS = { T: "10" };
const RANK_NAMES = ["", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const BOTS = ["rule", "random", "mc"];
const PLACES = ["", "1st", "2nd", "3rd", "4th"];
const CONTRACTS = {
  KING_OF_HEARTS: "King of Hearts", QUEENS: "Queens", DIAMONDS: "Diamonds", LTOOSH: "Ltoosh",
};

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
const contractName = (c) => c ? c.split("+").map((p) => CONTRACTS[p] || p).join(" + ") : "";

// One token per table and seat: a person may play two seats in two tabs.
function tokenKey(table, seat) { return "trixcomplex-token-" + table + "-" + seat; }

// -- names ------------------------------------------------------------------------

function seatName(s) {
  const seat = seats[s];
  if (!seat) return "seat " + s;
  if (seat.kind === "bot") return seat.name + " bot #" + (s + 1);
  return seat.name || "empty seat " + s;
}
const partnerOf = (s) => me.partnership ? (s + 2) % 4 : null;
const isMe = (s) => me.seat !== null && s === me.seat;
// The subject of a sentence: "you" for this page's seat, else the name.
const who = (s) => isMe(s) ? "you" : seatName(s);
const Who = (s) => isMe(s) ? "You" : seatName(s);
const verb = (s, mine, theirs) => Who(s) + " " + (isMe(s) ? mine : theirs);

// -- the lobby ------------------------------------------------------------------

function seatKinds() {
  const box = $("seatkinds");
  for (let s = 0; s < 4; s++) {
    const select = document.createElement("select");
    select.id = "kind" + s;
    for (const kind of ["person", ...BOTS]) {
      const option = document.createElement("option");
      option.value = kind;
      option.textContent = kind === "person" ? "person" : kind + " bot";
      select.appendChild(option);
    }
    select.value = s === 0 ? "person" : "rule";
    const label = document.createElement("label");
    label.textContent = "seat " + s + " ";
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function refreshLobby() {
  const reply = await transport.fetch("/api/tables");
  const { tables } = await reply.json();
  const body = $("tables");
  body.textContent = "";
  for (const t of tables) {
    const row = body.insertRow();
    row.insertCell().textContent = t.id;
    row.insertCell().textContent = t.settings.ruleset;
    const cell = row.insertCell();
    t.seats.forEach((seat, s) => {
      if (seat.kind === "person" && !seat.taken && !t.finished) {
        const button = document.createElement("button");
        button.textContent = "sit at seat " + s;
        button.dataset.seat = s;
        button.className = "sit";
        button.onclick = () => join(t.id, s);
        cell.appendChild(button);
      } else {
        const span = document.createElement("span");
        span.textContent = "seat " + s + ": " + (seat.kind === "bot" ? seat.name + " bot" : seat.name || "empty");
        cell.appendChild(span);
      }
    });
    row.insertCell().textContent = t.finished ? "finished" : t.phase + " " + t.deal_number;
    const act = row.insertCell();
    const watch = document.createElement("button");
    watch.textContent = "watch";
    watch.onclick = () => connect(t.id, { type: "watch", pictures: false });
    act.appendChild(watch);
    if (t.finished) {
      const link = document.createElement("a");
      link.href = "/api/tables/" + t.id + "/record";
      link.textContent = " record";
      act.appendChild(link);
    }
  }
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
  const reply = await transport.fetch("/api/tables", {
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
  const ws = transport.socket(table);  // the server's WebSocket, or the engine's worker
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify(hello));
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
    notice("Cannot reach table " + me.table + ": trying again…");
  } else {
    $("banner").textContent = "Connection to the table lost: reconnecting… The clock is stopped and " +
      "your cards are disabled until the table is back.";
    $("banner").style.display = "block";
    $("status").textContent = "disconnected, reconnecting…";
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
    $("where").textContent = "table " + message.table + " · " + message.settings.ruleset +
      (message.seat === null ? " · watching" : "");
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
      notice("Seat " + me.hint + " of table " + me.table + " is open in another tab or window; " +
        "trying again (" + retries + " of 5)…");
      me.gone = true;
      setTimeout(() => connect(me.table, hello, me.hint), 1000);
      return;
    }
    if (pending && !["server.seat-connected", "server.bad-token", "server.unknown-table"].includes(code)) pending = null;
    if (code === "server.seat-connected") {
      me.gone = true;
      $("banner").style.display = "none";
      refuse(message.error, "Seat " + me.hint + " of table " + me.table +
        " is already being played in another tab or window, so this page was refused. " +
        "Close the other one and reload this page, or pick another table.");
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
    refuse({ message: "Not connected: your move was not sent. Play it again once the table is back." });
    return;
  }
  pending = { move: move, key: JSON.stringify(move) };
  socket.send(JSON.stringify(move));
}

function refuse(error, text) {
  const box = $("refusal");
  const rule = error.rule && !error.message.includes(error.rule) ? " (" + error.rule + ")" : "";
  box.textContent = text || "Refused: " + error.message + rule;
  box.style.display = "block";
}

// -- drawing ------------------------------------------------------------------

function draw(message) {
  const view = message.view;
  const reconnected = last === null || !me.online || $("hand").classList.contains("off");
  last = message;
  seats = message.seats;
  // A move sent just before the connection dropped: it was applied, or it is still to make.
  if (pending) {
    const stillLegal = view.legal_moves.some((m) => JSON.stringify(m) === pending.key);
    if (!stillLegal) pending = null;
    else if (reconnected) {
      refuse({ message: "" }, "Your last move did not reach the table before the connection dropped, " +
        "so it was not played. Play it again.");
      pending = null;
    }
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
  for (const event of message.events) logEvent(event);
  $("download").textContent = "";
  if (message.record) {
    const link = document.createElement("a");
    link.href = message.record;
    link.id = "record";
    link.textContent = "Download the game record";
    $("download").appendChild(link);
  }
}

function statusLine(view) {
  if (view.phase === "OVER") return "The match is over";
  if (view.phase === "DEAL") return view.deal_number ? "Deal " + view.deal_number + " is over" : "Waiting for players";
  const head = "Deal " + view.deal_number + " · ";
  if (view.phase === "CHOOSE") {
    return head + (isMe(view.turn) ? "your Kingdom: choose the contract" : seatName(view.turn) + " is choosing the contract");
  }
  const what = contractName(view.contract);
  if (view.phase === "DOUBLE") {
    const mine = view.legal_moves.some((m) => m.move === "double");
    return head + what + " · doubling window · " + (mine ? "your answer" : "waiting for the answers");
  }
  if (view.turn === null) return head + what;
  return head + what + " · " + (isMe(view.turn) ? "your turn" : seatName(view.turn) + " to play");
}

function legalOf(view, kind) { return view.legal_moves.filter((m) => m.move === kind); }

// Where a seat sits on the screen: this page's seat at the bottom (position 0), then clockwise.
function position(s) {
  const base = me.seat === null ? 0 : me.seat;
  return (s - base + 4) % 4;
}

function face(code) {
  const span = document.createElement("span");
  span.className = "face" + (isRed(code) ? " red" : "");
  span.textContent = cardText(code);
  span.dataset.card = code;
  return span;
}

function drawTable(view) {
  for (let s = 0; s < 4; s++) {
    const box = $("pos-" + position(s));
    box.textContent = "";
    box.dataset.seat = s;
    box.className = "seat pos-" + position(s) + (view.turn === s || (view.phase === "DOUBLE" && view.legal_moves.length && isMe(s)) ? " turn" : "");
    const seat = seats[s];
    if (seat && seat.kind === "person" && seat.taken && !seat.connected) box.classList.add("away");
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = seatName(s);
    const tags = [];
    if (isMe(s)) tags.push("you");
    else if (me.seat !== null && partnerOf(me.seat) === s) tags.push("your partner");
    if (me.seat === null && me.partnership) tags.push("team " + (s % 2 + 1));
    if (view.owner === s) tags.push("Kingdom owner");
    if (seat && seat.kind === "person" && seat.taken && !seat.connected) tags.push("away");
    if (seat && seat.kind === "person" && !seat.taken) tags.push("waiting for a player");
    tags.push(view.hand_sizes[s] + " cards");
    if (view.phase !== "DEAL" && view.phase !== "OVER") tags.push((view.points[s] > 0 ? "+" : "") + view.points[s] + " pts");
    const line = document.createElement("div");
    line.className = "tags";
    line.textContent = tags.join(" · ");
    box.append(name, line);
  }
  drawCentre(view);
}

function drawCentre(view) {
  const centre = $("centre");
  centre.textContent = "";
  centre.className = "";
  if (view.phase === "TRIX") {
    const rows = document.createElement("div");
    rows.id = "rows";
    rows.textContent = "TRIX rows: " + view.rows.map((row, i) =>
      SUITS[SUIT_ORDER[i]] + " " + (row ? RANK_NAMES[row[0]] + "–" + RANK_NAMES[row[1]] : "·")).join("   ");
    centre.appendChild(rows);
    return;
  }
  let cards = view.trick, leader = view.leader;
  if (!cards.length && view.last_trick) {
    cards = view.last_trick.cards;
    leader = view.last_trick.leader;
    centre.className = "last";
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = "last trick: " + who(view.last_trick.taker);
    centre.appendChild(note);
  }
  cards.forEach((code, i) => {
    const card = face(code);
    card.classList.add("c-" + position((leader + i) % 4));
    card.title = seatName((leader + i) % 4);
    centre.appendChild(card);
  });
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
    b.textContent = cardText(code);
    b.dataset.card = code;
    b.tabIndex = -1;
    const move = playable.get(code);
    if (move) {
      b.classList.add("legal");
      b.setAttribute("aria-label", cardText(code) + ", playable");
      b.onclick = () => send(move);
    } else {
      const why = illegal[code] || (view.phase === "DEAL" || view.phase === "OVER" ? "no card is played now" : "not a legal card now");
      b.classList.add("illegal");
      b.setAttribute("aria-disabled", "true");
      b.setAttribute("aria-label", cardText(code) + ", not playable: " + why);
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
$("hand").addEventListener("keydown", (e) => {
  const buttons = [...$("hand").children];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: buttons.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = buttons[(to + buttons.length) % buttons.length];
  buttons.forEach((b) => { b.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
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
    box.appendChild(button("Choose " + contractName(move.contract), () => send(move), "choose-" + move.contract));
  }
  if (view.doublable.length && legalOf(view, "double").length) {
    const picks = [];
    box.appendChild(document.createTextNode("Double: "));
    for (const code of view.doublable) {
      const label = document.createElement("label");
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.value = code;
      picks.push(tick);
      label.appendChild(tick);
      label.appendChild(document.createTextNode(" " + cardText(code)));
      box.appendChild(label);
    }
    box.appendChild(button("Answer", () => send({
      move: "double", seat: view.seat, cards: picks.filter((t) => t.checked).map((t) => t.value),
    }), "double"));
  } else if (view.my_answer !== null && view.doubling_open) {
    box.appendChild(document.createTextNode("You answered; doubles are shown when the window closes."));
  }
  for (const move of legalOf(view, "pass")) box.appendChild(button("Pass (no card to lay)", () => send(move), "pass"));
  for (const move of legalOf(view, "redeal")) box.appendChild(button("Demand a redeal", () => send(move), "redeal"));
}

// The tricks of this deal (or the TRIX lays), from the view: a reload shows them again.
function drawHistory(view) {
  const list = $("history");
  list.textContent = "";
  if (view.phase === "TRIX" || (view.laid && view.laid.length && !view.tricks.length)) {
    for (const [s, code] of view.laid) {
      const item = document.createElement("li");
      item.textContent = verb(s, "laid", "laid") + " " + cardText(code);
      list.appendChild(item);
    }
    view.finishing_order.forEach((s, i) => {
      const item = document.createElement("li");
      item.textContent = verb(s, "went out", "went out") + " " + PLACES[i + 1];
      list.appendChild(item);
    });
  } else {
    for (const trick of view.tricks) {
      const item = document.createElement("li");
      item.className = "trick";
      const plays = trick.cards.map((code, i) => seatName((trick.leader + i) % 4) + " " + cardText(code));
      item.textContent = plays.join(", ") + " — " + verb(trick.taker, "take", "takes") + " it";
      list.appendChild(item);
    }
  }
  list.scrollTop = list.scrollHeight;
}

// The scoresheet as a table: one row per finished deal, the running deal, the totals.
function drawScoresheet(view) {
  const table = $("scoresheet");
  table.textContent = "";
  const score = view.score;
  const head = table.createTHead().insertRow();
  for (const text of ["Deal", "Contract", ...[0, 1, 2, 3].map(seatName)]) {
    const th = document.createElement("th");
    th.textContent = text;
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
    row([String(deal.number), contractName(deal.contract) + " (" + seatName(deal.owner) + ")", ...deal.points.map(String)], "deal");
  }
  if (view.phase !== "DEAL" && view.phase !== "OVER" && view.contract) {
    row([String(view.deal_number), contractName(view.contract) + " so far", ...score.current.map(String)], "current");
  }
  row(["Total", "", ...score.seats.map(String)], "total");
  $("teams").textContent = me.partnership && score.teams ? "Teams: " + seatName(0) + " & " + seatName(2) +
    " " + score.teams[0] + " · " + seatName(1) + " & " + seatName(3) + " " + score.teams[1] : "";
}

const cards = (list) => list.map(cardText).join(" ") || "nothing";
const points = (list) => {
  const charged = list.map((p, s) => [p, s]).filter(([p]) => p);
  return charged.length ? ": " + charged.map(([p, s]) => who(s) + " " + (p > 0 ? "+" : "") + p).join(", ") : "";
};

// One line per event of the library's tc.events (see its "type" list).
function describe(e) {
  switch (e.type) {
    case "deal": return "Deal " + e.deal_number + ": Kingdom " + e.kingdom + " of " + seatName(e.owner);
    case "contract": return e.timeout ? verb(e.owner, "ran out of time", "ran out of time") + ": " + contractName(e.contract)
      : verb(e.owner, "chose", "chose") + " " + contractName(e.contract);
    case "doubling_open": return "The doubling window opens" + (e.doublable.length ? ": you may double " + cards(e.doublable) : "");
    case "double": return verb(e.seat, "doubled", "doubled") + " " + cards(e.cards);
    case "timeout": return "The doubling window timed out";
    case "doubles_revealed": return "Doubles: " + (e.doubled.map((d) => cardText(d.card) + " by " + who(d.seat)).join(", ") || "none");
    case "play": return verb(e.seat, "played", "played") + " " + cardText(e.card);
    case "pass": return verb(e.seat, "passed", "passed");
    case "redeal": return verb(e.seat, "demanded", "demanded") + " a redeal";
    case "trick": return "Trick " + e.number + ": " + verb(e.taker, "take", "takes") + " it" + points(e.points);
    case "out": return verb(e.seat, "went out", "went out") + " " + PLACES[e.place];
    case "deal_over": return "Deal " + e.deal_number + " is over: " + e.points.map((p, s) => seatName(s) + " " + p).join(", ");
    case "match_over": return "The match is over" + (e.result ? ": " + e.result : "");
    default: return JSON.stringify(e);
  }
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
  $("clock").textContent = "clock: " + left.toFixed(0) + " s" + (clock.at === null ? " (stopped)" : "");
}
setInterval(tick, 250);

// -- start ------------------------------------------------------------------------

seatKinds();
$("create").onsubmit = createTable;
const [wanted, wantedSeat] = location.hash.slice(1).split("/");
const token = wanted && wantedSeat && localStorage.getItem(tokenKey(wanted, wantedSeat));
if (token) connect(wanted, { type: "resume", token: token, pictures: false }, wantedSeat);
else if (wanted) connect(wanted, { type: "watch", pictures: false });
else showLobby();
