/**
 * Shared pieces of the log readers: the reader context and result, and tolerant accessors for
 * untyped JSON.
 *
 * @module
 */
import type { Event, FileSource, LogMeta } from "../types.ts";
import type { ShownLine, TurnWorkspace } from "../workspace.ts";
import { toolEvent } from "../event.ts";

/** Options every reader gets. */
export interface ReaderOptions {
  file: string;
  files?: FileSource;
  /** Harness cwd (workspace root as the harness names it), overriding the log's own. */
  cwd?: string;
}

/** What a reader returns: events grouped per action, plus meta. */
export interface ReaderResult {
  format: string;
  /** One array of events per agent action (coverage is computed per action). */
  actions: Event[][];
  meta: LogMeta;
}

/**
 * The read event of a native tool call that showed `shown` lines of `rel`: the lines the one
 * content check ({@link TurnWorkspace.credit}) credits, unplaced (with its note) when some are not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { creditedRead } from "./common.ts";
 * import { TurnWorkspace } from "../workspace.ts";
 * const ws = new TurnWorkspace((p) => (p === "a.py" ? "x\ny\n" : undefined), "/r");
 * const e = creditedRead(ws, 0, "view", { path: "/r/a.py" }, "a.py", [[1, "x"], [2, "y"]]);
 * assert.ok(e.kind === "read" && JSON.stringify(e.lines) === '{"a.py":[[1,2]]}' && e.placed);
 * ```
 */
export function creditedRead(
  ws: TurnWorkspace,
  step: number,
  tool: string,
  input: unknown,
  rel: string,
  shown: readonly ShownLine[],
): Event {
  const c = ws.credit(rel, shown);
  const lines = c.lines.length ? { [rel]: c.lines } : {};
  return toolEvent(step, "read", tool, input, [rel], lines, c.note, c.placed);
}

/** The note of a tool call whose result the log does not hold (it did not run, or the log ended). */
export const NO_RESULT = "no result in the log";

/**
 * The event of a tool call that runs something (no file read, searched or written): noted
 * {@link NO_RESULT} when the log holds no result for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEvent } from "./common.ts";
 * assert.equal(runEvent(3, "shell", { command: "make" }, true).note, undefined);
 * assert.equal(runEvent(3, "shell", { command: "make" }, false).note, "no result in the log");
 * ```
 */
export function runEvent(step: number, tool: string, input: unknown, answered: boolean): Event {
  return toolEvent(step, "run", tool, input, [], {}, answered ? undefined : NO_RESULT);
}

/** A JSON object, as the readers walk it. */
export type Json = Record<string, unknown>;

/** A plain object, or undefined. */
export function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as Json : undefined;
}

/** A string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** A finite number, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** An array, or []. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Text of a chat message content (a string, or a list of `{type:"text", text}` parts). */
export function contentText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    const parts = v.map((p) => typeof p === "string" ? p : str(obj(p)?.text)).filter((p) =>
      p !== undefined
    );
    return parts.length ? parts.join("\n") : undefined;
  }
  return undefined;
}

/**
 * The deepest directory common to some absolute posix directories, or undefined when they have
 * none but the root (a workspace root guessed from a log's absolute paths).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commonDir } from "./common.ts";
 * assert.equal(commonDir(["/w/p/pkg", "/w/p", "/w/p/tests"]), "/w/p");
 * assert.equal(commonDir(["/w/p", "/etc"]), undefined);
 * ```
 */
export function commonDir(dirs: readonly string[]): string | undefined {
  if (!dirs.length) return undefined;
  let common = dirs[0].split("/");
  for (const d of dirs.slice(1)) {
    const parts = d.split("/");
    let k = 0;
    while (k < common.length && k < parts.length && common[k] === parts[k]) k++;
    common = common.slice(0, k);
  }
  const dir = common.join("/");
  return dir.length > 1 ? dir : undefined;
}

/** Seconds between the first and last of some epoch timestamps (seconds or ms), when ≥ 2. */
export function spanSeconds(stamps: number[], ms: boolean): number | undefined {
  if (stamps.length < 2) return undefined;
  let lo = Infinity, hi = -Infinity;
  for (const t of stamps) {
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const span = hi - lo;
  return ms ? span / 1000 : span;
}

// deno-lint-ignore no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * A terminal output without ANSI escape sequences (colours, bracketed-paste toggles), which
 * harnesses keep in what they pass to the model but which are not file text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stripAnsi } from "./common.ts";
 * assert.ok(stripAnsi("\u001b[?2004l29:x\n\u001b[1mok\u001b[0m") === "29:x\nok");
 * ```
 */
export function stripAnsi(s: string): string {
  return s.includes("\u001b") ? s.replace(ANSI, "") : s;
}

/**
 * The line numbers a tool printed, in order: for each line, `match` finds the number (group 1);
 * numbers must run consecutively from the first one found, so a stray match (a footer, a number
 * inside the file's own text) is skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { consecutiveNumbers } from "./common.ts";
 * const text = "L3: a\nL4: b\nL9: stray\nL5: c\n(end)";
 * assert.deepEqual(consecutiveNumbers(text, (l) => l.match(/^L(\d+): /)), [3, 4, 5]);
 * ```
 */
export function consecutiveNumbers(
  text: string,
  match: (line: string) => RegExpMatchArray | null,
): number[] {
  return consecutiveShown(text, match).map(([n]) => n);
}

/**
 * The lines a tool printed with their numbers, in order, as {@link ShownLine}s: `match` finds the
 * number (group 1) and the line's text (group 2, when the pattern has one); numbers must run
 * consecutively from the first one found, as in {@link consecutiveNumbers}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { consecutiveShown } from "./common.ts";
 * const text = "L3: a\nL4: b\nL9: stray\nL5: c\n(end)";
 * assert.deepEqual(consecutiveShown(text, (l) => l.match(/^L(\d+): (.*)$/)), [[3, "a"], [4, "b"], [5, "c"]]);
 * ```
 */
export function consecutiveShown(
  text: string,
  match: (line: string) => RegExpMatchArray | null,
): ShownLine[] {
  const out: ShownLine[] = [];
  let expect: number | undefined;
  for (const line of text.split("\n")) {
    const m = match(line);
    if (!m) continue;
    const n = Number(m[1]);
    if (expect !== undefined && n !== expect) continue;
    out.push([n, m[2]]);
    expect = n + 1;
  }
  return out;
}
