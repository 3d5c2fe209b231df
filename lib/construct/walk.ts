/**
 * Guided evidence walks (paper §3.1 "Dependency Graph and Evidence Collection"): the model walks
 * the dependency graph one hop at a time, choosing the next symbol from a numbered menu with the
 * walk prompt of Appendix B.1, replying with strict JSON that is validated (an invalid reply is
 * answered with what is wrong and asked again). The walk stops when the model stops with at
 * least `lo` symbols, or at `hi` symbols.
 *
 * @module
 */
import type { ChatMessage, ModelClient } from "./llm.ts";
import { parseJsonReply } from "./llm.ts";
import type { GraphIndex } from "./graph.ts";
import type { EvidencePack } from "./types.ts";

/** The walk prompt of Appendix B.1, verbatim (`{{`/`}}` are literal braces). */
export const WALK_PROMPT =
  `You are assembling an *evidence pack*: a small set of repository symbols that a programming task will be built on top of. You are walking a call graph, one hop at a time, like a developer clicking through cross-references.

Repository: {repo_name}

{round_ctx}

## Symbols collected so far

{collected}

## Current position

{current_block}

## Menu – you may expand ONE of these, or stop

{menu}

## Your goal

Collect {lo}-{hi} symbols that could plausibly be combined into ONE coherent programming task (a small script with a few functions). Prefer symbols that genuinely belong together in a real workflow over symbols that are merely adjacent in the graph.

Reply with STRICT JSON only:

{{"action": "expand" | "stop",
"choice": <menu number, required iff action=expand>,
"reason": "<one sentence: why this symbol belongs with the ones collected>",
"task_sketch": "<if stop: one sentence describing the task these symbols support>"}}`;

/** Fills a Python-`str.format`-style template (`{name}` placeholders, `{{`/`}}` literal braces). */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    if (!(name in values)) throw new Error(`template placeholder {${name}} has no value`);
    return String(values[name]);
  });
}

/** A validated walk reply. */
export type WalkReply =
  | { action: "expand"; choice: number; reason: string }
  | { action: "stop"; reason: string; taskSketch: string };

/** Validates a walk reply against a menu of `menuSize` entries; throws naming the problem. */
export function validateWalkReply(text: string, menuSize: number): WalkReply {
  const r = parseJsonReply(text);
  const reason = typeof r.reason === "string" ? r.reason : "";
  if (r.action === "expand") {
    const c = r.choice;
    if (typeof c !== "number" || !Number.isInteger(c) || c < 1 || c > menuSize) {
      throw new Error(`"choice" must be a menu number between 1 and ${menuSize}`);
    }
    return { action: "expand", choice: c, reason };
  }
  if (r.action === "stop") {
    if (typeof r.task_sketch !== "string" || !r.task_sketch.trim()) {
      throw new Error(`"task_sketch" is required when action is "stop"`);
    }
    return { action: "stop", reason, taskSketch: r.task_sketch.trim() };
  }
  throw new Error(`"action" must be "expand" or "stop"`);
}

/** Options of {@link walk}. */
export interface WalkOptions {
  repoName: string;
  /** The symbol the walk starts from (a candidate starting point, or the previous turn's artifact). */
  start: string;
  /** Round context paragraph (turn number, departure, injected symbol). */
  roundCtx: string;
  /** Symbols in the pack from the start besides `start` (e.g. the injected one). */
  preset?: string[];
  lo?: number;
  hi?: number;
  /** Entries shown in the menu (default 12). */
  menuSize?: number;
  /** Invalid replies tolerated per hop (default 2). */
  maxInvalid?: number;
  /** Only symbols accepted by this filter appear in menus. */
  allow?: (id: string) => boolean;
}

/** Raised when a walk cannot produce a pack of at least `lo` symbols. */
export class WalkError extends Error {
  override name = "WalkError";
}

function describeSymbol(g: GraphIndex, id: string): string {
  const d = g.node(id);
  if (!d) return `\`${id}\``;
  return `\`${id}\` — \`${d.signature}\` (${d.file}:${d.start}-${d.end})`;
}

function currentBlock(g: GraphIndex, id: string): string {
  const d = g.node(id);
  const lines = [describeSymbol(g, id)];
  if (d?.docstring) lines.push("", d.docstring.trim().split("\n\n")[0].slice(0, 600));
  const src = g.source(id, 60);
  if (src) lines.push("", "```python", src, "```");
  return lines.join("\n");
}

function menuText(g: GraphIndex, current: string, menu: string[]): string {
  const callees = new Set(g.callees(current));
  return menu.map((id, i) => {
    const d = g.node(id);
    const rel = callees.has(id) ? "called by the current symbol" : "calls the current symbol";
    const doc = d?.docstring ? ` — ${d.docstring.trim().split("\n")[0].slice(0, 120)}` : "";
    return `${i + 1}. ${describeSymbol(g, id)} [${rel}]${doc}`;
  }).join("\n");
}

/** Walks the graph from `opts.start` and returns the evidence pack. */
export async function walk(
  client: ModelClient,
  graph: GraphIndex,
  opts: WalkOptions,
): Promise<EvidencePack> {
  const lo = opts.lo ?? 3, hi = opts.hi ?? 5, size = opts.menuSize ?? 12;
  const allow = opts.allow ?? (() => true);
  const collected = [opts.start, ...(opts.preset ?? []).filter((s) => s !== opts.start)];
  const hops: { symbol: string; reason: string }[] = [];
  let current = opts.start;
  let sketch = "";
  while (collected.length < hi) {
    let menu = graph.neighbours(current).filter((id) => !collected.includes(id) && allow(id));
    if (!menu.length) {
      const around = collected.flatMap((c) => graph.neighbours(c));
      menu = [...new Set(around)].filter((id) => !collected.includes(id) && allow(id)).sort();
    }
    menu = menu.slice(0, size);
    if (!menu.length) break;
    const prompt = fillTemplate(WALK_PROMPT, {
      repo_name: opts.repoName,
      round_ctx: opts.roundCtx,
      collected: collected.map((id, i) => `${i + 1}. ${describeSymbol(graph, id)}`).join("\n"),
      current_block: currentBlock(graph, current),
      menu: menuText(graph, current, menu),
      lo,
      hi,
    });
    const messages: ChatMessage[] = [{ role: "user", content: prompt }];
    let reply: WalkReply | undefined;
    for (let attempt = 0; attempt <= (opts.maxInvalid ?? 2); attempt++) {
      // a reply that fails validation is not cached (a rerun asks again)
      const text = await client.complete(messages, (t) => validateWalkReply(t, menu.length));
      try {
        reply = validateWalkReply(text, menu.length);
        if (reply.action === "stop" && collected.length < lo) {
          throw new Error(`only ${collected.length} symbols are collected; collect at least ${lo}`);
        }
        break;
      } catch (e) {
        reply = undefined;
        messages.push(
          { role: "assistant", content: text },
          {
            role: "user",
            content: `Invalid reply: ${(e as Error).message}. Reply with STRICT JSON only.`,
          },
        );
      }
    }
    if (!reply) throw new WalkError(`the model gave no valid walk reply at ${current}`);
    if (reply.action === "stop") {
      sketch = reply.taskSketch;
      break;
    }
    const chosen = menu[reply.choice - 1];
    collected.push(chosen);
    hops.push({ symbol: chosen, reason: reply.reason });
    current = chosen;
  }
  if (collected.length < lo) {
    throw new WalkError(`the walk from ${opts.start} found only ${collected.length} symbols`);
  }
  const injected = opts.preset?.find((s) => s !== opts.start);
  return { symbols: collected, sketch, hops, ...(injected ? { injected } : {}) };
}
