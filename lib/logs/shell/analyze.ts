/**
 * Interpreting one shell action (a bash command line and what it printed) as events: the
 * command is parsed with tree-sitter-bash, each pipeline is simulated over the workspace, the
 * simulated output is aligned with the observed output, and only the lines the model was shown
 * (after harness truncation) are credited (align.ts). A PowerShell command goes to powershell.ts.
 *
 * @module
 */
import { type Node, type Parser, parserFor } from "../../util/mod.ts";
import type { Event } from "../types.ts";
import { Interp, isLoud } from "./interp.ts";
import { wordValue } from "./words.ts";
import { analyzePowerShell, powershellScript } from "./powershell.ts";
import { segEvents, type ShellContext, shellEvent, type ShellObservation } from "./align.ts";

export type { ShellContext, ShellObservation } from "./align.ts";

/** A command line that starts a PowerShell (`powershell -Command …`, `pwsh.exe -c …`). */
const PS_WRAPPER = /^\s*(?:&\s*)?["']?(?:[^\s"']*[\\/])?(?:pwsh|powershell)(?:\.exe)?["']?\s/i;

let parserPromise: Promise<Parser> | undefined;

/** The process-wide bash parser (tree-sitter is initialised once). */
export function bashParser(): Promise<Parser> {
  parserPromise ??= parserFor("bash");
  return parserPromise;
}

/**
 * Interprets one shell action. `obs` undefined means the action got no observation (it did not
 * run, or the log ended): nothing is credited.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyzeShell } from "./analyze.ts";
 * import { TurnWorkspace } from "../workspace.ts";
 * const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
 * const ws = new TurnWorkspace((p) => (p === "a.py" ? text : undefined), "/testbed");
 * const out = Array.from({ length: 5 }, (_, i) => `line ${i + 11}`).join("\n") + "\n";
 * const events = await analyzeShell("cd /testbed && sed -n '11,15p' a.py", { ws, cwd: "", step: 0 }, { output: out, returncode: 0 });
 * assert.ok(JSON.stringify(events[0].lines) === '{"a.py":[[11,15]]}');
 * ```
 */
export async function analyzeShell(
  command: string,
  ctx: ShellContext,
  obs: ShellObservation | undefined,
): Promise<Event[]> {
  const ps = ctx.dialect === "powershell"
    ? command
    : PS_WRAPPER.test(command)
    ? powershellScript(command)
    : undefined;
  if (ps !== undefined) return analyzePowerShell(ps, ctx, obs);
  const parser = await bashParser();
  let tree;
  try {
    tree = parser.parse(command);
  } catch {
    tree = null;
  }
  if (!tree) {
    return [shellEvent(ctx, "other", command, [], {}, "shell command could not be parsed")];
  }
  try {
    return interpret(command, tree.rootNode, ctx, obs);
  } finally {
    tree.delete();
  }
}

function interpret(
  command: string,
  root: Node,
  ctx: ShellContext,
  obs: ShellObservation | undefined,
): Event[] {
  if (root.hasError) {
    return [shellEvent(ctx, "other", command, [], {}, "shell syntax error")];
  }
  const shownText = obs === undefined
    ? undefined
    : obs.head !== undefined
    ? `${obs.head}\n${obs.tail ?? ""}`
    : obs.output ?? "";
  let ws = ctx.ws.fork();
  let it = new Interp(ws, shownText, false);
  it.stmt(root, { cwd: ctx.cwd }, false);
  const loud = it.segs.filter(isLoud);
  if (loud.length === 1 && it.segs.some((s) => s.stages.some((st) => st.needsOutput))) {
    // one pipeline owns the whole output and needs it (recursive grep): run again with it
    ws = ctx.ws.fork();
    it = new Interp(ws, shownText, true);
    it.stmt(root, { cwd: ctx.cwd }, false);
  }
  ctx.ws.adopt(ws);
  return segEvents(command, it.segs, ctx, obs);
}

/**
 * Literal words of a single simple command (name first), or undefined when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandWords } from "./analyze.ts";
 * const w = await commandWords("str_replace_editor view '/testbed/a b.py' --view_range 1 5");
 * assert.ok(JSON.stringify(w) === '["str_replace_editor","view","/testbed/a b.py","--view_range","1","5"]');
 * ```
 */
export async function commandWords(text: string): Promise<(string | undefined)[] | undefined> {
  const parser = await bashParser();
  const tree = parser.parse(text);
  if (!tree) return undefined;
  try {
    const root = tree.rootNode;
    const stmts = root.namedChildren.filter((c) => c !== null && c.type !== "comment");
    if (stmts.length !== 1 || stmts[0]!.type !== "command") return undefined;
    const cmd = stmts[0]!;
    const name = cmd.childForFieldName("name");
    const words = [name ? wordValue(name.namedChildren[0] ?? name) : undefined];
    for (const a of cmd.childrenForFieldName("argument")) if (a) words.push(wordValue(a));
    return words;
  } finally {
    tree.delete();
  }
}
