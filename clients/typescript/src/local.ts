/* The rules without a server: the engine itself under Pyodide (CPython in WebAssembly), in the
 * page, a Web Worker or node. Two faces, both typed by protocol.ts:
 *
 * - Engine: the library's calls (legal moves, apply, view, score, replay of a record,
 *   why_illegal), each the Python function of the same name (trixcomplex.web.calls);
 * - LocalTables: tables hosted in the same Python (trixcomplex.web.local), reached through
 *   the very Lobby and TableConnection that talk to `trixcomplex serve`: its `fetch` and its
 *   `socket` stand for the HTTP and the WebSocket of a server (the same messages).
 *
 * No rule is written in TypeScript. Load Pyodide yourself (the npm package `pyodide`) and the
 * wheels a `trixcomplex web build` folder holds (OUT/web.json names them in OUT/wheels):
 *
 *   import { loadPyodide } from "pyodide";
 *   const pyodide = await loadPyodide({ indexURL: "OUT/pyodide/" });
 *   await pyodide.loadPackage(wheels.map((name) => "OUT/wheels/" + name));
 *   const engine = new Engine(pyodide);
 *   let state = engine.deal(engine.newMatch("classic"), 7);
 *   const [first] = engine.legalMoves(state, state.to_act[0] ?? 0);
 *   if (first) state = engine.apply(state, first);
 */
import { Lobby, TableConnection, type WebSocketLike } from "./client.js";
import type {
  ErrorInfo,
  GameRecord,
  InputPlayerMove,
  Move,
  PlayerMove,
  SavedState,
  Score,
  View,
} from "./protocol.js";

/** The part of a Pyodide instance used here (`loadPyodide()` returns one). */
export interface PythonRuntime {
  runPython(code: string): unknown;
}

/** A call the engine refused: the library's error (its code, clause and message). */
export class EngineError extends Error {
  constructor(readonly error: ErrorInfo) {
    super(`${error.code ?? "error"}: ${error.message}`);
    this.name = "EngineError";
  }
}

type PythonCall = (name: string, args: string) => string;
type Answer<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** The engine's calls: states, moves, views, scores and records are the library's JSON. */
export class Engine {
  private readonly python: PythonCall;

  constructor(pyodide: PythonRuntime) {
    this.python = pyodide.runPython("from trixcomplex.web.calls import call\ncall") as PythonCall;
  }

  /** A new match of `ruleset` (a preset, maybe with options: "classic+doubling=false"). */
  newMatch(ruleset = "partnership"): SavedState {
    return this.call("new_match", { ruleset });
  }

  /** The next deal, shuffled by a generator seeded with `seed`. */
  deal(state: SavedState, seed: number): SavedState {
    return this.call("deal", { state, seed });
  }

  /** The moves `seat` may make now (null: every seat's). */
  legalMoves(state: SavedState, seat: number | null): PlayerMove[] {
    return this.call("legal_moves", { state, seat });
  }

  /** The state after `move`; EngineError (with its clause) if it is not legal. */
  apply(state: SavedState, move: Move): SavedState {
    return this.call("apply", { state, move });
  }

  /** A move typed by `seat` (a person's input: "7H", {move: "pass"}...), checked for it. */
  submit(state: SavedState, seat: number | null, move: InputPlayerMove | string): SavedState {
    return this.call("submit", { state, seat, move });
  }

  /** What `seat` sees (null: a spectator): never another seat's hidden cards. */
  view(state: SavedState, seat: number | null): View {
    return this.call("view", { state, seat });
  }

  /** The scores so far. */
  score(state: SavedState): Score {
    return this.call("score", { state });
  }

  /** The match's record (every deck and move), to save or to replay anywhere. */
  record(state: SavedState, meta: Record<string, unknown> = {}): GameRecord {
    return this.call("record", { state, meta });
  }

  /** The state a record leads to, every move checked; EngineError at the first bad one. */
  replay(record: GameRecord): SavedState {
    return this.call("replay", { record });
  }

  /** Why `seat` may not make `move` now, in words with its clause; null if it may. */
  whyIllegal(state: SavedState, seat: number | null, move: Move, locale = "en"): string | null {
    return this.call("why_illegal", { state, seat, move, locale });
  }

  private call<T>(name: string, args: object): T {
    const answer = JSON.parse(this.python(name, JSON.stringify(args))) as Answer<T>;
    if (!answer.ok) throw new EngineError(answer.error);
    return answer.value;
  }
}

interface PythonLobby {
  request(method: string, path: string, body: string | null): string;
  open(connection: number, table: string): void;
  receive(connection: number, text: string): void;
  close(connection: number): void;
  stop(): void;
}

/** Tables hosted in this Python: `lobby()` and `connect()` give the server's client objects. */
export class LocalTables {
  /** The address the local Lobby is given (nothing is fetched from it). */
  static readonly base = "http://local.invalid";
  private readonly python: PythonLobby;
  private readonly sockets = new Map<number, WebSocketLike>();
  private next = 0;

  constructor(pyodide: PythonRuntime) {
    const make = pyodide.runPython("from trixcomplex.web.local import LocalLobby\nLocalLobby") as (
      send: (connection: number, text: string) => void,
    ) => PythonLobby;
    this.python = make((connection, text) => {
      const socket = this.sockets.get(connection);
      // After the call that caused it: a message never arrives inside send() or play().
      if (socket) setTimeout(() => socket.onmessage?.({ data: text }), 0);
    });
  }

  /** Stop every table's timers (node then exits once the test or script is done). */
  stop(): void {
    this.python.stop();
  }

  /** The lobby: the same class as a server's, answered here. */
  lobby(): Lobby {
    return new Lobby(LocalTables.base, this.fetch);
  }

  /** A connection to table `id`: the same class as a server's. */
  connect(id: string): Promise<TableConnection> {
    return TableConnection.connect(this.lobby().socketUrl(id), this.socket);
  }

  /** Stands for `fetch` of the server's HTTP routes (GET/POST /api/tables...). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const body = typeof init?.body === "string" ? init.body : null;
    const reply = JSON.parse(this.python.request(init?.method ?? "GET", url.pathname, body)) as {
      status: number;
      body: unknown;
    };
    const headers = { "Content-Type": "application/json" };
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
  };

  /** Stands for a WebSocket to `/ws/ID`: a WebSocketFactory for TableConnection.connect. */
  readonly socket = (url: string): WebSocketLike => {
    const connection = this.next++;
    const table = decodeURIComponent(url.split("/").pop() ?? "");
    const socket: WebSocketLike = {
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      send: (text: string) => this.python.receive(connection, text),
      close: () => {
        this.sockets.delete(connection);
        this.python.close(connection);
        setTimeout(() => socket.onclose?.({ code: 1000, reason: "" }), 0);
      },
    };
    this.sockets.set(connection, socket);
    setTimeout(() => {
      socket.onopen?.({});
      this.python.open(connection, table);
    }, 0);
    return socket;
  };
}
