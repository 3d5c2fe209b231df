/**
 * Reading a run log: format detection, the harness reader, and the totals (reads, Files, Lines,
 * coverage).
 *
 * @module
 */
import type { Event, FileSource, Ranges, ReadsResult } from "./types.ts";
import { countLines, unionRanges } from "./ranges.ts";
import { sniff } from "./detect.ts";
import { LogFormatError } from "./errors.ts";
import type { ReaderResult } from "./readers/common.ts";
import { readMini } from "./readers/mini.ts";
import { readOpenCode, readOpenCodeJsonl } from "./readers/opencode.ts";
import { readSweAgent } from "./readers/sweagent.ts";
import { readOpenHands } from "./readers/openhands.ts";
import { readGemini } from "./readers/gemini.ts";
import { readAider } from "./readers/aider.ts";
import { bundleLog } from "./bundle.ts";
import { dirSource } from "./workspace.ts";

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
  const interpreted = r.actions.filter((a) => !a.some((e) => e.kind === "other")).length;
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
 * working directory (`/testbed`), overriding what the log says. Throws {@link LogFormatError}
 * naming `file` when the log cannot be read.
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
  opts: { file: string; files?: FileSource; cwd?: string },
): Promise<ReadsResult> {
  const { format, data } = sniff(text, opts.file);
  let r: ReaderResult;
  try {
    switch (format) {
      case "mini-swe-agent-1":
      case "mini-swe-agent-1.1":
        r = await readMini(data, opts, format);
        break;
      case "opencode-export":
        r = await readOpenCode(data, opts);
        break;
      case "opencode-jsonl":
        r = await readOpenCodeJsonl(data as unknown[], opts);
        break;
      case "swe-agent":
        r = await readSweAgent(data, opts);
        break;
      case "openhands-v0":
      case "openhands-v1":
        r = await readOpenHands(data, opts, format);
        break;
      case "gemini-json":
      case "gemini-jsonl":
        r = await readGemini(data, opts, format);
        break;
      case "aider-llm-history":
        r = await readAider(data as string, opts);
        break;
    }
  } catch (e) {
    if (e instanceof LogFormatError) throw e;
    throw new LogFormatError(
      opts.file,
      `cannot read the ${format} log: ${e instanceof Error ? e.message : e}`,
    );
  }
  return totals(r);
}

/**
 * Reads a log file; `root` is the workspace directory on disk (never read outside it).
 * Invalid UTF-8 bytes are replaced, not fatal.
 */
export async function readLog(
  path: string,
  opts: { root?: string; cwd?: string } = {},
): Promise<ReadsResult> {
  // a session directory, or a session with sub-agent files next to it (lib/logs/bundle.ts)
  const bundled = await bundleLog(path);
  let text: string;
  if (bundled !== undefined) text = bundled;
  else {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (e) {
      throw new LogFormatError(path, `cannot read the file: ${e instanceof Error ? e.message : e}`);
    }
    text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  }
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
  return await parseLog(text, { file: path, files, cwd: opts.cwd });
}
