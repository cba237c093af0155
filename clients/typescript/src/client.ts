/* A typed client of the trixcomplex table server (`trixcomplex serve`): its HTTP lobby and one
 * WebSocket per seat or spectator. Every type comes from protocol.ts, generated from the
 * JSON Schemas, so a message the server sends is typed by its "type". */
import type {
  ClientMessage,
  CreateTable,
  ErrorInfo,
  GameRecord,
  HttpError,
  InputPlayerMove,
  MessageUpdate,
  MessageWelcome,
  PlayerMove,
  ServerMessage,
  TableList,
  TableSummary,
  View,
} from "./protocol.js";

/** The server message whose "type" is K, e.g. MessageOf<"update"> is MessageUpdate. */
export type MessageOf<K extends ServerMessage["type"]> = Extract<ServerMessage, { type: K }>;

/** The part of the WebSocket API the client uses: a browser's WebSocket and node's "ws" have it. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Opens a WebSocket: `(url) => new WebSocket(url)` in a browser. */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** The server refused a message (nothing changed); `error.code` says why. */
export class RefusedError extends Error {
  constructor(readonly error: ErrorInfo) {
    super(`${error.code}: ${error.message}`);
    this.name = "RefusedError";
  }
}

/** An HTTP request the server refused: its status (400, 404, 409) and why. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorInfo,
  ) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = "HttpRefusal";
  }
}

/** The lobby: list, open and look up tables, download a finished match's record. */
export class Lobby {
  /** `base` is the server's address, e.g. "http://127.0.0.1:8000". */
  constructor(
    readonly base: string,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  tables(): Promise<TableList> {
    return this.call<TableList>("/api/tables");
  }

  create(request: CreateTable): Promise<TableSummary> {
    const init = {
      method: "POST",
      headers: { "Content-Type": "application/json" }, // the server refuses anything else (415)
      body: JSON.stringify(request),
    };
    return this.call<TableSummary>("/api/tables", init);
  }

  table(id: string): Promise<TableSummary> {
    return this.call<TableSummary>(`/api/tables/${encodeURIComponent(id)}`);
  }

  /** The record of a finished match (HttpRefusal 409 while it is played). */
  record(id: string): Promise<GameRecord> {
    return this.call<GameRecord>(`/api/tables/${encodeURIComponent(id)}/record`);
  }

  /** The WebSocket address of table `id` (ws:// or wss:// as the base is http or https). */
  socketUrl(id: string): string {
    return `${this.base.replace(/^http/, "ws")}/ws/${encodeURIComponent(id)}`;
  }

  private async call<T>(path: string, init?: RequestInit): Promise<T> {
    const reply = await this.fetcher(this.base + path, init);
    const body: unknown = await reply.json();
    if (!reply.ok) throw new HttpRefusal(reply.status, (body as HttpError).error);
    return body as T;
  }
}

type Handler = (message: ServerMessage) => void;
interface Waiter {
  types: ReadonlySet<string>;
  resolve: (message: ServerMessage) => void;
  reject: (reason: Error) => void;
}

/** One connection to a table: say who it is once (join, resume or watch), then send moves. */
export class TableConnection {
  /** The connection's seat (null: a spectator, or before the welcome). */
  seat: number | null = null;
  /** The seat's token after a join: keep it to resume the seat. */
  token: string | null = null;
  /** The last update received (its view is what this seat sees now). */
  lastUpdate: MessageUpdate | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private waiters: Waiter[] = [];
  private open = true;

  private constructor(private readonly socket: WebSocketLike) {
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = (event) => this.closedBy(`the connection closed (${event.code})`);
    socket.onerror = () => this.closedBy("the connection failed");
  }

  /** Connect to a table's WebSocket (Lobby.socketUrl), resolved once it is open. */
  static connect(url: string, factory: WebSocketFactory): Promise<TableConnection> {
    const socket = factory(url);
    return new Promise((resolve, reject) => {
      socket.onerror = () => reject(new Error(`cannot connect to ${url}`));
      socket.onopen = () => resolve(new TableConnection(socket));
    });
  }

  /** The view of the last update, if any. */
  get view(): View | null {
    return this.lastUpdate?.view ?? null;
  }

  /** Call `handler` with every message of kind `type`; returns a function that stops it. */
  on<K extends ServerMessage["type"]>(type: K, handler: (message: MessageOf<K>) => void): () => void {
    const set = this.handlers.get(type) ?? new Set<Handler>();
    const wrapped = handler as Handler;
    set.add(wrapped);
    this.handlers.set(type, set);
    return () => set.delete(wrapped);
  }

  /** The next message of kind `type` (rejected if the connection closes first). */
  next<K extends ServerMessage["type"]>(type: K): Promise<MessageOf<K>> {
    return this.wait([type]) as Promise<MessageOf<K>>;
  }

  /** Take free person seat `seat` under `name`; RefusedError if the server refuses. */
  join(seat: number, name: string, pictures = false): Promise<MessageWelcome> {
    return this.hello({ type: "join", seat, name, pictures });
  }

  /** Come back to one's seat with its token. */
  resume(token: string, pictures = false): Promise<MessageWelcome> {
    return this.hello({ type: "resume", token, pictures });
  }

  /** Watch as a spectator. */
  watch(pictures = false): Promise<MessageWelcome> {
    return this.hello({ type: "watch", pictures });
  }

  /** Send a move for this connection's seat: one of its view's legal_moves, or typed by hand.
   * A refusal comes back as a "refused" message (see on("refused", ...)). */
  play(move: PlayerMove | InputPlayerMove): void {
    this.send(move);
  }

  /** Send any client message. */
  send(message: ClientMessage): void {
    if (!this.open) throw new Error("the connection is closed");
    this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.open = false;
    this.socket.close(1000);
  }

  private async hello(message: ClientMessage): Promise<MessageWelcome> {
    const answer = this.wait(["welcome", "refused"]);
    this.send(message);
    const reply = await answer;
    if (reply.type === "refused") throw new RefusedError(reply.error);
    if (reply.type !== "welcome") throw new Error(`expected a welcome, got ${reply.type}`);
    this.seat = reply.seat;
    this.token = reply.token ?? this.token;
    return reply;
  }

  private wait(types: string[]): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ types: new Set(types), resolve, reject });
    });
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as ServerMessage;
    if (message.type === "update") this.lastUpdate = message;
    const ready = this.waiters.filter((w) => w.types.has(message.type));
    this.waiters = this.waiters.filter((w) => !w.types.has(message.type));
    for (const waiter of ready) waiter.resolve(message);
    for (const handler of this.handlers.get(message.type) ?? []) handler(message);
  }

  private closedBy(reason: string): void {
    this.open = false;
    for (const waiter of this.waiters) waiter.reject(new Error(reason));
    this.waiters = [];
  }
}
