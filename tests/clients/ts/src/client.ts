// The client side of the contract check: openapi-fetch over the bindings openapi-typescript
// generated from the live schema (./schema.d.ts, written at test time). Every type below is
// derived from `paths` by path and method (never by component name), so the program states only
// what api.md fixes: paths, methods and field names.
import createClient, { type Client, type MethodResponse, type Middleware } from "openapi-fetch";

import type { paths } from "./schema.js";

export type Api = Client<paths>;

// The view as openapi-fetch hands it over (`data`). Its response types widen the schema's
// tuples to arrays (openapi-typescript-helpers' Readable<T>), so `scores` is number[] here while
// the bindings say [number, number]: exact.ts checks the pairs on the bindings themselves.
export type MatchView = MethodResponse<Api, "get", "/api/v1/matches/{id}">;
export type RoundView = NonNullable<MatchView["round"]>;
export type LegalMove = RoundView["legal_moves"][number];
export type MoveBody = NonNullable<
  paths["/api/v1/matches/{id}/moves"]["post"]["requestBody"]
>["content"]["application/json"];
export type CreateBody = NonNullable<
  paths["/api/v1/matches"]["post"]["requestBody"]
>["content"]["application/json"];

/** One HTTP answer as received: what the validator checks against the schema. */
export interface Exchange {
  method: string;
  path: string;
  url: string;
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  body: string;
}

/** Response headers the contract speaks of; the validator checks the schema declares them. */
const WATCHED_HEADERS = ["etag", "retry-after"];

export class Recorder {
  readonly exchanges: Exchange[] = [];

  readonly middleware: Middleware = {
    onResponse: async ({ request, response, schemaPath }) => {
      const headers: Record<string, string> = {};
      for (const name of WATCHED_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      this.exchanges.push({
        method: request.method.toLowerCase(),
        path: schemaPath,
        url: request.url,
        status: response.status,
        contentType: response.headers.get("content-type"),
        headers,
        body: await response.clone().text(),
      });
      return undefined;
    },
  };
}

export class ContractError extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ContractError(message);
}

export function makeClient(baseUrl: string, recorder: Recorder, token?: string): Api {
  const client = createClient<paths>({
    baseUrl,
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
  client.use(recorder.middleware);
  return client;
}

/** A small seeded generator, so a failing run can be replayed move for move. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    check(item !== undefined, "pick from an empty list");
    return item;
  }
}

function describe(error: unknown, response: Response): string {
  return `${response.status} ${JSON.stringify(error)}`;
}

/** One human with a bearer token, speaking to the server through the generated types only. */
export class Player {
  private constructor(
    readonly name: string,
    readonly api: Api,
    readonly userId: number,
  ) {}

  static async register(baseUrl: string, recorder: Recorder, name: string): Promise<Player> {
    const anonymous = makeClient(baseUrl, recorder);
    const { data, error, response } = await anonymous.POST("/api/v1/auth/register", {
      body: { username: name, password: "correct horse battery", display_name: name },
    });
    check(data !== undefined, `register ${name}: ${describe(error, response)}`);
    check(response.status === 201, `register ${name} answered ${response.status}`);
    return new Player(name, makeClient(baseUrl, recorder, data.token), data.user.id);
  }

  async view(id: number): Promise<MatchView> {
    const { data, error, response } = await this.api.GET("/api/v1/matches/{id}", {
      params: { path: { id } },
    });
    check(data !== undefined, `view of match ${id}: ${describe(error, response)}`);
    return data;
  }

  /** Post one of the view's legal moves as it is, with the view's version. */
  async play(view: MatchView, rng: Rng): Promise<MatchView> {
    check(view.round !== null, `match ${view.id} has no round`);
    const move: LegalMove = rng.pick(view.round.legal_moves);
    const body: MoveBody = { ...move, expected_version: view.version };
    const { data, error, response } = await this.api.POST("/api/v1/matches/{id}/moves", {
      params: { path: { id: view.id } },
      body,
    });
    check(data !== undefined, `${this.name} posting ${JSON.stringify(body)}: ${describe(error, response)}`);
    check(response.status === 201, `a move answered ${response.status}`);
    check(data.version > view.version, `the version did not move on after ${JSON.stringify(body)}`);
    return data;
  }
}
