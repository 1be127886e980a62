// Compile-time half of the contract check: what the generated bindings must accept and refuse.
// Nothing here runs; `tsc --strict` failing on this file is the test failing. An unused
// `@ts-expect-error` is itself an error, so each refusal below must really be refused.
import type { CreateBody, LegalMove, MoveBody } from "./client.js";
import type { paths } from "./schema.js";

// api.md's move bodies, as written there, are valid request bodies.
export const documentedMoves: MoveBody[] = [
  { type: "bid", call: "hokum", expected_version: 17 },
  { type: "bid", call: "hokum", suit: "D" },
  { type: "double", call: "pass" },
  { type: "declare", projects: [{ kind: "sira", cards: ["AH", "KH", "QH"] }] },
  { type: "play", card: "10S" },
];

// api.md's match options: each has a default, so a body may leave any of them out.
export const documentedCreates: CreateBody[] = [
  {},
  { bots: { "1": "easy", "2": "normal", "3": "easy" } },
  { visibility: "public" },
];

// Each item of legal_moves is a body that can be posted as it is.
export function postable(move: LegalMove): MoveBody {
  return move;
}

// Moves are a union discriminated by `type`: a move missing the field its type needs, or with
// a call or suit outside the record format, does not compile.
// @ts-expect-error a play without a card
export const playWithoutCard: MoveBody = { type: "play" };
// @ts-expect-error a bid without a call
export const bidWithoutCall: MoveBody = { type: "bid" };
// @ts-expect-error a declaration without projects
export const declareWithoutProjects: MoveBody = { type: "declare" };
// @ts-expect-error a bid call that does not exist
export const unknownCall: MoveBody = { type: "bid", call: "banana" };
// @ts-expect-error a play carrying a bid's call
export const playWithCall: MoveBody = { type: "play", card: "10S", call: "hokum" };

// The answers' calls, project kinds, suits and cards are typed too (the record format's values),
// wherever they appear: a client switching on them gets exhaustiveness checks.
type Answer<P extends keyof paths, S extends number> = paths[P] extends {
  get: { responses: { [K in S]: { content: { "application/json": infer T } } } };
}
  ? T
  : never;
/** A field of every member of a union that has it (a discriminated union has no common index). */
type FieldOf<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
type Item<T> = T extends readonly (infer E)[] ? E : never;

type Round = NonNullable<Answer<"/api/v1/matches/{id}", 200>["round"]>;
type CallView = Item<Round["calls"]>;
type PublicKinds = Item<Item<Round["projects"]>["kinds"]>;
type LogEntry = Item<Answer<"/api/v1/matches/{id}/moves", 200>["results"]>;
type LoggedKind = FieldOf<Item<NonNullable<FieldOf<LogEntry, "projects">>>, "kind">;
type Action = Item<Item<Answer<"/api/v1/matches/{id}/record", 200>["rounds"]>["actions"]>;
type SheetDeclared = Item<
  NonNullable<Item<Answer<"/api/v1/matches/{id}/rounds", 200>["results"]>["projects"]>["declared"]
>;

// @ts-expect-error CallView.type is bid or double
export const callType: CallView["type"] = "banana";
// @ts-expect-error CallView.call is a call of the record format
export const callCall: CallView["call"] = "banana";
// @ts-expect-error PublicProjects.kinds holds project kinds
export const publicKind: PublicKinds = "banana";
// @ts-expect-error the move log's calls are calls
export const loggedCall: NonNullable<FieldOf<LogEntry, "call">> = "banana";
// @ts-expect-error LoggedProject.kind is a project kind
export const loggedKind: LoggedKind = "banana";
// @ts-expect-error RecordAction.type is a move type
export const actionType: FieldOf<Action, "type"> = "banana";
// @ts-expect-error RecordAction.call is a call
export const actionCall: NonNullable<FieldOf<Action, "call">> = "banana";
// @ts-expect-error RecordAction.suit is a suit
export const actionSuit: NonNullable<FieldOf<Action, "suit">> = "banana";
// @ts-expect-error RecordAction.card is a card
export const actionCard: NonNullable<FieldOf<Action, "card">> = "banana";
// @ts-expect-error DeclaredProject.kind is a project kind
export const declaredKind: FieldOf<SheetDeclared, "kind"> = "banana";

// ...while the values of the record format are accepted (so the refusals above are not vacuous).
export const accepted = {
  callType: "bid" satisfies CallView["type"],
  callCall: "pass" satisfies CallView["call"],
  publicKind: "sira" satisfies PublicKinds,
  loggedCall: "pass" satisfies NonNullable<FieldOf<LogEntry, "call">>,
  loggedKind: "sira" satisfies LoggedKind,
  actionType: "play" satisfies FieldOf<Action, "type">,
  actionCall: "pass" satisfies NonNullable<FieldOf<Action, "call">>,
  actionSuit: "H" satisfies NonNullable<FieldOf<Action, "suit">>,
  actionCard: "10S" satisfies NonNullable<FieldOf<Action, "card">>,
  declaredKind: "sira" satisfies FieldOf<SheetDeclared, "kind">,
};
