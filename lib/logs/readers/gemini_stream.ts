/**
 * Gemini CLI `gemini -p … --output-format stream-json` output (v0.11+,
 * `packages/core/src/output/types.ts`): one event a line — `init {session_id, model}`,
 * `message {role, content, delta?}`, `tool_use {tool_name, tool_id, parameters}`,
 * `tool_result {tool_id, status, output?, error?}`, `error`, `result {status, stats}`.
 *
 * A `tool_result`'s `output` is the tool's **display** text (`resultDisplay`,
 * `packages/cli/src/nonInteractiveCli.ts`), not what the model saw. What it still tells:
 * - `read_file` (`utils/fileUtils.ts`): `""` for a whole text file, `Read lines A-B of N from
 *   <path>` for a window, `Read all N lines from <path> (some lines were shortened)`: the lines
 *   shown are known, their text is not. They are credited when the workspace's file has them
 *   (a whole-file read needs the workspace to know how many lines it has).
 * - `run_shell_command`: the command's output (`result.output`): through the shell analysis.
 * - `grep_search`, `read_many_files`, `glob`, `list_directory`: a summary object or line: their
 *   operands only, no line credited.
 * Each run of tool calls between two messages is one step. The session recording
 * (`~/.gemini/tmp/<project>/chats/`) holds what the model saw and is the better log.
 *
 * @module
 */
import type { Event, FileSource, LogMeta } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import { creditedRead, type Json, num, obj, runEvent, str, stripAnsi } from "./common.ts";
import type { LogReader } from "./reader.ts";

/** True when a JSONL value is a Gemini CLI stream-json event of its own kind. */
export function isGeminiStreamEvent(v: unknown): boolean {
  const o = obj(v);
  if (!o || typeof o.timestamp !== "string") return false;
  return (o.type === "init" && "session_id" in o && "model" in o) ||
    (o.type === "tool_use" && typeof o.tool_name === "string" && "tool_id" in o) ||
    (o.type === "tool_result" && typeof o.tool_id === "string" && "status" in o);
}

/**
 * The lines a `read_file` display names: `[a, b]`, `"all"` for the whole file, or undefined
 * when it names none (an image, a binary file, an error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayedRange } from "./gemini_stream.ts";
 * assert.deepEqual(displayedRange("Read lines 10-14 of 400 from pkg/big.py"), [10, 14]);
 * assert.equal(displayedRange(""), "all");
 * assert.equal(displayedRange("Read all 9 lines from a.py (some lines were shortened)"), "all");
 * assert.equal(displayedRange("Read image file: a.png"), undefined);
 * ```
 */
export function displayedRange(display: string): [number, number] | "all" | undefined {
  if (display.trim() === "") return "all";
  const m = display.match(/^Read lines (\d+)-(\d+) of \d+ from /);
  if (m) return [Number(m[1]), Number(m[2])];
  if (/^Read all \d+ lines from /.test(display)) return "all";
  return undefined;
}

interface Call {
  id: string;
  name: string;
  args: Json;
  step: number;
  result?: Json;
}

interface Ctx {
  ws: TurnWorkspace;
}

function readEvent(ctx: Ctx, c: Call): Event {
  const raw = str(c.args.file_path) ?? str(c.args.absolute_path) ?? str(c.args.path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
  if (rel === undefined || rel === "") {
    return toolEvent(c.step, "read", c.name, c.args, [], {}, pathNote(raw));
  }
  if (!c.result || c.result.status !== "success") {
    return toolEvent(
      c.step,
      "read",
      c.name,
      c.args,
      [],
      {},
      `tool call failed: nothing read (${rel})`,
    );
  }
  const display = str(c.result.output);
  const range = display === undefined ? undefined : displayedRange(display);
  if (range === undefined) {
    return toolEvent(c.step, "read", c.name, c.args, [rel], {}, `no file lines shown (${rel})`);
  }
  let shown: ShownLine[] = [];
  if (range === "all") {
    const file = ctx.ws.read(rel);
    if (typeof file !== "string") {
      const why = file === UNKNOWN
        ? `whole-file read: the stream does not say how many lines were shown and the file is not known (${rel})`
        : `${rel} is not a regular file in the workspace: nothing credited`;
      return toolEvent(c.step, "read", c.name, c.args, [rel], {}, why, false);
    }
    const n = ctx.ws.linesOf(file).length;
    shown = Array.from({ length: n }, (_, i) => [i + 1, undefined]);
  } else {
    for (let n = range[0]; n <= range[1]; n++) shown.push([n, undefined]);
  }
  return creditedRead(ctx.ws, c.step, c.name, c.args, rel, shown);
}

async function callEvents(ctx: Ctx, c: Call): Promise<Event[]> {
  const ok = c.result?.status === "success";
  const operand = (key: string[]) => {
    const raw = key.map((k) => str(c.args[k])).find((v) => v !== undefined);
    return { raw, rel: raw === undefined ? "" : ctx.ws.resolve(raw, "") };
  };
  switch (c.name) {
    case "read_file":
      return [readEvent(ctx, c)];
    case "run_shell_command": {
      const command = str(c.args.command);
      if (command === undefined) {
        return [toolEvent(c.step, "other", c.name, c.args, [], {}, "shell call without a command")];
      }
      const dir = str(c.args.dir_path) ?? str(c.args.directory);
      const cwd = dir === undefined ? "" : ctx.ws.resolve(dir, "");
      if (cwd === undefined) {
        return [toolEvent(c.step, "run", c.name, c.args, [], {}, outsideNote(dir))];
      }
      const out = str(c.result?.output);
      const obs = c.result && out !== undefined
        ? { output: stripAnsi(out).replace(/([^\n])$/, "$1\n") }
        : undefined;
      return await analyzeShell(command, { ws: ctx.ws, cwd, step: c.step, tool: c.name }, obs);
    }
    case "grep_search":
    case "search_file_content":
    case "read_many_files": {
      const { raw, rel } = operand(["dir_path", "path"]);
      const kind = c.name === "read_many_files" ? "read" : "search";
      if (rel === undefined) {
        return [toolEvent(c.step, kind, c.name, c.args, [], {}, outsideNote(raw))];
      }
      return [
        toolEvent(
          c.step,
          kind,
          c.name,
          c.args,
          [shownPath(rel)],
          {},
          "the stream holds a summary of the result only: no line credited",
          false,
        ),
      ];
    }
    case "glob":
    case "list_directory":
    case "ls": {
      const { raw, rel } = operand(["dir_path", "path"]);
      if (rel === undefined) {
        return [toolEvent(c.step, "list", c.name, c.args, [], {}, outsideNote(raw))];
      }
      return [toolEvent(c.step, "list", c.name, c.args, [shownPath(rel)], {})];
    }
    case "write_file":
    case "replace":
    case "edit": {
      const { raw, rel } = operand(["file_path", "absolute_path", "path"]);
      if (rel && ok) {
        ctx.ws.write(
          rel,
          c.name === "write_file" && typeof c.args.content === "string" ? c.args.content : UNKNOWN,
        );
      }
      const note = rel === undefined ? outsideNote(raw) : ok ? undefined : "tool call failed";
      return [toolEvent(c.step, "write", c.name, { file_path: raw }, rel ? [rel] : [], {}, note)];
    }
    default:
      return [runEvent(c.step, c.name, c.args, !!c.result)];
  }
}

/** Reads Gemini CLI stream-json events. */
export async function readGeminiStream(
  values: unknown[],
  opts: { files?: FileSource; cwd?: string },
): Promise<{ actions: Event[][]; meta: LogMeta }> {
  const events = values.map((v) => obj(v)).filter((o): o is Json => !!o);
  // the stream names no working directory: the caller's (`--cwd`, a run's configuration)
  const ctx: Ctx = { ws: new TurnWorkspace(opts.files, opts.cwd ?? "") };
  const calls = new Map<string, Call>();
  const order: Call[] = [];
  const actions: Event[][] = [];
  let step = -1, inTools = false;
  const meta: LogMeta = {};
  for (const e of events) {
    if (e.type === "tool_use") {
      const id = str(e.tool_id) ?? `#${order.length}`;
      if (!inTools) step++;
      inTools = true;
      const c: Call = { id, name: str(e.tool_name) ?? "?", args: obj(e.parameters) ?? {}, step };
      calls.set(id, c);
      order.push(c);
    } else if (e.type === "tool_result") {
      const c = calls.get(str(e.tool_id) ?? "");
      if (c) c.result = e;
      else {actions.push([
          toolEvent(
            Math.max(step, 0),
            "other",
            "?",
            {},
            [],
            {},
            `tool result without its call (${str(e.tool_id)})`,
          ),
        ]);}
    } else if (e.type === "message") {
      if (e.role === "assistant" || e.role === "user") inTools = false;
    } else if (e.type === "result") {
      const stats = obj(e.stats);
      const ms = num(stats?.duration_ms);
      if (ms !== undefined) meta.seconds = ms / 1000;
      const tin = num(stats?.input_tokens), tout = num(stats?.output_tokens);
      if (tin !== undefined) meta.tokens_in = tin;
      if (tout !== undefined) meta.tokens_out = tout;
    }
  }
  for (const c of order) actions.push(await callEvents(ctx, c));
  meta.steps = step + 1;
  return { actions, meta };
}

/** The Gemini CLI stream-json reader (registry entry). */
export const reader: LogReader = {
  name: "gemini-cli-stream",
  harness: "Gemini CLI",
  harnessNames: ["geminicli", "gemini"],
  formats: ["gemini-stream-json"],
  files: ["stdout of `gemini -p … --output-format stream-json`"],
  detect: (input) => input.head(8).some(isGeminiStreamEvent) ? "gemini-stream-json" : undefined,
  async read(input, format, opts) {
    return { format, ...(await readGeminiStream(input.values("a JSONL log"), opts)) };
  },
  doc: {
    versions:
      "`--output-format stream-json` (v0.11+: `init`, `message`, `tool_use`, `tool_result`, `result` events)",
    read:
      '`read_file` from its display text (`""` whole file, `Read lines A-B of N`, `Read all N lines`): the lines named, checked against the workspace\'s file (their text is not in the stream); `run_shell_command` output via the shell analysis',
    search: "`grep_search` (its operand only: the stream has a summary)",
    listing: "`glob`, `list_directory`",
    refused:
      "`tool_result.output` is the display text, not what the model saw: a whole-file read is credited only with the workspace known (the stream does not say how many lines); `grep_search` and `read_many_files` credit no line; the working directory is not in the stream: give `--cwd` (runs give the configuration's cwd); without it absolute paths are outside the workspace. Prefer the session recording (the `gemini` preset collects it)",
    log:
      'stdout of `gemini -p "<prompt>" --output-format stream-json` (the `gemini` preset collects the session recording instead)',
  },
};
