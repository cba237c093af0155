// The reference engine running under Pyodide in node, behind the conformance protocol
// (one JSON request a line on standard input, one answer a line on standard output), so
// the conformance checker compares the engine in WebAssembly with CPython's:
//
//   trixcomplex web build OUT
//   trixcomplex conformance check --engine "node clients/web/engine.mjs OUT"
//
// OUT is a folder `trixcomplex web build` wrote: its pyodide/ and its wheels are loaded,
// nothing else. No rule is written here: each line goes to trixcomplex.conformance.engine.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { loadPyodide } from "pyodide";

const out = path.resolve(process.argv[2] ?? "");
const manifest = JSON.parse(readFileSync(path.join(out, "web.json"), "utf-8"));
const pyodide = await loadPyodide({ indexURL: path.join(out, "pyodide") + path.sep });
await pyodide.loadPackage(manifest.wheels.map((name) => path.join(out, "wheels", name)), {
  messageCallback: () => {},
});
const handle = pyodide.runPython(`
import json
from trixcomplex.conformance.engine import ReferenceEngine
_engine = ReferenceEngine()
def _handle(line):
    return json.dumps(_engine.handle(json.loads(line)), separators=(",", ":"))
_handle
`);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  if (JSON.parse(line).cmd === "quit") break;
  process.stdout.write(handle(line) + "\n");
}
