/**
 * Cursor CLI `cursor-agent -p --output-format stream-json` output (Cursor docs, "Output format"):
 * one JSON object a line — `system`/`init` (`cwd`, `session_id`, `model`, `apiKeySource`),
 * `user` / `assistant` messages, `thinking` deltas, `tool_call` events (`subtype` `started` /
 * `completed`, `call_id`, `tool_call: {<kind>ToolCall: {args, result?}}`) and the final
 * `result`. The CLI is closed source: the shapes below are the documented ones and those public
 * captures show.
 *
 * - `readToolCall {args: {path, offset?, limit?}, result: {success: {content, isEmpty,
 *   exceededLimit, totalLines, …}}}`: `content` is the file text, without line numbers. A read
 *   without `offset` shows lines from 1; with one, the lines are placed where their text matches
 *   the workspace's file (the base of `offset` is not documented), and not credited without
 *   the workspace. A cut read (`exceededLimit`) does not credit its last, possibly partial, line.
 * - `shellToolCall {args: {command, workingDirectory?}, result: {success: {stdout, stderr,
 *   exitCode}}}`: through the shell analysis.
 * - `writeToolCall {args: {path, fileText}}`, `editToolCall`, `deleteToolCall`: writes.
 * - `grepToolCall`, `globToolCall`, `lsToolCall`: searches and listings of their operand; their
 *   result format is not documented, so no line is credited for them.
 * Each run of tool calls between two messages is one step.
 *
 * @module
 */
import type { Event, FileSource, LogMeta } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import {
  creditedRead,
  type Json,
  NO_RESULT,
  num,
  obj,
  runEvent,
  str,
  stripAnsi,
} from "./common.ts";
import type { LogReader } from "./reader.ts";
import { PROMPT, saveStream } from "./collect.ts";

/** True when a JSONL value is a Cursor stream-json line of its own kind. */
export function isCursorLine(v: unknown): boolean {
  const o = obj(v);
  if (!o) return false;
  if (o.type === "tool_call" && obj(o.tool_call)) {
    return Object.keys(obj(o.tool_call)!).some((k) => /ToolCall$|^function$/.test(k));
  }
  return o.type === "system" && o.subtype === "init" && "apiKeySource" in o &&
    !Array.isArray(o.tools);
}

interface Call {
  id: string;
  kind: string;
  args: Json;
  result?: Json;
  step: number;
}

interface Ctx {
  ws: TurnWorkspace;
  actions: Event[][];
}

/** The `<kind>ToolCall` entry of a `tool_call` object: its kind and body. */
function toolOf(tc: Json): { kind: string; body: Json } | undefined {
  for (const [k, v] of Object.entries(tc)) {
    if ((/ToolCall$/.test(k) || k === "function") && obj(v)) return { kind: k, body: obj(v)! };
  }
  return undefined;
}

/** Lines `start`… of a text shown as is. */
function textLines(start: number, text: string, dropLast: boolean): ShownLine[] {
  const lines = text === "" ? [] : splitLines(text.endsWith("\n") ? text : text + "\n");
  if (dropLast && !text.endsWith("\n")) lines.pop();
  return lines.map((t, i) => [start + i, t]);
}

function readEvent(ctx: Ctx, c: Call): Event {
  const raw = str(c.args.path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
  if (rel === undefined || rel === "") {
    return toolEvent(c.step, "read", c.kind, c.args, [], {}, pathNote(raw));
  }
  const ok = obj(c.result?.success);
  if (!ok) {
    return toolEvent(
      c.step,
      "read",
      c.kind,
      c.args,
      [],
      {},
      `tool call failed: nothing read (${rel})`,
    );
  }
  const content = str(ok.content);
  if (ok.isEmpty === true || content === undefined || content === "") {
    return toolEvent(c.step, "read", c.kind, c.args, [rel], {}, `nothing shown (${rel})`);
  }
  const cut = ok.exceededLimit === true;
  const offset = num(c.args.offset);
  let shown: ShownLine[];
  if (offset === undefined || offset <= 1) {
    // from the first line (an offset of 0 or 1 is the first line in either base)
    shown = textLines(1, content, cut);
  } else {
    const file = ctx.ws.read(rel);
    if (typeof file !== "string") {
      const why =
        `offset ${offset}: its base is not documented and the file is not known, so the lines cannot be placed (${rel})`;
      return toolEvent(c.step, "read", c.kind, c.args, [rel], {}, why, false);
    }
    const lines = ctx.ws.linesOf(file);
    const fits = (start: number) =>
      textLines(start, content, cut).every(([n, t]) =>
        lines[n - 1] !== undefined && lines[n - 1].trimEnd() === t!.trimEnd()
      );
    shown = textLines(fits(offset) || !fits(offset + 1) ? offset : offset + 1, content, cut);
  }
  return creditedRead(ctx.ws, c.step, c.kind, c.args, rel, shown);
}

async function callEvents(ctx: Ctx, c: Call): Promise<Event[]> {
  const done = c.result !== undefined;
  const ok = obj(c.result?.success);
  switch (c.kind) {
    case "readToolCall":
      return [readEvent(ctx, c)];
    case "shellToolCall": {
      const command = str(c.args.command);
      if (command === undefined) {
        return [toolEvent(c.step, "other", c.kind, c.args, [], {}, "shell call without a command")];
      }
      const wd = str(c.args.workingDirectory);
      const cwd = wd ? ctx.ws.resolve(wd, "") : "";
      if (cwd === undefined) {
        return [toolEvent(c.step, "run", c.kind, c.args, [], {}, outsideNote(wd))];
      }
      const out = ok ? (str(ok.stdout) ?? "") + (str(ok.stderr) ?? "") : undefined;
      const obs = out !== undefined
        ? { output: stripAnsi(out), returncode: num(ok!.exitCode) }
        : undefined;
      return await analyzeShell(
        command,
        { ws: ctx.ws, cwd, step: c.step, tool: "shellToolCall" },
        obs,
      );
    }
    case "writeToolCall":
    case "editToolCall":
    case "deleteToolCall": {
      const raw = str(c.args.path);
      const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
      if (rel && ok) {
        if (c.kind === "deleteToolCall") ctx.ws.remove(rel);
        else if (c.kind === "writeToolCall" && typeof c.args.fileText === "string") {
          ctx.ws.write(rel, c.args.fileText);
        } else ctx.ws.write(rel, UNKNOWN);
      }
      const note = rel === undefined
        ? outsideNote(raw)
        : ok
        ? undefined
        : done
        ? "tool call failed"
        : NO_RESULT;
      return [toolEvent(c.step, "write", c.kind, { path: raw }, rel ? [rel] : [], {}, note)];
    }
    case "grepToolCall":
    case "globToolCall":
    case "lsToolCall": {
      const raw = str(c.args.path) ?? str(c.args.targetDirectory);
      const rel = raw === undefined ? "" : ctx.ws.resolve(raw, "");
      const kind = c.kind === "grepToolCall" ? "search" : "list";
      if (rel === undefined) {
        return [toolEvent(c.step, kind, c.kind, c.args, [], {}, outsideNote(raw))];
      }
      const note = kind === "search" ? "result format not documented: no line credited" : undefined;
      return [toolEvent(c.step, kind, c.kind, c.args, [shownPath(rel)], {}, note)];
    }
    default:
      return [runEvent(c.step, c.kind, c.args, done)];
  }
}

/** Reads Cursor stream-json values. */
export async function readCursor(
  values: unknown[],
  opts: { files?: FileSource; cwd?: string },
): Promise<{ actions: Event[][]; meta: LogMeta }> {
  const lines = values.map((v) => obj(v)).filter((o): o is Json => !!o);
  const init = lines.find((o) => o.type === "system" && o.subtype === "init");
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, opts.cwd ?? str(init?.cwd) ?? ""),
    actions: [],
  };
  const calls = new Map<string, Call>();
  const order: Call[] = [];
  let step = -1, inTools = false, anon = 0;
  const meta: LogMeta = {};
  for (const o of lines) {
    if (o.type !== "tool_call") {
      if (o.type === "assistant" || o.type === "user") inTools = false;
      if (o.type === "result") {
        const ms = num(o.duration_ms);
        if (ms !== undefined) meta.seconds = ms / 1000;
        const u = obj(o.usage);
        const tin = num(u?.inputTokens), tout = num(u?.outputTokens);
        if (tin !== undefined) {
          meta.tokens_in = tin + (num(u?.cacheReadTokens) ?? 0) + (num(u?.cacheWriteTokens) ?? 0);
        }
        if (tout !== undefined) meta.tokens_out = tout;
      }
      continue;
    }
    const t = toolOf(obj(o.tool_call)!);
    if (!t) continue;
    const id = str(o.call_id) ?? `\u0000${anon++}`;
    let c = calls.get(id);
    if (!c) {
      if (!inTools) step++;
      inTools = true;
      c = { id, kind: t.kind, args: obj(t.body.args) ?? {}, step: Math.max(step, 0) };
      calls.set(id, c);
      order.push(c);
    }
    if (obj(t.body.args)) c.args = obj(t.body.args)!;
    if (o.subtype === "completed") c.result = obj(t.body.result) ?? {};
  }
  for (const c of order) ctx.actions.push(await callEvents(ctx, c));
  meta.steps = step + 1;
  return { actions: ctx.actions, meta };
}

/** The Cursor CLI reader (registry entry). */
export const reader: LogReader = {
  name: "cursor-cli",
  harness: "Cursor CLI",
  harnessNames: ["cursorcli", "cursoragent", "cursor"],
  formats: ["cursor-stream-json"],
  files: ["stdout of `cursor-agent -p --output-format stream-json`"],
  detect: (input) => input.head(8).some(isCursorLine) ? "cursor-stream-json" : undefined,
  async read(input, format, opts) {
    return { format, ...(await readCursor(input.values("a JSONL log"), opts)) };
  },
  run: {
    name: "cursor",
    harness: "cursor-cli",
    command: `cursor-agent -p ${PROMPT} --force --output-format stream-json`,
    help: `cursor-agent -p "<prompt>" --force --output-format stream-json
→ log.jsonl: the stream on stdout`,
    env: () => ({}),
    collect: (c) => saveStream(c.stdout, c.turnDir, isCursorLine),
  },
  doc: {
    versions:
      "`--output-format stream-json` (system `init`, `tool_call` started / completed with `<kind>ToolCall {args, result}`, `result`), as Cursor's output-format docs and public captures show; the CLI is closed source",
    read:
      "`readToolCall` (`content` without line numbers: from line 1 without `offset`, else placed where the text matches the file), `shellToolCall` via the shell analysis (`stdout` + `stderr`, `exitCode`)",
    search: "`grepToolCall` (its operand only: the result format is not documented)",
    listing: "`globToolCall`, `lsToolCall`",
    refused:
      "a read with an `offset` is not credited without the workspace (the base of `offset` is not documented); grep matches are not credited; `--output-format json` (the final result only) is refused, saying so; the local chat database (`~/.cursor/chats/…/store.db`) is not read",
    log:
      'stdout. Preset `cursor`: `cursor-agent -p "<prompt>" --force --output-format stream-json` (Cursor CLI docs: `-p/--print`, `--force`, `--output-format`); the JSON lines of stdout → `log.jsonl`',
  },
};
