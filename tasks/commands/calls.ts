/**
 * `deno task reporeuse calls <file.py> [--root <workspace-dir>]` — the resolved calls and
 * function-value references of one Python file as JSON `{ module, uses }`.
 * @module
 */
import { onePath, parseOptions } from "./_args.ts";
import { resolve as resolvePath } from "node:path";
import { workspaceProject } from "../../lib/python/mod.ts";

/** One-line summary for `reporeuse --help`. */
export const summary = "calls and function references of one Python file, resolved";

/** Full help text. */
export const help = `Usage: deno task reporeuse calls <file.py> [--root <workspace-dir>]

Prints every call and function-value reference of the file as JSON:

  { "module": "<dotted module id>",
    "uses": [{ "scope", "target", "line", "kind", "resolved": true|false }] }

scope is the enclosing def's id (or the module id for module-level code); target is the resolved
qualified name (builtins as builtins.len), or the dotted source text when it cannot be resolved
(np.asarray, self.helper of an unknown base): nothing is guessed. kind is one of
  call        the callee of a call expression (f(), C() → C, obj.method())
  decorator   a decorator applied (@dec → dec; @dec(arg) is a call of dec)
  dunder      a dunder that call syntax runs on a known class or instance (C() → C.__init__
              when defined, obj() → __call__)
  reference   a function named as a value (key=f, map(f, xs), {"a": f})
  implicit    any other dunder that syntax runs on a value of known class (C() → C.__new__,
              for → __iter__/__next__, with → __enter__/__exit__, raise C → C.__init__)
docs/run-logs.md says which kinds count as reuse.

Options:
  --root DIR   resolve the file in the context of the workspace DIR: the packages found in it (top-level
               directories with an __init__.py, also under src/) and its top-level modules. The module
               id is the file's path relative to DIR. Without --root the file is resolved alone and its
               module id follows the __init__.py files of its directory and their parents.
  -h, --help   this text`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse calls", {
    args,
    allowPositionals: true,
    options: { root: { type: "string" } },
  });
  if (!parsed) return 2;
  const file = await onePath("reporeuse calls", parsed.positionals, "file", "<file.py>");
  if (file === undefined) return 2;
  const root = parsed.values.root;
  // what cannot be stat'ed is no directory: the error below names it
  if (root !== undefined && !(await Deno.stat(root).catch(() => null))?.isDirectory) {
    console.error(`reporeuse calls: --root ${root}: no such directory`);
    return 2;
  }
  let result;
  try {
    result = await workspaceProject(
      resolvePath(file),
      root === undefined ? undefined : resolvePath(root),
    );
  } catch (e) {
    console.error(`reporeuse calls: ${(e as Error).message}`);
    return 2;
  }
  const info = result.project.resolveModule(result.module);
  const uses = info.uses.map((u) => ({
    scope: u.scope,
    target: u.target,
    line: u.line,
    kind: u.kind,
    resolved: u.resolved,
  })).sort((a, b) => a.line - b.line);
  const out = JSON.stringify({ module: result.module, uses, errors: info.errors }, null, 1);
  console.log(out);
  return 0;
}
