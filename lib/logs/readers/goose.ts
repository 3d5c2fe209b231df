/**
 * Goose (block/goose) sessions: the JSONL session files of Goose ≤ 1.9
 * (`~/.local/share/goose/sessions/<id>.jsonl`: a `SessionMetadata` line — `working_dir`,
 * `description`, `message_count`, token counts — then one `Message` a line, `crates/goose/src/
 * session/legacy.rs`), and the `goose run --output-format stream-json` stream (`{"type":
 * "message", "message": Message}` lines, `{"type": "complete"}` at the end).
 *
 * A message's `content` holds `toolRequest {id, toolCall: {status, value: {name, arguments}}}`
 * items (assistant) and `toolResponse {id, toolResult: {status, value}}` items (user), where
 * `value` is the MCP content list (older) or a `CallToolResult` (`{content, isError}`). Only
 * content whose `annotations.audience` is absent or includes `assistant` went to the model; the
 * rest was for the user's screen (`crates/goose-mcp/src/developer/`):
 * - `text_editor` `view` (`text_editor.rs`): the model gets the **whole file** as an embedded
 *   resource, even with `view_range` (the numbered `### path (lines a-b)` block is the user's);
 *   a directory is listed (`'<path>' is a directory. Contents:`).
 * - `read {path, offset (0-based), limit}` (`read.rs`): plain lines from `offset + 1`, with a
 *   `[Showing lines a-b of N. …]` or `[N more lines in file. …]` note after them.
 * - `shell`: the command's output (stdout), through the shell analysis.
 * - `text_editor` `write` / `str_replace` / `insert` / `undo_edit`, `write`, `edit`: writes.
 * Tool names carry their extension (`developer__shell`); the part after `__` names the tool.
 *
 * @module
 */
import type { Event, FileSource, LogMeta } from "../types.ts";
import { outsideNote, pathNote, toolEvent } from "../event.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import {
  arr,
  commonDir,
  creditedRead,
  type Json,
  num,
  obj,
  runEvent,
  str,
  stripAnsi,
} from "./common.ts";
import type { LogReader } from "./reader.ts";
import { PROMPT, saveStream } from "./collect.ts";

/** A Goose message's content item of a tool request or response. */
function isToolItem(v: unknown): boolean {
  return /^(toolRequest|toolResponse)$/.test(str(obj(v)?.type) ?? "") &&
    ("toolCall" in (obj(v) ?? {}) || "toolResult" in (obj(v) ?? {}));
}

/** The Message of a JSONL value: a session line, or a stream-json `message` event. */
function messageOf(v: unknown): Json | undefined {
  const o = obj(v);
  if (!o) return undefined;
  if (o.type === "message" && obj(o.message)) return obj(o.message);
  if ((o.role === "user" || o.role === "assistant") && Array.isArray(o.content)) return o;
  return undefined;
}

/** True when a JSONL value is Goose's: session metadata, or a message with a tool item. */
export function isGooseValue(v: unknown): boolean {
  const o = obj(v);
  if (!o) return false;
  if (typeof o.working_dir === "string" && "message_count" in o) return true;
  return arr(messageOf(v)?.content).some(isToolItem);
}

/** The text the model got from a tool response: items for the assistant (resources' text too). */
function modelContent(result: Json | undefined): { texts: string[]; resources: string[] } {
  const value = result?.value;
  const items = Array.isArray(value) ? value : arr(obj(value)?.content);
  const texts: string[] = [], resources: string[] = [];
  for (const it of items.map((x) => obj(x)).filter((x): x is Json => !!x)) {
    const audience = arr(obj(it.annotations)?.audience).map((a) => str(a));
    if (audience.length && !audience.includes("assistant")) continue;
    if (it.type === "text" && typeof it.text === "string") texts.push(it.text);
    const r = obj(it.resource);
    if (it.type === "resource" && r && typeof r.text === "string") resources.push(r.text);
  }
  return { texts, resources };
}

interface Ctx {
  ws: TurnWorkspace;
  actions: Event[][];
}

/** Lines `start`… of a text shown as is (no numbers): each line with its text. */
function plainLines(start: number, text: string): ShownLine[] {
  const body = text === "" ? [] : splitLines(text.endsWith("\n") ? text : text + "\n");
  return body.map((t, i) => [start + i, t]);
}

/**
 * `read` output: the lines before its `[Showing lines …]` / `[N more lines …]` note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gooseReadBody } from "./goose.ts";
 * const out = "b\nc\n\n[1 more lines in file. Offsets are 0-indexed; use offset=3 to continue.]";
 * assert.equal(gooseReadBody(out), "b\nc");
 * ```
 */
export function gooseReadBody(text: string): string {
  return text.replace(
    /\n\n\[(?:Showing lines \d+-\d+ of \d+|\d+ more lines in file)[^\]]*\]\s*$/,
    "",
  );
}

async function toolEvents(
  ctx: Ctx,
  step: number,
  name: string,
  args: Json,
  result: Json | undefined,
): Promise<Event[]> {
  const tool = name.includes("__") ? name.slice(name.lastIndexOf("__") + 2) : name;
  const ok = !!result && result.status !== "error" && obj(result.value)?.isError !== true;
  const { texts, resources } = modelContent(result);
  const text = texts.join("\n");
  const raw = str(args.path) ?? str(args.file_path);
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, "");
  const command = str(args.command);
  if (tool === "shell" || tool === "bash") {
    if (command === undefined) {
      return [toolEvent(step, "other", name, args, [], {}, "shell call without a command")];
    }
    const obs = ok ? { output: stripAnsi(text) } : undefined;
    return await analyzeShell(command, { ws: ctx.ws, cwd: "", step, tool: name }, obs);
  }
  const isView = tool === "text_editor" && command === "view";
  if (isView || tool === "read") {
    if (rel === undefined) return [toolEvent(step, "read", name, args, [], {}, pathNote(raw))];
    if (!ok) {
      return [
        toolEvent(
          step,
          "read",
          name,
          args,
          [],
          {},
          `tool call failed: nothing read (${rel || "."})`,
        ),
      ];
    }
    if (isView) {
      if (/^'.*' is a directory\. Contents:/.test(text)) {
        return [toolEvent(step, "list", name, args, [shownPath(rel)], {})];
      }
      // the whole file, as the embedded resource the model got
      if (!resources.length) {
        return [toolEvent(step, "read", name, args, [rel], {}, `no file text shown (${rel})`)];
      }
      return [creditedRead(ctx.ws, step, name, args, rel, plainLines(1, resources[0]))];
    }
    if (text === "File is empty." || /^\[Line \d+ is .* exceeds/.test(text)) {
      return [toolEvent(step, "read", name, args, [rel], {}, `nothing shown (${rel})`)];
    }
    const start = (num(args.offset) ?? 0) + 1;
    return [creditedRead(ctx.ws, step, name, args, rel, plainLines(start, gooseReadBody(text)))];
  }
  if (tool === "text_editor" || tool === "write" || tool === "edit") {
    if (rel && ok) {
      const cur = ctx.ws.read(rel);
      const o = str(args.old_str) ?? str(args.old_string),
        n = str(args.new_str) ?? str(args.new_string);
      const full = str(args.file_text) ?? str(args.content);
      if ((command === "write" || tool === "write") && full !== undefined) {
        ctx.ws.write(rel, full.endsWith("\n") ? full : full + "\n");
      } else if (typeof cur === "string" && o !== undefined && n !== undefined && cur.includes(o)) {
        ctx.ws.write(rel, cur.replace(o, () => n));
      } else ctx.ws.write(rel, UNKNOWN);
    }
    const note = rel === undefined ? outsideNote(raw) : ok ? undefined : "tool call failed";
    return [toolEvent(step, "write", name, { path: raw, command }, rel ? [rel] : [], {}, note)];
  }
  if (tool === "tree" || tool === "list_windows" || tool === "analyze") {
    return [toolEvent(step, "list", name, args, rel ? [shownPath(rel)] : [], {})];
  }
  return [runEvent(step, name, args, !!result)];
}

/** The workspace root: the metadata's `working_dir`, else the common directory of absolute paths. */
function gooseRoot(values: Json[], messages: Json[]): string | undefined {
  const wd = values.map((v) => str(v.working_dir)).find((w) => w);
  if (wd) return wd.replace(/\/+$/, "");
  const dirs: string[] = [];
  for (const m of messages) {
    for (const it of arr(m.content)) {
      const p = str(obj(obj(obj(obj(it)?.toolCall)?.value)?.arguments)?.path);
      if (p?.startsWith("/")) dirs.push(p.slice(0, p.lastIndexOf("/")));
    }
  }
  return commonDir(dirs);
}

/** Reads Goose messages (session JSONL or stream-json values). */
export async function readGoose(
  values: unknown[],
  opts: { files?: FileSource; cwd?: string },
): Promise<{ actions: Event[][]; meta: LogMeta }> {
  const objs = values.map((v) => obj(v)).filter((o): o is Json => !!o);
  const messages = objs.map(messageOf).filter((m): m is Json => !!m);
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, opts.cwd ?? gooseRoot(objs, messages) ?? ""),
    actions: [],
  };
  // responses by request id (a response may come in a later message)
  const responses = new Map<string, Json>();
  for (const m of messages) {
    for (const it of arr(m.content).map((x) => obj(x))) {
      if (it?.type === "toolResponse" && typeof it.id === "string") {
        responses.set(
          it.id,
          obj(it.toolResult) ??
            { status: "success", value: [{ type: "text", text: String(it.toolResult ?? "") }] },
        );
      }
    }
  }
  let step = 0;
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const reqs = arr(m.content).map((x) => obj(x)).filter((x): x is Json =>
      x?.type === "toolRequest"
    );
    if (!reqs.length) continue;
    for (const r of reqs) {
      const call = obj(r.toolCall);
      const value = obj(call?.value) ?? call; // stream-json carries {name, arguments} directly
      const name = str(value?.name);
      if (!name || call?.status === "error") {
        ctx.actions.push([
          toolEvent(step, "other", name ?? "?", {}, [], {}, "tool request without a valid call"),
        ]);
        continue;
      }
      ctx.actions.push(
        await toolEvents(
          ctx,
          step,
          name,
          obj(value!.arguments) ?? {},
          responses.get(str(r.id) ?? ""),
        ),
      );
    }
    step++;
  }
  const meta: LogMeta = { steps: step };
  const head = objs.find((o) => typeof o.working_dir === "string");
  const tin = num(head?.accumulated_input_tokens) ?? num(head?.input_tokens);
  const tout = num(head?.accumulated_output_tokens) ?? num(head?.output_tokens);
  if (tin !== undefined) meta.tokens_in = tin;
  if (tout !== undefined) meta.tokens_out = tout;
  const stamps = messages.map((m) => num(m.created)).filter((t): t is number => t !== undefined);
  if (stamps.length >= 2) meta.seconds = Math.max(...stamps) - Math.min(...stamps);
  return { actions: ctx.actions, meta };
}

/** The Goose reader (registry entry). */
export const reader: LogReader = {
  name: "goose",
  harness: "Goose",
  harnessNames: ["goose"],
  formats: ["goose-jsonl"],
  files: [
    "~/.local/share/goose/sessions/<id>.jsonl",
    "stdout of `goose run --output-format stream-json`",
  ],
  detect: (input) => input.head(8).some(isGooseValue) ? "goose-jsonl" : undefined,
  async read(input, format, opts) {
    return { format, ...(await readGoose(input.values("a JSONL log"), opts)) };
  },
  run: {
    name: "goose",
    harness: "goose",
    command: `goose run -t ${PROMPT} --output-format stream-json`,
    help: `goose run -t "<prompt>" --output-format stream-json
→ log.jsonl: the stream's JSON lines (the workspace is the configuration's cwd)`,
    env: () => ({}),
    collect: (c) => saveStream(c.stdout, c.turnDir, isGooseValue),
  },
  doc: {
    versions:
      "session JSONL of Goose ≤ 1.9 (`SessionMetadata` line, then messages); `goose run --output-format stream-json` (`message` events); tool results as a content list or a `CallToolResult`",
    read:
      "`text_editor` `view`: the whole file (the model gets it as an embedded resource even with `view_range`); `read` (0-based `offset`, plain lines before its `[Showing lines …]` note); `shell` via the shell analysis. Only content whose audience includes the assistant counts",
    search: "`shell` (`rg`, `grep`)",
    listing: "`text_editor` `view` of a directory, `tree`",
    refused:
      "Goose ≥ 1.10 keeps sessions in SQLite (`sessions.db`): export a session to JSONL first (not read from the database); the stream-json output names no working directory: the root is taken from the common directory of the paths, else give `--cwd`; the shell's exit status is not recorded",
    log:
      '`~/.local/share/goose/sessions/<id>.jsonl` (≤ 1.9). Preset `goose`: `goose run -t "<prompt>" --output-format stream-json` (goose-cli `session/mod.rs` prints each message as a `message` event); the JSON lines of its stdout → `log.jsonl`, the root from the configuration\'s cwd',
  },
};
