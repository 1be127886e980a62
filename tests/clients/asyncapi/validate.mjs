// Validates an AsyncAPI document (a file path, or stdin) with the official parser; prints the
// diagnostics as JSON and exits 1 if any is an error.
import { readFileSync } from "node:fs";
import { Parser } from "@asyncapi/parser";

const source = readFileSync(process.argv[2] ?? 0, "utf8");
const parser = new Parser();
const { document, diagnostics } = await parser.parse(source);
const errors = diagnostics.filter((d) => d.severity === 0);
console.log(JSON.stringify({
  valid: document !== undefined && errors.length === 0,
  errors: errors.map((d) => ({ code: d.code, message: d.message, path: d.path })),
  warnings: diagnostics.filter((d) => d.severity === 1).map((d) => ({ code: d.code, message: d.message, path: d.path })),
  channels: document ? document.channels().all().map((c) => c.address()) : [],
  messages: document ? document.messages().all().map((m) => m.name()) : [],
}, null, 1));
process.exit(document !== undefined && errors.length === 0 ? 0 : 1);
