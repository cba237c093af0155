/* The engine and a table with no server, under Pyodide in node. TRIXCOMPLEX_WEB is a folder
 * `trixcomplex web build` wrote (tests/test_web_build.py builds one and sets it); the record
 * of the deal played through the Engine is written to TRIXCOMPLEX_RECORD_OUT, for CPython to
 * replay to the same state. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import {
  Engine,
  EngineError,
  LocalTables,
  type GameEvent,
  type MessageRefused,
  type PythonRuntime,
} from "../src/index.js";

interface Pyodide extends PythonRuntime {
  loadPackage(names: string[], options: { messageCallback: (message: string) => void }): Promise<unknown>;
}
type LoadPyodide = (options: { indexURL: string }) => Promise<Pyodide>;

async function python(): Promise<PythonRuntime> {
  // Imported by name: pyodide's own .d.ts describes the browser too (DOM, emscripten).
  const pyodideModule = "pyodide";
  const { loadPyodide } = (await import(pyodideModule)) as { loadPyodide: LoadPyodide };
  const out = process.env["TRIXCOMPLEX_WEB"];
  assert.ok(out, "set TRIXCOMPLEX_WEB to a folder `trixcomplex web build` wrote");
  const { wheels } = JSON.parse(readFileSync(path.join(out, "web.json"), "utf-8")) as { wheels: string[] };
  const pyodide = await loadPyodide({ indexURL: path.join(out, "pyodide") + path.sep });
  await pyodide.loadPackage(
    wheels.map((name) => path.join(out, "wheels", name)),
    { messageCallback: () => {} },
  );
  return pyodide;
}

const runtime = python();

test("the Engine plays a whole deal by its legal moves, refuses with the clause, records it", async () => {
  const engine = new Engine(await runtime);
  let state = engine.deal(engine.newMatch("partnership"), 11);
  assert.equal(engine.view(state, null).deal_number, 1);
  let moves = 0;
  while (!["DEAL", "OVER"].includes(engine.view(state, null).phase)) {
    const legal = engine.legalMoves(state, null);
    const first = legal[0];
    assert.ok(first !== undefined, "someone may move until the deal is over");
    assert.equal(engine.whyIllegal(state, first.seat, first), null);
    state = engine.apply(state, first);
    moves += 1;
  }
  assert.ok(moves >= 52, `a deal is at least 52 cards (${moves} moves)`);
  assert.equal(engine.score(state).deals.length, 1);

  // R-MATCH-2: a seat that is not to act is refused, with its clause, in words.
  const next = engine.deal(state, 12);
  const owner = engine.view(next, null).owner;
  const stranger = owner === null ? 0 : (owner + 1) % 4;
  const pass = { move: "pass" as const, seat: stranger };
  assert.match(engine.whyIllegal(next, stranger, pass) ?? "", /R-/);
  assert.throws(() => engine.apply(next, pass), (error: unknown) => {
    return error instanceof EngineError && typeof error.error.rule === "string";
  });

  const record = engine.record(state, { event: "node" });
  assert.deepEqual(engine.replay(record), state);
  const written = process.env["TRIXCOMPLEX_RECORD_OUT"];
  if (written) writeFileSync(written, JSON.stringify({ record, state }));
});

test("a person plays a whole deal against three bots at a local table, the server's client", async () => {
  const tables = new LocalTables(await runtime);
  const lobby = tables.lobby();
  const settings = { move_time: 3600, forced_delay: 0, bot_delay: 0, deal_pause: 0 };
  const table = await lobby.create({ seats: ["person", "rule", "random", "rule"], ...settings });
  const connection = await tables.connect(table.id);
  try {
    const events: GameEvent[] = [];
    const refusals: MessageRefused[] = [];
    let finished = false;
    const dealOver = new Promise<void>((resolve) => {
      connection.on("refused", (message) => refusals.push(message));
      connection.on("update", (message) => {
        if (finished) return;
        events.push(...message.events);
        if (message.events.some((event) => event.type === "deal_over")) {
          finished = true;
          return resolve();
        }
        const first = message.view.legal_moves[0];
        if (first !== undefined && message.view.forced_move === null) connection.play(first);
      });
    });
    const welcome = await connection.join(0, "Ann");
    assert.equal(welcome.seat, 0);
    await dealOver;
    assert.deepEqual(refusals, []);
    const over = events.find((event) => event.type === "deal_over");
    assert.ok(over !== undefined && over.type === "deal_over" && over.deal_number === 1);
    assert.ok(events.some((event) => event.type === "play" && event.seat === 0));

    const refused = connection.next("refused");
    connection.play({ move: "pass", seat: 1 });
    assert.equal((await refused).error.code, "submit.wrong-seat");
    assert.ok((await lobby.tables()).tables.some((listed) => listed.id === table.id));
  } finally {
    connection.close();
    tables.stop();
  }
});
