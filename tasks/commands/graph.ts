/**
 * `deno task reporeuse graph <package-dir> [--out FILE] [--no-cache]` — the dependency graph of a
 * Python package as JSON `{ root, nodes, edges, errors }`.
 * @module
 */
import { basename, dirname } from "node:path";
import { outputProblem, writeFileAtomic } from "../../lib/util/mod.ts";
import { onePath, parseOptions } from "./_args.ts";
import { analyzePackage } from "../../lib/python/mod.ts";

/** One-line summary for `reporeuse --help`. */
export const summary = "dependency graph (defs, modules, call/reference edges) of a Python package";

/** Full help text. */
export const help = `Usage: deno task reporeuse graph <package-dir> [--out FILE] [--no-cache]

Parses every .py file of the package (tree-sitter, in workers on all cores, with a content-hash
cache) and prints its dependency graph as JSON:

  { "root": "<package-dir>",
    "nodes":  [{ "id", "kind", "file", "start", "end", "bodyStart", "signature", "docstring", "internal" }],
    "edges":  [{ "from", "to", "line", "kind" }],
    "errors": [{ "file", "line", "message" }] }

Node ids are dotted (package name first: seaborn._core.rules.categorical_order); kind is
module | class | function | method; start/end are CPython ast lineno/end_lineno; file is relative
to the package directory. Edges go from the enclosing def (or module) to a resolved def or module,
kind call | decorator | dunder | reference | implicit (as in \`reporeuse calls --help\`: a call
expression, a decorator applied, a dunder that call syntax runs such as C() → C.__init__, a
function named as a value, a dunder that for/with/raise runs; docs/run-logs.md says which kinds
count as reuse). A symbol is internal when a component of its id after the package name is
_private (not a dunder), or when it is defined inside a function.

Options:
  --out FILE    write the JSON to FILE instead of stdout
  --no-cache    do not read or write the cache ($REPOREUSE_CACHE_DIR, else ~/.cache/reporeuse)
  -h, --help    this text`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse graph", {
    args,
    allowPositionals: true,
    options: { out: { type: "string" }, "no-cache": { type: "boolean" } },
  });
  if (!parsed) return 2;
  const dir = await onePath("reporeuse graph", parsed.positionals, "directory", "<package-dir>");
  if (dir === undefined) return 2;
  const out = parsed.values.out;
  // before the analysis (minutes on a large package), not after it
  const blocked = out && await outputProblem(dirname(out), [basename(out)]);
  if (blocked) {
    console.error(`reporeuse graph: cannot write ${blocked}`);
    return 1;
  }
  const project = await analyzePackage(dir, { cache: !parsed.values["no-cache"] });
  const graph = project.graph(dir);
  const nodes = graph.nodes.map((n) => ({
    id: n.id,
    kind: n.kind,
    file: n.file,
    start: n.start,
    end: n.end,
    bodyStart: n.bodyStart,
    signature: n.signature,
    docstring: n.docstring,
    internal: n.internal,
  }));
  const json = JSON.stringify({
    root: graph.root,
    nodes,
    edges: graph.edges,
    errors: graph.errors,
  });
  if (parsed.values.out) {
    try {
      await writeFileAtomic(parsed.values.out, json + "\n");
    } catch (e) {
      console.error(`reporeuse graph: cannot write ${parsed.values.out}: ${(e as Error).message}`);
      return 1;
    }
  } else {
    await writeStdout(json + "\n");
  }
  return 0;
}

async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}
