/**
 * Gemini CLI conversation exports: the Gemini API history (`Content[]`: `{role: "user" | "model",
 * parts}`) as Gemini CLI writes it outside the session recording —
 *
 * - `/chat share file.json` (`/resume share` in newer versions): `JSON.stringify(history)`, a bare
 *   `Content[]` (`packages/cli/src/ui/utils/historyExportUtils.ts`);
 * - `/chat share file.md`: the same history as Markdown, `## USER 🧑‍💻` / `## MODEL ✨` sections
 *   joined by `\n\n---\n\n`, each `functionCall` / `functionResponse` part pretty-printed in a
 *   ```` ```json ```` fence after `**Tool Command**:` / `**Tool Response**:` (other parts dropped);
 * - `/chat save <tag>` checkpoints (`checkpoint-<tag>.json`: `{history: Content[], authType?}`, a
 *   bare `Content[]` in old files; `packages/core/src/core/logger.ts`), and the `/restore`
 *   checkpoints written before an edit (`{history, clientHistory: Content[], toolCall, …}`).
 *
 * What the model saw of a tool call is the `functionResponse.response.output` string of the user
 * turn after it (`convertToFunctionResponse`: the tool's exact `llmContent`), paired with its
 * `functionCall` by `id` (by name and order when ids are missing). The tools are Gemini CLI's, so
 * the calls are read by the session reader (`gemini.ts`): `read_file` (header `Showing lines A-B
 * of N` when cut, else the whole file), `read_many_files`, `grep_search`, `run_shell_command`
 * through the shell analysis. Each model turn is one step. The workspace root is the first
 * directory of the environment context (`Workspace Directories:` list, or the older "I'm currently
 * working in the directory: …"), else what the session reader infers.
 *
 * @module
 */
import { arr, type Json, obj, str } from "./common.ts";
import { readGemini } from "./gemini.ts";
import { type LogInput, type LogReader, NOT_JSON } from "./reader.ts";

/** A Gemini API `Content` as the readers walk it. */
export interface GeminiContent {
  role: string;
  parts: Json[];
}

/** True when a value is a Gemini API `Content` (`role` user / model, `parts` an array). */
export function isGeminiContent(v: unknown): boolean {
  const o = obj(v);
  return !!o && (o.role === "user" || o.role === "model") && Array.isArray(o.parts) &&
    o.parts.every((p) => obj(p) !== undefined);
}

/** A list that is a whole history: non-empty, every item a `Content`. */
function isHistory(v: unknown): v is Json[] {
  return Array.isArray(v) && v.length > 0 && v.every(isGeminiContent);
}

/** The history of a parsed export or checkpoint, or undefined when it is not one. */
export function chatHistory(v: unknown): Json[] | undefined {
  if (isHistory(v)) return v;
  const o = obj(v);
  if (!o) return undefined;
  // `/chat save` checkpoint; `/restore` checkpoint (its `history` is the UI's, `clientHistory` the API's)
  if (isHistory(o.history) && !("messages" in o)) return o.history;
  if (isHistory(o.clientHistory) && "toolCall" in o) return o.clientHistory;
  return undefined;
}

const MD_SECTION = /^## (USER|MODEL|FUNCTION|SYSTEM|TOOL) [^\n]*\n\n/;
const MD_TOOL = /\*\*Tool (Command|Response)\*\*:\n```json\n/g;
const FENCE_END = "\n```";

/** The tool blocks of a section body, found in one pass (a block without its fence ends it). */
function* toolBlocks(
  body: string,
): Generator<{ at: number; end: number; kind: string; json: string }> {
  MD_TOOL.lastIndex = 0;
  for (let m = MD_TOOL.exec(body); m; m = MD_TOOL.exec(body)) {
    const start = m.index + m[0].length;
    const close = body.indexOf(FENCE_END, start);
    if (close < 0) return;
    yield {
      at: m.index,
      end: close + FENCE_END.length,
      kind: m[1],
      json: body.slice(start, close),
    };
    MD_TOOL.lastIndex = close + FENCE_END.length;
  }
}

/**
 * The history of a `/chat share` Markdown export, or undefined when the text is not one (it must
 * start with a `## USER` / `## MODEL` section and hold a `**Tool Command**:` block that parses).
 * A fenced block ends at the first line that starts with three backticks: the JSON inside is
 * pretty-printed, so none of its lines does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownHistory } from "./gemini_chat.ts";
 * const fence = "\x60\x60\x60";
 * const md = "## USER 🧑‍💻\n\nhi\n\n---\n\n## MODEL ✨\n\n**Tool Command**:\n" + fence + "json\n" +
 *   JSON.stringify({ name: "read_file", args: { file_path: "a.py" } }, null, 2) + "\n" + fence;
 * const h = markdownHistory(md)!;
 * assert.equal(h.length, 2);
 * assert.deepEqual(h[1].parts, [{ functionCall: { name: "read_file", args: { file_path: "a.py" } } }]);
 * ```
 */
export function markdownHistory(text: string): GeminiContent[] | undefined {
  if (!MD_SECTION.test(text) || !text.includes("**Tool Command**:\n```json\n")) return undefined;
  const out: GeminiContent[] = [];
  let calls = 0;
  for (const section of text.split(/\n\n---\n\n(?=## (?:USER|MODEL|FUNCTION|SYSTEM|TOOL) )/)) {
    const head = section.match(MD_SECTION);
    if (!head) {
      // a `---` inside a text part: it belongs to the section before
      const last = out.at(-1);
      if (last) last.parts.push({ text: `\n\n---\n\n${section}` });
      continue;
    }
    const role = head[1] === "USER" ? "user" : "model";
    const body = section.slice(head[0].length);
    const parts: Json[] = [];
    let at = 0;
    for (const b of toolBlocks(body)) {
      if (b.at > at) parts.push({ text: body.slice(at, b.at) });
      at = b.end;
      let v: unknown;
      try {
        v = JSON.parse(b.json);
      } catch {
        parts.push({ text: body.slice(b.at, b.end) }); // not what the exporter wrote: kept as text
        continue;
      }
      if (b.kind === "Command") {
        calls++;
        parts.push({ functionCall: v });
      } else parts.push({ functionResponse: v });
    }
    if (at < body.length) parts.push({ text: body.slice(at) });
    out.push({ role, parts });
  }
  return calls ? out : undefined;
}

/** The workspace root the history's environment context names, or undefined. */
export function historyRoot(history: readonly Json[]): string | undefined {
  for (const c of history.slice(0, 4)) {
    if (str(c.role) !== "user") continue;
    for (const p of arr(c.parts)) {
      const t = str(obj(p)?.text);
      if (!t) continue;
      const list = t.match(/Workspace Directories:\**\s*\n\s*- (\S[^\n]*)/);
      if (list) return list[1].trim().replace(/[\\/]+$/, "");
      const one = t.match(/I'm currently working in the directory: ?(\S[^\n]*)/);
      if (one) return one[1].trim().replace(/[\\/]+$/, "");
    }
  }
  return undefined;
}

/**
 * A history as a Gemini CLI session record (the shape `gemini.ts` reads): each model turn a
 * `gemini` message whose `toolCalls` carry their `functionResponse` parts as `result`; a response
 * no call asked for becomes a call of its own (listed, nothing credited without arguments).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyRecord } from "./gemini_chat.ts";
 * const r = historyRecord([
 *   { role: "model", parts: [{ functionCall: { name: "read_file", args: { file_path: "a" } } }] },
 *   { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "x" } } }] },
 * ]);
 * const m = (r.messages as { toolCalls: { status: string; result: unknown[] }[] }[])[0];
 * assert.ok(m.toolCalls[0].status === "success" && m.toolCalls[0].result.length === 1);
 * ```
 */
export function historyRecord(history: readonly Json[], root?: string): Json {
  const messages: Json[] = [];
  let pending: Json[] = [];
  for (const c of history) {
    const parts = arr(c.parts).map((p) => obj(p)).filter((p): p is Json => !!p);
    if (str(c.role) === "model") {
      const calls = parts.map((p) => obj(p.functionCall)).filter((f): f is Json => !!f).map((
        f,
      ) => ({ id: str(f.id), name: str(f.name) ?? "?", args: obj(f.args) ?? {} } as Json));
      messages.push({ type: "gemini", content: "", toolCalls: calls });
      pending = calls;
      continue;
    }
    const texts = parts.map((p) => str(p.text)).filter((t): t is string => t !== undefined);
    for (const p of parts) {
      const fr = obj(p.functionResponse);
      if (!fr) continue;
      const id = str(fr.id), name = str(fr.name);
      let at = id === undefined ? -1 : pending.findIndex((k) => k.id === id && !k.result);
      if (at < 0) {
        at = pending.findIndex((k) => !k.result && (name === undefined || k.name === name));
      }
      const resp = obj(fr.response);
      const status = resp && "error" in resp && !("output" in resp) ? "error" : "success";
      if (at >= 0) {
        Object.assign(pending[at], { result: [{ functionResponse: fr }], status });
      } else {
        messages.push({
          type: "gemini",
          content: "",
          toolCalls: [{
            id,
            name: name ?? "?",
            args: {},
            result: [{ functionResponse: fr }],
            status,
          }],
        });
      }
    }
    if (texts.length) messages.push({ type: "user", content: texts.join("") });
  }
  // a call the history holds no response for: nothing shown
  for (const m of messages) {
    for (const k of arr(m.toolCalls) as Json[]) if (!k.result) k.status = "cancelled";
  }
  return { sessionId: "", directories: root ? [root] : [], messages };
}

/** The history of a log of this reader's formats. */
function historyOf(input: LogInput, format: string): Json[] | undefined {
  if (format === "gemini-chat-md") return markdownHistory(input.text) as Json[] | undefined;
  const v = input.json();
  return v === NOT_JSON ? undefined : chatHistory(v);
}

/** The Gemini CLI conversation-export reader (registry entry). */
export const reader: LogReader = {
  name: "gemini-cli-chat",
  harness: "Gemini CLI",
  harnessNames: ["geminicli", "gemini"],
  formats: ["gemini-chat", "gemini-chat-md"],
  files: [
    "gemini-conversation-<ms>.json",
    "gemini-conversation-<ms>.md",
    "~/.gemini/tmp/<project>/checkpoint-<tag>.json",
    "~/.gemini/tmp/<project>/checkpoints/*.json",
  ],
  detect(input) {
    const v = input.json();
    if (v !== NOT_JSON) return chatHistory(v) ? "gemini-chat" : undefined;
    return markdownHistory(input.text) ? "gemini-chat-md" : undefined;
  },
  read(input, format, opts) {
    const history = historyOf(input, format);
    if (!history) throw new Error(`${input.file}: not a Gemini CLI chat export`);
    return readGemini(historyRecord(history, historyRoot(history)), opts, format);
  },
  doc: {
    versions:
      "`/chat share` (`/resume share`) `.json` (the API `Content[]`) and `.md` (`## USER` / `## MODEL` sections, `**Tool Command**` / `**Tool Response**` JSON blocks); `/chat save` checkpoints `checkpoint-<tag>.json` (`{history, authType}`, or a bare `Content[]`); `/restore` checkpoints (`clientHistory`)",
    read:
      "each `functionResponse.response.output` (the tool's exact text), paired with its `functionCall` by id (by name and order without ids), read as in the session recording: `read_file`, `read_many_files`, `run_shell_command` via the shell analysis",
    search: "`grep_search` / `search_file_content` (`File:` and `L12:` lines)",
    listing: "`glob`, `list_directory`",
    refused:
      "the history holds only what the model saw: no timing, no display text; a call without a response (cut, cancelled) shows nothing; the Markdown export drops parts other than text and tool calls (images, inline data); the root is the environment context's first workspace directory — give `--cwd` when the export starts after a compression",
    log:
      "`/chat share <file>.json\\|.md` writes the file given (default `gemini-conversation-<ms>.json` in the cwd); `/chat save <tag>` writes `~/.gemini/tmp/<project>/checkpoint-<tag>.json`. Interactive only: no `run --agent` preset (the `gemini` preset collects the session recording)",
  },
};
