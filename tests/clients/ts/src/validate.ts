// Strict validation of the schema and of every response body received against it (Ajv in strict
// mode: unknown keywords, unknown formats, ill-typed keywords and `nullable` without `type` are
// errors, not warnings).
//
//   node dist/validate.js <schema.json> [recording.json ...]
//
// Prints a JSON report and exits 1 when the schema does not compile strictly or any body, status,
// media type or watched header is not what the schema says.
import { readFileSync } from "node:fs";

import { Ajv, type AnySchemaObject, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";

import type { Exchange } from "./client.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const [schemaPath, ...recordings] = process.argv.slice(2);
if (schemaPath === undefined) throw new Error("usage: validate.js <schema.json> [recording.json ...]");
const doc = JSON.parse(readFileSync(schemaPath, "utf8")) as JsonObject;
const oas = String(doc["openapi"]);
const is31 = oas.startsWith("3.1");
const ROOT = "https://schema.invalid/openapi.json";

// OpenAPI 3.1 schemas are JSON Schema 2020-12, where a nullable value is `type: [T, "null"]`;
// OpenAPI 3.0 schemas are a JSON Schema draft-07 dialect with `nullable` (which Ajv supports).
const options = { strict: true, allErrors: true, discriminator: true, allowUnionTypes: is31 };
const ajv = is31 ? new Ajv2020(options) : new Ajv(options);
formatsModule.default(ajv);
// The formats OpenAPI itself defines on top of JSON Schema's.
const int = (bits: number) => (value: number) =>
  Number.isInteger(value) && Math.abs(value) <= 2 ** (bits - 1);
ajv.addFormat("int32", { type: "number", validate: int(32) });
ajv.addFormat("int64", { type: "number", validate: int(64) });
ajv.addFormat("float", { type: "number", validate: () => true });
ajv.addFormat("double", { type: "number", validate: () => true });
ajv.addFormat("password", { type: "string", validate: () => true });
// Annotations OpenAPI adds to its schema objects (they assert nothing).
ajv.addVocabulary(["example", "xml", "externalDocs"]);
// The document's top level, so that `#/components/...` and `#/paths/...` pointers resolve.
ajv.addVocabulary(["openapi", "info", "servers", "paths", "components", "security", "tags", "webhooks", "jsonSchemaDialect"]);
const { $schema: _dialect, ...top } = doc;
ajv.addSchema({ ...top, $id: ROOT } as AnySchemaObject);

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

const schemaDefects: string[] = [];
const validators = new Map<string, ValidateFunction | null>();

function validatorFor(ref: string): ValidateFunction | null {
  if (!validators.has(ref)) {
    try {
      validators.set(ref, ajv.compile({ $ref: `${ROOT}#/${ref}` }));
    } catch (error) {
      validators.set(ref, null);
      schemaDefects.push(`${ref}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return validators.get(ref) ?? null;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Every component and every response schema must compile under strict mode.
const components = isObject(doc["components"]) ? doc["components"] : {};
const schemas = isObject(components["schemas"]) ? components["schemas"] : {};
for (const name of Object.keys(schemas)) validatorFor(pointer("components", "schemas", name));
const docPaths = isObject(doc["paths"]) ? doc["paths"] : {};
for (const [path, item] of Object.entries(docPaths)) {
  if (!isObject(item)) continue;
  for (const [method, operation] of Object.entries(item)) {
    if (!isObject(operation) || !isObject(operation["responses"])) continue;
    for (const [status, answer] of Object.entries(operation["responses"])) {
      if (!isObject(answer) || !isObject(answer["content"])) continue;
      for (const media of Object.keys(answer["content"])) {
        validatorFor(pointer("paths", path, method, "responses", status, "content", media, "schema"));
      }
    }
  }
}

// Ajv stops at the first `nullable` without `type` in a schema, and it honours `nullable` even in
// a 3.1 document, where the keyword does not exist (JSON Schema 2020-12 validators ignore it, so
// they refuse the nulls it was meant to allow). List every such place.
const nullableDefects: string[] = [];
function scan(node: Json, at: string): void {
  if (Array.isArray(node)) {
    node.forEach((child, index) => scan(child, `${at}/${index}`));
  } else if (isObject(node)) {
    if (node["nullable"] !== undefined && is31) {
      nullableDefects.push(`${at}: \`nullable\` is not a keyword of OpenAPI 3.1 (use type [T, "null"])`);
    } else if (node["nullable"] !== undefined && node["type"] === undefined) {
      nullableDefects.push(`${at}: \`nullable\` without \`type\``);
    }
    for (const [key, child] of Object.entries(node)) scan(child, `${at}/${pointer(key)}`);
  }
}
scan(doc, "#");

// The answers received.
interface Finding {
  where: string;
  problem: string;
  count: number;
  example: string;
}
const findings = new Map<string, Finding>();
function report(where: string, problem: string, example: string): void {
  const key = `${where} ${problem}`;
  const known = findings.get(key);
  if (known) known.count += 1;
  else findings.set(key, { where, problem, count: 1, example: example.slice(0, 400) });
}
const describeError = (error: ErrorObject) =>
  `${error.instancePath || "(body)"} ${error.message ?? error.keyword} [${error.schemaPath}]`;

let received = 0;
let validated = 0;
for (const file of recordings) {
  const recording = JSON.parse(readFileSync(file, "utf8")) as { exchanges: Exchange[] };
  for (const exchange of recording.exchanges) {
    received += 1;
    const where = `${exchange.method.toUpperCase()} ${exchange.path} ${exchange.status}`;
    const operation = (docPaths[exchange.path] as JsonObject | undefined)?.[exchange.method];
    if (!isObject(operation) || !isObject(operation["responses"])) {
      report(where, "operation not in the schema", exchange.url);
      continue;
    }
    const responses = operation["responses"];
    const statusKey = [String(exchange.status), `${String(exchange.status)[0]}XX`, "default"].find(
      (key) => responses[key] !== undefined,
    );
    const answer = statusKey === undefined ? undefined : responses[statusKey];
    if (statusKey === undefined || !isObject(answer)) {
      report(where, "status not declared for this operation", exchange.body);
      continue;
    }
    const declaredHeaders = Object.keys(isObject(answer["headers"]) ? answer["headers"] : {}).map((name) =>
      name.toLowerCase(),
    );
    for (const header of Object.keys(exchange.headers)) {
      if (!declaredHeaders.includes(header)) report(where, `response header ${header} not declared`, exchange.headers[header] ?? "");
    }
    const content = isObject(answer["content"]) ? answer["content"] : {};
    if (exchange.body === "") {
      if (Object.keys(content).length > 0) report(where, "empty body where the schema declares content", "");
      continue;
    }
    const media = (exchange.contentType ?? "").split(";")[0]!.trim();
    if (content[media] === undefined) {
      report(where, `media type ${media || "(none)"} not declared (declared: ${Object.keys(content).join(", ") || "none"})`, exchange.body);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      report(where, "body is not JSON", exchange.body);
      continue;
    }
    const validate = validatorFor(pointer("paths", exchange.path, exchange.method, "responses", statusKey, "content", media, "schema"));
    if (validate === null) {
      report(where, "cannot validate: its response schema does not compile strictly", exchange.body);
      continue;
    }
    validated += 1;
    if (!validate(body)) {
      for (const error of validate.errors ?? []) report(where, describeError(error), exchange.body);
    }
  }
}

const result = {
  openapi: oas,
  schemaDefects,
  nullableDefects,
  received,
  validated,
  bodyDefects: [...findings.values()],
};
console.log(JSON.stringify(result, null, 2));
process.exit(schemaDefects.length + nullableDefects.length + findings.size === 0 ? 0 : 1);
