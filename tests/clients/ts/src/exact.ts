// Exact types, checked at compile time only (nothing here runs): what a strict TypeScript client
// gets from the bindings openapi-typescript generates (with `--array-length`, see
// tests/contract/test_ts_client.py). If the schema loosens a closed set to `string`, a team pair
// to `number[]` or makes a request's enum another type than the answer's, `tsc --strict` fails
// on this file. Every line uses the generated types as they are: no cast, no `as`.
import type { components, paths } from "./schema.js";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Ok<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? Json<R[S]>
    : never
  : never;
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>>
  : never;

/** true only when A and B are the same type (not merely assignable one way). */
type Equals<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** true only for a union of literals: `string` or `number` is not a closed set. */
type Closed<T> = string extends T ? false : number extends T ? false : true;
function holds<Claim extends true>(claim: Claim): Claim {
  return claim;
}

type Schemas = components["schemas"];
type MatchView = Ok<"/api/v1/matches/{id}", "get", 200>;
type RoundView = NonNullable<MatchView["round"]>;
type FinishedRound = NonNullable<MatchView["previous_round"]>;

// --- ruleset: one RulesetEnum in every request and answer --------------------------------------

type Ruleset = Schemas["RulesetEnum"];

export const rulesets = [
  holds<Closed<Ruleset>>(true),
  holds<Equals<MatchView["ruleset"], Ruleset>>(true),
  holds<Equals<NonNullable<Body<"/api/v1/matches", "post">["ruleset"]>, Ruleset>>(true),
  holds<Equals<NonNullable<Body<"/api/v1/matchmaking", "post">["ruleset"]>, Ruleset>>(true),
  holds<Equals<Ok<"/api/v1/matchmaking", "get", 200>["ruleset"], Ruleset>>(true),
  holds<Equals<Ok<"/api/v1/matches", "get", 200>["results"][number]["ruleset"], Ruleset>>(true),
  holds<Equals<Ok<"/api/v1/me/matches", "get", 200>["results"][number]["ruleset"], Ruleset>>(true),
  holds<Equals<Ok<"/api/v1/matches/live", "get", 200>["results"][number]["ruleset"], Ruleset>>(
    true,
  ),
  holds<Equals<Ok<"/api/v1/me/invitations", "get", 200>["results"][number]["ruleset"], Ruleset>>(
    true,
  ),
  holds<Equals<Ok<"/api/v1/leaderboards/{ruleset}", "get", 200>["ruleset"], Ruleset>>(true),
  holds<Equals<Ok<"/api/v1/players/{username}", "get", 200>["ratings"][number]["ruleset"], Ruleset>>(
    true,
  ),
  holds<Equals<Ok<"/api/v1/matches/{id}/record", "get", 200>["ruleset"], Ruleset>>(true),
  holds<Equals<paths["/api/v1/leaderboards/{ruleset}"]["get"]["parameters"]["path"]["ruleset"], Ruleset>>(
    true,
  ),
];

/** A switch over the view's ruleset with nothing left for `default`. */
export function rulesetTitle(view: MatchView): string {
  switch (view.ruleset) {
    case "gamerules":
      return "Baloot (game rules)";
    case "saudi":
      return "Baloot (Saudi)";
    default: {
      const unhandled: never = view.ruleset;
      return unhandled;
    }
  }
}

// --- phrase: one PhraseEnum for the phrase list, a message sent and a message read ---------------

type Phrase = Schemas["PhraseEnum"];
type ChatMessage = Ok<"/api/v1/matches/{id}/chat", "get", 200>["results"][number];

export const phrases = [
  holds<Closed<Phrase>>(true),
  holds<Equals<ChatMessage["phrase"], Phrase>>(true),
  holds<Equals<Ok<"/api/v1/matches/{id}/chat", "post", 201>["phrase"], Phrase>>(true),
  holds<Equals<Body<"/api/v1/matches/{id}/chat", "post">["phrase"], Phrase>>(true),
  holds<Equals<Ok<"/api/v1/chat/phrases", "get", 200>["results"][number]["id"], Phrase>>(true),
];

/** The phrases a client shows as emotes: `satisfies` fails on any id the enum does not hold. */
const EMOTES = ["laugh", "clap", "thumbs_up", "wow", "cool"] as const satisfies readonly Phrase[];

/** Narrowing a received message's phrase: a literal comparison, no cast. */
export function isEmote(message: ChatMessage): boolean {
  const phrase: Phrase = message.phrase;
  return EMOTES.some((emote) => emote === phrase);
}

// --- turn_seconds: quick play's four speeds, the same in the ticket asked for and the one held ---

export const speeds = [
  holds<Closed<Schemas["TurnSecondsEnum"]>>(true),
  holds<Equals<Ok<"/api/v1/matchmaking", "get", 200>["turn_seconds"], Schemas["TurnSecondsEnum"]>>(
    true,
  ),
  holds<
    Equals<NonNullable<Body<"/api/v1/matchmaking", "post">["turn_seconds"]>, Schemas["TurnSecondsEnum"]>
  >(true),
];

// --- team pairs: [team 0, team 1], destructured as tuples ---------------------------------------

type Pair = [number, number];

/** The header's scores, the round's abnat and tricks, and a finished round's result. */
export function teamPairs(view: MatchView, round: RoundView, finished: FinishedRound): Pair[] {
  const scores: Pair = view.scores;
  const abnat: Pair = round.abnat;
  const tricks: Pair = round.trick_counts;
  const after: Pair = finished.scores_after;
  const { abnat: roundAbnat, card_points, points } = finished.result;
  const awarded: Pair = finished.result.projects.points;
  return [scores, abnat, tricks, after, roundAbnat, card_points, points, awarded];
}

/** A team pair destructured in its declaration: a `number[]` would not compile here. */
export function lead(view: MatchView, team: 0 | 1): number {
  const [us, them]: Pair = view.scores;
  return team === 0 ? us - them : them - us;
}

type ScoreSheet = Ok<"/api/v1/matches/{id}/rounds", "get", 200>;
type MatchRecord = Ok<"/api/v1/matches/{id}/record", "get", 200>;

/** The score sheet's lines (a redeal has no abnat or card points) and the record's totals. */
export function sheetPairs(sheet: ScoreSheet, record: MatchRecord): Pair[] {
  const pairs: Pair[] = [sheet.scores, record.scores];
  for (const row of sheet.results) {
    const [pointsUs, pointsThem] = row.points;
    pairs.push([pointsUs, pointsThem], row.totals);
    if (row.abnat !== null) pairs.push(row.abnat);
    if (row.card_points !== null) pairs.push(row.card_points);
  }
  if (record.result !== undefined) pairs.push(record.result.scores);
  return pairs;
}

/** Per seat: four card counts, and a Sawa's four revealed hands. */
export function perSeat(round: RoundView): [number, number, number, number] {
  const counts: [number, number, number, number] = round.card_counts;
  return counts;
}

// --- cards: CardEnum wherever a card is, inline lists of 32 nowhere -----------------------------

type Card = Schemas["CardEnum"];
type LogItem = Ok<"/api/v1/matches/{id}/moves", "get", 200>["results"][number];
type Logged<T extends LogItem["type"]> = Extract<LogItem, { type: T }>;

export const cards = [
  holds<Closed<Card>>(true),
  holds<Equals<RoundView["hand"][number], Card>>(true),
  holds<Equals<NonNullable<RoundView["revealed_hands"]>[number][number], Card>>(true),
  holds<Equals<NonNullable<FinishedRound["revealed_hands"]>[number][number], Card>>(true),
  holds<Equals<Logged<"sawa">["revealed_hands"][number][number], Card>>(true),
  holds<Equals<NonNullable<Logged<"declare">["projects"][number]["cards"]>[number], Card>>(true),
  holds<Equals<MatchRecord["rounds"][number]["deck"][number], Card>>(true),
];

/** A Sawa's revealed hands: one list per seat, four seats. */
export function revealed(round: RoundView): Card[][] {
  if (round.revealed_hands === undefined) return [];
  const hands: [Card[], Card[], Card[], Card[]] = round.revealed_hands;
  return hands;
}
