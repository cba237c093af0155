/* A person plays a whole deal against three bots on a real `trixcomplex serve`, through the
 * typed client. The server's address is TRIXCOMPLEX_URL (tests/test_typescript_client.py
 * starts the server on loopback and sets it). */
import assert from "node:assert/strict";
import { test } from "node:test";
import WebSocket from "ws";
import {
  HttpRefusal,
  Lobby,
  RefusedError,
  TableConnection,
  type GameEvent,
  type MessageRefused,
  type WebSocketLike,
} from "../src/index.js";

const base = process.env["TRIXCOMPLEX_URL"];
const open = (url: string): WebSocketLike => new WebSocket(url) as unknown as WebSocketLike;

function lobby(): Lobby {
  assert.ok(base, "set TRIXCOMPLEX_URL to a running trixcomplex serve (http://127.0.0.1:PORT)");
  return new Lobby(base);
}

test("a person seat plays a whole deal with the first legal move, against three bots", async () => {
  const server = lobby();
  const settings = { move_time: 3600, forced_delay: 0, bot_delay: 0, deal_pause: 0 };
  const table = await server.create({ seats: ["person", "rule", "random", "rule"], ...settings });
  assert.equal(table.finished, false);
  const connection = await TableConnection.connect(server.socketUrl(table.id), open);
  try {
    const events: GameEvent[] = [];
    const refusals: MessageRefused[] = [];
    let sent = 0;
    let finished = false; // the next deal's updates may come before the socket is closed
    const dealOver = new Promise<void>((resolve) => {
      connection.on("refused", (message) => refusals.push(message));
      connection.on("update", (message) => {
        if (finished) return;
        events.push(...message.events);
        if (message.events.some((event) => event.type === "deal_over")) {
          finished = true;
          return resolve();
        }
        const { legal_moves: legal, forced_move: forced } = message.view;
        const first = legal[0];
        if (first !== undefined && forced === null) {
          // (a forced move the server plays for us)
          connection.play(first);
          sent += 1;
        }
      });
    });
    const welcome = await connection.join(0, "Ann");
    assert.equal(welcome.seat, 0);
    assert.equal(welcome.table, table.id);
    assert.ok(welcome.token && connection.token === welcome.token);
    await dealOver;

    assert.deepEqual(refusals, []);
    assert.ok(sent > 0, "the person seat moved");
    const over = events.find((event) => event.type === "deal_over");
    assert.ok(over !== undefined && over.type === "deal_over");
    assert.equal(over.deal_number, 1);
    const played = events.filter((event) => event.type === "play");
    const mine = played.filter((event) => event.type === "play" && event.seat === 0);
    assert.ok(mine.length >= 1);
    if (over.contract === "TRIX") {
      assert.equal(events.filter((event) => event.type === "out").length, 4);
    } else {
      assert.equal(played.length, 52);
      assert.equal(events.filter((event) => event.type === "trick").length, 13);
    }
    const view = connection.view;
    assert.ok(view !== null && view.seat === 0);
    assert.equal(view.score.deals.length, 1);
    assert.deepEqual(view.score.deals[0]?.points, over.points);

    // The server refuses what it should, typed: another seat's move, a second hello.
    const refused = connection.next("refused");
    connection.play({ move: "pass", seat: 1 });
    assert.equal((await refused).error.code, "submit.wrong-seat");
    await assert.rejects(connection.watch(), (error: unknown) => {
      return error instanceof RefusedError && error.error.code === "server.already-joined";
    });
  } finally {
    connection.close(); // a failed check must not leave the socket (and node) running
  }

  const summary = await server.table(table.id);
  assert.ok(summary.deal_number >= 1);
  assert.equal(summary.seats[0].name, "Ann");
  assert.ok((await server.tables()).tables.some((listed) => listed.id === table.id));
  await assert.rejects(server.record(table.id), (error: unknown) => {
    return error instanceof HttpRefusal && error.status === 409;
  });
});
