// Compile-time half of the contract check: what the generated bindings must accept and refuse.
// Nothing here runs; `tsc --strict` failing on this file is the test failing. An unused
// `@ts-expect-error` is itself an error, so each refusal below must really be refused.
import type { CreateBody, LegalMove, MoveBody } from "./client.js";

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
