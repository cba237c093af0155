// The table page: plain JavaScript, no build step.  It speaks the server's
// WebSocket protocol (docs: "Run a table server") and draws what it is sent.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = ["S", "H", "D", "C"];
const RANKS = { T: "10" };
const RANK_NAMES = ["", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const BOTS = ["rule", "random", "mc"];

const $ = (id) => document.getElementById(id);
let socket = null;
let me = { table: null, seat: null };
let clock = { left: null, at: 0 };
let retries = 0;

function cardText(code) {
  const rank = code.slice(0, -1), suit = code.slice(-1);
  return (RANKS[rank] || rank) + SUITS[suit];
}

// One token per table and seat: a person may play two seats in two tabs.
function tokenKey(table, seat) { return "trixcomplex-token-" + table + "-" + seat; }

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
    label.textContent = " seat " + s + " ";
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function refreshLobby() {
  const reply = await fetch("/api/tables");
  const { tables } = await reply.json();
  const body = $("tables");
  body.textContent = "";
  for (const t of tables) {
    const row = body.insertRow();
    row.insertCell().textContent = t.id;
    row.insertCell().textContent = t.settings.ruleset;
    const seats = row.insertCell();
    t.seats.forEach((seat, s) => {
      if (seat.kind === "person" && !seat.taken && !t.finished) {
        const button = document.createElement("button");
        button.textContent = "sit at seat " + s;
        button.dataset.seat = s;
        button.className = "sit";
        button.onclick = () => join(t.id, s);
        seats.appendChild(button);
      } else {
        const span = document.createElement("span");
        span.textContent = "seat " + s + ": " + (seat.kind === "bot" ? seat.name + " bot" : seat.name || "free") + " ";
        seats.appendChild(span);
      }
    });
    row.insertCell().textContent = t.finished ? "finished" : t.phase + " " + t.deal_number;
    const act = row.insertCell();
    const watch = document.createElement("button");
    watch.textContent = "watch";
    watch.onclick = () => connect(t.id, { type: "watch" });
    act.appendChild(watch);
    if (t.finished) {
      const link = document.createElement("a");
      link.href = "/api/tables/" + t.id + "/record";
      link.textContent = " record";
      act.appendChild(link);
    }
  }
}

async function createTable(event) {
  event.preventDefault();
  const request = {
    ruleset: $("ruleset").value,
    seats: [0, 1, 2, 3].map((s) => $("kind" + s).value),
    move_time: Number($("movetime").value),
  };
  const reply = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const answer = await reply.json();
  if (!reply.ok) { alert(answer.error.message); return; }
  const first = request.seats.indexOf("person");
  if (first >= 0) join(answer.id, first); else connect(answer.id, { type: "watch" });
}

function join(table, seat) {
  connect(table, { type: "join", seat: seat, name: $("name").value });
}

// -- the connection ---------------------------------------------------------------

function connect(table, hello, seatHint) {
  if (socket) { socket.onclose = null; socket.close(); }
  me = { table: table, seat: null, hint: seatHint };
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + table);
  socket.onopen = () => socket.send(JSON.stringify(hello));
  socket.onmessage = (e) => receive(JSON.parse(e.data), hello);
  socket.onclose = () => {
    if (me.gone) return;
    // The server went away (a restart, a network drop): come back to the same seat.
    $("status").textContent = "disconnected, reconnecting…";
    const token = me.seat === null ? null : localStorage.getItem(tokenKey(table, me.seat));
    const again = token ? { type: "resume", token: token } : hello;
    const seat = me.seat === null ? seatHint : me.seat;
    setTimeout(() => connect(table, again, seat), 1000);
  };
}

function receive(message, hello) {
  if (message.type === "welcome") {
    me.seat = message.seat;
    if (message.token) localStorage.setItem(tokenKey(message.table, message.seat), message.token);
    history.replaceState(null, "", "#" + message.table + (message.seat === null ? "" : "/" + message.seat));
    $("lobby").style.display = "none";
    $("play").style.display = "flex";
    $("where").textContent = "table " + message.table + " · " + message.settings.ruleset +
      (message.seat === null ? " · watching" : " · seat " + message.seat);
  } else if (message.type === "update") {
    retries = 0;
    draw(message);
  } else if (message.type === "seats") {
    drawSeats(message.seats);
  } else if (message.type === "refused") {
    if (message.error.code === "server.seat-connected" && retries < 5) {
      retries += 1;  // a reloaded page: the old connection is still closing
      setTimeout(() => connect(me.table, hello, me.hint), 1000);
      return;
    }
    if (message.error.code === "server.bad-token") localStorage.removeItem(tokenKey(me.table, me.hint));
    if (["server.bad-token", "server.unknown-table"].includes(message.error.code)) me.gone = true;
    refuse(message.error);
  }
}

function send(move) {
  $("refusal").style.display = "none";
  socket.send(JSON.stringify(move));
}

function refuse(error) {
  const box = $("refusal");
  const rule = error.rule && !error.message.includes(error.rule) ? " (" + error.rule + ")" : "";
  box.textContent = "Refused: " + error.message + rule;
  box.style.display = "block";
}

// -- drawing ------------------------------------------------------------------

function draw(message) {
  const view = message.view;
  if (message.svg) $("picture").innerHTML = message.svg;
  $("status").textContent = statusLine(view);
  clock = { left: message.clock.seconds_left, at: Date.now() };
  tick();
  drawHand(view);
  drawActions(view);
  drawRows(view);
  drawSeats(message.seats);
  for (const event of message.events) logEvent(event);
  $("scoresheet").textContent = message.scoresheet;
  if (view.phase === "DEAL" || view.phase === "OVER") $("sheet").open = true;
  $("download").innerHTML = "";
  if (message.record) {
    const link = document.createElement("a");
    link.href = message.record;
    link.id = "record";
    link.textContent = "Download the game record";
    $("download").appendChild(link);
  }
}

function statusLine(view) {
  if (view.phase === "OVER") return "Match over";
  if (view.phase === "DEAL") return view.deal_number ? "Deal " + view.deal_number + " is over" : "Waiting for players";
  const what = view.phase === "CHOOSE" ? "choosing the contract"
    : view.phase === "DOUBLE" ? view.contract + " · doubling window" : view.contract;
  const turn = view.turn === null ? "" : view.turn === view.seat ? " · your turn" : " · seat " + view.turn + " to play";
  return "Deal " + view.deal_number + " · " + what + turn;
}

function legalOf(view, kind) { return view.legal_moves.filter((m) => m.move === kind); }

function drawHand(view) {
  const hand = $("hand");
  hand.textContent = "";
  const playable = new Map(legalOf(view, "play").map((m) => [m.card, m]));
  for (const code of view.hand) {
    const button = document.createElement("button");
    button.className = "card" + ("HD".includes(code.slice(-1)) ? " red" : "");
    button.textContent = cardText(code);
    button.dataset.card = code;
    const move = playable.get(code);
    if (move) {
      button.classList.add("legal");
      button.onclick = () => send(move);
    } else {
      button.disabled = true;
      button.title = "not a legal card now";
    }
    hand.appendChild(button);
  }
}

function button(text, onclick, id) {
  const b = document.createElement("button");
  b.textContent = text;
  b.onclick = onclick;
  if (id) b.id = id;
  return b;
}

function drawActions(view) {
  const box = $("actions");
  box.textContent = "";
  for (const move of legalOf(view, "choose")) {
    box.appendChild(button("Choose " + move.contract, () => send(move), "choose-" + move.contract));
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
      label.appendChild(document.createTextNode(cardText(code)));
      box.appendChild(label);
    }
    box.appendChild(button("Answer", () => send({
      move: "double", seat: view.seat, cards: picks.filter((t) => t.checked).map((t) => t.value),
    }), "double"));
  } else if (view.my_answer !== null && view.doubling_open) {
    box.appendChild(document.createTextNode("You answered; doubles are revealed when the window closes."));
  }
  for (const move of legalOf(view, "pass")) box.appendChild(button("Pass", () => send(move), "pass"));
  for (const move of legalOf(view, "redeal")) box.appendChild(button("Demand a redeal", () => send(move), "redeal"));
}

function drawRows(view) {
  const box = $("rows");
  if (view.phase !== "TRIX") { box.textContent = ""; return; }
  box.textContent = "TRIX rows: " + view.rows.map((row, s) =>
    SUITS[SUIT_ORDER[s]] + " " + (row ? RANK_NAMES[row[0]] + "–" + RANK_NAMES[row[1]] : "·")).join("   ");
}

function drawSeats(seats) {
  $("seats").textContent = seats.map((seat, s) =>
    "seat " + s + ": " + (seat.kind === "bot" ? seat.name + " bot" : (seat.name || "free") +
      (seat.connected ? "" : " (away)")) + (s === me.seat ? " (you)" : "")).join(" · ");
}

const who = (seat) => seat === me.seat ? "you" : "seat " + seat;
const cards = (list) => list.map(cardText).join(" ") || "nothing";
const PLACES = ["", "1st", "2nd", "3rd", "4th"];
const points = (list) => {
  const charged = list.map((p, s) => [p, s]).filter(([p]) => p);
  return charged.length ? ": " + charged.map(([p, s]) => who(s) + " " + (p > 0 ? "+" : "") + p).join(", ") : "";
};

// One line per event of the library's tc.events (see its "type" list).
function describe(e) {
  switch (e.type) {
    case "deal": return "deal " + e.deal_number + " (Kingdom " + e.kingdom + " of seat " + e.owner + ")";
    case "contract": return who(e.owner) + (e.timeout ? " ran out of time: " : " chose ") + e.contract;
    case "doubling_open": return "the doubling window opens" + (e.doublable.length ? ": you may double " + cards(e.doublable) : "");
    case "double": return who(e.seat) + " doubled " + cards(e.cards);
    case "timeout": return "the doubling window timed out";
    case "doubles_revealed": return "doubles revealed: " + (e.doubled.map((d) => cardText(d.card) + " by " + who(d.seat)).join(", ") || "none");
    case "play": return who(e.seat) + " played " + cardText(e.card);
    case "pass": return who(e.seat) + " passed";
    case "redeal": return who(e.seat) + " demanded a redeal";
    case "trick": return "trick " + e.number + " taken by " + who(e.taker) + points(e.points);
    case "out": return who(e.seat) + " is out, " + PLACES[e.place];
    case "deal_over": return "deal " + e.deal_number + " is over: " + e.points.join(" / ");
    case "match_over": return "the match is over: " + (e.result || "") + " " + JSON.stringify(e.teams || e.seats);
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

function tick() {
  if (clock.left === null) { $("clock").textContent = ""; return; }
  const left = Math.max(0, clock.left - (Date.now() - clock.at) / 1000);
  $("clock").textContent = "clock: " + left.toFixed(0) + " s";
}
setInterval(tick, 250);

// -- start ------------------------------------------------------------------------

seatKinds();
$("create").onsubmit = createTable;
const [wanted, wantedSeat] = location.hash.slice(1).split("/");
const token = wanted && wantedSeat && localStorage.getItem(tokenKey(wanted, wantedSeat));
if (token) connect(wanted, { type: "resume", token: token }, wantedSeat);
else if (wanted) connect(wanted, { type: "watch" });
else {
  refreshLobby();
  const lobbyTimer = setInterval(() => {  // new tables and free seats, until one sits down
    if ($("lobby").style.display === "none") clearInterval(lobbyTimer);
    else refreshLobby();
  }, 5000);
}
