/**
 * The reuse check of verification: which symbols a turn's module really calls, according to the
 * code model's resolver (`lib/python`). A function of the module counts as calling whatever the
 * module's other functions it calls call (the reference may route an evidence call through one of
 * its own functions).
 *
 * @module
 */
import { analyzePackage, moduleName, Project, summarize } from "../python/mod.ts";
import type { TurnUnderTest } from "./execution.ts";

/** Ids (resolved) or dotted texts (unresolved) called by the functions of `turn.module`. */
export async function calledSymbols(
  workspace: string,
  turn: TurnUnderTest,
  opts: { package?: string } = {},
): Promise<Set<string>> {
  const pkg = opts.package ?? turn.path.split("/")[0];
  const base = await analyzePackage(`${workspace}/${pkg}`);
  const module = moduleName(turn.path);
  const summary = await summarize(turn.solution, turn.path.slice(pkg.length + 1), module);
  const project: Project = base.withModules([summary]);
  return calledByModule(project, module, turn.functions.map((f) => f.name));
}

/** The callees of the named top-level functions of `module`, closed over the module's own functions. */
export function calledByModule(project: Project, module: string, functions: string[]): Set<string> {
  const own = new Set(
    project.definitions().filter((d) => d.id.startsWith(`${module}.`)).map((d) => d.id),
  );
  const seen = new Set<string>();
  const out = new Set<string>();
  const stack = functions.map((f) => `${module}.${f}`);
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const callee of project.callees(id)) {
      out.add(callee);
      if (own.has(callee)) stack.push(callee);
    }
  }
  return out;
}
