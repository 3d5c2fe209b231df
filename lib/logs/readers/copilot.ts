/**
 * GitHub Copilot CLI sessions: `~/.copilot/session-state/<sessionId>/events.jsonl` (the SDK's
 * session events). The CLI is closed source; the event
 * schema is the one its SDK publishes (github/copilot-sdk `nodejs/src/generated/session-events.ts`,
 * generated from `session-events.schema.json`): one `{type, data, id, timestamp, parentId}` object
 * per line — `session.start` (`data.context.cwd`), `assistant.message` (`data.toolRequests`: one
 * agent step), `tool.execution_start` (`toolCallId`, `toolName`, `arguments`) and
 * `tool.execution_complete` (`toolCallId`, `success`, `result.content`: "the tool result text sent
 * to the LLM"; `result.detailedContent` is the UI's and is not used). The reader takes any list
 * of these events, whether from the session file or captured from the CLI's output.
 *
 * What the model saw, per tool (from the SDK schema and the outputs public session exports show):
 * - `view {path, view_range?: [a, b]}` prints a file as `N. text` lines (no padding; a line with
 *   no text is `N.`), cut at 20 KB with an `[Output truncated. Use view_range=[…] …]` notice; exactly
 *   the numbered lines are credited. A directory is listed one name a line (a listing).
 * - `bash` / `shell` output ends with `<exited with exit code N>`: the output before it goes
 *   through the shell analysis. `powershell` commands are not analysed (listed as runs).
 * - `grep` prints `path:N:text` lines in content mode (credited), file names otherwise; `glob`
 *   lists files.
 * - `create` / `edit` / `str_replace` are writes, applied to the workspace.
 * - A sub-agent's events carry its `task` call's id in `parentToolCallId`: read at that step.
 *
 * @module
 */
import type { Event, FileSource, LogMeta } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import {
  arr,
  consecutiveShown,
  creditedRead,
  type Json,
  obj,
  runEvent,
  str,
  stripAnsi,
} from "./common.ts";
import type { LogReader } from "./reader.ts";
import { copyInto, exists, findFiles, head, home, PROMPT, since } from "./collect.ts";

const COPILOT_TYPE = /^(session|user|assistant|tool|system|subagent|hook|skill)\.[a-z_.]+$/;

/** True when a JSONL value is a Copilot CLI session event (`{type: "<domain>.<event>", data}`). */
export function isCopilotEvent(v: unknown): boolean {
  const o = obj(v);
  if (!o || !COPILOT_TYPE.test(str(o.type) ?? "") || !obj(o.data)) return false;
  const d = obj(o.data)!;
  return d.producer === "copilot-agent" || "parentId" in o ||
    (o.type === "tool.execution_start" && typeof d.toolName === "string") ||
    (o.type === "assistant.message" && Array.isArray(d.toolRequests));
}

interface Call {
  id: string;
  name: string;
  args: Json;
  step: number;
  done?: Json;
}

interface Ctx {
  ws: TurnWorkspace;
  actions: Event[][];
}

/**
 * The lines a `view` printed: `N. text` (`N.` for an empty line), consecutive from the first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { viewLines } from "./copilot.ts";
 * assert.deepEqual(viewLines("1. a\n2.\n3. c\n[Output truncated.]"), [[1, "a"], [2, ""], [3, "c"]]);
 * ```
 */
export function viewLines(text: string): ShownLine[] {
  return consecutiveShown(text, (l) => l.match(/^(\d+)\.(?: |$)(.*)$/));
}

function viewEvent(ctx: Ctx, c: Call, text: string | undefined, ok: boolean): Event {
  const raw = str(c.args.path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
  if (rel === undefined) return toolEvent(c.step, "read", c.name, c.args, [], {}, pathNote(raw));
  if (!ok || text === undefined) {
    return toolEvent(
      c.step,
      "read",
      c.name,
      c.args,
      [],
      {},
      `tool call failed: nothing read (${rel || "."})`,
    );
  }
  const shown = viewLines(text);
  const content = ctx.ws.read(rel);
  if (!shown.length) {
    if (typeof content === "string") {
      return toolEvent(
        c.step,
        "read",
        c.name,
        c.args,
        [rel],
        {},
        `no numbered lines shown (${rel})`,
      );
    }
    // a directory: its entries, one a line
    if (text.trim()) return toolEvent(c.step, "list", c.name, c.args, [shownPath(rel)], {});
    return toolEvent(c.step, "read", c.name, c.args, [rel], {}, `nothing shown (${rel})`);
  }
  return creditedRead(ctx.ws, c.step, c.name, c.args, rel, shown);
}

/** A shell result: the output before `<exited with exit code N>`, and N. */
export function copilotShell(text: string): { output: string; returncode?: number } {
  const m = text.match(/\n?<exited with exit code (-?\d+)>\s*$/);
  const out = m ? text.slice(0, m.index) : text;
  return {
    output: out && !out.endsWith("\n") ? out + "\n" : out,
    returncode: m ? Number(m[1]) : undefined,
  };
}

function grepEvent(ctx: Ctx, c: Call, text: string | undefined, ok: boolean): Event {
  const raw = str(c.args.path);
  const dir = raw === undefined ? "" : ctx.ws.resolve(raw, "");
  if (dir === undefined) {
    return toolEvent(c.step, "search", c.name, c.args, [], {}, outsideNote(raw));
  }
  if (!ok || text === undefined) {
    return toolEvent(c.step, "search", c.name, c.args, [shownPath(dir)], {}, "tool call failed");
  }
  const found = new Map<string, ShownLine[]>();
  for (const l of text.split("\n")) {
    const m = l.match(/^(.+?):(\d+):(.*)$/);
    if (!m) continue;
    const rel = ctx.ws.resolve(m[1], "");
    if (!rel) continue;
    if (!found.has(rel)) found.set(rel, []);
    found.get(rel)!.push([Number(m[2]), m[3]]);
  }
  const { lines, notes, placed } = ctx.ws.creditFiles(found);
  return toolEvent(
    c.step,
    "search",
    c.name,
    c.args,
    [shownPath(dir)],
    lines,
    notes.join("; ") || undefined,
    placed,
  );
}

function writeEvent(ctx: Ctx, c: Call, ok: boolean): Event {
  const raw = str(c.args.path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
  if (rel && ok) {
    const cur = ctx.ws.read(rel);
    const o = str(c.args.old_str), n = str(c.args.new_str);
    if (c.name === "create") ctx.ws.write(rel, str(c.args.file_text) ?? UNKNOWN);
    else if (typeof cur === "string" && o !== undefined && n !== undefined && cur.includes(o)) {
      ctx.ws.write(rel, cur.replace(o, () => n));
    } else ctx.ws.write(rel, UNKNOWN);
  }
  return toolEvent(
    c.step,
    "write",
    c.name,
    { path: raw },
    rel ? [rel] : [],
    {},
    rel === undefined ? outsideNote(raw) : ok ? undefined : "tool call failed",
  );
}

const RUN_TOOLS = new Set([
  "read_bash",
  "write_bash",
  "stop_bash",
  "list_bash",
  "web_fetch",
  "web_search",
  "report_intent",
  "update_todo",
  "think",
  "task",
  "read_agent",
  "list_agents",
  "skill",
  "ask_user",
  "fetch_copilot_cli_documentation",
]);

async function callEvents(ctx: Ctx, c: Call): Promise<Event[]> {
  const done = c.done;
  const ok = done ? done.success === true : false;
  const text = done ? str(obj(done.result)?.content) ?? str(done.result) : undefined;
  switch (c.name) {
    case "view":
    case "str_replace_editor":
      if (c.name === "view" || str(c.args.command) === "view") return [viewEvent(ctx, c, text, ok)];
      return [writeEvent(ctx, c, ok)];
    case "bash":
    case "shell": {
      const command = str(c.args.command);
      if (command === undefined) {
        return [toolEvent(c.step, "other", c.name, c.args, [], {}, "shell call without a command")];
      }
      const obs = done && text !== undefined ? copilotShell(stripAnsi(text)) : undefined;
      return await analyzeShell(command, { ws: ctx.ws, cwd: "", step: c.step, tool: c.name }, obs);
    }
    case "grep":
    case "rg":
      return [grepEvent(ctx, c, text, ok)];
    case "glob": {
      const raw = str(c.args.path);
      const dir = raw === undefined ? "" : ctx.ws.resolve(raw, "");
      return [
        toolEvent(
          c.step,
          "list",
          c.name,
          c.args,
          dir === undefined ? [] : [shownPath(dir)],
          {},
          dir === undefined ? outsideNote(raw) : undefined,
        ),
      ];
    }
    case "create":
    case "edit":
    case "str_replace":
      return [writeEvent(ctx, c, ok)];
    case "powershell":
      return [toolEvent(c.step, "run", c.name, c.args, [], {}, "PowerShell command: not analysed")];
    default:
      if (RUN_TOOLS.has(c.name) || c.name.includes("-")) {
        return [runEvent(c.step, c.name, c.args, !!done)];
      }
      return [toolEvent(c.step, "other", c.name, c.args, [], {}, `unknown tool: ${c.name}`)];
  }
}

/** Reads a Copilot CLI event list. */
export async function readCopilot(
  values: unknown[],
  opts: { files?: FileSource; cwd?: string },
): Promise<{ actions: Event[][]; meta: LogMeta }> {
  const events = values.map((v) => obj(v)).filter((o): o is Json => !!o && !!obj(o.data));
  const cwd = opts.cwd ?? events.map((e) => str(obj(obj(e.data)!.context)?.cwd)).find((c) => c) ??
    "";
  const ctx: Ctx = { ws: new TurnWorkspace(opts.files, cwd), actions: [] };
  const calls = new Map<string, Call>();
  const order: Call[] = [];
  let step = -1;
  const stepOf = new Map<string, number>(); // a sub-agent's tools run at its task call's step
  const meta: LogMeta = {};
  const stamps: number[] = [];
  const add = (id: string, name: string | undefined, args: unknown, s: number) => {
    const c: Call = { id, name: name ?? "?", args: obj(args) ?? {}, step: s };
    calls.set(id, c);
    order.push(c);
    stepOf.set(id, s);
  };
  for (const e of events) {
    const d = obj(e.data)!;
    const t = Date.parse(str(e.timestamp) ?? "");
    if (Number.isFinite(t)) stamps.push(t);
    switch (e.type) {
      case "assistant.message": {
        const reqs = arr(d.toolRequests).map((r) => obj(r)).filter((r): r is Json => !!r);
        const parent = str(d.parentToolCallId);
        if (!reqs.length) break;
        const s = parent !== undefined && stepOf.has(parent) ? stepOf.get(parent)! : ++step;
        for (const r of reqs) {
          const id = str(r.toolCallId);
          if (id && !calls.has(id)) add(id, str(r.name), r.arguments, s);
        }
        break;
      }
      case "tool.execution_start": {
        const id = str(d.toolCallId);
        if (!id) break;
        const known = calls.get(id);
        if (known) {
          known.name = str(d.toolName) ?? known.name;
          if (obj(d.arguments)) known.args = obj(d.arguments)!;
          break;
        }
        const parent = str(d.parentToolCallId);
        add(
          id,
          str(d.toolName),
          d.arguments,
          parent !== undefined && stepOf.has(parent) ? stepOf.get(parent)! : Math.max(step, 0),
        );
        break;
      }
      case "tool.execution_complete": {
        const id = str(d.toolCallId);
        const c = id ? calls.get(id) : undefined;
        if (c) c.done = d;
        else {
          ctx.actions.push([
            toolEvent(
              Math.max(step, 0),
              "other",
              "?",
              {},
              [],
              {},
              `tool result without its call (${id ?? "no id"})`,
            ),
          ]);
        }
        break;
      }
    }
  }
  for (const c of order) ctx.actions.push(await callEvents(ctx, c));
  meta.steps = step + 1;
  if (stamps.length >= 2) meta.seconds = (Math.max(...stamps) - Math.min(...stamps)) / 1000;
  return { actions: ctx.actions, meta };
}

/** The GitHub Copilot CLI reader (registry entry). */
export const reader: LogReader = {
  name: "copilot-cli",
  harness: "GitHub Copilot CLI",
  harnessNames: ["githubcopilotcli", "copilotcli", "copilot"],
  formats: ["copilot-events"],
  files: ["~/.copilot/session-state/<sessionId>/events.jsonl"],
  detect: (input) => input.head(8).some(isCopilotEvent) ? "copilot-events" : undefined,
  async read(input, format, opts) {
    const r = await readCopilot(input.values("a JSONL log"), opts);
    return { format, ...r };
  },
  run: {
    name: "copilot",
    harness: "copilot-cli",
    command: `copilot -p ${PROMPT} --allow-all-tools --no-ask-user`,
    help: `copilot -p "<prompt>" --allow-all-tools --no-ask-user
→ log.jsonl from ~/.copilot/session-state/<id>/events.jsonl`,
    env: () => ({}),
    async collect(c) {
      const base = `${c.env.COPILOT_HOME ?? `${home(c.env)}/.copilot`}/session-state`;
      if (!(await exists(base))) return [];
      const found = await findFiles(base, /^events\.jsonl$/, 2);
      for (const f of (await since(found, c.startedMs)).sort()) {
        const first = (await head(f)).split("\n")[0];
        try {
          if (str(obj(obj(obj(JSON.parse(first))?.data)?.context)?.cwd) !== c.workspace) continue;
        } catch {
          continue; // a first line that is not JSON: not a session of this turn
        }
        await copyInto(f, c.turnDir, "log.jsonl");
        return ["log.jsonl"];
      }
      return [];
    },
  },
  doc: {
    versions:
      "session `events.jsonl` (`session.start`, `assistant.message` tool requests, `tool.execution_start` / `tool.execution_complete`; schema of github/copilot-sdk `session-events.ts`)",
    read:
      "`view` (`N. text` lines, `view_range`; the 20 KB cut notice shows no line), `bash` via the shell analysis (output before `<exited with exit code N>`)",
    search: "`grep` (`path:N:text` content lines)",
    listing: "`view` of a directory, `glob`",
    refused:
      "the CLI is closed source: formats are taken from its SDK's event schema and public session exports; `result.content` is what the model saw (`detailedContent` is the UI's); `powershell` commands are listed, not analysed; the older `history-session-state/*.json` files are not read",
    log:
      '`~/.copilot/session-state/<sessionId>/events.jsonl`. Preset `copilot`: `copilot -p "<prompt>" --allow-all-tools --no-ask-user` (Copilot CLI programmatic reference); the session started during the turn whose `session.start` names the workspace → `log.jsonl`',
  },
};
