/**
 * OpenCode logs: `opencode export <session>` JSON (`{info, messages: [{info, parts}]}`; several
 * exports concatenated or in an array for sub-agent sessions) and `opencode run --format json`
 * JSONL.
 *
 * The `read` tool's `offset` counted skipped lines (0-based, output lines `00001| `) before
 * OpenCode 1.2 and is 1-based after (output lines `1: `). Line numbers printed in the output are
 * what the model saw and take precedence; the input window is the fallback. `@file` mentions put
 * the read into the user message as two synthetic text parts. Sub-agent (`task`) sessions are
 * read too, at the step of the parent's `task` call.
 *
 * @module
 */
import type { Event, LogMeta, Ranges } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { rangesOf } from "../ranges.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, consecutiveShown, num, obj, spanSeconds, str } from "./common.ts";
import { type LogInput, type LogReader, normalizeNewlines, NOT_JSON } from "./reader.ts";
import { PROMPT, writeInto } from "./collect.ts";

/** True when an OpenCode version predates the 1-based read offset (1.2.0). */
export function zeroBasedOffsets(version: string | undefined): boolean | undefined {
  const m = version?.match(/^(\d+)\.(\d+)\.(\d+)/);
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a < 1 || (a === 1 && b < 2);
}

/**
 * Line numbers printed by the read tool (`00001| x` before 1.2, `1: x` after).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readToolNumbers } from "./opencode.ts";
 * assert.ok(readToolNumbers("<file>\n00201| a\n00202| b\n\n(File has more lines.)\n</file>").join() === "201,202");
 * assert.ok(readToolNumbers("<path>/p/a.ts</path>\n<type>file</type>\n<content>1: x\n2: y\n\n(End of file - total 2 lines)\n</content>").join() === "1,2");
 * ```
 */
export function readToolNumbers(output: string): number[] {
  return readToolShown(output).map(([n]) => n);
}

/** The numbered lines the read tool printed, with their text (see {@link readToolNumbers}). */
export function readToolShown(output: string): ShownLine[] {
  let body = output;
  const c = output.indexOf("<content>");
  if (c >= 0) {
    const end = output.lastIndexOf("</content>");
    body = output.slice(c + "<content>".length, end > c ? end : undefined);
  } else {
    const f = output.indexOf("<file>");
    if (f >= 0) {
      const end = output.lastIndexOf("</file>");
      body = output.slice(f + "<file>".length, end > f ? end : undefined);
    }
  }
  // numbers run consecutively; a stray match inside the footer is ignored
  return consecutiveShown(
    body,
    (line) =>
      line.match(/^(\d{5,})\| (.*)$/) ?? line.match(/^(\d+): (.*)$/) ??
        line.match(/^(\d+):()$/) ?? line.match(/^\s*(\d+)\t(.*)$/),
  );
}

interface Ctx {
  ws: TurnWorkspace;
  zeroBased?: boolean;
  step: number;
  exports: Map<string, Json>;
  done: Set<string>;
  actions: Event[][];
}

function resolveFile(ctx: Ctx, p: unknown): string | undefined {
  const s = str(p);
  if (s === undefined) return undefined;
  return ctx.ws.resolve(s, "");
}

function readEvent(
  ctx: Ctx,
  tool: string,
  input: Json,
  output: string | undefined,
  ok: boolean,
  zeroBased: boolean | undefined,
): Event {
  const raw = str(input.filePath) ?? str(input.path) ?? str(input.file_path);
  const rel = resolveFile(ctx, raw);
  if (rel === "" && output?.includes("<type>directory</type>")) {
    return toolEvent(ctx.step, "list", tool, input, ["."], {});
  }
  if (rel === undefined || rel === "") {
    return toolEvent(ctx.step, "read", tool, input, [], {}, pathNote(raw));
  }
  if (!ok || output === undefined) {
    return toolEvent(
      ctx.step,
      "read",
      tool,
      input,
      [],
      {},
      `tool call failed: nothing read (${rel})`,
    );
  }
  if (output.includes("<type>directory</type>")) {
    return toolEvent(ctx.step, "list", tool, input, [shownPath(rel)], {});
  }
  const content = ctx.ws.read(rel);
  const length = typeof content === "string" ? ctx.ws.linesOf(content).length : undefined;
  const numbered = readToolShown(output);
  if (numbered.length) {
    const c = ctx.ws.credit(rel, numbered);
    const lines = c.lines.length ? { [rel]: c.lines } : {};
    return toolEvent(ctx.step, "read", tool, input, [rel], lines, c.note, c.placed);
  }
  // no numbers (plugins, V2 plain text): the input window, as long as the text shown
  const shown = contentLines(output);
  if (
    shown === 0 || /^(File not found|Error|Image read|Binary file|PDF read)/i.test(output.trim())
  ) {
    return toolEvent(ctx.step, "read", tool, input, [], {}, `no file content shown (${rel})`);
  }
  const old = zeroBased ?? /\d{5}\| /.test(output);
  const offset = num(Number(input.offset)) ?? (old ? 0 : 1);
  const limit = num(Number(input.limit)) ?? 2000;
  let start = old ? offset + 1 : Math.max(offset, 1);
  let end = start + Math.min(limit, shown ?? limit) - 1;
  if (length !== undefined) end = Math.min(end, length);
  start = Math.max(1, start);
  return toolEvent(
    ctx.step,
    "read",
    tool,
    input,
    [rel],
    end >= start ? { [rel]: [[start, end]] } : {},
    "window from the tool input (no line numbers in the output)",
    length !== undefined,
  );
}

/**
 * Lines of file text in a read output without line numbers: inside `<content>`/`<file>` when
 * present (footer and blank separator excluded), else all non-empty lines (V2 plain text).
 */
function contentLines(output: string): number | undefined {
  const open = output.includes("<content>")
    ? "<content>"
    : output.includes("<file>")
    ? "<file>"
    : undefined;
  let body = output;
  if (open) {
    const close = open === "<content>" ? "</content>" : "</file>";
    const a = output.indexOf(open) + open.length;
    const b = output.lastIndexOf(close);
    body = output.slice(a, b > a ? b : undefined);
  }
  const lines = body.replace(/^\n/, "").split("\n");
  while (
    lines.length &&
    (lines[lines.length - 1].trim() === "" || /^\(.*\)$/.test(lines[lines.length - 1].trim()))
  ) {
    lines.pop();
  }
  return lines.length;
}

/** `grep`: the directory searched, and the matched lines it printed (`Line N: text`). */
function grepEvent(ctx: Ctx, tool: string, input: Json, output: string): Event {
  const lines = new Map<string, number[]>();
  const outside: string[] = [];
  let current: string | undefined | null = null;
  for (const l of output.split("\n")) {
    const line = l.match(/^\s+Line (\d+): ?/) ?? l.match(/^\s+(\d+): /);
    if (line) {
      if (current) {
        const list = lines.get(current) ?? [];
        list.push(Number(line[1]));
        lines.set(current, list);
      }
      continue;
    }
    const head = l.match(/^(\S.*):$/);
    if (head && !/^Found \d+ match/.test(l)) {
      current = resolveFile(ctx, head[1]);
      if (current === undefined) outside.push(head[1]);
      if (current !== undefined && !lines.has(current)) lines.set(current, []);
    }
  }
  const r: Ranges = {};
  for (const [f, ns] of lines) if (ns.length) r[f] = rangesOf(ns);
  return toolEvent(
    ctx.step,
    "search",
    tool,
    input,
    operand(ctx, input.path),
    r,
    outside.length ? outsideNote(outside) : undefined,
  );
}

/** The directory (or file) a listing or search ran on: its `path` input, else the root ("."). */
function operand(ctx: Ctx, path: unknown): string[] {
  const p = str(path);
  if (p === undefined || p === "") return ["."];
  const rel = resolveFile(ctx, p);
  return rel === undefined ? [] : [shownPath(rel)];
}

/** `glob`, `list`: a listing of the `path` input (Files counts the directory once). */
function listEvent(ctx: Ctx, tool: string, input: Json): Event {
  return toolEvent(ctx.step, "list", tool, input, operand(ctx, input.path), {});
}

/** Replaces `oldS` by `newS` (all occurrences when `all`); undefined when `oldS` is absent. */
export function applyEdit(
  content: string,
  oldS: string,
  newS: string,
  all: boolean,
): string | undefined {
  if (oldS === "") return newS;
  if (!content.includes(oldS)) return undefined;
  return all ? content.split(oldS).join(newS) : content.replace(oldS, () => newS);
}

/**
 * Applies a `*** Begin Patch` text (OpenCode `patch`, Codex `apply_patch`) to the workspace as it
 * is now; returns new contents per workspace path (null = deleted). Relative paths resolve
 * against `cwd` (workspace-relative).
 */
export function applyPatch(
  ws: TurnWorkspace,
  patch: string,
  cwd = "",
): Map<string, string | null | typeof UNKNOWN> {
  const ctx = { ws };
  const resolveFile = (_c: unknown, p: string) => ws.resolve(p, cwd);
  const out = new Map<string, string | null | typeof UNKNOWN>();
  const lines = patch.split("\n");
  let i = 0;
  while (i < lines.length) {
    const l = lines[i];
    const add = l.match(/^\*\*\* Add File: (.+)$/);
    const upd = l.match(/^\*\*\* Update File: (.+)$/);
    const del = l.match(/^\*\*\* Delete File: (.+)$/);
    i++;
    if (add) {
      const rel = resolveFile(ctx, add[1].trim());
      const body: string[] = [];
      while (i < lines.length && !lines[i].startsWith("***")) {
        body.push(lines[i++].replace(/^\+/, ""));
      }
      if (rel) out.set(rel, body.join("\n") + (body.length ? "\n" : ""));
    } else if (del) {
      const rel = resolveFile(ctx, del[1].trim());
      if (rel) out.set(rel, null);
    } else if (upd) {
      let rel = resolveFile(ctx, upd[1].trim());
      const cur = rel ? ctx.ws.read(rel) : undefined;
      let content: string | typeof UNKNOWN = typeof cur === "string" ? cur : UNKNOWN;
      const hunks: string[][] = [];
      let h: string[] = [];
      while (
        i < lines.length &&
        !(lines[i].startsWith("*** ") && !lines[i].startsWith("*** End of File"))
      ) {
        const x = lines[i++];
        if (x.startsWith("@@")) {
          if (h.length) hunks.push(h);
          h = [];
        } else if (x.startsWith("*** End of File")) continue;
        else h.push(x);
      }
      if (h.length) hunks.push(h);
      const move = lines[i]?.match(/^\*\*\* Move to: (.+)$/);
      for (const hk of hunks) {
        if (content === UNKNOWN) break;
        const oldT = hk.filter((x) => !x.startsWith("+")).map((x) => x.slice(1)).join("\n");
        const newT = hk.filter((x) => !x.startsWith("-")).map((x) => x.slice(1)).join("\n");
        const next = applyEdit(content, oldT, newT, false);
        content = next === undefined ? UNKNOWN : next;
      }
      if (move) {
        i++;
        if (rel) out.set(rel, null);
        rel = resolveFile(ctx, move[1].trim());
      }
      if (rel) out.set(rel, content);
    }
  }
  return out;
}

function writeEvents(ctx: Ctx, tool: string, input: Json, state: Json, ok: boolean): Event {
  if (!ok) return toolEvent(ctx.step, "write", tool, input, [], {}, "tool call failed");
  const changes = new Map<string, string | null | typeof UNKNOWN>();
  const meta = obj(state.metadata);
  if (tool === "write") {
    const rel = resolveFile(ctx, input.filePath);
    if (rel) changes.set(rel, str(input.content) ?? UNKNOWN);
  } else if (tool === "edit" || tool === "multiedit") {
    const rel = resolveFile(ctx, input.filePath);
    if (rel) {
      const cur = ctx.ws.read(rel);
      let content: string | typeof UNKNOWN = typeof cur === "string"
        ? cur
        : cur === undefined
        ? ""
        : UNKNOWN;
      const edits = tool === "edit" ? [input] : arr(input.edits).map((e) => obj(e) ?? {});
      for (const e of edits) {
        if (content === UNKNOWN) break;
        const next = applyEdit(
          content,
          str(e.oldString) ?? "",
          str(e.newString) ?? "",
          e.replaceAll === true,
        );
        content = next === undefined ? UNKNOWN : next;
      }
      changes.set(rel, content);
    }
  } else {
    // patch / apply_patch: prefer the after-images OpenCode records
    const files = arr(meta?.files).map((f) => obj(f)).filter((f): f is Json => !!f);
    if (files.some((f) => typeof f.after === "string" || f.type === "delete")) {
      for (const f of files) {
        const rel = resolveFile(ctx, f.filePath ?? f.relativePath);
        if (!rel) continue;
        changes.set(rel, f.type === "delete" ? null : str(f.after) ?? UNKNOWN);
        const moved = resolveFile(ctx, f.movePath);
        if (moved) {
          changes.set(rel, null);
          changes.set(moved, str(f.after) ?? UNKNOWN);
        }
      }
    } else {
      const text = str(input.patchText) ?? str(input.patch) ?? str(input.input);
      if (text) { for (const [k, v] of applyPatch(ctx.ws, text)) changes.set(k, v); }
    }
  }
  for (const [rel, c] of changes) {
    if (c === null) ctx.ws.remove(rel);
    else ctx.ws.write(rel, c);
  }
  return toolEvent(ctx.step, "write", tool, input, [...changes.keys()], {});
}

const RUN_TOOLS = new Set([
  "todowrite",
  "todoread",
  "webfetch",
  "websearch",
  "codesearch",
  "skill",
  "question",
  "lsp",
  "lsp_diagnostics",
  "lsp_hover",
  "plan_enter",
  "plan_exit",
]);

async function toolPart(ctx: Ctx, part: Json): Promise<void> {
  const tool = str(part.tool) ?? "?";
  const state = obj(part.state) ?? {};
  const input = obj(state.input) ?? {};
  const status = str(state.status);
  const ok = status === "completed";
  const output = str(state.output);
  let events: Event[];
  switch (tool) {
    case "read":
      events = [readEvent(ctx, tool, input, output, ok, ctx.zeroBased)];
      break;
    case "grep":
    case "glob":
    case "list":
    case "ls":
      if (!ok || output === undefined) {
        events = [
          toolEvent(
            ctx.step,
            tool === "grep" ? "search" : "list",
            tool,
            input,
            [],
            {},
            "tool call failed",
          ),
        ];
      } else {events = [
          tool === "grep" ? grepEvent(ctx, tool, input, output) : listEvent(ctx, tool, input),
        ];}
      break;
    case "write":
    case "edit":
    case "multiedit":
    case "patch":
    case "apply_patch":
      events = [writeEvents(ctx, tool, input, state, ok)];
      break;
    case "bash":
    case "shell": {
      const command = str(input.command);
      if (command === undefined) {
        events = [toolEvent(ctx.step, "other", tool, input, [], {}, "bash call without a command")];
        break;
      }
      const meta = obj(state.metadata);
      const workdir = str(input.workdir);
      const cwd = workdir === undefined ? "" : ctx.ws.resolve(workdir, "");
      const text = output ?? str(meta?.output);
      const obs = ok && text !== undefined
        ? { output: text, returncode: num(meta?.exit) }
        : undefined;
      events = await analyzeShell(command, { ws: ctx.ws, cwd, step: ctx.step, tool }, obs);
      break;
    }
    case "task": {
      events = [toolEvent(ctx.step, "run", tool, input, [], {})];
      ctx.actions.push(events);
      const child = str(obj(state.metadata)?.sessionId) ?? output?.match(/task_id: (ses_\w+)/)?.[1];
      if (child && ctx.exports.has(child)) await session(ctx, ctx.exports.get(child)!, ctx.step);
      return;
    }
    case "invalid":
      events = [toolEvent(ctx.step, "other", tool, input, [], {}, "call to an unavailable tool")];
      break;
    default:
      events = RUN_TOOLS.has(tool) || tool.startsWith("pty_")
        ? [toolEvent(ctx.step, "run", tool, input, [], {})]
        : [toolEvent(ctx.step, "other", tool, input, [], {}, `unknown tool: ${tool}`)];
  }
  ctx.actions.push(events);
}

/** `@file` reads OpenCode ran for the user: synthetic text parts in user messages. */
function syntheticReads(ctx: Ctx, parts: Json[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const text = str(p.text);
    if (str(p.type) !== "text" || !text) continue;
    const m = text.match(/^Called the (\w+) tool with the following input: (\{[\s\S]*\})\s*$/);
    if (!m) continue;
    let input: Json;
    try {
      input = obj(JSON.parse(m[2])) ?? {};
    } catch {
      // a tool input that is no JSON is not a call to read
      continue;
    }
    const next = parts.slice(i + 1).find((q) =>
      str(q.type) === "text" && str(q.text) !== undefined
    );
    const output = str(next?.text);
    const tool = m[1].toLowerCase();
    let e: Event;
    if (tool === "read") e = readEvent(ctx, "read", input, output, true, ctx.zeroBased);
    else if (tool === "list") e = listEvent(ctx, "list", input);
    else continue;
    e.note = [e.note, "@file mention"].filter(Boolean).join("; ");
    for (const path of e.paths) seen.add(path);
    ctx.actions.push([e]);
  }
  // file parts without a synthetic read: the read tool's default window (up to 2000 lines)
  for (const p of parts) {
    if (str(p.type) !== "file" || str(p.mime) !== "text/plain") continue;
    const src = obj(p.source);
    const url = str(p.url);
    const path = str(src?.path) ??
      (url?.startsWith("file://") ? decodeURIComponent(url.slice(7)) : undefined);
    const rel = resolveFile(ctx, path);
    if (!rel || seen.has(rel)) continue;
    const content = ctx.ws.read(rel);
    const n = typeof content === "string"
      ? Math.min(2000, ctx.ws.linesOf(content).length)
      : undefined;
    ctx.actions.push([
      toolEvent(
        ctx.step,
        "read",
        "read",
        { filePath: path },
        [rel],
        n ? { [rel]: [[1, n]] } : {},
        "@file mention without its read output",
        n !== undefined,
      ),
    ]);
  }
}

async function session(ctx: Ctx, exp: Json, startStep?: number): Promise<void> {
  const info = obj(exp.info) ?? {};
  const id = str(info.id) ?? "";
  if (ctx.done.has(id)) return;
  ctx.done.add(id);
  const saved = ctx.step;
  const child = startStep !== undefined;
  for (const m of arr(exp.messages)) {
    const mo = obj(m);
    if (!mo) continue;
    const mi = obj(mo.info) ?? {};
    const parts = arr(mo.parts).map((p) => obj(p)).filter((p): p is Json => !!p);
    if (str(mi.role) === "user") {
      syntheticReads(ctx, parts);
      continue;
    }
    if (str(mi.role) !== "assistant") continue;
    for (const p of parts) if (str(p.type) === "tool") await toolPart(ctx, p);
    if (!child) ctx.step++;
  }
  if (child) ctx.step = saved;
}

function rootOf(v: unknown): string | undefined {
  return str(obj(obj(v)?.info)?.directory);
}

/** Reads `opencode export` JSON (one export, an array of exports, or parsed concatenated exports). */
export async function readOpenCode(data: unknown, opts: ReaderOptions): Promise<ReaderResult> {
  const list = (Array.isArray(data) ? data : [data]).map((d) => obj(d)).filter((d): d is Json =>
    !!d
  );
  const exports = new Map<string, Json>();
  for (const e of list) exports.set(str(obj(e.info)?.id) ?? "", e);
  // the root session: the one without a parent (else the first)
  const root = list.find((e) => !str(obj(e.info)?.parentID)) ?? list[0];
  const rootInfo = obj(root?.info) ?? {};
  const dir = opts.cwd ?? rootOf(root) ?? "";
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, dir),
    zeroBased: zeroBasedOffsets(str(rootInfo.version)),
    step: 0,
    exports,
    done: new Set(),
    actions: [],
  };
  if (root) await session(ctx, root);
  // sub-agent sessions that no task call named
  for (const e of list) {
    if (!ctx.done.has(str(obj(e.info)?.id) ?? "")) await session(ctx, e, ctx.step);
  }
  const meta: LogMeta = {};
  let cost = 0, costSeen = false, assistants = 0;
  const stamps: number[] = [];
  for (const e of list) {
    for (const m of arr(e.messages)) {
      const mi = obj(obj(m)?.info) ?? {};
      const t = obj(mi.time);
      for (const k of ["created", "completed"]) {
        const v = num(t?.[k]);
        if (v !== undefined) stamps.push(v);
      }
      if (str(mi.role) !== "assistant") continue;
      assistants++;
      const c = num(mi.cost);
      if (c !== undefined) {
        cost += c;
        costSeen = true;
      }
    }
  }
  if (costSeen) meta.cost = cost;
  meta.steps = assistants;
  const secs = spanSeconds(stamps, true);
  if (secs !== undefined) meta.seconds = secs;
  return { format: "opencode-export", actions: ctx.actions, meta };
}

/** Reads `opencode run --format json` events (root session only; sub-agents are not printed). */
export async function readOpenCodeJsonl(
  events: unknown[],
  opts: ReaderOptions,
): Promise<ReaderResult> {
  let dir = opts.cwd;
  if (dir === undefined) {
    // the session directory: an absolute filePath whose worktree-relative title is its tail
    for (const e of events) {
      const st = obj(obj(obj(e)?.part)?.state);
      const fp = str(obj(st?.input)?.filePath);
      const title = str(st?.title);
      if (fp && title && fp.startsWith("/") && !title.startsWith("/") && fp.endsWith("/" + title)) {
        dir = fp.slice(0, -title.length - 1);
        break;
      }
    }
  }
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, dir ?? ""),
    step: 0,
    exports: new Map(),
    done: new Set(),
    actions: [],
  };
  let steps = 0, cost = 0, costSeen = false;
  const stamps: number[] = [];
  for (const e of events) {
    const o = obj(e);
    if (!o) continue;
    const t = num(o.timestamp);
    if (t !== undefined) stamps.push(t);
    const type = str(o.type);
    const part = obj(o.part);
    if (type === "step_start") {
      if (steps > 0) ctx.step++;
      steps++;
    } else if (type === "step_finish") {
      const c = num(part?.cost);
      if (c !== undefined) {
        cost += c;
        costSeen = true;
      }
    } else if (type === "tool_use" && part) await toolPart(ctx, part);
  }
  const meta: LogMeta = { steps };
  if (costSeen) meta.cost = cost;
  const secs = spanSeconds(stamps, true);
  if (secs !== undefined) meta.seconds = secs;
  return { format: "opencode-jsonl", actions: ctx.actions, meta };
}

/**
 * Splits a text holding several concatenated JSON values (pretty-printed exports) into values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonValues } from "./opencode.ts";
 * assert.deepEqual(jsonValues('{"a": 1}\n{"b": [2]}\n'), [{ a: 1 }, { b: [2] }]);
 * assert.equal(jsonValues('{"a": 1} x'), undefined);
 * ```
 */
export function jsonValues(text: string): unknown[] | undefined {
  const out: unknown[] = [];
  let depth = 0, start = -1, inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (c === "\\") i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if (c === "}" || c === "]") {
      if (--depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // concatenated exports that are not JSON: not this format
          return undefined;
        }
      }
      if (depth < 0) return undefined;
    } else if (depth === 0 && !/\s/.test(c)) return undefined;
  }
  return depth === 0 && out.length ? out : undefined;
}

/** True when a value is one `opencode export` (`info.id` a `ses_` id, `messages`). */
export function isOpenCodeExport(v: unknown): boolean {
  const o = obj(v);
  const id = str(obj(o?.info)?.id);
  return !!o && !!id && id.startsWith("ses_") && Array.isArray(o.messages);
}

/** Event types of `opencode run --format json`. */
const JSONL_TYPES = new Set([
  "step_start",
  "step_finish",
  "tool_use",
  "text",
  "reasoning",
  "error",
  "done",
]);

/** The exports of a log: one JSON value (an export or a list), or several concatenated ones. */
function exportsOf(input: LogInput): unknown[] | undefined {
  const v = input.json();
  if (v !== NOT_JSON) {
    const list = Array.isArray(v) ? v : [v];
    return list.length && list.every(isOpenCodeExport) ? list : undefined;
  }
  const first = input.head(1)[0];
  if (first !== undefined && !isOpenCodeExport(first)) return undefined;
  if (!/^\s*\{/.test(input.text) || input.text.length > 512 * 2 ** 20) return undefined;
  if (!/"ses_/.test(input.text.slice(0, 65536))) return undefined;
  const values = jsonValues(input.text);
  return values && values.length > 1 && values.every(isOpenCodeExport)
    ? normalizeNewlines(values)
    : undefined;
}

/** The OpenCode reader (registry entry). */
export const reader: LogReader = {
  name: "opencode",
  harness: "OpenCode",
  harnessNames: ["opencode"],
  formats: ["opencode-export", "opencode-jsonl"],
  files: ["opencode export <sessionID> > *.json", "opencode run --format json > *.jsonl"],
  detect(input) {
    if (input.json() === NOT_JSON) {
      const first = obj(input.head(1)[0]);
      if (
        first && JSONL_TYPES.has(str(first.type) ?? "") && obj(first.part)
      ) return "opencode-jsonl";
    }
    return exportsOf(input) ? "opencode-export" : undefined;
  },
  read(input, format, opts) {
    if (format === "opencode-jsonl") {
      return readOpenCodeJsonl(input.values("a JSONL stream"), opts);
    }
    const v = input.json();
    return readOpenCode(v !== NOT_JSON ? v : exportsOf(input), opts);
  },
  run: {
    name: "opencode",
    harness: "opencode",
    command: `opencode run --format json ${PROMPT}`,
    help: `opencode run --format json "<prompt>"  → log.json (opencode export) or log.jsonl`,
    env: () => ({}),
    async collect(c) {
      // the export holds every part of the session; the printed JSONL is the fallback
      const id = c.stdout.match(/"sessionID"\s*:\s*"(ses_[A-Za-z0-9]+)"/)?.[1];
      if (id) {
        try {
          const r = await new Deno.Command("opencode", {
            args: ["export", id],
            cwd: c.workspace,
            env: c.env as Record<string, string>,
            stdout: "piped",
            stderr: "null",
          }).output();
          const text = new TextDecoder().decode(r.stdout).trim();
          const json = text.slice(text.indexOf("{"));
          if (r.success && json) {
            JSON.parse(json);
            await writeInto(c.turnDir, "log.json", json + "\n");
            return ["log.json"];
          }
        } catch {
          // no export: keep the stream
        }
      }
      const lines = c.stdout.split("\n").filter((l) => l.trim().startsWith("{"));
      if (!lines.length) return [];
      await writeInto(c.turnDir, "log.jsonl", lines.join("\n") + "\n");
      return ["log.jsonl"];
    },
  },
  doc: {
    versions:
      "`opencode export <session>` JSON (one export, several concatenated, or a list: sub-agent sessions), `opencode run --format json` JSONL; `read` offset 0-based (`00001\\|` lines) before 1.2, 1-based (`1:` lines) after",
    read: "`read` tool (numbers printed), `@file` mentions",
    search: "`grep` tool (`Line N:`), shell",
    listing: "`glob`, `list`/`ls`, shell",
    refused: "the JSONL stream does not print sub-agent (`task`) sessions — use the export",
    log:
      'Preset `opencode`: `opencode run --format json "<prompt>"`, then `opencode export <sessionID>` → `log.json` (the printed stream → `log.jsonl` when the export fails)',
  },
};
