// Plays one whole match through the generated bindings and openapi-fetch only, then writes every
// HTTP answer it received (for the schema validator) and its findings to a JSON file.
//
//   node dist/play.js <bots|humans> <base-url> <out.json> [target] [seed]
//
// Exit status 0 only when the match was played to its end and every check held.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";

import {
  check,
  type CreateBody,
  type MatchView,
  type MoveBody,
  Player,
  Recorder,
  Rng,
} from "./client.js";

interface Outcome {
  scenario: string;
  matchId: number | null;
  moves: number;
  seconds: number;
  finished: boolean;
  // api.md: "While declaring is legal, legal_moves also holds exactly one declare item".
  declareMissing: number;
  declareOffered: number;
  // Contract breaches that do not stop play; the test fails on any of them after the match.
  findings: string[];
}

const [scenario, baseUrl, outPath, targetArg, seedArg] = process.argv.slice(2);
check(scenario === "bots" || scenario === "humans", "scenario must be bots or humans");
check(baseUrl !== undefined && outPath !== undefined, "usage: play.js <bots|humans> <base-url> <out.json>");
const target = Number(targetArg ?? "1");
const rng = new Rng(Number(seedArg ?? "7"));
const recorder = new Recorder();
const started = Date.now();
const outcome: Outcome = {
  scenario,
  matchId: null,
  moves: 0,
  seconds: 0,
  finished: false,
  declareMissing: 0,
  declareOffered: 0,
  findings: [],
};
const commitments = new Map<number, string>();
const MOVE_LIMIT = 3000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Note the round's commitment and whether declaring is offered as the contract says. */
function observe(view: MatchView): void {
  const round = view.round;
  if (round === null) return;
  if (round.deck_commitment !== null) commitments.set(round.number, round.deck_commitment);
  if (round.projects_available.length > 0 && round.legal_moves.length > 0) {
    const declares = round.legal_moves.filter((move) => move.type === "declare").length;
    if (declares === 1) outcome.declareOffered += 1;
    else outcome.declareMissing += 1;
  }
}

/** A conditional read: the ETag of a view, sent back as If-None-Match, answers 304. */
async function conditionalRead(player: Player, id: number): Promise<void> {
  const first = await player.api.GET("/api/v1/matches/{id}", { params: { path: { id } } });
  const etag = first.response.headers.get("etag");
  check(etag !== null, "a match view carries an ETag");
  const again = await player.api.GET("/api/v1/matches/{id}", {
    params: { path: { id }, header: { "If-None-Match": etag } },
  });
  check(again.response.status === 304, `If-None-Match answered ${again.response.status}`);
  // What docs/clients.md tells a client to expect from openapi-fetch: no data, no error body.
  check(again.data === undefined, "a 304 resolves with no data");
  check(!again.error, "a 304 resolves with an empty error");
}

async function finishedChecks(player: Player, id: number): Promise<void> {
  const view = await player.view(id);
  observe(view);
  check(view.status === "finished", `match ${id} is ${view.status}`);
  check(view.winner_team === 0 || view.winner_team === 1, `winner_team ${view.winner_team}`);
  check(view.end_reason === "target_reached", `end_reason ${view.end_reason}`);

  const sheet = await player.api.GET("/api/v1/matches/{id}/rounds", { params: { path: { id } } });
  check(sheet.data !== undefined, `score sheet: ${sheet.response.status}`);
  check(sheet.data.results.length > 0, "the score sheet has rows");
  check(JSON.stringify(sheet.data.scores) === JSON.stringify(view.scores), "sheet scores = view scores");

  const record = await player.api.GET("/api/v1/matches/{id}/record", { params: { path: { id } } });
  check(record.data !== undefined, `match record: ${record.response.status}`);
  check(record.data.result?.winner_team === view.winner_team, "the record names the winner");

  for (const round of record.data.rounds) {
    const one = await player.api.GET("/api/v1/matches/{id}/rounds/{number}/record", {
      params: { path: { id, number: round.number } },
    });
    check(one.data !== undefined, `round ${round.number} record: ${one.response.status}`);
    const revealed = one.data.rounds[0];
    check(revealed !== undefined && revealed.deck.length === 32, "a round record reveals 32 cards");
    // Fair dealing: the commitment shown during the round is SHA-256 of salt ":" deck.
    const digest = createHash("sha256")
      .update(`${revealed.salt}:${revealed.deck.join(",")}`, "utf8")
      .digest("hex");
    check(digest === revealed.commitment, `round ${round.number}: the deck does not match its commitment`);
    const seen = commitments.get(round.number);
    check(seen === undefined || seen === digest, `round ${round.number}: commitment changed`);
  }

  const log = await player.api.GET("/api/v1/matches/{id}/moves", {
    params: { path: { id }, query: { after: 0 } },
  });
  check(log.data !== undefined, `move log: ${log.response.status}`);
  check(log.data.version === view.version, "the move log is at the view's version");

  const inbox = await player.api.GET("/api/v1/me/matches");
  check(inbox.data !== undefined, `inbox: ${inbox.response.status}`);
  check(inbox.data.results.some((entry) => entry.id === id), "the inbox lists the match");
  if (inbox.response.headers.get("etag") === null) outcome.findings.push("GET /api/v1/me/matches sends no ETag");
  if (outcome.declareMissing > 0) {
    outcome.findings.push(
      `${outcome.declareMissing} views listed projects_available but legal_moves held no declare item`,
    );
  }
  outcome.finished = true;
}

async function oneHumanThreeBots(): Promise<void> {
  const human = await Player.register(baseUrl!, recorder, `ts-solo-${Date.now() % 100000}`);
  // The README's body: bots for seats 1-3, every other option left to its default.
  const body: CreateBody = { target, bots: { "1": "easy", "2": "normal", "3": "easy" } };
  const created = await human.api.POST("/api/v1/matches", { body });
  check(created.data !== undefined, `create: ${created.response.status} ${JSON.stringify(created.error)}`);
  const id = created.data.id;
  outcome.matchId = id;
  check(created.data.status === "active", "four seats filled: the match starts at once");
  check(
    JSON.stringify(created.data.seats.slice(1).map((seat) => seat.bot)) === '["easy","normal","easy"]',
    "the bots sit where asked",
  );
  await conditionalRead(human, id);

  for (;;) {
    const view = await waitForTurn(human, id);
    if (view.status !== "active") break;
    check(view.round?.deadline !== null, "a human turn shows its clock");
    await human.play(view, rng);
    outcome.moves += 1;
    check(outcome.moves < MOVE_LIMIT, "the match never ended");
  }
  check(outcome.moves > 0, "the human moved");
  await finishedChecks(human, id);
  const log = await human.api.GET("/api/v1/matches/{id}/moves", { params: { path: { id } } });
  check(log.data !== undefined, `move log: ${log.response.status}`);
  const actors = new Set(log.data.results.map((entry) => entry.actor));
  check(actors.has("bot") && actors.has("human"), `actors in the log: ${[...actors].join(",")}`);
}

async function waitForTurn(player: Player, id: number): Promise<MatchView> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const view = await player.view(id);
    observe(view);
    if (view.status !== "active" || (view.round?.legal_moves.length ?? 0) > 0) return view;
    await sleep(50);
  }
  throw new Error(`match ${id}: the bots did not answer within 60 s`);
}

async function fourHumans(): Promise<void> {
  const stamp = Date.now() % 100000;
  const players: Player[] = [];
  for (let n = 0; n < 4; n += 1) players.push(await Player.register(baseUrl!, recorder, `ts-p${n}-${stamp}`));
  const [host] = players;
  check(host !== undefined, "four players");
  const created = await host.api.POST("/api/v1/matches", {
    body: { target, visibility: "private", turn_seconds: 3600 },
  });
  check(created.data !== undefined, `create: ${created.response.status} ${JSON.stringify(created.error)}`);
  const id = created.data.id;
  outcome.matchId = id;
  check(created.data.status === "waiting", `a private match waits (${created.data.status})`);
  const code = created.data.invite_code;
  check(code !== null && code !== "", "a private match has an invite code");

  const outsider = players[1]!;
  const hidden = await outsider.api.GET("/api/v1/matches/{id}", { params: { path: { id } } });
  check(hidden.response.status === 404, `a private match is hidden from outsiders (${hidden.response.status})`);

  for (const [seat, player] of players.entries()) {
    if (seat === 0) continue;
    const joined = await player.api.POST("/api/v1/matches/{id}/join", {
      params: { path: { id } },
      body: { seat, code },
    });
    check(joined.data !== undefined, `join seat ${seat}: ${joined.response.status}`);
    check(joined.data.my_seat === seat, `joined seat ${joined.data.my_seat}, asked ${seat}`);
  }
  await conditionalRead(host, id);

  let view = await host.view(id);
  check(view.status === "active", "four humans seated: the match starts");
  while (view.status === "active") {
    const toAct = view.round?.to_act;
    check(toAct !== null && toAct !== undefined, "an active match has a seat to act");
    const actor = players[toAct]!;
    const before = await actor.view(id);
    observe(before);
    view = await actor.play(before, rng);
    outcome.moves += 1;
    check(outcome.moves < MOVE_LIMIT, "the match never ended");
    if (outcome.moves === 1) await refusals(players, view, before.version);
  }
  await finishedChecks(host, id);
}

/** Refused moves come back as problem details and change nothing. */
async function refusals(players: Player[], view: MatchView, staleVersion: number): Promise<void> {
  const toAct = view.round?.to_act ?? 0;
  const other = players[(toAct + 1) % 4]!;
  const mine = await other.view(view.id);
  check(mine.round !== null && mine.round.legal_moves.length === 0, "no legal moves off turn");
  const notYours: MoveBody = { type: "bid", call: "pass" };
  const refused = await other.api.POST("/api/v1/matches/{id}/moves", {
    params: { path: { id: view.id } },
    body: notYours,
  });
  check(refused.response.status === 422, `off-turn move answered ${refused.response.status}`);
  check(refused.error?.code === "not_your_turn", `code ${JSON.stringify(refused.error)}`);

  const actor = players[toAct]!;
  const current = await actor.view(view.id);
  const legal = current.round?.legal_moves[0];
  check(legal !== undefined, "the player to act has legal moves");
  const stale = await actor.api.POST("/api/v1/matches/{id}/moves", {
    params: { path: { id: view.id } },
    body: { ...legal, expected_version: staleVersion },
  });
  check(stale.response.status === 409, `a stale version answered ${stale.response.status}`);
  check(stale.error?.code === "stale_version", `code ${JSON.stringify(stale.error)}`);
  check(stale.error.current_version === current.version, "a stale answer names the current version");
  const after = await actor.view(view.id);
  check(after.version === current.version, "a refused move changes nothing");
}

let failure: unknown = null;
try {
  await (scenario === "bots" ? oneHumanThreeBots() : fourHumans());
} catch (error) {
  failure = error;
} finally {
  outcome.seconds = (Date.now() - started) / 1000;
  writeFileSync(
    outPath,
    JSON.stringify({
      outcome,
      failure: failure === null ? null : String(failure instanceof Error ? (failure.stack ?? failure) : failure),
      exchanges: recorder.exchanges,
    }),
  );
}
if (failure !== null) {
  console.error(failure);
  process.exit(1);
}
console.log(JSON.stringify(outcome));
