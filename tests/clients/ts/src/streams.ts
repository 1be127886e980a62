// Plays one whole match of four humans from the match streams only: each seat opens the match
// stream with a ticket (as a browser does), reads every message through the types Modelina
// generated from the AsyncAPI document (./stream.d.ts, written at test time), builds the move log
// from `move` and `reveal` messages, and moves when a `view` offers it legal moves (posting
// through the REST bindings). At the end each seat's log must equal its GET /moves.
//
//   node --experimental-websocket dist/streams.js <http-base> <ws-base> <out.json> [target] [seed]
//
// Writes the messages each seat received (validated against the AsyncAPI document by the test)
// and the outcome; exit status 0 only when the match ended and every check held.
import { writeFileSync } from "node:fs";

import { check, type MoveBody, Player, Recorder, Rng } from "./client.js";
import type { Match as StreamMessage, MoveMessage, ViewMessage } from "./stream.js";

type LogItem = MoveMessage["item"];
type StreamView = ViewMessage["view"];
type StreamMove = NonNullable<StreamView["round"]>["legal_moves"][number];

interface Outcome {
  matchId: number | null;
  moves: number;
  // Declarations a seat was sent with their cards hidden, and items a reveal showed again.
  hidden: number;
  revealed: number;
  finished: boolean;
  findings: string[];
}

const [httpBase, wsBase, outPath, targetArg, seedArg] = process.argv.slice(2);
check(
  httpBase !== undefined && wsBase !== undefined && outPath !== undefined,
  "usage: streams.js <http-base> <ws-base> <out.json> [target] [seed]",
);
const target = Number(targetArg ?? "1");
const rng = new Rng(Number(seedArg ?? "7"));
const recorder = new Recorder();
const outcome: Outcome = { matchId: null, moves: 0, hidden: 0, revealed: 0, finished: false, findings: [] };
const TIMEOUT_MS = 120_000;

/** A key-order-independent rendering, to compare two JSON values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

class StreamSeat {
  readonly log = new Map<number, LogItem>();
  readonly received: StreamMessage[] = [];
  view: StreamView | null = null;
  private answered = -1;
  private socket: WebSocket | null = null;

  constructor(
    readonly player: Player,
    readonly seat: number,
    private readonly onChange: () => void,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  async open(matchId: number): Promise<void> {
    const { data, response } = await this.player.api.POST("/api/v1/auth/ws-ticket");
    check(data !== undefined, `ws-ticket: ${response.status}`);
    const socket = new WebSocket(`${wsBase}/ws/v1/matches/${matchId}?ticket=${encodeURIComponent(data.ticket)}`);
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      try {
        this.take(JSON.parse(String(event.data)) as StreamMessage);
      } catch (error) {
        this.onFailure(error);
      }
    });
    socket.addEventListener("close", (event) => {
      if (!outcome.finished) this.onFailure(new Error(`seat ${this.seat}: the stream closed (${event.code})`));
    });
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`seat ${this.seat}: no stream`)), { once: true });
    });
  }

  close(): void {
    this.socket?.close();
  }

  /** One message, by its type; a type the document does not list fails to compile. */
  private take(message: StreamMessage): void {
    this.received.push(message);
    switch (message.type) {
      case "move": {
        const item = message.item;
        check(!this.log.has(item.seq), `seat ${this.seat}: move ${item.seq} sent twice`);
        this.log.set(item.seq, item);
        if (item.type === "declare" && item.seat !== this.seat && item.projects.some((p) => p.cards === null)) {
          outcome.hidden += 1;
        }
        return;
      }
      case "reveal":
        for (const item of message.items) {
          check(this.log.has(item.seq), `seat ${this.seat}: a reveal of move ${item.seq} never sent`);
          this.log.set(item.seq, item);
          outcome.revealed += 1;
        }
        return;
      case "view":
        check(message.version === message.view.version, "a view message's version is its view's");
        this.view = message.view;
        this.onChange();
        return;
      case "chat":
        return;
      default: {
        const unknown: never = message;
        throw new Error(`an unknown message ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The seat's move when its newest view offers one it has not answered. */
  async act(): Promise<void> {
    const view = this.view;
    const legal = view?.round?.legal_moves ?? [];
    if (view === null || view.status !== "active" || legal.length === 0 || view.version <= this.answered) return;
    this.answered = view.version;
    // Declare whenever offered (the declarations are what a reveal is about); never double, so
    // rounds are played out.
    const declare = legal.find((move) => move.type === "declare");
    const calm = legal.filter((move) => move.type !== "double" || move.call === "pass");
    const move: StreamMove = declare !== undefined && rng.next() < 0.9 ? declare : rng.pick(calm);
    // A legal move from the stream's view is a request body of the REST bindings as it is.
    const body: MoveBody = { ...move, expected_version: view.version };
    const { response } = await this.player.api.POST("/api/v1/matches/{id}/moves", {
      params: { path: { id: view.id } },
      body,
    });
    check(response.status === 201, `seat ${this.seat} posting ${JSON.stringify(body)}: ${response.status}`);
    outcome.moves += 1;
  }
}

async function httpLog(player: Player, id: number): Promise<LogItem[]> {
  const items: LogItem[] = [];
  for (;;) {
    const after = items.at(-1)?.version ?? 0;
    const page = await player.api.GET("/api/v1/matches/{id}/moves", {
      params: { path: { id }, query: { after } },
    });
    check(page.data !== undefined, `move log: ${page.response.status}`);
    // The REST item and the stream item are one component in two documents.
    const results: LogItem[] = page.data.results;
    items.push(...results);
    if (page.data.next === null) return items;
  }
}

async function main(): Promise<StreamSeat[]> {
  const stamp = Date.now() % 100000;
  const players: Player[] = [];
  for (let n = 0; n < 4; n += 1) players.push(await Player.register(httpBase!, recorder, `ts-s${n}-${stamp}`));
  const created = await players[0]!.api.POST("/api/v1/matches", {
    body: { target, turn_seconds: 3600, visibility: "public" },
  });
  check(created.data !== undefined, `create: ${created.response.status}`);
  const id = created.data.id;
  outcome.matchId = id;
  for (const [seat, player] of players.entries()) {
    if (seat === 0) continue;
    const joined = await player.api.POST("/api/v1/matches/{id}/join", { params: { path: { id } }, body: { seat } });
    check(joined.data !== undefined, `join seat ${seat}: ${joined.response.status}`);
  }

  let settle: () => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  let acting = Promise.resolve();
  const seats: StreamSeat[] = [];
  const changed = (): void => {
    // Every seat has the final view: the match is over on every stream.
    const last = seats.map((seat) => seat.view);
    if (seats.length === 4 && last.every((view) => view !== null && view.status !== "active")) {
      const versions = new Set(last.map((view) => view?.version));
      if (versions.size === 1) settle();
      return;
    }
    acting = acting.then(() => Promise.all(seats.map((seat) => seat.act()))).then(() => undefined, fail);
  };
  for (const [seat, player] of players.entries()) seats.push(new StreamSeat(player, seat, changed, fail));
  for (const seat of seats) await seat.open(id);
  changed();
  const timer = setTimeout(() => fail(new Error(`match ${id} did not end within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  try {
    await ended;
  } finally {
    clearTimeout(timer);
  }
  outcome.finished = true;
  for (const seat of seats) seat.close();

  for (const seat of seats) {
    const built = [...seat.log.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    const http = await httpLog(seat.player, id);
    if (canonical(built) !== canonical(http)) {
      outcome.findings.push(`seat ${seat.seat}: the log built from the stream differs from GET /moves`);
    }
  }
  return seats;
}

let failure: unknown = null;
let seats: StreamSeat[] = [];
try {
  seats = await main();
} catch (error) {
  failure = error;
} finally {
  writeFileSync(
    outPath,
    JSON.stringify({
      outcome,
      failure: failure === null ? null : String(failure instanceof Error ? (failure.stack ?? failure) : failure),
      messages: seats.map((seat) => seat.received),
    }),
  );
}
if (failure !== null) {
  console.error(failure);
  process.exit(1);
}
console.log(JSON.stringify(outcome));
process.exit(outcome.findings.length === 0 ? 0 : 1);
