/**
 * Reading a run log: format detection, the harness reader, and the totals (reads, Files, Lines,
 * coverage).
 *
 * @module
 */
import type { Event, FileSource, Ranges, ReadsResult } from "./types.ts";
import { countLines, unionRanges } from "./ranges.ts";
import { type Format, sniff, sniffAs } from "./detect.ts";
import { evalInstances, instanceNames, lastAttempts, selectInstance } from "./instances.ts";
import { LogFormatError } from "./errors.ts";
import type { ReaderResult } from "./readers/common.ts";
import { normalizeNewlines } from "./readers/reader.ts";
import { bundleLog } from "./bundle.ts";
import { logBudget, MAX_LOG_BYTES, readLogHead, readLogText } from "./files.ts";
import { type JsonlFile, parseJsonl } from "./readers/jsonl.ts";
import { sessionFiles } from "./session.ts";
import { dirSource, type TrackedSource } from "./workspace.ts";

export { MAX_LOG_BYTES, normalizeNewlines };

/** A sub-agent file given beside a session log (Claude Code `subagents/`, Codex child rollouts). */
export interface Companion {
  file: string;
  text: string;
}

/** Totals over per-action events. */
export function totals(r: ReaderResult): ReadsResult {
  const events: Event[] = r.actions.flat();
  const reads: Ranges = unionRanges(
    events.filter((e) => e.kind === "read" || e.kind === "search").map((e) => e.lines),
  );
  const files = new Set<string>();
  for (const e of events) {
    if (e.kind === "read" || e.kind === "search" || e.kind === "list") {
      for (const p of e.paths) files.add(p);
    }
  }
  const interpreted =
    r.actions.filter((a) =>
      !a.some((e) =>
        e.kind === "other" || ((e.kind === "read" || e.kind === "search") && !e.placed)
      )
    ).length;
  return {
    format: r.format,
    events,
    reads,
    files: files.size,
    lines: countLines(reads),
    coverage: r.actions.length ? interpreted / r.actions.length : 1,
    meta: r.meta,
  };
}

/**
 * Parses a log text. `files` is W_{t-1} (workspace-relative posix paths); `cwd` the harness's
 * working directory (`/testbed`), overriding what the log says; `companions` the session's
 * sub-agent files (Claude Code, Codex). Throws {@link LogFormatError} naming `file` when the log
 * cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLog } from "./parse.ts";
 * const fence = "`".repeat(3);
 * const log = {
 *   info: { model_stats: { instance_cost: 0.1, api_calls: 1 } },
 *   trajectory_format: "mini-swe-agent-1",
 *   messages: [
 *     { role: "assistant", content: `THOUGHT: look\n\n${fence}bash\nhead -n 2 a.py\n${fence}` },
 *     { role: "user", content: "<returncode>0</returncode>\n<output>\nx = 1\ny = 2\n</output>" },
 *   ],
 * };
 * const r = await parseLog(JSON.stringify(log), { file: "log.json" });
 * assert.ok(JSON.stringify(r.reads) === '{"a.py":[[1,2]]}' && r.lines === 2);
 * ```
 */
export async function parseLog(
  text: string,
  opts: {
    file: string;
    files?: FileSource;
    cwd?: string;
    companions?: Companion[];
    /** Read as this format instead of detecting it. */
    format?: Format;
  },
): Promise<ReadsResult> {
  const { format, reader, input } = opts.format
    ? sniffAs(text, opts.file, opts.format)
    : sniff(text, opts.file);
  // a wrapper per call collects the absolute paths found outside the workspace (see cwdProblem)
  const base = opts.files;
  const files: TrackedSource | undefined = base && Object.assign((p: string) => base(p), {
    outside: new Set<string>(),
  });
  let side: JsonlFile[] | undefined;
  const companions = () =>
    side ??= (opts.companions ?? []).map((c) => ({
      file: c.file,
      jsonl: normalizeNewlines(parseJsonl(c.text)),
    }));
  let r: ReaderResult;
  try {
    r = await reader.read(input, format, {
      file: opts.file,
      files,
      cwd: opts.cwd,
      companions,
    });
  } catch (e) {
    if (e instanceof LogFormatError) throw e;
    throw new LogFormatError(
      opts.file,
      `cannot read the ${format} log: ${e instanceof Error ? e.message : e}`,
    );
  }
  const result = totals(r);
  const cwd = files ? cwdProblem(result.events, files, opts.cwd) : undefined;
  if (cwd) result.problems = [cwd];
  return result;
}

/**
 * A wrong `cwd`: no action names a path inside the workspace, yet some absolute path the log
 * names is a workspace file under another root (`/workspace/pkg/a.py` when the root is
 * `/testbed`). Every number of such a log would be 0; the message names the likely root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cwdProblem } from "./parse.ts";
 * const files = Object.assign((p: string) => (p === "pkg/a.py" ? "x = 1\n" : undefined), {
 *   outside: new Set(["/workspace/pkg/a.py"]),
 * });
 * assert.match(cwdProblem([], files, "/testbed") ?? "", /recorded under \/workspace/);
 * ```
 */
export function cwdProblem(
  events: Event[],
  files: TrackedSource,
  cwd: string | undefined,
): string | undefined {
  if (!files.outside?.size) return undefined;
  const inside = events.some((e) => e.kind !== "run" && e.kind !== "other" && e.paths.length);
  if (inside) return undefined;
  const roots = new Map<string, { n: number; example: string }>();
  for (const p of files.outside) {
    const segs = p.split("/").filter((s) => s !== "");
    for (let k = 1; k < segs.length; k++) {
      const rest = segs.slice(k).join("/");
      let found = false;
      try {
        found = typeof files(rest) === "string";
      } catch {
        found = false;
      }
      if (!found) continue;
      const root = "/" + segs.slice(0, k).join("/");
      const r = roots.get(root) ?? { n: 0, example: p };
      r.n++;
      roots.set(root, r);
      break;
    }
  }
  if (!roots.size) return undefined;
  const [root, { example }] = [...roots].sort((a, b) => b[1].n - a[1].n)[0];
  const was = cwd ? `the workspace root ${cwd} (cwd)` : "the workspace root the log names";
  return `wrong cwd: every path the log names is outside ${was}, but ${example} is a workspace ` +
    `file under ${root}: the log looks recorded under ${root}; set "cwd": "${root}" in config.json`;
}

/**
 * Reads a log file, or a session directory (see {@link sessionFiles}: the session log and its
 * sub-agent files); `root` is the workspace directory on disk (never read outside it).
 * Invalid UTF-8 bytes are replaced, not fatal.
 */
export async function readLog(
  path: string,
  opts: {
    root?: string;
    cwd?: string;
    format?: Format;
    /** One instance of an evaluation output.jsonl (its last attempt unless `attempt`). */
    instance?: string;
    attempt?: number;
  } = {},
): Promise<ReadsResult> {
  // a session directory, or a session with sub-agent files next to it: OpenHands and Gemini CLI
  // are bundled into one text (bundle.ts); Claude Code and Codex keep their sub-agent files apart
  const bundled = await bundleLog(path);
  const session = bundled === undefined ? sessionFiles(path) : { main: path, companions: [] };
  const budget = logBudget(path);
  let text = bundled ?? readLogText(session.main, budget);
  let file = session.main;
  // an evaluation output.jsonl of several instances is read one instance at a time
  const instances = bundled === undefined ? evalInstances(text) : undefined;
  if (opts.instance !== undefined) {
    if (!instances) {
      throw new LogFormatError(path, "--instance: the log is not an evaluation output.jsonl");
    }
    const inst = selectInstance(instances, opts.instance, path, opts.attempt);
    text = inst.text;
    file = `${session.main}#${inst.id}${inst.attempt === undefined ? "" : `@${inst.attempt}`}`;
  } else if (instances && lastAttempts(instances).length > 1) {
    throw new LogFormatError(
      path,
      `an evaluation output.jsonl with ${lastAttempts(instances).length} instances (${
        instanceNames(instances)
      }): read one with --instance ID (\`reporeuse reads\` on the file lists them)`,
    );
  }
  const companions: Companion[] = [];
  for (const f of session.companions) companions.push({ file: f, text: readLogText(f, budget) });
  let files: FileSource | undefined;
  if (opts.root !== undefined) {
    try {
      files = dirSource(opts.root);
    } catch (e) {
      throw new LogFormatError(
        opts.root,
        `workspace directory not readable: ${e instanceof Error ? e.message : e}`,
      );
    }
  }
  return await parseLog(text, {
    file,
    files,
    cwd: opts.cwd,
    companions,
    format: opts.format,
  });
}

/** One instance of an evaluation output.jsonl as `reporeuse reads` lists it. */
export interface InstanceSummary {
  instance_id: string;
  attempt?: number;
  /** Line of its record in the file. */
  line: number;
  /** Events in its `history`. */
  history: number;
  files?: number;
  lines?: number;
  coverage?: number;
  /** The record's own `error`. */
  error?: string;
  /** Why it cannot be read. */
  problem?: string;
}

/**
 * The instances of an evaluation output.jsonl holding several, each read (files, lines and
 * coverage as `reads --instance` gives them); undefined when the log is not such a file.
 */
export async function readInstances(
  path: string,
  opts: { root?: string; cwd?: string; format?: Format } = {},
): Promise<InstanceSummary[] | undefined> {
  if ((await Deno.stat(path)).isDirectory) return undefined;
  // the first record names its instance: other logs are not read twice
  const head = readLogHead(path, 64 * 1024);
  const nl = head.indexOf("\n");
  if (!/^\s*\{/.test(head) || !/"instance_id"\s*:/.test(nl < 0 ? head : head.slice(0, nl))) {
    if (nl >= 0 || !head.includes('"instance_id"')) return undefined;
  }
  const text = readLogText(path, logBudget(path));
  const list = evalInstances(text);
  if (!list || lastAttempts(list).length < 2) return undefined;
  const files = opts.root === undefined ? undefined : dirSource(opts.root);
  const out: InstanceSummary[] = [];
  for (const inst of list) {
    const s: InstanceSummary = { instance_id: inst.id, line: inst.line, history: inst.events };
    if (inst.attempt !== undefined) s.attempt = inst.attempt;
    try {
      const r = await parseLog(inst.text, {
        file: `${path}#${inst.id}`,
        files,
        cwd: opts.cwd,
        format: opts.format,
      });
      s.files = r.files;
      s.lines = r.lines;
      s.coverage = r.coverage;
    } catch (e) {
      if (!(e instanceof LogFormatError)) throw e;
      s.problem = e.message;
    }
    if (inst.error) s.error = inst.error;
    out.push(s);
  }
  return out;
}
