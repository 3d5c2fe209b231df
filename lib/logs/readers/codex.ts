/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl`): the
 * `{timestamp, type, payload}` envelope (since 2025-09) and the older pre-envelope files (a bare
 * `{id, timestamp, instructions}` first line, `{"record_type":"state"}` markers, bare response
 * items).
 *
 * What the model saw is the `response_item` stream: `function_call` / `custom_tool_call` /
 * `local_shell_call` items paired with their `*_output` by `call_id` (parallel calls interleave);
 * `event_msg` lines are UI events and are not used. Steps are model responses: a run of model
 * items (reasoning, assistant message, calls) between tool outputs or user messages.
 *
 * - Shell tools `exec_command` (`cmd`), `shell` (argv), `shell_command` (string) and
 *   `local_shell_call` go through the shell analysis (PowerShell's when the session ran on
 *   Windows, whose default shell it is, or the argv is `powershell -Command …`), in the call's `workdir` (else the turn's
 *   `turn_context.cwd`, else the session's). The output header (`Chunk ID / Wall time / Process
 *   exited with code / Original token count / Output:`, or `Exit code / Wall time / Total output
 *   lines / Output:`, or the older JSON `{output, metadata: {exit_code}}`) gives the exit status;
 *   a `…N tokens truncated…` (or `[... omitted N of M lines ...]`) cut shows head and tail only.
 * - `read_file` (experimental) credits its `L<n>: ` lines; `list_dir` is a listing,
 *   `grep_files` a search of its operand; `apply_patch` is a write, applied to the workspace.
 * - Code mode (`exec`, a JavaScript cell calling tools; see codex_cells.ts): each nested call
 *   whose arguments are literals is read as if the model had made it, with the printed item that
 *   is its result (nested shell results pair in order); a result not printed shows nothing.
 * - Sub-agent rollouts (`session_meta.payload.source.subagent.thread_spawn.parent_thread_id`)
 *   given beside the session are read at the step of the parent's call that names them.
 *
 * @module
 */
import type { Event, EventKind, LogMeta } from "../types.ts";
import { type EventFields, makeEvent, otherEvent, pathNote } from "../event.ts";
import { analyzeShell, type ShellObservation } from "../shell/analyze.ts";
import { powershellScript } from "../shell/powershell.ts";
import { cellCalls, cellOutput, shellResultText } from "./codex_cells.ts";
import { shownPath } from "../shell/stream.ts";
import { TurnWorkspace, UNKNOWN } from "../workspace.ts";
import { applyPatch } from "./opencode.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, consecutiveNumbers, consecutiveShown, num, obj, spanSeconds, str } from "./common.ts";
import { badLineEvent, type Jsonl, type JsonlFile } from "./jsonl.ts";
import type { LogInput, LogReader } from "./reader.ts";
import { copyInto, findFiles, head, home, PROMPT, since } from "./collect.ts";

const ENVELOPE_TYPES = new Set([
  "session_meta",
  "turn_context",
  "response_item",
  "event_msg",
  "compacted",
  "world_state",
  "inter_agent_communication",
]);

const RESPONSE_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "web_search_call",
  "tool_search_call",
  "tool_search_output",
  "image_generation_call",
  "ghost_snapshot",
  "compaction",
  "compaction_summary",
  "mcp_tool_call",
  "mcp_tool_call_output",
  // 0.14x–0.15x (codex-rs protocol/src/models.rs ResponseItem): tools announced mid-session,
  // messages between agents, compaction markers
  "additional_tools",
  "agent_message",
  "context_compaction",
  "compaction_trigger",
  "other",
]);

const MODEL_ITEMS = new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
  "tool_search_call",
  "image_generation_call",
  "mcp_tool_call",
]);

const SHELL_TOOLS = new Set([
  "exec_command",
  "shell",
  "shell_command",
  "container.exec",
  "local_shell",
]);

const RUN_TOOLS = new Set([
  "write_stdin",
  "update_plan",
  "view_image",
  "web_search",
  "spawn_agent",
  "send_input",
  "send_message",
  "wait",
  "wait_agent",
  "close_agent",
  "resume_agent",
  "list_agents",
  "request_user_input",
  "js_repl",
  "js_repl_reset",
  "image_generation",
  "tool_search",
  "list_mcp_resources",
  "list_mcp_resource_templates",
  "read_mcp_resource",
]);

/** Parent thread id of a sub-agent rollout, from its `session_meta`. */
export function codexParentId(meta: Json | undefined): string | undefined {
  const spawn = obj(obj(obj(meta?.source)?.subagent)?.thread_spawn);
  return str(spawn?.parent_thread_id) ?? str(meta?.parent_thread_id) ??
    str(obj(meta?.forked_from)?.id);
}

/** One normalised rollout line. */
interface Item {
  line: number;
  kind: string;
  payload: Json;
  ts?: string;
}

/** The lines of a rollout as `{kind, payload}` (pre-envelope files wrapped the same way). */
function normalise(jsonl: Jsonl, file: string, unknown: Event[]): Item[] {
  const out: Item[] = [];
  let first = true;
  for (const rec of jsonl.records) {
    const o = obj(rec.value);
    const wasFirst = first;
    first = false;
    if (!o) {
      unknown.push(other(0, `${file}:${rec.line}: not a JSON object`));
      continue;
    }
    const type = str(o.type);
    const ts = str(o.timestamp);
    if (type && ENVELOPE_TYPES.has(type) && "payload" in o) {
      out.push({ line: rec.line, kind: type, payload: obj(o.payload) ?? {}, ts });
    } else if (type && "payload" in o && obj(o.payload)) {
      unknown.push(other(0, `${file}:${rec.line}: unknown record type: ${type}`));
    } else if (str(o.record_type) !== undefined) {
      continue; // pre-envelope state marker
    } else if (wasFirst && str(o.id) !== undefined && type === undefined) {
      out.push({ line: rec.line, kind: "session_meta", payload: o, ts });
    } else if (type && RESPONSE_TYPES.has(type)) {
      out.push({ line: rec.line, kind: "response_item", payload: o, ts });
    } else {
      unknown.push(other(0, `${file}:${rec.line}: unknown record type: ${type ?? "(none)"}`));
    }
  }
  return out;
}

function other(step: number, note: string): Event {
  return otherEvent(step, "?", "", note);
}

/** The text of a tool output (a string, `{content}`, or content parts). */
function outputText(v: unknown): { text: string; success?: boolean } {
  if (typeof v === "string") return { text: v };
  const o = obj(v);
  if (o) {
    const c = o.content;
    const text = typeof c === "string" ? c : arr(c).map((p) => str(obj(p)?.text) ?? "").join("\n");
    return { text, success: typeof o.success === "boolean" ? o.success : undefined };
  }
  return { text: arr(v).map((p) => str(obj(p)?.text) ?? "").join("\n") };
}

const TRUNC = /\u2026(\d+) tokens truncated\u2026|\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]/;

/**
 * What a Codex shell call showed the model: output body and exit status from the header forms
 * of the unified exec, freeform and JSON outputs; head and tail when the middle was cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codexObservation } from "./codex.ts";
 * const o = codexObservation("Chunk ID: 1a\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\na\nb\n");
 * assert.ok(o.output === "a\nb\n" && o.returncode === 0);
 * const j = codexObservation('{"output":"x\\n","metadata":{"exit_code":1,"duration_seconds":0.2}}');
 * assert.ok(j.output === "x\n" && j.returncode === 1);
 * const t = codexObservation("Exit code: 0\nWall time: 1 seconds\nTotal output lines: 900\nOutput:\na\nb\u20265 tokens truncated\u2026y\nz\n");
 * assert.ok(t.head === "a\nb" && t.tail === "y\nz\n" && t.returncode === 0);
 * ```
 */
export function codexObservation(raw: string, success?: boolean): ShellObservation {
  let text = raw;
  let rc: number | undefined;
  if (text.startsWith("{")) {
    try {
      const j = obj(JSON.parse(text));
      if (j && typeof j.output === "string") {
        text = j.output;
        rc = num(obj(j.metadata)?.exit_code);
      }
    } catch {
      // not the JSON form
    }
  }
  const header =
    /^(Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Exit code|Total output lines|Token count|Command|Status):? ?(.*)\n/;
  let hadHeader = false;
  for (let guard = 0; guard < 10; guard++) {
    const m = text.match(header);
    if (!m) break;
    hadHeader = true;
    if (m[1] === "Process exited with code" || m[1] === "Exit code") {
      const n = Number(m[2].trim());
      if (Number.isFinite(n)) rc = n;
    }
    text = text.slice(m[0].length);
  }
  if (hadHeader && text.startsWith("Output:")) {
    text = text.slice("Output:".length).replace(/^\n/, "");
  }
  const warn = text.match(
    /^Warning: truncated output \(original token count: \d+\)\n(Total output lines: \d+\n)?\n?/,
  );
  if (warn) text = text.slice(warn[0].length);
  const timeout = text.match(/^command timed out after \d+ milliseconds\n/);
  if (timeout) {
    text = text.slice(timeout[0].length);
    rc ??= 124;
  }
  if (rc === undefined && success === false) rc = 1;
  const cut = text.match(TRUNC);
  if (cut && cut.index !== undefined) {
    return {
      head: text.slice(0, cut.index).replace(/\n$/, ""),
      tail: text.slice(cut.index + cut[0].length).replace(/^\n/, ""),
      returncode: rc,
    };
  }
  return { output: text, returncode: rc };
}

/** Line numbers of a `read_file` output (`L12: text`), consecutive from the first. */
export function codexReadNumbers(text: string): number[] {
  return consecutiveNumbers(text, (line) => line.match(/^L(\d+): ?/));
}

/** A shell command line from argv (`["bash", "-lc", "cmd"]` → `cmd`). */
export function argvCommand(argv: unknown[]): string | undefined {
  const words = argv.map((w) => (typeof w === "string" ? w : undefined));
  if (words.some((w) => w === undefined) || !words.length) return undefined;
  const w = words as string[];
  const shells = /^(?:\/usr\/bin\/|\/bin\/)?(?:bash|sh|zsh)$/;
  if (w.length >= 3 && shells.test(w[0]) && /^-l?c$|^-lc$|^-c$/.test(w[1])) return w[2];
  if (w.length >= 3 && /^(?:pwsh|powershell)(?:\.exe)?$/i.test(w[0])) return undefined;
  return w.map((x) => (/^[A-Za-z0-9_\/.,:=+-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}

interface Call {
  id: string;
  name: string;
  args: Json;
  /** Raw input of custom tools (apply_patch freeform). */
  input?: string;
  step: number;
  cwd: string | undefined;
  item: string;
}

interface Ctx {
  ws: TurnWorkspace;
  actions: Event[][];
  steps: number;
  stamps: number[];
  children: Map<string, JsonlFile>;
  used: Set<string>;
  /** Code-mode cells that yielded (`Script running with cell ID N`), by cell id. */
  running: Map<string, { call: Call; items: string[] }>;
}

/** An event of a call: its step, tool and input (or arguments) as the command. */
function ev(call: Call, kind: EventKind, ...fields: EventFields): Event {
  return makeEvent(call.step, kind, call.name, call.input ?? JSON.stringify(call.args), ...fields);
}

function parseArgs(v: unknown): Json {
  if (typeof v === "string") {
    try {
      return obj(JSON.parse(v)) ?? {};
    } catch {
      return { _raw: v };
    }
  }
  return obj(v) ?? {};
}

/** Nested shell tools of a code-mode cell. */
const CELL_SHELLS = new Set(["exec_command", "shell_command", "shell", "local_shell"]);

/**
 * A code-mode `exec` cell: each nested call whose arguments are literals is handled as if the
 * model had made it, with the printed item that is its result (nested shell results in order);
 * a nested call whose result was not printed (or cannot be told apart) shows nothing, and its
 * read is unplaced.
 */
async function cell(ctx: Ctx, call: Call, output: unknown): Promise<void> {
  const printed = output === undefined ? undefined : cellOutput(output);
  const yielded = printed?.status?.match(/^Script running with cell ID (\S+)/);
  if (yielded) {
    // the rest comes with `wait {cell_id}`: read the cell when it is done
    ctx.running.set(yielded[1], { call, items: printed!.items });
    return;
  }
  await cellEvents(ctx, call, printed?.items, output === undefined);
}

/** `wait` on a yielded cell: its further output; the cell is read once it has finished. */
async function waitCell(ctx: Ctx, id: string, output: unknown): Promise<void> {
  const state = ctx.running.get(id)!;
  const more = cellOutput(output);
  state.items.push(...more.items);
  if (more.status?.startsWith("Script running")) return;
  ctx.running.delete(id);
  await cellEvents(ctx, state.call, state.items, false);
}

/** The events of a cell's nested calls, given the items it printed (undefined: no output). */
async function cellEvents(
  ctx: Ctx,
  call: Call,
  items: string[] | undefined,
  noOutput: boolean,
): Promise<void> {
  const source = call.input ?? str(call.args._raw) ?? "";
  const calls = cellCalls(source);
  const printed = items === undefined ? undefined : { items };
  const results = (items ?? []).map(shellResultText).filter((t): t is string => t !== undefined);
  const shells = calls.filter((c) => CELL_SHELLS.has(c.name));
  const paired = results.length === shells.length;
  const before = ctx.actions.length;
  let k = 0;
  for (const [i, c] of calls.entries()) {
    const nested: Call = {
      ...call,
      id: `${call.id}#${i}`,
      name: c.name,
      args: obj(c.arg) ?? (typeof c.arg === "string" ? { input: c.arg } : {}),
      input: typeof c.arg === "string" ? c.arg : undefined,
      item: "exec",
    };
    if (c.arg === undefined) {
      ctx.actions.push([
        makeEvent(
          call.step,
          "other",
          `exec:${c.name}`,
          c.text,
          [],
          {},
          "code-mode call with arguments that are not literals",
        ),
      ]);
      if (CELL_SHELLS.has(c.name)) k++;
      continue;
    }
    if (CELL_SHELLS.has(c.name)) {
      const shown = paired ? results[k] : undefined;
      k++;
      const at = ctx.actions.length;
      await handle(ctx, nested, shown);
      for (const e of ctx.actions.slice(at).flat()) {
        e.tool = `exec:${e.tool}`;
        if (shown === undefined && (e.kind === "read" || e.kind === "search")) {
          e.placed = false;
          e.note = [
            noOutput
              ? "no tool output in the log"
              : "its result is not told apart in what the cell printed",
            e.note,
          ].filter(Boolean).join("; ");
        }
      }
      continue;
    }
    const at = ctx.actions.length;
    // read_file: the printed item with its `L<n>:` lines; apply_patch and the other tools: what
    // they did, as a direct call (their result is not known)
    const shown = c.name === "read_file" ? printed?.items.find((t) => /^L\d+: /.test(t)) : "";
    await handle(ctx, nested, shown);
    for (const e of ctx.actions.slice(at).flat()) {
      e.tool = `exec:${e.tool}`;
      if (shown === undefined && (e.kind === "read" || e.kind === "search")) {
        e.placed = false;
        e.note = "its result is not told apart in what the cell printed";
      }
    }
  }
  if (ctx.actions.length === before) {
    ctx.actions.push([
      ev(call, "run", [], {}, calls.length ? undefined : "code-mode cell without tool calls"),
    ]);
  }
}

async function handle(ctx: Ctx, call: Call, output: unknown): Promise<void> {
  if (call.name === "exec" && call.item === "custom_tool_call") {
    return await cell(ctx, call, output);
  }
  const waited = call.name === "wait" ? str(call.args.cell_id) : undefined;
  if (waited !== undefined && ctx.running.has(waited)) {
    ctx.actions.push([ev(call, "run", [], {})]);
    return await waitCell(ctx, waited, output);
  }
  const { text, success } = outputText(output);
  const a = call.args;
  const name = call.name;
  if (SHELL_TOOLS.has(name)) {
    const cmdv = a.cmd ?? a.command;
    // argv `["powershell.exe", "-Command", "…"]`; a string runs in the user's shell, which on
    // Windows is PowerShell (codex-rs `shell.rs` `default_user_shell`)
    const psArgv = Array.isArray(cmdv) && cmdv.every((w) => typeof w === "string")
      ? powershellScript(cmdv as string[])
      : undefined;
    const command = psArgv ??
      (typeof cmdv === "string" ? cmdv : Array.isArray(cmdv) ? argvCommand(cmdv) : undefined);
    const named = str(a.shell);
    const bashNamed = named !== undefined && /(?:^|[\\/])(?:ba|z)?sh(?:\.exe)?$/i.test(named);
    const dialect =
      psArgv !== undefined || (typeof cmdv === "string" && ctx.ws.windows && !bashNamed)
        ? "powershell" as const
        : undefined;
    if (command === undefined) {
      ctx.actions.push([ev(call, "other", [], {}, "shell call without a command")]);
      return;
    }
    const wd = str(a.workdir) ?? str(a.working_directory) ?? str(a.cwd);
    const cwd = wd === undefined ? call.cwd : ctx.ws.resolve(wd, call.cwd);
    const running = /^(?:[^\n]*\n){0,3}Process running with session ID/.test(text);
    const obs = output === undefined ? undefined : codexObservation(text, success);
    const events = await analyzeShell(
      command,
      { ws: ctx.ws, cwd, step: call.step, tool: name, dialect },
      obs,
    );
    if (running) {
      for (const e of events) {
        e.note = [e.note, "process still running"].filter(Boolean).join("; ");
      }
    }
    ctx.actions.push(events);
    return;
  }
  if (name === "apply_patch") {
    const patch = call.input ?? str(a.input) ?? str(a.patch) ?? str(a._raw);
    const obs = codexObservation(text, success);
    const failed = (obs.returncode !== undefined && obs.returncode !== 0) ||
      /verification failed|^error|apply_patch .*failed/i.test(text.trim());
    if (!patch || failed) {
      ctx.actions.push([
        ev(call, "write", [], {}, failed ? "patch failed: nothing written" : "no patch text"),
      ]);
      return;
    }
    const wd = str(a.workdir);
    const cwd = wd === undefined ? call.cwd ?? "" : ctx.ws.resolve(wd, call.cwd) ?? "";
    const changes = applyPatch(ctx.ws, patch, cwd);
    for (const [rel, c] of changes) {
      if (c === null) ctx.ws.remove(rel);
      else ctx.ws.write(rel, c);
    }
    ctx.actions.push([ev(call, "write", [...changes.keys()], {})]);
    return;
  }
  if (name === "read_file") {
    const raw = str(a.file_path) ?? str(a.path);
    const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, call.cwd);
    if (rel === undefined || rel === "") {
      ctx.actions.push([
        ev(call, "read", [], {}, pathNote(raw || undefined)),
      ]);
      return;
    }
    const shown = consecutiveShown(text, (line) => line.match(/^L(\d+): ?(.*)$/));
    if (!shown.length) {
      ctx.actions.push([ev(call, "read", [rel], {}, "no numbered lines shown")]);
      return;
    }
    const c = ctx.ws.credit(rel, shown);
    ctx.actions.push([
      ev(call, "read", [rel], c.lines.length ? { [rel]: c.lines } : {}, c.note, c.placed),
    ]);
    return;
  }
  if (name === "list_dir" || name === "grep_files") {
    const raw = str(a.dir_path) ?? str(a.path);
    const rel = raw === undefined ? call.cwd : ctx.ws.resolve(raw, call.cwd);
    const kind = name === "list_dir" ? "list" : "search";
    ctx.actions.push([
      rel === undefined
        ? ev(call, kind, [], {}, pathNote(raw || undefined, "cwd outside the workspace"))
        : ev(call, kind, [shownPath(rel)], {}),
    ]);
    return;
  }
  if (RUN_TOOLS.has(name) || name.startsWith("mcp__") || name.includes("__")) {
    ctx.actions.push([ev(call, "run", [], {})]);
    // a spawned sub-agent named in the output: read its rollout at this step
    for (const [id, child] of ctx.children) {
      if (!ctx.used.has(id) && text.includes(id)) {
        ctx.used.add(id);
        await rollout(ctx, child.jsonl, child.file, call.step);
      }
    }
    return;
  }
  ctx.actions.push([ev(call, "other", [], {}, `unknown tool: ${name}`)]);
}

/** The `<cwd>` of an `<environment_context>` user message. */
function envCwd(p: Json): string | undefined {
  for (const c of arr(p.content)) {
    const t = str(obj(c)?.text);
    const m = t?.match(/<cwd>([^<]+)<\/cwd>/);
    if (m) return m[1].trim();
  }
  return undefined;
}

async function rollout(ctx: Ctx, jsonl: Jsonl, file: string, fixedStep?: number): Promise<void> {
  const unknown: Event[] = [];
  const items = normalise(jsonl, file, unknown);
  const pending = new Map<string, Call>();
  let turnCwd: string | undefined = "";
  let inModel = false;
  let step = fixedStep ?? Math.max(0, ctx.steps - 1);
  for (const it of items) {
    if (it.ts) {
      const t = Date.parse(it.ts);
      if (Number.isFinite(t)) ctx.stamps.push(t);
    }
    const p = it.payload;
    if (it.kind === "turn_context") {
      const c = str(p.cwd);
      if (c !== undefined) turnCwd = ctx.ws.resolve(c, "");
      inModel = false;
      continue;
    }
    if (it.kind === "session_meta") {
      const c = str(p.cwd);
      if (c !== undefined) turnCwd = ctx.ws.resolve(c, "");
      continue;
    }
    if (it.kind === "event_msg") {
      if (str(p.type) === "token_count") inModel = false;
      continue;
    }
    if (it.kind !== "response_item") continue; // compacted, world_state, …
    const type = str(p.type) ?? "";
    if (!RESPONSE_TYPES.has(type)) {
      unknown.push(other(step, `${file}:${it.line}: unknown response item: ${type || "(none)"}`));
      continue;
    }
    const model = MODEL_ITEMS.has(type) || (type === "message" && str(p.role) === "assistant");
    if (model) {
      if (!inModel && fixedStep === undefined) {
        ctx.steps++;
        step = ctx.steps - 1;
      }
      inModel = true;
    } else inModel = false;
    if (type === "message" && str(p.role) === "user" && turnCwd === "") {
      const c = envCwd(p);
      if (c) turnCwd = ctx.ws.resolve(c, "");
    }
    if (type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") {
      const id = str(p.call_id) ?? str(p.id) ?? `line ${it.line}`;
      let name = str(p.name) ?? (type === "local_shell_call" ? "local_shell" : "?");
      let args = type === "custom_tool_call" ? {} : parseArgs(p.arguments);
      if (type === "local_shell_call") {
        const action = obj(p.action) ?? {};
        args = { command: action.command, workdir: action.working_directory };
        name = "local_shell";
      }
      pending.set(id, {
        id,
        name,
        args,
        input: type === "custom_tool_call" ? str(p.input) : undefined,
        step,
        cwd: turnCwd,
        item: type,
      });
      continue;
    }
    if (
      type === "function_call_output" || type === "custom_tool_call_output" ||
      type === "local_shell_call_output"
    ) {
      const id = str(p.call_id) ?? "";
      const call = pending.get(id);
      if (
        call?.name === "exec" && call.item === "custom_tool_call" && typeof p.output === "string" &&
        !p.output.startsWith("Script ")
      ) {
        continue; // a `notify()` message of a running cell: the cell's own output follows
      }
      if (!call) {
        ctx.actions.push([
          other(step, `${file}:${it.line}: tool output without its call (${id || "no id"})`),
        ]);
        continue;
      }
      pending.delete(id);
      await handle(ctx, call, p.output ?? "");
    }
  }
  // cells still running when the log ends: what they printed so far
  for (const [id, c] of [...ctx.running]) {
    ctx.running.delete(id);
    await cellEvents(ctx, c.call, c.items, false);
  }
  for (const e of unknown) ctx.actions.push([{ ...e, step }]);
  for (const bad of jsonl.bad) ctx.actions.push([badLineEvent(file, bad, step)]);
  for (const call of pending.values()) {
    if (call.name === "apply_patch") {
      // it may have been applied: the files it names are no longer known
      const patch = call.input ?? str(call.args.input) ?? "";
      for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
        const rel = ctx.ws.resolve(m[1].trim(), call.cwd);
        if (rel) ctx.ws.write(rel, UNKNOWN);
      }
    }
    ctx.actions.push([
      ev(
        call,
        SHELL_TOOLS.has(call.name) ? "run" : call.name === "apply_patch" ? "write" : "run",
        [],
        {},
        "no tool output in the log: nothing shown",
      ),
    ]);
  }
}

/** Session meta of a rollout: the envelope's `session_meta` payload or the bare first line. */
export function codexMeta(jsonl: Jsonl): Json | undefined {
  for (const r of jsonl.records.slice(0, 5)) {
    const o = obj(r.value);
    if (!o) continue;
    if (str(o.type) === "session_meta") return obj(o.payload);
    if (str(o.id) !== undefined && o.type === undefined && o.record_type === undefined) return o;
  }
  return undefined;
}

/** Reads a Codex rollout (and sub-agent rollouts given beside it). */
export async function readCodex(
  main: Jsonl,
  opts: ReaderOptions,
  companions: JsonlFile[] = [],
): Promise<ReaderResult> {
  const meta = codexMeta(main);
  let root = opts.cwd ?? str(meta?.cwd);
  if (root === undefined) {
    for (const r of main.records.slice(0, 50)) {
      const o = obj(r.value);
      const p = obj(o?.payload) ?? o;
      if (str(o?.type) === "turn_context" && str(p?.cwd)) {
        root = str(p!.cwd);
        break;
      }
      if (p && str(p.type) === "message" && str(p.role) === "user") {
        const c = envCwd(p);
        if (c) {
          root = c;
          break;
        }
      }
    }
  }
  const selfId = str(meta?.id) ?? str(meta?.session_id);
  const children = new Map<string, JsonlFile>();
  for (const c of companions) {
    const m = codexMeta(c.jsonl);
    const id = str(m?.id);
    if (id && id !== selfId) children.set(id, c);
  }
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, root ?? ""),
    actions: [],
    steps: 0,
    stamps: [],
    children,
    used: new Set(),
    running: new Map(),
  };
  await rollout(ctx, main, opts.file);
  for (const [id, c] of children) {
    if (ctx.used.has(id)) continue;
    ctx.used.add(id);
    await rollout(ctx, c.jsonl, c.file, Math.max(0, ctx.steps - 1));
  }
  const m: LogMeta = { steps: ctx.steps };
  const s = spanSeconds(ctx.stamps, true);
  if (s !== undefined) m.seconds = s;
  return { format: "codex", actions: ctx.actions, meta: m };
}

const ENVELOPE = new Set(["session_meta", "turn_context", "response_item", "event_msg"]);

/**
 * True when the first values of a JSONL text are a Codex CLI rollout: the `{timestamp, type,
 * payload}` envelope, or (before September 2025) a bare session header followed by state
 * markers or bare response items.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isCodexRollout } from "./codex.ts";
 * assert.ok(isCodexRollout([{ timestamp: "t", type: "session_meta", payload: { id: "x" } }]));
 * assert.ok(isCodexRollout([{ id: "x", timestamp: "t", instructions: null }]));
 * assert.ok(!isCodexRollout([{ type: "thread.started", thread_id: "x" }]));
 * ```
 */
export function isCodexRollout(values: unknown[]): boolean {
  const first = obj(values[0]);
  if (!first) return false;
  const t = str(first.type);
  if (t && ENVELOPE.has(t) && obj(first.payload)) return true;
  // pre-envelope: a bare session header, then state markers or bare response items
  if (t === undefined && str(first.id) !== undefined && str(first.timestamp) !== undefined) {
    const second = obj(values[1]);
    return ("instructions" in first || "git" in first) ||
      (!!second && (str(second.record_type) !== undefined ||
        ["message", "function_call", "reasoning"].includes(str(second.type) ?? "")));
  }
  return false;
}

/** The `session_meta` payload of a Codex rollout file (enveloped or bare first line). */
async function rolloutMeta(path: string): Promise<Record<string, unknown> | undefined> {
  const first = (await head(path)).split("\n")[0];
  try {
    const o = JSON.parse(first);
    return o?.type === "session_meta" ? o.payload : o;
  } catch {
    // a first line that is no JSON has no session meta
    return undefined;
  }
}

/** True when a text has at least one JSON line (what `--format` needs of a session format). */
export function hasJsonLine(input: LogInput): boolean {
  return input.head(1).length > 0 || input.jsonl().records.length > 0;
}

/** The Codex CLI reader (registry entry). */
export const reader: LogReader = {
  name: "codex",
  harness: "Codex CLI",
  harnessNames: ["codex"],
  formats: ["codex"],
  files: ["$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl"],
  detect: (input) => isCodexRollout(input.head(2)) ? "codex" : undefined,
  accepts: hasJsonLine,
  read: (input, _format, opts) => readCodex(input.jsonl(), opts, opts.companions()),
  run: {
    name: "codex",
    harness: "codex",
    command:
      `codex exec --json --skip-git-repo-check --sandbox workspace-write -C {workspace} ${PROMPT}`,
    help: `codex exec --json --skip-git-repo-check --sandbox workspace-write -C <ws> "<prompt>"
→ log.jsonl (+ subagents/) from $CODEX_HOME/sessions/ (the rollout whose cwd is
the workspace, written during the turn; sub-agents by parent thread id)`,
    env: () => ({}),
    async collect(c) {
      const root = `${c.env.CODEX_HOME ?? `${home(c.env)}/.codex`}/sessions`;
      const fresh = await since(await findFiles(root, /^rollout-.*\.jsonl$/), c.startedMs);
      const metas: { file: string; id?: string; parent?: string; cwd?: string }[] = [];
      for (const f of fresh) {
        const m = await rolloutMeta(f);
        if (!m) continue;
        metas.push({
          file: f,
          id: typeof m.id === "string" ? m.id : undefined,
          parent: str(obj(obj(obj(m.source)?.subagent)?.thread_spawn)?.parent_thread_id),
          cwd: typeof m.cwd === "string" ? m.cwd : undefined,
        });
      }
      const main = metas.find((m) => !m.parent && (m.cwd === c.workspace || m.cwd === undefined));
      if (!main) return [];
      await copyInto(main.file, c.turnDir, "log.jsonl");
      const out = ["log.jsonl"];
      // sub-agent rollouts: linked by their parent thread id (any depth)
      const ids = new Set([main.id]);
      let grew = true;
      while (grew) {
        grew = false;
        for (const m of metas) {
          if (m.parent && ids.has(m.parent) && !ids.has(m.id)) {
            ids.add(m.id);
            const rel = `subagents/${m.file.slice(m.file.lastIndexOf("/") + 1)}`;
            await copyInto(m.file, c.turnDir, rel);
            out.push(rel);
            grew = true;
          }
        }
      }
      return out;
    },
  },
  doc: {
    versions:
      "rollout JSONL: `{timestamp, type, payload}` envelope and the older pre-envelope files; `exec_command`, `shell`, `shell_command`, experimental `read_file` (`L12:`), code-mode `exec` cells (0.14x+) (reader: see `lib/logs/readers/`)",
    read:
      "shell commands (the default tool set has no read tool), `read_file`; on Windows the shell is PowerShell: `Get-Content`/`gc`/`cat`/`type` (`-TotalCount`/`-Head`, `-Tail`, `-Raw`, `(gc f)[a..b]`), `Select-Object -First/-Last/-Skip/-Index`, numbers a script printed",
    search:
      "`rg`/`grep` in the shell; PowerShell `Select-String` over files (`path:N:`, `-Context`)",
    listing: "`ls`, `find`, `rg --files`, `Get-ChildItem`/`dir`",
    refused:
      "`…N tokens truncated…` hides the middle of an output (only the lines shown count); in a code-mode cell only what the script printed was shown: a nested call whose result it did not print (or printed in part) is unplaced, and calls with non-literal arguments are not guessed; the `codex exec --json` event stream printed on stdout is not the rollout and is refused (read the rollout)",
    log:
      '`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default `~/.codex`). Preset `codex`: `codex exec --json --skip-git-repo-check --sandbox workspace-write -C <workspace> "<prompt>"` (OpenAI Codex non-interactive docs); copies the rollout written during the turn whose `session_meta.cwd` is the workspace → `log.jsonl`, and sub-agent rollouts (linked by `parent_thread_id`) → `subagents/`',
  },
};
