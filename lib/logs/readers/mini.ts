/**
 * mini-SWE-agent trajectories: v1 (`mini-swe-agent-1`, and files from before
 * `trajectory_format` existed, and bare message lists) and v2 (`mini-swe-agent-1.1`).
 *
 * v1 keeps no parsed actions: the single ```` ```bash ```` block of an assistant message is the
 * action (none or several: a format error, nothing ran) and the next user message is its
 * observation. v2 stores `extra.actions[].command`; observations are `tool` messages (paired by
 * `tool_call_id`) or user messages in order, with `extra.raw_output` holding the full output.
 * Long outputs (≥ 10,000 characters) were shown as the first and last 5,000 characters only.
 *
 * @module
 */
import type { Event, LogMeta } from "../types.ts";
import { analyzeShell, type ShellObservation } from "../shell/analyze.ts";
import { TurnWorkspace } from "../workspace.ts";
import { LogFormatError } from "../errors.ts";
import type { ReaderOptions, ReaderResult } from "./common.ts";
import { arr, contentText, num, obj, spanSeconds, str } from "./common.ts";
import { type LogReader, NOT_JSON } from "./reader.ts";
import { exists, PROMPT } from "./collect.ts";

/** mini's cut: outputs of this many characters or more show head and tail only. */
export const MINI_LIMIT = 10000;
/** Characters shown at each end of a cut output. */
export const MINI_KEEP = 5000;

const BLOCK = /```(?:bash|mswea_bash_command)[ \t]*\n([\s\S]*?)\n```/g;
const XML_BLOCK = /<mswea_bash_command>([\s\S]*?)<\/mswea_bash_command>/g;

/** The action of a v1 / text-based assistant message: exactly one block, else none. */
export function textAction(content: string): string | undefined {
  const found = [...content.matchAll(BLOCK)].map((m) => m[1]);
  const xml = [...content.matchAll(XML_BLOCK)].map((m) => m[1]);
  const all = found.length ? found : xml;
  return all.length === 1 ? all[0].trim() : undefined;
}

function between(s: string, open: string, close: string, lastClose = false): string | undefined {
  const a = s.indexOf(open);
  if (a < 0) return undefined;
  const b = lastClose ? s.lastIndexOf(close) : s.indexOf(close, a + open.length);
  if (b < a + open.length) return undefined;
  return s.slice(a + open.length, b);
}

/**
 * The observation of an action from the message content (and v2 `raw_output`); undefined when
 * the message is not an observation (format error, timeout notice).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { miniObservation } from "./mini.ts";
 * const o = miniObservation("<returncode>0</returncode>\n<output>\na\nb\n</output>")!;
 * assert.ok(o.output === "a\nb\n" && o.returncode === 0);
 * ```
 */
export function miniObservation(
  content: string,
  raw?: string,
  rc?: number,
): ShellObservation | undefined {
  const m = content.match(/<returncode>\s*(-?\d+)\s*<\/returncode>/);
  const returncode = rc ?? (m ? Number(m[1]) : undefined);
  if (content.includes("<output_head>")) {
    const head = between(content, "<output_head>\n", "\n</output_head>") ??
      between(content, "<output_head>", "</output_head>");
    const tail = between(content, "<output_tail>\n", "\n</output_tail>", true) ??
      between(content, "<output_tail>", "</output_tail>", true);
    const at = content.indexOf("<elided_chars>");
    const el = at < 0 ? null : content.slice(at, at + 80).match(/(\d+)\s+characters elided/);
    if (raw !== undefined && raw.length >= MINI_LIMIT) {
      return {
        output: raw,
        head: raw.slice(0, MINI_KEEP),
        tail: raw.slice(-MINI_KEEP),
        elided: raw.length - 2 * MINI_KEEP,
        returncode,
      };
    }
    return {
      head: head ?? "",
      tail: tail ?? "",
      elided: el ? Number(el[1]) : undefined,
      returncode,
    };
  }
  if (m === null && rc === undefined) {
    // "Observation: …" (v1 default template) — no return code, the text is the output
    const plainObs = content.match(/^Observation: ?([\s\S]*)$/);
    if (plainObs) return { output: raw ?? plainObs[1] };
    return undefined;
  }
  if (raw !== undefined) return { output: raw, returncode };
  const out = between(content, "<output>\n", "</output>", true) ??
    between(content, "<output>", "</output>", true);
  return { output: out ?? "", returncode };
}

interface Step {
  step: number;
  commands: { command: string; id?: string }[];
  obs: (ShellObservation | undefined)[];
}

/** Reads a parsed mini-SWE-agent trajectory (object or bare message list). */
export async function readMini(
  data: unknown,
  opts: ReaderOptions,
  format: string,
): Promise<ReaderResult> {
  const top = obj(data);
  const messages = Array.isArray(data) ? data : arr(top?.messages);
  const info = obj(top?.info);
  const env = obj(obj(info?.config)?.environment);
  const cwd = opts.cwd ?? str(env?.cwd) ?? "/testbed";
  const ws = new TurnWorkspace(opts.files, cwd || "/testbed");
  if (
    messages.length &&
    !messages.some((m) => str(obj(m)?.role) ?? str(obj(m)?.object) ?? str(obj(m)?.type))
  ) {
    // nothing this reader can recognise: another harness's log, not an empty run
    throw new LogFormatError(
      opts.file,
      `none of the ${messages.length} messages of this ${format} log has a role: a log of another harness?`,
    );
  }
  const stamps: number[] = [];
  const steps: Step[] = [];
  let assistants = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = obj(messages[i]);
    if (!m) continue;
    const extra = obj(m.extra);
    const ts = num(m.timestamp) ?? num(extra?.timestamp);
    if (ts !== undefined) stamps.push(ts);
    const role = str(m.role);
    const isAssistant = role === "assistant" || str(m.object) === "response";
    if (!isAssistant) continue;
    const step = assistants++;
    let commands: { command: string; id?: string }[] = [];
    if (extra && Array.isArray(extra.actions)) {
      for (const a of extra.actions) {
        const c = str(obj(a)?.command);
        if (c !== undefined) commands.push({ command: c, id: str(obj(a)?.tool_call_id) });
      }
    } else {
      const text = contentText(m.content);
      const c = text === undefined ? undefined : textAction(text);
      if (c !== undefined) commands = [{ command: c }];
    }
    if (!commands.length) continue;
    // observations: the following non-assistant messages up to the next assistant
    const following: Record<string, unknown>[] = [];
    for (let j = i + 1; j < messages.length; j++) {
      const n = obj(messages[j]);
      if (!n) continue;
      const r = str(n.role);
      if (r === "assistant" || str(n.object) === "response" || r === "exit" || r === "system") {
        break;
      }
      following.push(n);
    }
    const used = new Set<Record<string, unknown>>();
    const obsOf = (n: Record<string, unknown>): ShellObservation | undefined => {
      const ex = obj(n.extra);
      const content = contentText(n.content) ?? str(n.output) ?? "";
      return miniObservation(content, str(ex?.raw_output), num(ex?.returncode));
    };
    const obs = commands.map((c) => {
      let n = c.id
        ? following.find((f) =>
          !used.has(f) && (str(f.tool_call_id) === c.id || str(f.call_id) === c.id)
        )
        : undefined;
      n ??= following.find((f) =>
        !used.has(f) &&
        (str(f.role) === "user" || str(f.role) === "tool" || str(f.type) === "function_call_output")
      );
      if (!n) return undefined;
      used.add(n);
      const ex = obj(n.extra);
      if (str(ex?.exception_info) === "action was not executed") return undefined;
      return obsOf(n);
    });
    steps.push({ step, commands, obs });
  }
  const actions: Event[][] = [];
  for (const s of steps) {
    for (let k = 0; k < s.commands.length; k++) {
      actions.push(
        await analyzeShell(s.commands[k].command, { ws, cwd: "", step: s.step }, s.obs[k]),
      );
    }
  }
  const stats = obj(info?.model_stats);
  const meta: LogMeta = {};
  const cost = num(stats?.instance_cost);
  if (cost !== undefined) meta.cost = cost;
  meta.steps = num(stats?.api_calls) ?? assistants;
  const secs = spanSeconds(stamps, false);
  if (secs !== undefined) meta.seconds = secs;
  return { format, actions, meta };
}

/** True when any message carries v2's parsed `extra.actions`. */
export function looksV2(messages: unknown[]): boolean {
  return messages.some((m) =>
    Array.isArray(obj(obj(m)?.extra)?.actions) || str(obj(m)?.role) === "tool"
  );
}

const ROLES = new Set(["system", "user", "assistant", "tool", "exit"]);

/** A message of a mini trajectory: a chat message (string or text-part content), or a Responses-API item. */
function isMessage(v: unknown): boolean {
  const m = obj(v);
  if (!m || "parts" in m) return false;
  if (str(m.object) === "response" || str(m.type) === "function_call_output") return true;
  if (!ROLES.has(str(m.role) ?? "")) return false;
  const c = m.content;
  if (c === undefined || c === null || typeof c === "string") return true;
  // text parts only: Anthropic tool_use / tool_result blocks belong to other harnesses (Cline)
  return Array.isArray(c) &&
    c.every((p) => typeof p === "string" || /text$/.test(str(obj(p)?.type) ?? ""));
}

/** mini's own markers: its observation templates, v2's parsed actions, tool and exit messages. */
function hasMarkers(messages: unknown[]): boolean {
  return messages.some((v) => {
    const m = obj(v);
    if (!m) return false;
    if (looksV2([m]) || str(m.role) === "exit" || str(m.type) === "function_call_output") {
      return true;
    }
    const t = contentText(m.content) ?? "";
    return str(m.role) === "user" &&
      (/<returncode>-?\d+<\/returncode>/.test(t) || /^Observation: /.test(t) ||
        /^The last command <command>/.test(t));
  });
}

const INFO_KEYS = ["exit_status", "submission", "model_stats", "mini_version", "config"];

/**
 * The mini-SWE-agent format of a parsed log: its `trajectory_format` label; else (v1 before the
 * label) `messages` with an `info` of mini's keys, or a bare message list, both with mini's own
 * markers (observation templates, parsed actions).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { miniFormat } from "./mini.ts";
 * assert.equal(miniFormat({ trajectory_format: "mini-swe-agent-1.1", messages: [] }), "mini-swe-agent-1.1");
 * const obs = { role: "user", content: "<returncode>0</returncode>\n<output>\nx\n</output>" };
 * assert.equal(miniFormat([{ role: "assistant", content: "ls" }, obs]), "mini-swe-agent-1");
 * // a Gemini CLI chat export, a Cline history: other harnesses' message lists
 * assert.equal(miniFormat([{ role: "user", parts: [{ text: "hi" }] }]), undefined);
 * assert.equal(miniFormat([{ role: "user", content: [{ type: "text", text: "[read_file for 'a'] Result:" }] }]), undefined);
 * ```
 */
export function miniFormat(v: unknown): string | undefined {
  const o = obj(v);
  const tf = str(o?.trajectory_format);
  if (tf === "mini-swe-agent-1" || tf === "mini-swe-agent-1.1") return tf;
  // v1 before the label: `info` of mini's keys; a bare list (the repo's test inputs): markers
  const framed = !!o && Array.isArray(o.messages) &&
    INFO_KEYS.some((k) => k in (obj(o.info) ?? {}));
  const messages = framed ? arr(o!.messages) : Array.isArray(v) && v.length ? v : undefined;
  if (!messages || !messages.every(isMessage)) return undefined;
  if (!framed && !hasMarkers(messages)) return undefined;
  return looksV2(messages) ? "mini-swe-agent-1.1" : "mini-swe-agent-1";
}

/** The mini-SWE-agent reader (registry entry). */
export const reader: LogReader = {
  name: "mini-swe-agent",
  harness: "mini-SWE-agent",
  harnessNames: ["minisweagent", "mini"],
  formats: ["mini-swe-agent-1", "mini-swe-agent-1.1"],
  files: ["*.traj.json", "last_mini_run.traj.json"],
  detect: (input) => {
    const v = input.json();
    return v === NOT_JSON ? undefined : miniFormat(v);
  },
  read: (input, format, opts) => readMini(input.json(), opts, format),
  run: {
    name: "mini",
    harness: "mini-swe-agent",
    command: `mini -t ${PROMPT} --yolo --exit-immediately -o {log_dir}/log.traj.json`,
    help: `mini -t "<prompt>" --yolo --exit-immediately -o <turn dir>/log.traj.json`,
    env: () => ({}),
    async collect(c) {
      return (await exists(`${c.turnDir}/log.traj.json`)) ? ["log.traj.json"] : [];
    },
  },
  doc: {
    versions:
      "trajectories `mini-swe-agent-1` (v1, and older files without `trajectory_format`, bare message lists) and `mini-swe-agent-1.1` (v2, `extra.actions`, tool-call messages)",
    read:
      "shell only: `cat`, `sed -n`, `head`/`tail`, `nl`, `awk NR`, … through the shell analysis; outputs of ≥ 10,000 characters were shown as the first and last 5,000 characters only",
    search: "`grep`/`rg` in the shell (numbered lines, or the simulated output)",
    listing: "`ls`, `find`, `tree`",
    refused:
      "lines of commands the simulation cannot reproduce without the workspace (then `placed: false`); a message list without mini's observation template or parsed actions is not taken for a trajectory",
    log:
      '`-o <file>` writes the trajectory. Preset `mini`: `mini -t "<prompt>" --yolo --exit-immediately -o <turn>/log.traj.json` (`-t/--task`, `-y/--yolo`, `-o/--output`; mini-swe-agent docs `usage/mini.md`)',
  },
};
