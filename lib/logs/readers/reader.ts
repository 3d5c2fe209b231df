/**
 * The reader descriptor: what one harness's reader module exports ({@link LogReader}), and the
 * log as detectors and readers see it ({@link LogInput}). The registry (`./index.ts`) lists the
 * descriptors; detection, parsing, `validate`'s harness check, `run --agent` presets, the help
 * texts and the table in docs/harnesses.md all come from it.
 *
 * @module
 */
import type { ReaderOptions, ReaderResult } from "./common.ts";
import { type Jsonl, type JsonlFile, parseJsonl } from "./jsonl.ts";

export type { ReaderOptions, ReaderResult };

/** What {@link LogReader.read} gets besides the log: the workspace, and sub-agent files. */
export interface ReadOptions extends ReaderOptions {
  /** The session's sub-agent files given beside it (Claude Code, Codex CLI), parsed as JSONL. */
  companions(): JsonlFile[];
}

/** Value of {@link LogInput.json} when the text is not one JSON value. */
export const NOT_JSON: unique symbol = Symbol("not one JSON value");

/**
 * A log text as detectors and readers see it; each view is computed once, on first use. The
 * views readers get (`json`, `jsonl`, `values`) have every CRLF inside strings turned into LF.
 */
export interface LogInput {
  /** The log's file name, as messages name it. */
  readonly file: string;
  /** The text, without a byte-order mark. */
  readonly text: string;
  /** The text as one JSON value, or {@link NOT_JSON}. */
  json(): unknown;
  /** Why {@link json} is {@link NOT_JSON} (the parser's message). */
  jsonError(): string;
  /** The first `n` (≤ 8) values of the text read as JSON Lines, unparsed lines skipped. */
  head(n?: number): unknown[];
  /** The whole text as JSON Lines; lines that are not JSON are listed in `bad`. */
  jsonl(): Jsonl;
  /** The values of the text as JSON Lines that must be whole but for a cut last line. */
  values(what: string): unknown[];
}

/**
 * Turns every CRLF in the strings of a parsed log into LF, in place (logs written on Windows, or
 * by a harness that keeps `\r\n`): commands, outputs and file texts then read like any other
 * log. Line numbers do not change (workspace files are read the same way, workspace.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeNewlines } from "./reader.ts";
 * const v = normalizeNewlines({ m: ["a\r\nb", { c: "x\r\n" }], n: 1 });
 * assert.deepEqual(v, { m: ["a\nb", { c: "x\n" }], n: 1 });
 * ```
 */
export function normalizeNewlines<T>(value: T): T {
  const fix = (s: string) => s.includes("\r\n") ? s.replaceAll("\r\n", "\n") : s;
  if (typeof value === "string") return fix(value) as T;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === "string") v[i] = fix(x);
        else if (x !== null && typeof x === "object") stack.push(x);
      }
    } else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        const x = o[k];
        if (typeof x === "string") o[k] = fix(x);
        else if (x !== null && typeof x === "object") stack.push(x);
      }
    }
  }
  return value;
}

/**
 * The {@link LogInput} of a log text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logInput, NOT_JSON } from "./reader.ts";
 * const a = logInput('{"a":1}\n{"b":"x\\r\\ny"}\n', "s.jsonl");
 * assert.ok(a.json() === NOT_JSON && a.head().length === 2);
 * assert.deepEqual(a.jsonl().records.map((r) => r.value), [{ a: 1 }, { b: "x\ny" }]);
 * assert.deepEqual(logInput("\ufeff[1]", "l.json").json(), [1]);
 * ```
 */
export function logInput(text: string, file: string): LogInput {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let json: unknown, error = "", parsed = false;
  let head: unknown[] | undefined;
  let jsonl: Jsonl | undefined;
  let values: unknown[] | undefined;
  const parse = () => {
    if (parsed) return;
    parsed = true;
    try {
      json = normalizeNewlines(JSON.parse(t));
    } catch (e) {
      json = NOT_JSON;
      error = e instanceof Error ? e.message : String(e);
    }
  };
  return {
    file,
    text: t,
    json() {
      parse();
      return json;
    },
    jsonError() {
      parse();
      return error;
    },
    head(n = 5) {
      if (!head) {
        parse();
        // one line that is one JSON value: that value (not parsed twice)
        const one = json !== NOT_JSON && !t.trim().includes("\n");
        head = one ? [json] : parseJsonl(t, { values: 8, lines: 32 }).records.map((r) => r.value);
      }
      return head.slice(0, n);
    },
    jsonl() {
      jsonl ??= normalizeNewlines(parseJsonl(t));
      return jsonl;
    },
    values(what: string) {
      values ??= normalizeNewlines(
        parseJsonl(t, { strict: { file, what } }).records.map((r) => r.value),
      );
      return values;
    },
  };
}

/** Where a preset looks for the turn's session log, and what it knows about the turn. */
export interface CollectContext {
  /** The turn's run directory (`runs/<config>/<chain>/turn<N>/`). */
  turnDir: string;
  /** The workspace (the agent's working directory). */
  workspace: string;
  /** Per-turn scratch directory (`{scratch}`). */
  scratch: string;
  /** The session id given to the harness (`{session_id}`). */
  sessionId: string;
  /** The agent's environment (HOME, CODEX_HOME, … as the agent saw them). */
  env: Record<string, string | undefined>;
  /** Epoch milliseconds when the agent process started. */
  startedMs: number;
  /** The agent's standard output. */
  stdout: string;
}

/** A `reporeuse run --agent <name>` preset: the harness's non-interactive command line. */
export interface RunPreset {
  /** The `--agent` name. */
  name: string;
  /** Harness name recorded in config.json when `--harness` is not given. */
  harness: string;
  /** Runner command template (bash; placeholders as in `run --help`). */
  command: string;
  /** `run --help` lines: the command as users read it and where the log is copied from. */
  help: string;
  /** Extra environment for the agent process. */
  env(c: { scratch: string; sessionId: string }): Record<string, string>;
  /** Copies the session log(s) into the turn directory; returns the files written (relative). */
  collect(c: CollectContext): Promise<string[]>;
}

/** A reader's row of the table in docs/harnesses.md (Markdown inline text in each cell). */
export interface DocRow {
  /** Versions and formats covered. */
  versions: string;
  /** What is read: the tools and commands whose shown lines are credited. */
  read: string;
  /** Searches (grep). */
  search: string;
  /** Listings. */
  listing: string;
  /** What is refused or cannot be known from the log, and why. */
  refused: string;
  /** Where the harness writes the log, and the `run --agent` preset. */
  log: string;
}

/**
 * One harness's reader, as its module exports it and the registry (`./index.ts`) lists it.
 * Detection runs every reader's {@link detect}: exactly one must claim a log, else the log is
 * refused ("unsupported log format: looks like …").
 */
export interface LogReader {
  /** Registry key (`reads` lists readers by it), e.g. `claude-code`. */
  name: string;
  /** The harness family's display name, e.g. `Claude Code`. */
  harness: string;
  /**
   * Harness names of config.json (lower case, letters and digits only: `claudecode`) whose logs
   * this reader reads; a configured name starting with one of them belongs to this family
   * (`validate`'s harness check).
   */
  harnessNames: readonly string[];
  /** The formats it reads (`reads --format`; the `format` of its results). */
  formats: readonly string[];
  /** File names its logs have where the harness writes them (globs). */
  files: readonly string[];
  /**
   * The format of a log this reader recognises by the format's own required markers, else
   * undefined. Never claims by a shape other formats share ("an array of messages").
   */
  detect(input: LogInput): string | undefined;
  /**
   * With `reads --format F` (F one of {@link formats}): true when the log can be read as F even
   * though {@link detect} does not claim it (a session whose first lines say nothing). Absent:
   * only what {@link detect} claims is read.
   */
  accepts?(input: LogInput, format: string): boolean;
  /** Reads a log of `format` (one of {@link formats}). */
  read(input: LogInput, format: string, opts: ReadOptions): Promise<ReaderResult>;
  /** The `run --agent` preset, where the harness has a non-interactive command line. */
  run?: RunPreset;
  /** Its row of the table in docs/harnesses.md. */
  doc: DocRow;
}

/**
 * A format the registry knows but no reader reads yet (or one that holds no file text): a log
 * of it is refused with "unsupported log format: looks like {@link looksLike}".
 */
export interface Unsupported {
  /** What the log looks like, e.g. `a Cline / Roo Code / Kilo Code api_conversation_history.json`. */
  looksLike: string;
  /** Why it is not read, when there is more to say than "no reader yet". */
  reason?: string;
  /** True when the log has this format's own markers. */
  test(input: LogInput): boolean;
}
