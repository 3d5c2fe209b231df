/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<sessionId>.jsonl`, 1.0.x and
 * 2.x) and `claude -p --output-format stream-json` output.
 *
 * One JSON object per line. `assistant` lines carry `tool_use` blocks (a streamed response is
 * written as several lines sharing `message.id`: one agent step); the following `user` lines carry
 * the `tool_result` blocks whose `content` is exactly what the model saw (the structured
 * `toolUseResult` beside it is harness-side and is not used for lines). Calls and results are
 * paired by `tool_use_id`; a result without its call is listed as uninterpreted.
 *
 * - `Read`: lines are numbered `     N→text` (≤ 2.1.85) or `N\ttext` (≥ 2.1.86, either may
 *   appear); exactly the numbered lines are credited, which covers offset/limit windows,
 *   `<persisted-output>` previews and "PARTIAL view" pages. The "File unchanged since last read"
 *   stub and the past-EOF warning show no line; errors read nothing.
 * - `Bash` goes through the shell analysis (exit status from the `Exit code N` header or
 *   `is_error`; the 1.0.x middle cut `... [N characters truncated] ...` and persisted previews
 *   show head only); `Grep` content mode credits the `path:N:` / `N:` lines it printed
 *   (context lines too), other modes and `Glob`/`LS` are searches and listings of their operand.
 * - `Edit`/`MultiEdit`/`Write`/`NotebookEdit` are writes (applied to the workspace so later reads
 *   are checked against the edited file), never reads.
 * - `attachment` lines of type `file` (files re-attached after a compaction, `@`-mentions) show
 *   their `startLine`…`numLines` lines to the model: read events.
 * - Sub-agents: 1.0.x writes them inline (`isSidechain: true`); 2.x writes
 *   `<sessionId>/subagents/agent-<id>.jsonl` files, read at the step of the parent's
 *   `Task`/`Agent` call. The parent's `progress` lines copy the sub-agent's messages and are
 *   used only when the sub-agent's own file is missing — never both.
 * - The workspace root is the `cwd` of the first line that has one (never the project folder's
 *   name); each call runs in the `cwd` of its own line.
 *
 * @module
 */
import type { Event, EventKind, LogMeta } from "../types.ts";
import { type EventFields, makeEvent, otherEvent, outsideNote, pathNote } from "../event.ts";
import { analyzeShell, type ShellObservation } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import { applyEdit } from "./opencode.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, consecutiveNumbers, consecutiveShown, num, obj, spanSeconds, str } from "./common.ts";
import { badLineEvent, type Jsonl, type JsonlFile, type JsonlRecord } from "./jsonl.ts";
import type { LogReader } from "./reader.ts";
import { hasJsonLine } from "./codex.ts";
import { copyInto, exists, findFiles, home, PROMPT } from "./collect.ts";

/** Record types that carry no agent action. */
const QUIET_TYPES = new Set([
  "system",
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "permission-mode",
  "ai-title",
  "custom-title",
  "tag",
  "agent-name",
  "agent-setting",
  "pr-link",
  "worktree-state",
  "mode",
  "stream_event",
  "rate_limit_event",
  "control_request",
  "control_response",
  "keep_alive",
]);

/** Tools that run something or talk to the user but show no workspace file. */
const RUN_TOOLS = new Set([
  "TodoWrite",
  "TodoRead",
  "WebFetch",
  "WebSearch",
  "BashOutput",
  "KillBash",
  "KillShell",
  "TaskOutput",
  "TaskStop",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
  "Monitor",
  "ExitPlanMode",
  "EnterPlanMode",
  "ExitWorktree",
  "EnterWorktree",
  "AskUserQuestion",
  "Skill",
  "SlashCommand",
  "ToolSearch",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "SendMessage",
  "TeamCreate",
  "TeamDelete",
  "CronCreate",
  "CronDelete",
  "CronList",
  "RemoteTrigger",
  "PushNotification",
  "StructuredOutput",
]);

const UNCHANGED = /^File unchanged since last read\b/;
const NUMBERED = /^\s*(\d+)(?:\u2192|\t)/;
const SHOWN = /^\s*(\d+)(?:\u2192|\t)(.*)$/;

/**
 * Line numbers a Read result printed (`     N→` or `N\t`), consecutive from the first one; text
 * after the numbered block (system reminders, notices) is ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claudeReadNumbers } from "./claude.ts";
 * assert.ok(claudeReadNumbers("     7\u2192a\n     8\u2192b\n\n<system-reminder>x</system-reminder>").join() === "7,8");
 * assert.ok(claudeReadNumbers("170\tx = 1\n171\t\n172\ty").join() === "170,171,172");
 * assert.ok(claudeReadNumbers("File unchanged since last read.").length === 0);
 * ```
 */
export function claudeReadNumbers(text: string): number[] {
  return consecutiveNumbers(text, (line) => line.match(NUMBERED));
}

/** The text of a tool_result `content` (a string, or text parts; images show no text). */
function resultText(v: unknown): string {
  if (typeof v === "string") return v;
  return arr(v).map((p) => str(obj(p)?.text)).filter((t): t is string => t !== undefined).join(
    "\n",
  );
}

/**
 * What the model saw of a Bash call: the output, with the exit status when known; head only for
 * cut or persisted outputs; undefined when the command did not run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claudeBashObservation } from "./claude.ts";
 * assert.ok(claudeBashObservation("Exit code 2\nls: x: No such file", true)?.returncode === 2);
 * const cut = claudeBashObservation("a\nb\n\n... [50 characters truncated] ...\n\ny\nz", false)!;
 * assert.ok(cut.head === "a\nb" && cut.tail === "y\nz" && cut.elided === 50);
 * assert.ok(claudeBashObservation("(Bash completed with no output)", false)?.output === "");
 * ```
 */
export function claudeBashObservation(
  text: string,
  isError: boolean,
): ShellObservation | undefined {
  if (/^<tool_use_error>/.test(text)) return undefined; // rejected or a sibling failed: not run
  let out = text;
  let returncode: number | undefined = isError ? 1 : 0;
  const ec = out.match(/^Exit code (-?\d+)\n?/);
  if (ec) {
    returncode = Number(ec[1]);
    out = out.slice(ec[0].length);
  } else if (isError && /^Error: /.test(out) && !out.includes("\n")) {
    return { output: "", returncode: 1 };
  }
  if (out.includes("Shell cwd was reset to ")) {
    out = out.replace(/\n*Shell cwd was reset to [^\n]*\n?$/, "");
  }
  if (out === "(Bash completed with no output)" || out === "Tool ran without output") {
    return { output: "", returncode };
  }
  const persisted = out.indexOf("<persisted-output>");
  if (persisted >= 0) {
    const body = out.slice(persisted + "<persisted-output>".length);
    const p = body.indexOf("Preview (first");
    const nl = p < 0 ? -1 : body.indexOf("\n", p);
    const end = body.lastIndexOf("</persisted-output>");
    let head = nl < 0 ? "" : body.slice(nl + 1, end > nl ? end : undefined);
    head = head.replace(/\n?\.\.\.\n?$/, "").replace(/\n$/, "");
    return { head, tail: "", returncode };
  }
  const cut = out.match(/\n\n\.\.\. \[(\d+) characters truncated\] \.\.\.\n\n/);
  if (cut && cut.index !== undefined) {
    return {
      head: out.slice(0, cut.index),
      tail: out.slice(cut.index + cut[0].length),
      elided: Number(cut[1]),
      returncode,
    };
  }
  // the harness trims the output's final newline: every line shown ends with one
  return { output: out ? out + "\n" : out, returncode };
}

interface Call {
  id: string;
  name: string;
  input: Json;
  step: number;
  /** Workspace-relative cwd of the call (undefined: outside the workspace). */
  cwd: string | undefined;
  line: number;
  file: string;
}

interface Ctx {
  ws: TurnWorkspace;
  actions: Event[][];
  /** Agent steps of the main transcript so far (distinct assistant messages). */
  steps: number;
  lastId?: string;
  /** Sub-agent transcripts by agent id. */
  agents: Map<string, JsonlFile>;
  used: Set<string>;
  /** progress copies of sub-agent records, by the parent's tool_use id. */
  progress: Map<string, JsonlRecord[]>;
  /** agent id named by progress lines, by the parent's tool_use id. */
  progressAgent: Map<string, string>;
  /** The parent tool_use ids whose progress copies were read (each is read once). */
  replayed: Set<string>;
  stamps: number[];
  meta: LogMeta;
  /** Token figures of each model reply (message id → prompt and output tokens), counted once. */
  usage: Map<string, [number, number]>;
}

/** An event of a call: its step, tool and input as the command. */
function ev(call: Call, kind: EventKind, ...fields: EventFields): Event {
  return makeEvent(call.step, kind, call.name, JSON.stringify(call.input), ...fields);
}

/** The operand of a search or listing: its `path` input, else the call's cwd. */
function operand(ctx: Ctx, call: Call, path: unknown): { paths: string[]; note?: string } {
  const p = str(path);
  if (p === undefined || p === "") {
    return call.cwd === undefined
      ? { paths: [], note: "working directory outside the workspace" }
      : { paths: [shownPath(call.cwd)] };
  }
  const rel = ctx.ws.resolve(p, call.cwd);
  if (rel === undefined) return { paths: [], note: outsideNote(p) };
  return { paths: [shownPath(rel)] };
}

function readEvent(ctx: Ctx, call: Call, text: string, isError: boolean): Event {
  const raw = str(call.input.file_path) ?? str(call.input.notebook_path) ?? str(call.input.path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, call.cwd);
  if (rel === undefined || rel === "") {
    return ev(call, "read", [], {}, pathNote(raw));
  }
  if (isError || /^<tool_use_error>/.test(text)) {
    return ev(call, "read", [], {}, `tool call failed: nothing read (${rel})`);
  }
  if (UNCHANGED.test(text.trim())) {
    return ev(call, "read", [rel], {}, "file unchanged since last read: nothing new shown");
  }
  let shown = consecutiveShown(text, (line) => line.match(SHOWN));
  const content = ctx.ws.read(rel);
  if (typeof content !== "string" && shown.length && shown[shown.length - 1][1] === "") {
    // the file's final newline is printed as one more, empty, numbered line: when the read ran
    // to the end of the file (fewer lines than its limit) that line is not a line of the file
    // (with the file known, the content check below drops it)
    const limit = num(call.input.limit) ?? 2000;
    if (shown.length < limit && shown.length > 1) shown = shown.slice(0, -1);
  }
  if (typeof content === "string" && shown.length) {
    // the same past the end of a known file: an empty line after its last is that newline
    const n = ctx.ws.linesOf(content).length;
    const [x, t] = shown[shown.length - 1];
    if (x === n + 1 && t === "" && shown.length > 1) shown = shown.slice(0, -1);
  }
  if (!shown.length) {
    const why = /shorter than the provided offset/.test(text)
      ? "offset past the end of the file: nothing shown"
      : /\.ipynb$/.test(rel)
      ? "notebook cells: no file lines"
      : "no numbered lines shown";
    return ev(call, "read", [rel], {}, why);
  }
  if (typeof content === "string" && content === "" && shown.length === 1 && shown[0][1] === "") {
    return ev(call, "read", [rel], {}, "empty file");
  }
  const c = ctx.ws.credit(rel, shown);
  return ev(call, "read", [rel], c.lines.length ? { [rel]: c.lines } : {}, c.note, c.placed);
}

/** Lines a content-mode Grep printed: `path:N:` / `path-N-` (several files) or `N:` (one file). */
function grepEvent(ctx: Ctx, call: Call, text: string, isError: boolean): Event {
  const op = operand(ctx, call, call.input.path);
  const mode = str(call.input.output_mode) ?? "files_with_matches";
  if (isError || /^<tool_use_error>/.test(text)) {
    return ev(call, "search", [], {}, "tool call failed: nothing shown");
  }
  if (op.note && !op.paths.length) return ev(call, "search", [], {}, op.note);
  if (mode !== "content") return ev(call, "search", op.paths, {}, op.note);
  const single = op.paths[0] !== undefined && op.paths[0] !== "." &&
      typeof ctx.ws.read(op.paths[0]) === "string"
    ? op.paths[0]
    : undefined;
  const singleGuess = single ?? (str(call.input.path) && !str(call.input.glob) &&
      /\.[A-Za-z0-9]+$/.test(str(call.input.path)!)
    ? op.paths[0]
    : undefined);
  const got = new Map<string, ShownLine[]>();
  const add = (f: string, n: number, text?: string) => {
    const l = got.get(f) ?? [];
    l.push([n, text]);
    got.set(f, l);
  };
  const unnumbered: [string, string][] = [];
  const outside = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line || line === "--") continue;
    let placed = false;
    const re = /([:-])(\d+)\1/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line))) {
      const p = line.slice(0, m.index);
      const rel = p ? ctx.ws.resolve(p, call.cwd) : undefined;
      if (rel !== undefined && rel !== "" && ctx.ws.exists(rel) !== false) {
        add(rel, Number(m[2]), line.slice(m.index + m[0].length));
        placed = true;
        break;
      }
      if (p.startsWith("/") && rel === undefined && !p.includes(":")) {
        outside.add(p);
        placed = true;
        break;
      }
      re.lastIndex = m.index + 1;
    }
    if (placed) continue;
    const one = line.match(/^(\d+)[:-]/);
    if (one && singleGuess) {
      add(singleGuess, Number(one[1]), line.slice(one[0].length));
      continue;
    }
    // harness notices (pagination, totals) are not matches
    if (
      /^\[Showing results|^Found \d+ (total )?(occurrences|files|matches)|^No (matches|files) found$/
        .test(line)
    ) continue;
    // `path:text` (no line numbers)
    const c = line.indexOf(":");
    const rel = c > 0 ? ctx.ws.resolve(line.slice(0, c), call.cwd) : undefined;
    if (rel && ctx.ws.exists(rel) !== false) unnumbered.push([rel, line.slice(c + 1)]);
    else if (singleGuess) unnumbered.push([singleGuess, line]);
  }
  let placed = true;
  const notes: string[] = [];
  if (op.note) notes.push(op.note);
  if (outside.size) notes.push(outsideNote(outside));
  for (const [f, t] of unnumbered) {
    const content = ctx.ws.read(f);
    if (typeof content !== "string") {
      placed = false;
      continue;
    }
    const lines = ctx.ws.linesOf(content);
    const at = lines.reduce<number[]>((a, l, i) => (l === t ? [...a, i + 1] : a), []);
    if (at.length === 1) add(f, at[0], t);
    else if (at.length > 1) placed = false;
  }
  if (!placed) notes.push("some matched lines carry no numbers and could not be placed");
  const c = ctx.ws.creditFiles(got);
  notes.push(...c.notes);
  return ev(call, "search", op.paths, c.lines, notes.join("; ") || undefined, placed && c.placed);
}

function writeEvent(ctx: Ctx, call: Call, text: string, isError: boolean): Event {
  const raw = str(call.input.file_path) ?? str(call.input.notebook_path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, call.cwd);
  if (rel === undefined || rel === "") {
    return ev(call, "write", [], {}, pathNote(raw));
  }
  if (isError || /^<tool_use_error>/.test(text)) {
    return ev(call, "write", [], {}, `tool call failed: nothing written (${rel})`);
  }
  const cur = ctx.ws.read(rel);
  let next: string | typeof UNKNOWN = UNKNOWN;
  if (call.name === "Write") {
    next = str(call.input.content) ?? UNKNOWN;
  } else if (call.name === "Edit" || call.name === "MultiEdit") {
    const edits = call.name === "Edit"
      ? [call.input]
      : arr(call.input.edits).map((e) => obj(e) ?? {});
    let c: string | typeof UNKNOWN = typeof cur === "string"
      ? cur
      : cur === undefined
      ? ""
      : UNKNOWN;
    for (const e of edits) {
      if (c === UNKNOWN) break;
      // Claude Code refuses an empty old_string on a file that has content (it creates files
      // only), and an edit whose old and new strings are the same: nothing changes
      if (str(e.old_string) === str(e.new_string)) continue;
      if ((str(e.old_string) ?? "") === "" && c !== "") continue;
      const r = applyEdit(
        c,
        str(e.old_string) ?? "",
        str(e.new_string) ?? "",
        e.replace_all === true,
      );
      c = r === undefined ? UNKNOWN : r;
    }
    next = c;
  }
  ctx.ws.write(rel, next);
  return ev(call, "write", [rel], {});
}

/**
 * A file the harness attached to the conversation (`attachment.type: "file"`, e.g. the files
 * re-attached after a compaction, or an `@`-mentioned file): its `startLine`…`numLines` lines
 * were shown to the model. References without content (`compact_file_reference`) show nothing.
 */
function attachmentRead(ctx: Ctx, o: Json, step: number): Event | undefined {
  const a = obj(o.attachment);
  if (!a || str(a.type) !== "file") return undefined;
  const f = obj(obj(a.content)?.file);
  const raw = str(f?.filePath) ?? str(a.filename);
  const start = num(f?.startLine) ?? 1;
  const n = num(f?.numLines);
  const call: Call = {
    id: str(o.uuid) ?? "",
    name: "attachment",
    input: { file_path: raw },
    step,
    cwd: str(o.cwd) === undefined ? "" : ctx.ws.resolve(str(o.cwd)!, ""),
    line: 0,
    file: "",
  };
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, call.cwd);
  if (rel === undefined || rel === "") {
    return ev(
      call,
      "read",
      [],
      {},
      pathNote(raw || undefined),
    );
  }
  if (n === undefined || n < 1 || typeof f?.content !== "string") {
    return ev(call, "read", [rel], {}, "attached file without its text: nothing shown");
  }
  const text = splitLines(f.content).slice(0, n);
  const shown: ShownLine[] = Array.from({ length: n }, (_, i) => [start + i, text[i]]);
  const c = ctx.ws.creditFiles([[rel, shown]]);
  return ev(call, "read", [rel], c.lines, ["attached file", ...c.notes].join("; "), c.placed);
}

/** The sub-agent id a Task/Agent result names. */
function agentIdOf(ctx: Ctx, call: Call, tur: unknown, text: string): string | undefined {
  return str(obj(tur)?.agentId) ?? ctx.progressAgent.get(call.id) ??
    text.match(/\bagentId: ([A-Za-z0-9_-]+)/)?.[1];
}

async function handle(
  ctx: Ctx,
  call: Call,
  block: Json,
  tur: unknown,
): Promise<void> {
  const text = resultText(block.content);
  const isError = block.is_error === true;
  const input = call.input;
  let events: Event[];
  switch (call.name) {
    case "Read":
    case "NotebookRead":
      events = [readEvent(ctx, call, text, isError)];
      break;
    case "Bash":
    case "PowerShell": {
      // PowerShell: the Windows tool (2.1.x), a Bash twin whose commands PowerShell runs
      const command = str(input.command);
      if (command === undefined) {
        events = [ev(call, "other", [], {}, `${call.name} call without a command`)];
        break;
      }
      const obs = input.run_in_background === true ||
          /^Command running in background with ID:/.test(text)
        ? undefined
        : claudeBashObservation(text, isError);
      events = await analyzeShell(command, {
        ws: ctx.ws,
        cwd: call.cwd,
        step: call.step,
        tool: call.name,
        dialect: call.name === "PowerShell" ? "powershell" : undefined,
      }, obs);
      break;
    }
    case "Grep":
      events = [grepEvent(ctx, call, text, isError)];
      break;
    case "Glob":
    case "LS": {
      if (isError || /^<tool_use_error>/.test(text)) {
        events = [ev(call, "list", [], {}, "tool call failed: nothing shown")];
        break;
      }
      const op = operand(ctx, call, input.path);
      events = [ev(call, "list", op.paths, {}, op.note)];
      break;
    }
    case "Edit":
    case "MultiEdit":
    case "Write":
    case "NotebookEdit":
      events = [writeEvent(ctx, call, text, isError)];
      break;
    case "Task":
    case "Agent": {
      ctx.actions.push([ev(call, "run", [], {})]);
      const id = agentIdOf(ctx, call, tur, text);
      const sub = id === undefined ? undefined : ctx.agents.get(id);
      if (sub && id !== undefined && !ctx.used.has(id)) {
        ctx.used.add(id);
        await transcript(ctx, sub.jsonl, sub.file, call.step);
      } else if (!sub && ctx.progress.has(call.id) && !ctx.replayed.has(call.id)) {
        // the sub-agent's own file is missing: its messages as the parent's progress lines copied
        // them — once (copies that repeat their own Task call would replay it forever)
        ctx.replayed.add(call.id);
        await transcript(
          ctx,
          { records: ctx.progress.get(call.id)!, bad: [] },
          `${call.file} (progress copies)`,
          call.step,
          call.id,
        );
      }
      return;
    }
    default:
      events = RUN_TOOLS.has(call.name) || call.name.startsWith("mcp__")
        ? [ev(call, "run", [], {})]
        : [ev(call, "other", [], {}, `unknown tool: ${call.name}`)];
  }
  ctx.actions.push(events);
}

/**
 * Reads the records of one transcript; `fixedStep` for sub-agents (the parent call's step).
 * Calls are collected first: a streamed response may write a tool_use line after the result of
 * a parallel call was already written.
 */
async function transcript(
  ctx: Ctx,
  jsonl: Jsonl,
  file: string,
  fixedStep?: number,
  /** The call whose progress copies these are (a copy of the call itself is not a call). */
  own?: string,
): Promise<void> {
  const calls = new Map<string, Call>();
  const cwdOf = (o: Json): string | undefined => {
    const c = str(o.cwd);
    return c === undefined ? "" : ctx.ws.resolve(c, "");
  };
  const stepAt: number[] = [];
  let cur = fixedStep ?? Math.max(0, ctx.steps - 1);
  // pass 1: steps, calls, progress copies
  for (const rec of jsonl.records) {
    const o = obj(rec.value);
    const type = str(o?.type);
    if (o && type === "assistant") {
      const msg = obj(o.message) ?? {};
      const sidechain = o.isSidechain === true || str(o.parent_tool_use_id) !== undefined;
      const usage = obj(msg.usage);
      if (usage) {
        // a reply is written as one line per content block, each repeating its usage
        const prompt = (num(usage.input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0) +
          (num(usage.cache_creation_input_tokens) ?? 0);
        ctx.usage.set(str(msg.id) ?? `${file}:${rec.line}`, [
          prompt,
          num(usage.output_tokens) ?? 0,
        ]);
      }
      if (fixedStep === undefined && !sidechain) {
        const id = str(msg.id) ?? str(o.uuid) ?? `line ${rec.line}`;
        if (id !== ctx.lastId) {
          ctx.steps++;
          ctx.lastId = id;
        }
        cur = ctx.steps - 1;
      }
      for (const b of arr(msg.content)) {
        const block = obj(b);
        if (!block || str(block.type) !== "tool_use") continue;
        const id = str(block.id) ?? `${file}:${rec.line}`;
        if (calls.has(id) || id === own) continue;
        calls.set(id, {
          id,
          name: str(block.name) ?? "?",
          input: obj(block.input) ?? {},
          step: cur,
          cwd: cwdOf(o),
          line: rec.line,
          file,
        });
      }
    } else if (o && type === "progress") {
      const data = obj(o.data) ?? {};
      const parent = str(o.parentToolUseID) ?? str(data.parentToolUseID);
      const inner = obj(data.message);
      if (parent && inner && str(data.type) === "agent_progress") {
        const agent = str(data.agentId);
        if (agent) ctx.progressAgent.set(parent, agent);
        const list = ctx.progress.get(parent) ?? [];
        list.push({ line: rec.line, value: { ...inner, isSidechain: true } });
        ctx.progress.set(parent, list);
      }
    }
    stepAt.push(cur);
  }
  // pass 2: results in the order they were written
  const done = new Set<string>();
  for (let i = 0; i < jsonl.records.length; i++) {
    const rec = jsonl.records[i];
    const step = stepAt[i];
    const o = obj(rec.value);
    if (!o) {
      ctx.actions.push([otherEvent(step, "?", "", `${file}:${rec.line}: not a JSON object`)]);
      continue;
    }
    const type = str(o.type);
    const ts = str(o.timestamp);
    if (ts) {
      const t = Date.parse(ts);
      if (Number.isFinite(t)) ctx.stamps.push(t);
    }
    if (type === "assistant" || type === "progress") continue;
    if (type === "user") {
      const msg = obj(o.message) ?? {};
      for (const b of arr(msg.content)) {
        const block = obj(b);
        if (!block || str(block.type) !== "tool_result") continue;
        const id = str(block.tool_use_id) ?? "";
        if (id === own) continue; // a copy of the calling Task's own result
        const call = calls.get(id);
        if (!call || done.has(id)) {
          ctx.actions.push([
            otherEvent(
              step,
              "?",
              JSON.stringify({ tool_use_id: id }),
              `${file}:${rec.line}: tool result without its call (${id || "no id"})`,
            ),
          ]);
          continue;
        }
        done.add(id);
        await handle(ctx, call, block, o.toolUseResult);
      }
      continue;
    }
    if (type === "attachment") {
      const e = attachmentRead(ctx, o, step);
      if (e) ctx.actions.push([e]);
      continue;
    }
    if (type === "result") {
      const cost = num(o.total_cost_usd) ?? num(o.cost_usd);
      if (cost !== undefined && fixedStep === undefined) ctx.meta.cost = cost;
      const ms = num(o.duration_ms);
      if (ms !== undefined && fixedStep === undefined) ctx.meta.seconds = ms / 1000;
      continue;
    }
    if (type !== undefined && QUIET_TYPES.has(type)) continue;
    ctx.actions.push([
      otherEvent(
        step,
        "?",
        type ?? "",
        `${file}:${rec.line}: unknown record type: ${type ?? "(none)"}`,
      ),
    ]);
  }
  const last = stepAt.length ? stepAt[stepAt.length - 1] : cur;
  for (const bad of jsonl.bad) ctx.actions.push([badLineEvent(file, bad, last)]);
  // calls whose result never came (the session was cut): nothing was shown
  for (const call of calls.values()) {
    if (done.has(call.id)) continue;
    const kind: Event["kind"] = call.name === "Read" || call.name === "NotebookRead"
      ? "read"
      : call.name === "Grep"
      ? "search"
      : call.name === "Glob" || call.name === "LS"
      ? "list"
      : ["Edit", "MultiEdit", "Write", "NotebookEdit"].includes(call.name)
      ? "write"
      : "run";
    if (kind === "write") {
      // it may have been applied: its content is no longer known
      const raw = str(call.input.file_path) ?? str(call.input.notebook_path);
      const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, call.cwd);
      if (rel) ctx.ws.write(rel, UNKNOWN);
    }
    ctx.actions.push([ev(call, kind, [], {}, "no tool result in the log: nothing shown")]);
  }
}

/** The first `cwd` a transcript states (conversation lines, or the stream-json init line). */
function firstCwd(jsonl: Jsonl): string | undefined {
  for (const r of jsonl.records) {
    const c = str(obj(r.value)?.cwd);
    if (c) return c;
  }
  return undefined;
}

/** The agent id of a sub-agent transcript: its lines' `agentId`, else its file name. */
export function claudeAgentId(c: JsonlFile): string | undefined {
  for (const r of c.jsonl.records.slice(0, 20)) {
    const a = str(obj(r.value)?.agentId);
    if (a) return a;
  }
  return c.file.match(/agent-([A-Za-z0-9_-]+)\.jsonl$/)?.[1];
}

/** Reads a Claude Code session (and its sub-agent files). */
export async function readClaude(
  main: Jsonl,
  opts: ReaderOptions,
  companions: JsonlFile[] = [],
): Promise<ReaderResult> {
  const root = opts.cwd ?? firstCwd(main) ?? companions.map((c) => firstCwd(c.jsonl)).find((
    c,
  ) => c) ?? "";
  const agents = new Map<string, JsonlFile>();
  for (const c of companions) {
    const id = claudeAgentId(c);
    if (id !== undefined) agents.set(id, c);
  }
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, root),
    actions: [],
    steps: 0,
    agents,
    used: new Set(),
    progress: new Map(),
    progressAgent: new Map(),
    replayed: new Set(),
    stamps: [],
    meta: {},
    usage: new Map(),
  };
  await transcript(ctx, main, opts.file);
  // sub-agent files no call named (compaction agents, teammates): at the last step
  for (const [id, c] of agents) {
    if (ctx.used.has(id)) continue;
    ctx.used.add(id);
    await transcript(ctx, c.jsonl, c.file, Math.max(0, ctx.steps - 1));
  }
  const meta: LogMeta = { ...ctx.meta, steps: ctx.steps };
  if (ctx.usage.size) {
    // every reply of the session, sub-agents included: prompt tokens (cached ones too), output
    meta.tokens_in = meta.tokens_out = 0;
    for (const [prompt, out] of ctx.usage.values()) {
      meta.tokens_in += prompt;
      meta.tokens_out += out;
    }
  }
  if (meta.seconds === undefined) {
    const s = spanSeconds(ctx.stamps, true);
    if (s !== undefined) meta.seconds = s;
  }
  return { format: "claude-code", actions: ctx.actions, meta };
}

/** Record types of Claude Code transcripts (and `--output-format stream-json`). */
const RECORD_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "summary",
  "progress",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "attachment",
  "permission-mode",
  "result",
  ...QUIET_TYPES,
]);

/**
 * True when the first values of a JSONL text are Claude Code lines: a transcript line (its
 * `sessionId`/`uuid` threading) or a stream-json line (`session_id` with `uuid`, or the init
 * line's `tools` / `claude_code_version`), and no line of another harness that looks alike —
 * Cursor's stream-json (`tool_call`, `thinking` lines, no `uuid`), Qwen Code's tree JSONL (Gemini
 * `parts`, `tool_result` records), Gemini CLI sessions (`projectHash`), Codex (`payload`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isClaudeSession } from "./claude.ts";
 * assert.ok(isClaudeSession([{ type: "user", sessionId: "s", uuid: "u", message: { content: "hi" } }]));
 * const cursor = { type: "system", subtype: "init", session_id: "s", cwd: "/r", model: "m" };
 * assert.ok(!isClaudeSession([cursor, { type: "tool_call", subtype: "started", session_id: "s" }]));
 * ```
 */
export function isClaudeSession(values: unknown[]): boolean {
  let own = false;
  for (const v of values) {
    const o = obj(v);
    if (!o) continue;
    const type = str(o.type);
    if (!type) return false;
    if ("projectHash" in o || "payload" in o || "systemPayload" in o) return false;
    const msg = obj(o.message);
    if (msg && "parts" in msg) return false;
    const threaded = "sessionId" in o || "uuid" in o || "leafUuid" in o || "isSidechain" in o ||
      "parentUuid" in o;
    // a record type the reader does not know is Claude's only on a threaded transcript line
    if (!RECORD_TYPES.has(type) && !("sessionId" in o && "uuid" in o)) return false;
    if (threaded) own = true;
    else if (
      "session_id" in o && (Array.isArray(o.tools) || str(o.claude_code_version) !== undefined)
    ) own = true;
  }
  return own;
}

/** Claude Code's project directory name for a working directory (`/`, `.`, `:`, `\\` → `-`). */
export function claudeProjectDir(cwd: string): string {
  return cwd.replace(/[/.:\\]/g, "-");
}

/** The Claude Code reader (registry entry). */
export const reader: LogReader = {
  name: "claude-code",
  harness: "Claude Code",
  harnessNames: ["claudecode", "claude"],
  formats: ["claude-code"],
  files: ["~/.claude/projects/<project>/<sessionId>.jsonl", "<sessionId>/subagents/agent-*.jsonl"],
  detect: (input) => isClaudeSession(input.head()) ? "claude-code" : undefined,
  accepts: hasJsonLine,
  read: (input, _format, opts) => readClaude(input.jsonl(), opts, opts.companions()),
  run: {
    name: "claude-code",
    harness: "claude-code",
    command:
      `claude -p ${PROMPT} --output-format stream-json --verbose --permission-mode bypassPermissions --session-id {session_id}`,
    help: `claude -p "<prompt>" --output-format stream-json --verbose
--permission-mode bypassPermissions --session-id <uuid>
→ log.jsonl (+ <uuid>/subagents/) from ~/.claude/projects/`,
    env: () => ({}),
    async collect(c) {
      const base = `${c.env.CLAUDE_CONFIG_DIR ?? `${home(c.env)}/.claude`}/projects`;
      let main = `${base}/${claudeProjectDir(c.workspace)}/${c.sessionId}.jsonl`;
      if (!(await exists(main))) {
        // another project-directory spelling: find the session by its id
        const found = await findFiles(base, new RegExp(`^${c.sessionId}\\.jsonl$`), 1);
        if (!found.length) return [];
        main = found[0];
      }
      const out = ["log.jsonl"];
      await copyInto(main, c.turnDir, "log.jsonl");
      // sub-agents (2.1.x): <sessionId>/subagents/agent-*.jsonl (+ .meta.json) beside the session
      const subDir = `${main.slice(0, -".jsonl".length)}/subagents`;
      for (const f of await findFiles(subDir, /\.(jsonl|json)$/, 0)) {
        const rel = `${c.sessionId}/subagents/${f.slice(subDir.length + 1)}`;
        await copyInto(f, c.turnDir, rel);
        out.push(rel);
      }
      return out;
    },
  },
  doc: {
    versions:
      "session JSONL (1.0.x and 2.x), `Read` results with both line-prefix eras (`N→`, `N\\t`), sub-agents inline (`isSidechain`) and in `<sessionId>/subagents/agent-*.jsonl` (reader: see `lib/logs/readers/` and docs/run-logs.md)",
    read:
      '`Read` (offset/limit; the "unchanged since last read" stub shows nothing new), `NotebookRead`, `Bash` via the shell analysis, and on Windows the `PowerShell` tool via its PowerShell analysis',
    search: "`Grep` (content / files_with_matches / count), `Bash`",
    listing: "`Glob`, `LS`, `Bash`",
    refused:
      "`<persisted-output>` previews show only their preview; what a sub-agent summarised back to the parent is not a file view",
    log:
      '`~/.claude/projects/<cwd with / . : \\ → ->/<sessionId>.jsonl`. Preset `claude-code`: `claude -p "<prompt>" --output-format stream-json --verbose --permission-mode bypassPermissions --session-id <uuid>` (Claude Code headless docs: `-p/--print`, `--output-format`, `--verbose`, `--permission-mode`); copies `<uuid>.jsonl` → `log.jsonl` and `<uuid>/subagents/` beside it',
  },
};
