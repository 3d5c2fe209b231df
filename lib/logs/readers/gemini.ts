/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/`): one JSON `ConversationRecord`
 * per session up to v0.38 (`session-<ts>-<id8>.json`, rewritten on each update), a JSONL append
 * log from v0.39 (first line the metadata, then `MessageRecord` lines — a message re-appended
 * when its tool calls finish, the last copy winning — `{"$set": {…}}` metadata updates, whose
 * `messages`, when present, is a checkpoint replacing the list, and `{"$rewindTo": "<messageId>"}`
 * rewinds, which drop that message and everything after it).
 * Sub-agent sessions (`kind: "subagent"`, `chats/<parentSessionId>/<sessionId>.jsonl`) are read
 * when `readLog` finds them next to the session file, at the step of the parent's agent call.
 *
 * What the model saw is `toolCalls[].result[].functionResponse.response.output` of each `gemini`
 * message (the copies some versions add as a following `user` message are not counted twice).
 * `read_file` prints no line numbers: its header `Status: Showing lines A-B of N total lines.`
 * (when the file was cut, and for every `start_line`/`end_line` or `offset`/`limit` window) names
 * the lines; without it the whole file was shown. `grep_search` (`search_file_content` before
 * PR #18003) prints `File: <path>` and `L12: ` / `L12- ` lines; `read_many_files` pastes
 * `--- <path> ---` blocks; `run_shell_command` output goes through the shell analysis.
 *
 * @module
 */
import type { Event, LogMeta, Ranges } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, commonDir, num, obj, str, stripAnsi } from "./common.ts";
import { type LogReader, NOT_JSON } from "./reader.ts";
import { copyInto, findFiles, head, home, PROMPT, sha256Hex, since, writeInto } from "./collect.ts";
import { bundleLog, GEMINI_BUNDLE_KEY } from "../bundle.ts";

/** True when a parsed value is a Gemini CLI ConversationRecord (JSON era). */
export function isGeminiRecord(v: unknown): boolean {
  const o = obj(v);
  return !!o && typeof o.sessionId === "string" && Array.isArray(o.messages) &&
    (typeof o.projectHash === "string" || typeof o.startTime === "string");
}

/** True when the first JSONL record is Gemini CLI session metadata (JSONL era). */
export function isGeminiJsonlHead(v: unknown): boolean {
  const o = obj(v);
  return !!o && typeof o.sessionId === "string" && typeof o.projectHash === "string" &&
    !("messages" in o) && !("type" in o && !("startTime" in o));
}

/** A session's metadata and its messages, after `$set`, re-appends and `$rewindTo`. */
export interface GeminiSession {
  meta: Json;
  messages: Json[];
}

/**
 * Folds JSONL records (≥ v0.39) into a session; a JSON record (≤ v0.38) is returned as is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geminiSession } from "./gemini.ts";
 * const s = geminiSession([
 *   { sessionId: "s", projectHash: "h" },
 *   { id: "a", type: "gemini", content: "first copy" },
 *   { id: "b", type: "user", content: "later rewound" },
 *   { id: "a", type: "gemini", content: "last copy" },
 *   { $set: { summary: "x" } },
 *   { $rewindTo: "b" },
 * ]);
 * assert.ok(s.messages.length === 1 && s.messages[0].content === "last copy");
 * assert.ok(s.meta.summary === "x");
 * ```
 */
export function geminiSession(data: unknown): GeminiSession {
  if (!Array.isArray(data)) {
    const o = obj(data) ?? {};
    const { messages, ...meta } = o;
    return { meta, messages: arr(messages).map((m) => obj(m)).filter((m): m is Json => !!m) };
  }
  const meta: Json = {};
  const order: string[] = [];
  const byId = new Map<string, Json>();
  let anon = 0;
  for (const r of data) {
    const o = obj(r);
    if (!o) continue;
    if (obj(o.$set)) {
      const { messages, ...rest } = obj(o.$set)!;
      Object.assign(meta, rest);
      if (Array.isArray(messages)) {
        // a checkpoint: the whole message list replaced
        order.length = 0;
        byId.clear();
        for (const m of messages) {
          const mo = obj(m);
          if (!mo) continue;
          const id = str(mo.id) ?? `\u0000${anon++}`;
          if (!byId.has(id)) order.push(id);
          byId.set(id, mo);
        }
      }
      continue;
    }
    if (typeof o.$rewindTo === "string") {
      const at = order.indexOf(o.$rewindTo);
      if (at >= 0) { for (const id of order.splice(at)) byId.delete(id); }
      continue;
    }
    if (Object.keys(o).some((k) => k.startsWith("$"))) continue; // $patch and other edits
    if (typeof o.type === "string" && ("content" in o || "toolCalls" in o || "id" in o)) {
      const id = str(o.id) ?? `\u0000${anon++}`;
      if (!byId.has(id)) order.push(id);
      byId.set(id, o);
      continue;
    }
    if (typeof o.sessionId === "string") Object.assign(meta, o);
  }
  return { meta, messages: order.map((id) => byId.get(id)!) };
}

interface Ctx {
  ws: TurnWorkspace;
  step: number;
  actions: Event[][];
  subagents: GeminiSession[];
  dialect: GeminiDialect;
}

/** How a Gemini CLI fork's tools differ from Gemini CLI's (Qwen Code). */
export interface GeminiDialect {
  /** `grep_search` prints each line trimmed at both ends (Qwen: `L12: ${line.trim()}`). */
  trimmedGrep?: boolean;
  /** More tools that read no file (run events). */
  runTools?: readonly string[];
  /** More tools that start a sub-agent. */
  agentTools?: readonly string[];
}

/** The text the model got back from a tool call, and whether the call failed. */
function toolResult(call: Json): { text?: string; failed: boolean } {
  const status = str(call.status);
  const parts: string[] = [];
  let error = false;
  for (const p of arr(call.result)) {
    const fr = obj(obj(p)?.functionResponse);
    const resp = obj(fr?.response);
    if (!resp) {
      const t = str(obj(p)?.text);
      if (t !== undefined) parts.push(t);
      continue;
    }
    if (typeof resp.error === "string") {
      error = true;
      parts.push(resp.error);
    } else if (typeof resp.output === "string") parts.push(resp.output);
    else if (resp.output !== undefined) parts.push(JSON.stringify(resp.output));
  }
  if (typeof call.result === "string") parts.push(call.result);
  const failed = error || (status !== undefined && status !== "success");
  return { text: parts.length ? parts.join("\n") : undefined, failed };
}

const SHOWING = /Showing lines (\d+)-(\d+) of (?:at least )?(\d+) total lines/i;
/** Qwen Code's cut-read header (`read-file.ts`; `\n---\n` for an `@` attachment): text follows. */
const QWEN_HEAD = /^Showing lines \d+-\d+ of (?:at least )?\d+ total lines\.\n\n?---\n\n?/;
function rel(ctx: Ctx, p: string | undefined, cwd = ""): string | undefined {
  return p === undefined ? undefined : ctx.ws.resolve(p, cwd);
}

function filePath(args: Json): string | undefined {
  return str(args.file_path) ?? str(args.absolute_path) ?? str(args.path);
}

function readFile(ctx: Ctx, tool: string, args: Json, text: string | undefined, failed: boolean) {
  const raw = filePath(args);
  const r = rel(ctx, raw);
  if (r === undefined || r === "") {
    return toolEvent(ctx.step, "read", tool, args, [], {}, pathNote(raw));
  }
  if (failed || text === undefined) {
    return toolEvent(ctx.step, "read", tool, args, [], {}, `tool call failed: nothing read (${r})`);
  }
  if (
    /^(Cannot display content of binary file|Binary file|Read image file|Read pdf file)/i.test(text)
  ) {
    return toolEvent(ctx.step, "read", tool, args, [], {}, `no text shown (${r})`);
  }
  const header = text.match(SHOWING);
  let start: number, end: number;
  let body: string[] | undefined;
  if (header) {
    [start, end] = [Number(header[1]), Number(header[2])];
    const mark = text.indexOf(CONTENT_MARK);
    const qwen = text.match(QWEN_HEAD);
    if (mark >= 0) body = splitLines(text.slice(mark + CONTENT_MARK.length));
    else if (qwen) body = splitLines(text.slice(qwen[0].length));
  } else if (/^\[File .+ unchanged since last read/.test(text)) {
    // Qwen Code's read cache stub: the earlier read stands, nothing new shown
    return toolEvent(ctx.step, "read", tool, args, [r], {}, `unchanged since last read (${r})`);
  } else {
    // no header: the whole file, or the window asked for (start_line, or 0-based offset)
    body = splitLines(text.replace(/\n$/, "") + "\n");
    if (text.replace(/\n$/, "") === "") body = [];
    const sl = num(args.start_line), off = num(args.offset);
    start = sl ?? (off !== undefined ? off + 1 : 1);
    end = start + body.length - 1;
  }
  start = Math.max(1, start);
  if (end < start) return toolEvent(ctx.step, "read", tool, args, [r], {}, `nothing shown (${r})`);
  const shown = windowLines(start, end, body);
  const c = ctx.ws.credit(r, shown);
  const lines = c.lines.length ? { [r]: c.lines } : {};
  return toolEvent(ctx.step, "read", tool, args, [r], lines, c.note, c.placed);
}

/** The text Gemini CLI puts before a cut file's content. */
const CONTENT_MARK = "--- FILE CONTENT (truncated) ---\n";

/**
 * Lines `start`…`end` as shown: the text of each from `body` in order (undefined past its end:
 * the record keeps at most 50 KB of a tool's output, the model saw it all).
 */
function windowLines(start: number, end: number, body: string[] | undefined): ShownLine[] {
  const out: ShownLine[] = [];
  for (let n = start; n <= end; n++) out.push([n, body?.[n - start]]);
  return out;
}

/** `read_many_files`: `--- <path> ---` blocks, each showing its file from line 1. */
function readMany(ctx: Ctx, tool: string, args: Json, text: string | undefined, failed: boolean) {
  if (failed || text === undefined) {
    return toolEvent(ctx.step, "read", tool, args, [], {}, "tool call failed: nothing read");
  }
  const lines: Ranges = {};
  const paths: string[] = [];
  const outside: string[] = [];
  const notes: string[] = [];
  let placed = true;
  const blocks = text.split(/^--- (.+?) ---$/m);
  for (let i = 1; i + 1 < blocks.length; i += 2) {
    const name = blocks[i].trim();
    if (/^End of content$/i.test(name)) continue;
    const r = rel(ctx, name);
    if (r === undefined || r === "") {
      outside.push(name);
      continue;
    }
    const body = blocks[i + 1].replace(/^\n\n?/, "").replace(/\n+$/, "");
    const head = body.match(SHOWING);
    let texts: string[] | undefined = body === "" ? [] : body.split("\n");
    let start = 1, end = texts.length;
    if (head) {
      [start, end] = [Number(head[1]), Number(head[2])];
      const mark = body.indexOf(CONTENT_MARK);
      texts = mark < 0 ? undefined : splitLines(body.slice(mark + CONTENT_MARK.length));
    }
    paths.push(r);
    if (end < start) continue;
    const c = ctx.ws.credit(r, windowLines(start, end, texts));
    if (c.lines.length) lines[r] = c.lines;
    if (!c.placed) {
      placed = false;
      if (c.note) notes.push(c.note);
    }
  }
  if (outside.length) notes.unshift(outsideNote(outside));
  return toolEvent(
    ctx.step,
    "read",
    tool,
    args,
    paths,
    lines,
    notes.join("; ") || undefined,
    placed,
  );
}

/** `grep_search` / `search_file_content`: `File: <path>` headers and `L<n>: ` / `L<n>- ` lines. */
function grepEvent(ctx: Ctx, tool: string, args: Json, text: string | undefined, failed: boolean) {
  const dirRaw = str(args.dir_path) ?? str(args.path);
  const dir = dirRaw === undefined ? "" : rel(ctx, dirRaw);
  if (dir === undefined) {
    return toolEvent(ctx.step, "search", tool, args, [], {}, outsideNote(dirRaw));
  }
  const operand = [shownPath(dir)];
  if (failed || text === undefined) {
    return toolEvent(ctx.step, "search", tool, args, operand, {}, "tool call failed: nothing read");
  }
  // whether the operand is a file: known with the workspace, else guessed from its name
  const content0 = ctx.ws.read(dir);
  const isFile: boolean | undefined = ctx.ws.known
    ? typeof content0 === "string"
    : /\.[A-Za-z0-9]+$/.test(dir) || undefined;
  const base = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
  const found = new Map<string, ShownLine[]>();
  let current: string | undefined;
  for (const l of text.split("\n")) {
    const f = l.match(/^File: (.+)$/);
    if (f) {
      const name = f[1].trim();
      // paths are relative to the searched directory (to its parent when a file was searched)
      let r: string | undefined = name.startsWith("/")
        ? rel(ctx, name)
        : rel(ctx, name, isFile ? base : dir);
      // a searched file prints its own name: the file itself
      if (r !== dir && (dir === name || dir.endsWith("/" + name)) && isFile !== false) r = dir;
      current = r;
      if (r !== undefined && !found.has(r)) found.set(r, []);
      continue;
    }
    const m = l.match(/^L(\d+)[:-] ?(.*)$/);
    if (m && current !== undefined) found.get(current)!.push([Number(m[1]), m[2]]);
    else if (args.names_only === true && l.trim() && !/^Found \d+/.test(l) && l !== "---") {
      const r = rel(ctx, l.trim(), isFile ? base : dir);
      if (r !== undefined && !found.has(r)) found.set(r, []);
    }
  }
  const { lines, notes, placed } = ctx.ws.creditFiles(
    [...found].map(([f, shown]): [string, ShownLine[]] => {
      const content = ctx.dialect.trimmedGrep ? ctx.ws.read(f) : undefined;
      if (typeof content !== "string") return [f, shown];
      // lines printed trimmed: the file's own line when it trims to the text shown
      const file = ctx.ws.linesOf(content);
      return [
        f,
        shown.map(([n, t]) =>
          t !== undefined && file[n - 1]?.trim() === t.trim() ? [n, file[n - 1]] : [n, t]
        ),
      ];
    }),
  );
  return toolEvent(
    ctx.step,
    "search",
    tool,
    args,
    operand,
    lines,
    notes.join("; ") || undefined,
    placed,
  );
}

function listEvent(ctx: Ctx, tool: string, args: Json, failed: boolean): Event {
  const raw = str(args.dir_path) ?? str(args.path);
  const r = raw === undefined ? "" : rel(ctx, raw);
  if (r === undefined) {
    return toolEvent(ctx.step, "list", tool, args, [], {}, outsideNote(raw));
  }
  return toolEvent(
    ctx.step,
    "list",
    tool,
    args,
    [shownPath(r)],
    {},
    failed ? "tool call failed" : undefined,
  );
}

/**
 * `run_shell_command` result: the `Output:` section (up to the status lines) and the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellResult } from "./gemini.ts";
 * const r = shellResult("Output: 7:from .util import clamp\nExit Code: 0\nProcess Group PGID: 42");
 * assert.ok(r.output === "7:from .util import clamp\n" && r.returncode === 0);
 * const old = shellResult("Command: ls\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1");
 * assert.ok(old.output === "" && old.returncode === 1);
 * ```
 */
export function shellResult(text: string): { output: string; returncode?: number } {
  const lines = text.split("\n");
  let returncode: number | undefined;
  const status = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
  const tailStart = (() => {
    let i = lines.length;
    while (i > 0 && (status.test(lines[i - 1]) || lines[i - 1] === "")) i--;
    return i;
  })();
  for (const l of lines.slice(tailStart)) {
    const m = l.match(/^Exit Code: (-?\d+)/);
    if (m) returncode = Number(m[1]);
  }
  const body = lines.slice(0, tailStart);
  // older results start with `Command:` / `Directory:` lines
  while (body.length && /^(Command|Directory): /.test(body[0])) body.shift();
  let out = body.join("\n");
  if (out.startsWith("Output: ")) out = out.slice("Output: ".length);
  else if (out.startsWith("Output:")) out = out.slice("Output:".length).replace(/^\n/, "");
  if (out === "(empty)") out = "";
  // an `Error:` line holding stderr (not a status) is part of what was shown
  const err = lines.slice(tailStart).find((l) => l.startsWith("Error: "))?.slice(7);
  if (err && err !== "(none)") out = out ? `${out}\n${err}` : err;
  return { output: out && !out.endsWith("\n") ? out + "\n" : out, returncode };
}

function applyReplace(ctx: Ctx, r: string, args: Json): void {
  const cur = ctx.ws.read(r);
  const o = str(args.old_string), n = str(args.new_string);
  if (typeof cur !== "string" || o === undefined || n === undefined) {
    ctx.ws.write(r, o === "" && n !== undefined ? n : UNKNOWN);
    return;
  }
  if (!cur.includes(o)) return ctx.ws.write(r, UNKNOWN);
  ctx.ws.write(
    r,
    args.allow_multiple === true || num(args.expected_replacements) !== undefined
      ? cur.split(o).join(n)
      : cur.replace(o, () => n),
  );
}

const RUN_TOOLS = new Set([
  "web_fetch",
  "google_web_search",
  "web_search",
  "save_memory",
  "write_todos",
  "update_topic",
  "list_background_processes",
  "read_background_output",
  "kill_background_process",
  "activate_skill",
  "ask_user",
  "enter_plan_mode",
  "exit_plan_mode",
  "complete_task",
  "get_internal_docs",
  "cli_help",
]);

/**
 * A tool output without the project context Gemini CLI appends to it (≥ v0.34,
 * `tools/jit-context.ts`: `\n\n--- Newly Discovered Project Context ---\n…\n--- End Project
 * Context ---`): GEMINI.md text found near the file, not the file's lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutJitContext } from "./gemini.ts";
 * const t = "a\nb\n\n--- Newly Discovered Project Context ---\nuse tabs\n--- End Project Context ---";
 * assert.equal(withoutJitContext(t), "a\nb");
 * ```
 */
export function withoutJitContext(text: string): string {
  if (!text.endsWith(JIT_END)) return text;
  const at = text.lastIndexOf(JIT_BEGIN);
  return at < 0 ? text : text.slice(0, at);
}
const JIT_BEGIN = "\n\n--- Newly Discovered Project Context ---\n";
const JIT_END = "\n--- End Project Context ---";

async function toolCall(ctx: Ctx, call: Json): Promise<void> {
  const tool = str(call.name) ?? "?";
  const args = obj(call.args) ?? {};
  const result = toolResult(call);
  const failed = result.failed;
  const text = result.text === undefined ? undefined : withoutJitContext(result.text);
  let events: Event[];
  switch (tool) {
    case "read_file":
      events = [readFile(ctx, tool, args, text, failed)];
      break;
    case "read_many_files":
      events = [readMany(ctx, tool, args, text, failed)];
      break;
    case "grep_search":
    case "search_file_content":
    case "grep":
      events = [grepEvent(ctx, tool, args, text, failed)];
      break;
    case "glob":
    case "list_directory":
    case "ls":
      events = [listEvent(ctx, tool, args, failed)];
      break;
    case "run_shell_command": {
      const command = str(args.command);
      if (command === undefined) {
        events = [toolEvent(ctx.step, "other", tool, args, [], {}, "shell call without a command")];
        break;
      }
      const dir = str(args.dir_path) ?? str(args.directory);
      const cwd = dir === undefined ? "" : ctx.ws.resolve(dir, "");
      // a failed call with an exit code (a non-zero exit) still shows output the model saw
      const shown = text !== undefined && (!failed || /Exit Code: /.test(text));
      const obs = shown ? shellResult(stripAnsi(text)) : undefined;
      events = await analyzeShell(command, { ws: ctx.ws, cwd, step: ctx.step, tool }, obs);
      break;
    }
    case "write_file":
    case "replace":
    case "edit": {
      const raw = filePath(args);
      const r = rel(ctx, raw);
      if (r && !failed) {
        if (tool === "write_file") ctx.ws.write(r, str(args.content) ?? UNKNOWN);
        else applyReplace(ctx, r, args);
      }
      events = [
        toolEvent(
          ctx.step,
          "write",
          tool,
          { file_path: raw },
          r ? [r] : [],
          {},
          r === undefined ? outsideNote(raw) : failed ? "tool call failed" : undefined,
        ),
      ];
      break;
    }
    default:
      if (
        tool === "invoke_agent" || tool === "delegate_to_agent" || call.agentId !== undefined ||
        ctx.dialect.agentTools?.includes(tool) ||
        /_agent$|^codebase_investigator$/.test(tool)
      ) {
        ctx.actions.push([toolEvent(ctx.step, "run", tool, args, [], {})]);
        // sub-agent sessions: read at this step
        const subs = ctx.subagents.splice(0);
        for (const s of subs) await session(ctx, s, true);
        return;
      }
      events =
        RUN_TOOLS.has(tool) || tool.startsWith("mcp_") || ctx.dialect.runTools?.includes(tool)
          ? [toolEvent(ctx.step, "run", tool, args, [], {})]
          : [toolEvent(ctx.step, "other", tool, args, [], {}, `unknown tool: ${tool}`)];
  }
  ctx.actions.push(events);
}

async function session(ctx: Ctx, s: GeminiSession, child = false): Promise<void> {
  const saved = ctx.step;
  let seen = false;
  // results sent back as functionResponse parts of user messages, by call id: used only for a
  // call whose record holds no result of its own (never counted twice)
  const sent = new Map<string, unknown>();
  for (const m of s.messages) {
    if (str(m.type) !== "user") continue;
    for (const p of arr(m.content)) {
      const fr = obj(obj(p)?.functionResponse);
      const id = str(fr?.id);
      if (id && !sent.has(id)) sent.set(id, p);
    }
  }
  for (const m of s.messages) {
    if (str(m.type) !== "gemini") continue;
    const calls = arr(m.toolCalls).map((c) => obj(c)).filter((c): c is Json => !!c).map((c) =>
      c.result === undefined && sent.has(str(c.id) ?? "")
        ? { ...c, result: [sent.get(str(c.id)!)], status: "success" }
        : c
    );
    if (!child && seen) ctx.step++;
    seen = true;
    for (const c of calls) await toolCall(ctx, c);
  }
  if (child) ctx.step = saved;
}

/** Text of a message's content (a string or a list of parts). */
function contentText(v: unknown): string {
  if (typeof v === "string") return v;
  return arr(v).map((p) => str(obj(p)?.text) ?? "").join("\n");
}

/**
 * The workspace root the session names: `directories`, the `<session_context>` workspace list,
 * else a relative tool path seen as absolute in a result (`test.py` → `/home/u/proj/test.py`).
 */
export function geminiRoot(s: GeminiSession): string | undefined {
  const dirs = arr(s.meta.directories).map((d) => str(d)).filter((d): d is string => !!d);
  if (dirs.length) return dirs[0];
  for (const m of s.messages.slice(0, 3)) {
    if (str(m.type) !== "user") continue;
    const t = contentText(m.content);
    const ctxBlock = t.match(/<session_context>([\s\S]*?)<\/session_context>/)?.[1] ?? t;
    const ws = ctxBlock.match(
      /(?:Workspace Director(?:y|ies)|working directory)[^\n]*?:\s*\n?\s*(?:[-*]\s*)?(\/[^\s,'"`]+)/i,
    );
    if (ws) return ws[1].replace(/\/+$/, "");
  }
  for (const m of s.messages) {
    for (const c of arr(m.toolCalls)) {
      const call = obj(c) ?? {};
      const p = filePath(obj(call.args) ?? {});
      if (!p || p.startsWith("/")) continue;
      const { text } = toolResult(call);
      const disp = typeof call.resultDisplay === "string" ? call.resultDisplay : "";
      for (const t of [text ?? "", disp]) {
        const at = t.search(
          new RegExp(`/[^\\s:'"]*/${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`),
        );
        if (at < 0) continue;
        const abs = t.slice(at).match(/^\/[^\s:'"]*/)![0];
        const cut = abs.lastIndexOf("/" + p);
        if (cut > 0) return abs.slice(0, cut);
      }
    }
  }
  // all paths absolute: their deepest common directory
  const dirs2: string[] = [];
  for (const m of s.messages) {
    for (const c of arr(m.toolCalls)) {
      const a = obj(obj(c)?.args) ?? {};
      const f = filePath(a), d = str(a.dir_path);
      if (f?.startsWith("/")) dirs2.push(f.slice(0, f.lastIndexOf("/")));
      else if (d?.startsWith("/")) dirs2.push(d);
    }
  }
  return commonDir(dirs2);
}

/** Reads a Gemini CLI session (JSON, JSONL, or the bundle with sub-agent sessions). */
export async function readGemini(
  data: unknown,
  opts: ReaderOptions,
  format: string,
  dialect: GeminiDialect = {},
): Promise<ReaderResult> {
  const bundle = obj(obj(data)?.[GEMINI_BUNDLE_KEY]);
  const main = geminiSession(bundle ? bundle.main : data);
  const subs = bundle ? arr(bundle.subagents).map((s) => geminiSession(s)) : [];
  const root = opts.cwd ?? geminiRoot(main) ?? "";
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, root),
    step: 0,
    actions: [],
    subagents: subs,
    dialect,
  };
  await session(ctx, main);
  for (const s of ctx.subagents.splice(0)) await session(ctx, s, true);
  const meta: LogMeta = {};
  meta.steps = main.messages.filter((m) => str(m.type) === "gemini").length;
  const a = Date.parse(str(main.meta.startTime) ?? ""),
    b = Date.parse(str(main.meta.lastUpdated) ?? "");
  if (Number.isFinite(a) && Number.isFinite(b) && b >= a) meta.seconds = (b - a) / 1000;
  return { format, actions: ctx.actions, meta };
}

/** The Gemini CLI reader (registry entry). */
export const reader: LogReader = {
  name: "gemini-cli",
  harness: "Gemini CLI",
  harnessNames: ["geminicli", "gemini"],
  formats: ["gemini-json", "gemini-jsonl"],
  files: [
    "~/.gemini/tmp/<project>/chats/session-<ts>-<id8>.json",
    "~/.gemini/tmp/<project>/chats/session-<ts>-<id8>.jsonl",
  ],
  detect(input) {
    const v = input.json();
    const b = obj(obj(v)?.[GEMINI_BUNDLE_KEY]);
    if (b) return Array.isArray(b.main) ? "gemini-jsonl" : "gemini-json";
    if (v !== NOT_JSON && isGeminiRecord(v)) return "gemini-json";
    return isGeminiJsonlHead(input.head(1)[0]) ? "gemini-jsonl" : undefined;
  },
  read(input, format, opts) {
    const v = input.json();
    const data = format === "gemini-jsonl" && !obj(obj(v)?.[GEMINI_BUNDLE_KEY])
      ? input.values("a JSONL log")
      : v;
    return readGemini(data, opts, format);
  },
  run: {
    name: "gemini",
    harness: "gemini-cli",
    command: `gemini -p ${PROMPT} --approval-mode yolo --output-format json`,
    help: `gemini -p "<prompt>" --approval-mode yolo --output-format json
→ log.json / log.jsonl from ~/.gemini/tmp/*/chats/ (sub-agents bundled)`,
    env: () => ({}),
    async collect(c) {
      const tmp = `${home(c.env)}/.gemini/tmp`;
      const fresh = await since(await findFiles(tmp, /^session-.*\.jsonl?$/, 3), c.startedMs);
      if (!fresh.length) return [];
      // this workspace's session: its project hash (sha256 of the root) or the path in the text
      const hash = await sha256Hex(c.workspace);
      const mine: string[] = [];
      for (const f of fresh) {
        const t = await head(f);
        if (t.includes(hash) || t.includes(c.workspace)) mine.push(f);
      }
      const pick = (mine.length ? mine : fresh).sort()[0];
      const bundled = await bundleLog(pick);
      if (bundled !== undefined) {
        await writeInto(c.turnDir, "log.json", bundled);
        return ["log.json"];
      }
      const name = pick.endsWith(".jsonl") ? "log.jsonl" : "log.json";
      await copyInto(pick, c.turnDir, name);
      return [name];
    },
  },
  doc: {
    versions:
      "session JSON `chats/session-<ts>-<id8>.json` (≤ v0.38) and JSONL (≥ v0.39: metadata line, re-appended messages — last copy wins —, `$set`, `$rewindTo`); sub-agent sessions `chats/<sessionId>/*.jsonl` (read at the step of the agent call); `read_file` `absolute_path` + 0-based `offset`/`limit` (≤ v0.13), `file_path` (v0.14), 1-based `start_line`/`end_line` (≥ v0.31)",
    read:
      "`read_file`: the `Showing lines A-B of N` header when present, else the whole file (or the requested window); `read_many_files` (`--- <path> ---` blocks); `run_shell_command` via the shell analysis (`Output:` section; the ≤ v0.26 `Command:`/`Directory:` lines dropped)",
    search:
      "`grep_search` (`search_file_content` before PR #18003): `File: <path>` relative to the searched directory and `L12:` / `L12-` lines",
    listing: "`glob`, `list_directory`",
    refused:
      "`read_file` prints no line numbers, so a whole-file read without a header is placed from line 1; lines cut with `... [truncated]` still count as shown; the workspace root is taken from `directories`, the session context, a relative path seen absolute in a result, or the common directory of absolute paths — give `--cwd` when none applies. The project context appended to a tool output (≥ v0.34, `--- Newly Discovered Project Context ---`) is not file text. `/chat share` exports and `/chat save` checkpoints: the Gemini CLI chat reader (`gemini-chat`). `--output-format stream-json`: the stream reader (`gemini-stream-json`; display text only). Refused, saying so: `--output-format json` (holds no tool calls)",
    log:
      '`~/.gemini/tmp/<project>/chats/`. Preset `gemini`: `gemini -p "<prompt>" --approval-mode yolo --output-format json` (Gemini CLI headless docs: `-p/--prompt`, `--approval-mode`); the session written during the turn for this workspace (project hash or path) → `log.json` / `log.jsonl`, with its sub-agent sessions bundled into `log.json`',
  },
};
