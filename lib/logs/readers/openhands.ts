/**
 * OpenHands logs, both code lines.
 *
 * V0 (`openhands/` event stream, CodeActAgent): a trajectory (`save_trajectory_path`, a JSON list
 * of event dicts), an evaluation `output.jsonl` line (`{instance_id, instruction, history, …}`),
 * or the app's per-event files (`sessions/<sid>/events/<n>.json`, given as the directory).
 * Actions: `read` (`str_replace_editor view`; observation text ``Here's the result of running
 * `cat -n` on <path>:`` then `%6d\t` numbered lines, cut with `<response clipped>`), `run` (a
 * shell command; observation `content` + `extras.metadata {exit_code, working_dir}`), `edit` /
 * `write` (writes), `delegate` (a sub-agent whose events follow in the same stream).
 *
 * V1 (software-agent-sdk): `ActionEvent` / `ObservationEvent` pairs (by `tool_call_id`, else
 * `action_id`); tools `terminal` (`execute_bash` before SDK PR #1033) and `file_editor`
 * (`str_replace_editor` before SDK PR #628) whose `view` output is the same `cat -n` text;
 * persisted as `<dir>/events/event-NNNNN-<id>.json` (the directory may be given; sub-agent
 * conversations under `subagents/` are read at the step of the parent's `delegate` call), as
 * JSON lists / JSONL of events, or as benchmark `output.jsonl` `history`.
 *
 * Line numbers printed in the output are what the model saw; without them (old non-ACI reads) the
 * requested window, clipped by the lines shown.
 *
 * @module
 */
import type { Event, LogMeta, Ranges } from "../types.ts";
import { makeEvent, outsideNote, pathNote } from "../event.ts";
import { rangesOf } from "../ranges.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, consecutiveNumbers, consecutiveShown, num, obj, str, stripAnsi } from "./common.ts";
import { type LogInput, type LogReader, NOT_JSON } from "./reader.ts";
import { home, statMs, writeInto } from "./collect.ts";
import { bundleLog, OPENHANDS_DIR_KEY } from "../bundle.ts";

/** True when a value is a V0 event dict (`action` or `observation` key). */
export function isV0Event(v: unknown): boolean {
  const o = obj(v);
  if (!o || "role" in o) return false; // chat messages (SWE-agent history) carry `action` too
  return (typeof o.action === "string" && ("args" in o || "source" in o || "id" in o)) ||
    (typeof o.observation === "string" && ("content" in o || "extras" in o || "cause" in o));
}

/** True when a value is a V1 SDK event (`kind` ending in `Event`). */
export function isV1Event(v: unknown): boolean {
  const k = str(obj(v)?.kind);
  return !!k && /(Event|Observation)$/.test(k);
}

/** The events of a V0 `history`: a flat list, or (2024) a list of `[action, observation]` pairs. */
function flatten(list: unknown[]): Json[] {
  const out: Json[] = [];
  for (const x of list) {
    if (Array.isArray(x)) {
      for (const y of x) if (obj(y)) out.push(y as Json);
    } else if (obj(x)) out.push(x as Json);
  }
  return out;
}

/** The event list of any OpenHands log shape, and the evaluation record when there is one. */
export function openHandsEvents(data: unknown): { events: Json[]; record?: Json } {
  if (Array.isArray(data)) {
    // a JSONL of evaluation records, or a list / JSONL of events
    const recs = data.filter((d) => Array.isArray(obj(d)?.history));
    if (recs.length > 1) {
      const ids = recs.slice(0, 3).map((r) => str(obj(r)?.instance_id) ?? "?").join(", ");
      throw new Error(
        `an evaluation output.jsonl with ${recs.length} records (${ids}${
          recs.length > 3 ? ", …" : ""
        }): one run log holds one instance — read one with \`reads --instance ID\`, or lay them out as run logs with \`reads --layout DIR\``,
      );
    }
    if (recs.length) return { events: flatten(arr(obj(recs[0])!.history)), record: obj(recs[0]) };
    return { events: flatten(data) };
  }
  const o = obj(data) ?? {};
  if (Array.isArray(o.history)) return { events: flatten(o.history), record: o };
  if (Array.isArray(o.events)) return { events: flatten(o.events) };
  return { events: [] };
}

const CAT_N = /^Here's the result of running `cat -n` on (.+?):\s*$/m;
const DIR_VIEW = /^Here's the files and directories up to \d+ levels? deep in (.+?),/m;
const NUM_LINE = /^\s*(\d+)\t/;
const CAT_LINE = /^\s*(\d+)\t(.*)$/;

/**
 * Line numbers of a `cat -n`-style editor view (`%6d\t` prefixes), in order; a stray number
 * breaking the run (inside a shown line) is skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catNumbers } from "./openhands.ts";
 * const view = "   650\t// (prefix | postfix)\n   651\tDEF(parampattern);\n     7\tno\n   652\tx<response clipped>";
 * assert.ok(catNumbers(view).join() === "650,651,652");
 * ```
 */
export function catNumbers(text: string): number[] {
  return consecutiveNumbers(text, (l) => l.match(NUM_LINE));
}

interface Ctx {
  ws: TurnWorkspace;
  step: number;
  actions: Event[][];
}

/** An editor `view` (V0 `read` action or V1 `file_editor view`) and what it printed. */
function viewEvent(
  ctx: Ctx,
  tool: string,
  command: string,
  rawPath: string | undefined,
  text: string | undefined,
  failed: boolean,
  window?: { start?: number; end?: number },
): Event {
  const rel = rawPath === undefined ? undefined : ctx.ws.resolve(rawPath, "");
  if (rel === undefined) {
    return makeEvent(ctx.step, "read", tool, command, [], {}, pathNote(rawPath, "no path"));
  }
  if (text === undefined) {
    return makeEvent(ctx.step, "read", tool, command, [], {}, "no observation: nothing read");
  }
  if (DIR_VIEW.test(text)) {
    return makeEvent(ctx.step, "list", tool, command, [shownPath(rel)], {});
  }
  if (failed || /^ERROR:/m.test(text.slice(0, 200)) || /^Invalid `path`/.test(text)) {
    return makeEvent(ctx.step, "read", tool, command, [], {}, `view failed: nothing read (${rel})`);
  }
  const content = ctx.ws.read(rel);
  const len = typeof content === "string" ? splitLines(content).length : undefined;
  const header = text.match(CAT_N);
  const body = header ? text.slice(header.index! + header[0].length) : text;
  // a view cut by `<response clipped>` ends inside its last line: that line's text is partial
  const clip = body.indexOf("<response clipped>");
  const numbered = consecutiveShown(
    clip < 0 ? body : body.slice(0, clip),
    (l) => l.match(CAT_LINE),
  );
  if (clip >= 0 && numbered.length) {
    numbered[numbered.length - 1] = [numbered[numbered.length - 1][0], undefined];
  }
  if (numbered.length) {
    const c = ctx.ws.credit(rel, numbered);
    const lines = c.lines.length ? { [rel]: c.lines } : {};
    return makeEvent(ctx.step, "read", tool, command, [rel], lines, c.note, c.placed);
  }
  // no numbers (non-ACI FileReadAction): the requested window, as long as the text shown
  const texts = splitLines(text);
  if (!texts.length) {
    return makeEvent(ctx.step, "read", tool, command, [], {}, `nothing shown (${rel})`);
  }
  const start = Math.max(1, (window?.start ?? 0) + 1);
  let end = start + texts.length - 1;
  if (window?.end !== undefined && window.end > 0) end = Math.min(end, window.end);
  const c = ctx.ws.credit(rel, texts.slice(0, end - start + 1).map((t, i) => [start + i, t]));
  const why = "window from the action (no line numbers in the output)";
  return makeEvent(
    ctx.step,
    "read",
    tool,
    command,
    [rel],
    c.lines.length ? { [rel]: c.lines } : {},
    c.note ? `${why}; ${c.note}` : why,
    len !== undefined && c.placed,
  );
}

function applyEdit(ctx: Ctx, rel: string, args: Json): void {
  const cmd = str(args.command);
  const cur = ctx.ws.read(rel);
  if (cmd === "create") {
    const t = str(args.file_text);
    ctx.ws.write(rel, t === undefined ? UNKNOWN : t.endsWith("\n") || t === "" ? t : t + "\n");
  } else if (cmd === "str_replace" && typeof cur === "string") {
    const o = str(args.old_str), n = str(args.new_str) ?? "";
    ctx.ws.write(rel, o !== undefined && cur.includes(o) ? cur.replace(o, () => n) : UNKNOWN);
  } else if (cmd === "insert" && typeof cur === "string") {
    const at = num(args.insert_line), n = str(args.new_str);
    if (at === undefined || n === undefined) ctx.ws.write(rel, UNKNOWN);
    else {
      const lines = splitLines(cur);
      lines.splice(at, 0, ...splitLines(n));
      ctx.ws.write(rel, lines.join("\n") + "\n");
    }
  } else ctx.ws.write(rel, UNKNOWN);
}

/** Tools with no file view (run events; they neither read nor write workspace files). */
const RUN_TOOLS = new Set([
  "finish",
  "think",
  "task_tracker",
  "browse",
  "browse_interactive",
  "web_read",
  "fetch",
  "mcp",
  "delegate",
  "recall",
  "condensation",
  "condensation_request",
  "request_condensation",
  "send_message",
  "invoke_skill",
]);

// ---------------------------------------------------------------------------------------------
// V0

const V0_SKIP = new Set([
  "message",
  "system",
  "recall",
  "think",
  "finish",
  "reject",
  "null",
  "change_agent_state",
  "condensation",
  "condensation_request",
  "agent_state_changed",
]);

async function readV0(ctx: Ctx, events: Json[]): Promise<void> {
  const byCause = new Map<unknown, Json>();
  for (const e of events) if (typeof e.observation === "string") byCause.set(e.cause, e);
  let lastResponse: unknown = undefined;
  let started = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const action = str(e.action);
    if (action === undefined || str(e.source) === "user" || str(e.source) === "environment") {
      continue;
    }
    if (V0_SKIP.has(action)) {
      if (action === "message" || action === "finish" || action === "think") {
        // a model response without a tool: the next action is a new step
        if (started) ctx.step++;
        lastResponse = undefined;
      }
      continue;
    }
    const meta = obj(e.tool_call_metadata);
    const response = str(obj(meta?.model_response)?.id) ?? meta?.tool_call_id ?? e.id;
    if (started && response !== lastResponse) ctx.step++;
    started = true;
    lastResponse = response;
    let o: Json | undefined = e.id !== undefined ? byCause.get(e.id) : undefined;
    if (!o) {
      // no cause link (older trajectories): the next observation in order
      const next = events[i + 1];
      if (next && typeof next.observation === "string" && next.cause === undefined) o = next;
    }
    const args = obj(e.args) ?? {};
    const obsKind = str(o?.observation);
    const content = str(o?.content);
    const failed = obsKind === "error";
    const tool = str(meta?.function_name) ?? action;
    switch (action) {
      case "read": {
        const vr = arr(args.view_range).map((x) => num(x));
        const win = vr.length === 2 && vr[0] !== undefined
          ? { start: vr[0] - 1, end: vr[1] === -1 ? undefined : vr[1] }
          : {
            start: num(args.start) ?? 0,
            end: num(args.end) !== undefined && num(args.end)! > 0 ? num(args.end) : undefined,
          };
        ctx.actions.push([
          viewEvent(
            ctx,
            tool,
            compact({ command: "view", path: args.path, view_range: args.view_range }),
            str(args.path),
            o ? content ?? "" : undefined,
            failed,
            win,
          ),
        ]);
        break;
      }
      case "run": {
        const command = str(args.command) ?? "";
        if (args.is_input === true || args.is_input === "true") {
          ctx.actions.push([
            makeEvent(ctx.step, "run", tool, command, [], {}, "input to a running process"),
          ]);
          break;
        }
        const md = obj(obj(o?.extras)?.metadata);
        const wd = str(md?.working_dir);
        const cwd = wd ? ctx.ws.resolve(wd, "") : "";
        const rc = num(md?.exit_code) ?? num(obj(o?.extras)?.exit_code);
        const obs = o && obsKind === "run"
          ? { output: stripCmdSuffix(content ?? ""), returncode: rc === -1 ? undefined : rc }
          : undefined;
        ctx.actions.push(
          await analyzeShell(
            command,
            { ws: ctx.ws, cwd, step: ctx.step, tool: "execute_bash" },
            obs,
          ),
        );
        break;
      }
      case "edit":
      case "write": {
        const p = str(args.path);
        const rel = p === undefined ? undefined : ctx.ws.resolve(p, "");
        const toolArgs = editorArgs(meta) ?? args;
        if (rel !== undefined && !failed) {
          if (action === "write") {
            const t = str(args.content);
            ctx.ws.write(rel, t ?? UNKNOWN);
          } else if (str(toolArgs.command)) applyEdit(ctx, rel, toolArgs);
          else ctx.ws.write(rel, UNKNOWN);
        }
        ctx.actions.push([
          makeEvent(
            ctx.step,
            "write",
            tool,
            compact({ command: str(toolArgs.command) ?? action, path: p }),
            rel === undefined ? [] : [rel],
            {},
            rel === undefined ? outsideNote(p) : undefined,
          ),
        ]);
        break;
      }
      case "run_ipython":
        ctx.actions.push([
          makeEvent(
            ctx.step,
            "other",
            "execute_ipython_cell",
            str(args.code) ?? "",
            [],
            {},
            "IPython cell: what it printed is not attributed to files",
          ),
        ]);
        break;
      default:
        ctx.actions.push([
          RUN_TOOLS.has(action)
            ? makeEvent(ctx.step, "run", tool, compact(args), [], {})
            : makeEvent(
              ctx.step,
              "other",
              tool,
              compact(args),
              [],
              {},
              `unknown action: ${action}`,
            ),
        ]);
    }
  }
}

/** The editor call's own arguments (V0 keeps them in the raw model response). */
function editorArgs(meta: Json | undefined): Json | undefined {
  const id = str(meta?.tool_call_id);
  for (const c of arr(obj(meta?.model_response)?.choices)) {
    for (const tc of arr(obj(obj(c)?.message)?.tool_calls)) {
      const t = obj(tc);
      if (id && str(t?.id) !== id) continue;
      try {
        return obj(JSON.parse(str(obj(t?.function)?.arguments) ?? ""));
      } catch {
        // arguments that are no JSON name no call
        return undefined;
      }
    }
  }
  return undefined;
}

/** The command output without the harness's `[… exit code N.]` / cwd notices. */
function stripCmdSuffix(s: string): string {
  return stripAnsi(s).replace(
    /\n?\[(The command completed with exit code|Command finished with exit code) -?\d+\.?\]\s*$/,
    "",
  )
    .replace(/\n?\[Current working directory: [^\]]*\]\s*$/, "")
    .replace(/\n?\[Python interpreter: [^\]]*\]\s*$/, "");
}

function compact(v: unknown): string {
  const o = obj(v);
  if (!o) return JSON.stringify(v ?? {});
  const out: Json = {};
  for (const [k, x] of Object.entries(o)) if (x !== null && x !== undefined) out[k] = x;
  return JSON.stringify(out);
}

// ---------------------------------------------------------------------------------------------
// V1

function obsText(o: Json | undefined): string | undefined {
  if (!o) return undefined;
  const c = o.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) {
    const parts = c.map((p) => str(obj(p)?.text)).filter((p): p is string => p !== undefined);
    if (parts.length || !str(o.output)) return parts.join("\n");
  }
  return str(o.output) ?? str(o.error);
}

const SHELL_TOOLS = new Set(["terminal", "execute_bash", "bash"]);
const EDITOR_TOOLS = new Set(["file_editor", "str_replace_editor", "planning_file_editor"]);

async function readV1(
  ctx: Ctx,
  events: Json[],
  subagents: Map<string, Json[]>,
  child = false,
): Promise<void> {
  const saved = ctx.step;
  const obsBy = new Map<string, Json>();
  for (const e of events) {
    const k = str(e.kind);
    if (k === "ObservationEvent" || k === "AgentErrorEvent" || k === "UserRejectObservation") {
      const id = str(e.tool_call_id) ?? str(e.action_id);
      if (id) obsBy.set(id, e);
      const aid = str(e.action_id);
      if (aid) obsBy.set(`action:${aid}`, e);
    }
  }
  let lastResponse: string | undefined;
  let started = false;
  const subs = [...subagents.entries()];
  for (const e of events) {
    const kind = str(e.kind);
    if (kind === "MessageEvent" && str(e.source) === "agent") {
      if (started && !child) ctx.step++;
      lastResponse = undefined;
      continue;
    }
    if (kind !== "ActionEvent") continue;
    const response = str(e.llm_response_id) ?? str(e.id);
    if (started && response !== lastResponse && !child) ctx.step++;
    started = true;
    lastResponse = response;
    const a = obj(e.action) ?? {};
    const tool = str(e.tool_name) ?? str(obj(e.tool_call)?.name) ?? str(a.kind) ?? "?";
    const o = obsBy.get(str(e.tool_call_id) ?? "\u0000") ?? obsBy.get(`action:${str(e.id)}`);
    const observation = obj(o?.observation);
    const failed = str(o?.kind) !== "ObservationEvent" || observation?.is_error === true ||
      (typeof observation?.error === "string" && observation.error !== "");
    const text = o ? obsText(observation) ?? str(o.error) : undefined;
    if (SHELL_TOOLS.has(tool)) {
      const command = str(a.command) ?? "";
      const md = obj(observation?.metadata);
      const wd = str(md?.working_dir);
      const cwd = wd ? ctx.ws.resolve(wd, "") : "";
      const rc = num(observation?.exit_code) ?? num(md?.exit_code);
      const obs = o && str(o.kind) === "ObservationEvent" && text !== undefined
        ? { output: stripCmdSuffix(text), returncode: rc === -1 ? undefined : rc }
        : undefined;
      if (a.is_input === true) {
        ctx.actions.push([
          makeEvent(ctx.step, "run", tool, command, [], {}, "input to a running process"),
        ]);
      } else {
        ctx.actions.push(
          await analyzeShell(command, { ws: ctx.ws, cwd, step: ctx.step, tool }, obs),
        );
      }
      continue;
    }
    if (EDITOR_TOOLS.has(tool)) {
      const cmd = str(a.command);
      const p = str(a.path);
      const command = compact({ command: cmd, path: p, view_range: a.view_range });
      if (cmd === "view") {
        const vr = arr(a.view_range).map((x) => num(x));
        const win = vr.length === 2 && vr[0] !== undefined
          ? { start: vr[0] - 1, end: vr[1] === -1 ? undefined : vr[1] }
          : undefined;
        ctx.actions.push([viewEvent(ctx, tool, command, p, text, failed, win)]);
      } else {
        const rel = p === undefined ? undefined : ctx.ws.resolve(p, "");
        if (rel !== undefined && !failed && o) applyEdit(ctx, rel, a);
        ctx.actions.push([
          makeEvent(
            ctx.step,
            "write",
            tool,
            command,
            rel === undefined ? [] : [rel],
            {},
            rel === undefined ? outsideNote(p) : o ? undefined : "no observation",
          ),
        ]);
      }
      continue;
    }
    if (tool === "glob" || tool === "grep") {
      // SDK glob / grep tools: the directory searched or listed; grep's `path:line:` lines
      const p = str(a.path);
      const dir = p === undefined ? "" : ctx.ws.resolve(p, "");
      const paths = dir === undefined ? [] : [shownPath(dir)];
      const lines: Ranges = {};
      if (tool === "grep" && text !== undefined && !failed) {
        const found = new Map<string, number[]>();
        for (const l of text.split("\n")) {
          const m = l.match(/^(.+?):(\d+):/);
          const rel = m ? ctx.ws.resolve(m[1], dir ?? "") : undefined;
          if (!m || rel === undefined) continue;
          found.set(rel, [...(found.get(rel) ?? []), Number(m[2])]);
        }
        for (const [f, ns] of found) lines[f] = rangesOf(ns);
      }
      ctx.actions.push([
        makeEvent(
          ctx.step,
          tool === "grep" ? "search" : "list",
          tool,
          compact(a),
          paths,
          lines,
          dir === undefined ? outsideNote(p) : failed ? "tool call failed" : undefined,
        ),
      ]);
      continue;
    }
    if (tool === "delegate" || tool === "task") {
      ctx.actions.push([makeEvent(ctx.step, "run", tool, compact(a), [], {})]);
      // sub-agent conversations persisted under subagents/: read at this step, once
      while (subs.length) {
        const [, evs] = subs.shift()!;
        await readV1(ctx, evs, new Map(), true);
      }
      continue;
    }
    if (RUN_TOOLS.has(tool) || /^browser_/.test(tool)) {
      ctx.actions.push([makeEvent(ctx.step, "run", tool, compact(a), [], {})]);
      continue;
    }
    ctx.actions.push([
      makeEvent(ctx.step, "other", tool, compact(a), [], {}, `unknown tool: ${tool}`),
    ]);
  }
  // sub-agent conversations no delegate call named
  for (const [, evs] of subs) await readV1(ctx, evs, new Map(), true);
  if (child) ctx.step = saved;
}

/** The workspace root the log names: the task's `<uploaded_files>`, else the first command's cwd. */
function rootOf(events: Json[], record: Json | undefined): string | undefined {
  const texts = [str(record?.instruction)];
  for (const e of events.slice(0, 6)) {
    texts.push(str(obj(e.args)?.content), str(e.message));
    for (const p of arr(obj(obj(e.llm_message)?.content))) texts.push(str(obj(p)?.text));
    for (const p of arr(obj(e.llm_message)?.content)) texts.push(str(obj(p)?.text));
  }
  for (const t of texts) {
    const m = t?.match(/<uploaded_files>\s*\n?\s*(\/[^\s<]+)\s*\n?\s*<\/uploaded_files>/);
    if (m) return m[1].replace(/\/+$/, "");
  }
  for (const e of events) {
    const md = obj(obj(e.extras)?.metadata) ?? obj(obj(e.observation)?.metadata);
    const wd = str(md?.working_dir);
    if (wd) return wd.replace(/\/+$/, "");
  }
  return undefined;
}

/** Reads any OpenHands log (V0 or V1; see the module doc). */
export async function readOpenHands(
  data: unknown,
  opts: ReaderOptions,
  format: string,
): Promise<ReaderResult> {
  let events: Json[];
  let record: Json | undefined;
  const subagents = new Map<string, Json[]>();
  const dir = obj(obj(data)?.[OPENHANDS_DIR_KEY]);
  if (dir) {
    events = flatten(arr(dir.events));
    for (const s of arr(dir.subagents)) {
      const so = obj(s);
      if (so) subagents.set(str(so.id) ?? String(subagents.size), flatten(arr(so.events)));
    }
  } else ({ events, record } = openHandsEvents(data));
  const root = opts.cwd ?? rootOf(events, record) ?? "/workspace";
  const ctx: Ctx = { ws: new TurnWorkspace(opts.files, root), step: 0, actions: [] };
  if (format === "openhands-v0") await readV0(ctx, events);
  else await readV1(ctx, events, subagents);
  const meta: LogMeta = {};
  const stamps = events.map((e) => Date.parse(str(e.timestamp) ?? "")).filter((t) =>
    Number.isFinite(t)
  );
  if (stamps.length >= 2) meta.seconds = (Math.max(...stamps) - Math.min(...stamps)) / 1000;
  const metrics = obj(record?.metrics);
  const cost = num(metrics?.accumulated_cost);
  if (cost !== undefined) meta.cost = cost;
  meta.steps = ctx.actions.length ? ctx.step + 1 : 0;
  return { format, actions: ctx.actions, meta };
}

/**
 * The OpenHands format of a parsed log: a list of V0 / V1 events, an evaluation record with
 * `history`, or a conversation directory bundle.
 */
function openHandsFormat(v: unknown): string | undefined {
  const o = obj(v);
  const dir = obj(o?.[OPENHANDS_DIR_KEY]);
  const events = dir
    ? arr(dir.events)
    : Array.isArray(v)
    ? v.flat()
    : Array.isArray(o?.history)
    ? arr(o!.history).flat()
    : [];
  if (!events.length) {
    return dir
      ? "openhands-v1"
      : o && Array.isArray(o.history) && o.instance_id !== undefined
      ? "openhands-v0"
      : undefined;
  }
  if (events.every(isV1Event)) return "openhands-v1";
  const plain = (e: unknown) =>
    !!obj(e) && str(obj(e)!.role) === undefined && str(obj(e)!.type) === undefined;
  if (events.some(isV0Event) && events.every((e) => isV0Event(e) || plain(e))) {
    return "openhands-v0";
  }
  return undefined;
}

/** The data of an OpenHands log: one JSON value, or the values of a JSONL file. */
function openHandsData(input: LogInput): unknown {
  const v = input.json();
  if (v !== NOT_JSON) return v;
  const first = obj(input.head(1)[0]);
  if (!first || !(isV1Event(first) || isV0Event(first) || Array.isArray(first.history))) {
    return undefined;
  }
  const values = input.values("a JSONL log");
  return Array.isArray(first.history) ? values[0] : values;
}

/** The OpenHands reader (registry entry). */
export const reader: LogReader = {
  name: "openhands",
  harness: "OpenHands",
  harnessNames: ["openhands", "opendevin"],
  formats: ["openhands-v0", "openhands-v1"],
  files: [
    "<conversation>/events/event-NNNNN-<id>.json",
    "sessions/<sid>/events/<n>.json",
    "trajectory *.json",
    "output.jsonl",
  ],
  detect(input) {
    const data = openHandsData(input);
    return data === undefined ? undefined : openHandsFormat(data);
  },
  read(input, format, opts) {
    const v = input.json();
    return readOpenHands(v !== NOT_JSON ? v : input.values("a JSONL log"), opts, format);
  },
  run: {
    name: "openhands",
    harness: "openhands",
    command: `openhands --headless --json --override-with-envs -f {prompt_file}`,
    help: `openhands --headless --json --override-with-envs -f <prompt file>, with
OPENHANDS_CONVERSATIONS_DIR set per turn → log.json (events + subagents/)`,
    env: ({ scratch }) => ({ OPENHANDS_CONVERSATIONS_DIR: `${scratch}/conversations` }),
    async collect(c) {
      const dirs: string[] = [];
      for (
        const root of [`${c.scratch}/conversations`, `${home(c.env)}/.openhands/conversations`]
      ) {
        try {
          for await (const e of Deno.readDir(root)) {
            if (e.isDirectory) dirs.push(`${root}/${e.name}`);
          }
        } catch {
          // none there
        }
        if (dirs.length) break;
      }
      let best: { dir: string; t: number } | undefined;
      for (const d of dirs) {
        const t = await statMs(`${d}/events`) ?? await statMs(d);
        if (t !== undefined && t >= c.startedMs - 1000 && (!best || t > best.t)) {
          best = { dir: d, t };
        }
      }
      if (!best) return [];
      const bundled = await bundleLog(best.dir);
      if (bundled === undefined) return [];
      await writeInto(c.turnDir, "log.json", bundled);
      return ["log.json"];
    },
  },
  doc: {
    versions:
      "**V0** event stream (`openhands/`, CodeActAgent): trajectory JSON list (`save_trajectory_path`), evaluation `output.jsonl` (`history`, also 2024's `[action, observation]` pairs), per-event files `sessions/<sid>/events/<n>.json`; **V1** SDK events (`ActionEvent`/`ObservationEvent`): `<conversation>/events/event-NNNNN-<id>.json` + `subagents/`, event lists / JSONL, benchmark `output.jsonl`; tools `str_replace_editor`→`file_editor` (SDK PR #628), `execute_bash`→`terminal` (SDK PR #1033)",
    read:
      "`read` action / `file_editor view`: the `cat -n` numbers printed (`view_range`; a whole-file view cut by `<response clipped>` counts up to the last line shown); `run` / `terminal` commands via the shell analysis (exit code and `working_dir` from the observation)",
    search: "shell (`grep -n`, `rg`)",
    listing: "`view` of a directory, `ls`/`find`",
    refused:
      "IPython cells (`run_ipython`) print what Python printed: listed as `other`; a sub-agent delegated in V0 shares the stream (its events are read like the parent's); an evaluation `output.jsonl` of several instances is one run per instance: `reads` lists them, `reads --instance ID` reads one (the last line of a resumed instance, the last `attempt`), `reads --layout DIR` writes them as run logs `DIR/<chain>/turn<N>/log.json` for `score`",
    log:
      'V1 CLI: `~/.openhands/conversations/<id>/` (or `$OPENHANDS_CONVERSATIONS_DIR`). Preset `openhands`: `openhands --headless --json --override-with-envs -f <prompt file>` (OpenHands CLI headless docs) with `OPENHANDS_CONVERSATIONS_DIR` set per turn; the conversation (events + `subagents/`) is bundled into `log.json`. V0: `python -m openhands.core.main -t "<task>"` with `save_trajectory_path` (or `SAVE_TRAJECTORY_PATH`) — give that file',
  },
};
