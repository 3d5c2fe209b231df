/**
 * Format detection: which harness wrote a log, from its content alone.
 *
 * @module
 */
import { LogFormatError } from "./errors.ts";
import { arr, obj, str } from "./readers/common.ts";
import { looksV2 } from "./readers/mini.ts";
import { headValues, jsonlValues, parseJsonl } from "./readers/jsonl.ts";
import { isV0Event, isV1Event, OPENHANDS_DIR_KEY } from "./readers/openhands.ts";
import { GEMINI_BUNDLE_KEY, isGeminiJsonlHead, isGeminiRecord } from "./readers/gemini.ts";
import { looksAiderChatHistory, looksAiderLlmHistory } from "./readers/aider.ts";

/** Formats the readers understand. */
export const FORMATS = [
  "mini-swe-agent-1",
  "mini-swe-agent-1.1",
  "opencode-export",
  "opencode-jsonl",
  "swe-agent",
  "claude-code",
  "codex",
  "openhands-v0",
  "openhands-v1",
  "gemini-json",
  "gemini-jsonl",
  "aider-llm-history",
] as const;
/** One of {@link FORMATS}. */
export type Format = typeof FORMATS[number];

const JSONL_TYPES = new Set([
  "step_start",
  "step_finish",
  "tool_use",
  "text",
  "reasoning",
  "error",
  "done",
]);

/** Record types of Claude Code transcripts (and `--output-format stream-json`). */
const CLAUDE_TYPES = new Set([
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
]);

/** True when the first values of a JSONL text are Claude Code session lines. */
export function probeClaude(values: unknown[]): boolean {
  return values.some((v) => {
    const o = obj(v);
    if (!o || "projectHash" in o || "payload" in o) return false;
    const type = str(o.type);
    if (!type || !CLAUDE_TYPES.has(type)) return false;
    return "sessionId" in o || "session_id" in o || "uuid" in o || "leafUuid" in o ||
      "isSidechain" in o || "parentUuid" in o;
  });
}

const CODEX_ENVELOPE = new Set(["session_meta", "turn_context", "response_item", "event_msg"]);

/** True when the first values of a JSONL text are a Codex CLI rollout (either era). */
export function probeCodex(values: unknown[]): boolean {
  const first = obj(values[0]);
  if (!first) return false;
  const t = str(first.type);
  if (t && CODEX_ENVELOPE.has(t) && obj(first.payload)) return true;
  // pre-envelope: a bare session header, then state markers or bare response items
  if (t === undefined && str(first.id) !== undefined && str(first.timestamp) !== undefined) {
    const second = obj(values[1]);
    return ("instructions" in first || "git" in first) ||
      (!!second && (str(second.record_type) !== undefined ||
        ["message", "function_call", "reasoning"].includes(str(second.type) ?? "")));
  }
  return false;
}

/** Claude Code sessions and Codex rollouts (JSONL, or a single JSON value of one). */
function probeSession(t: string, head: unknown[]): Sniffed | undefined {
  if (probeClaude(head)) return { format: "claude-code", data: parseJsonl(t) };
  if (probeCodex(head)) return { format: "codex", data: parseJsonl(t) };
  return undefined;
}

/** A log's format and its parsed JSON (one value, or the values of a JSONL / JSON stream). */
export interface Sniffed {
  format: Format;
  data: unknown;
}

/** Splits a text holding several concatenated JSON values (pretty-printed exports) into values. */
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
          return undefined;
        }
      }
      if (depth < 0) return undefined;
    } else if (depth === 0 && !/\s/.test(c)) return undefined;
  }
  return depth === 0 && out.length ? out : undefined;
}

function isExport(v: unknown): boolean {
  const o = obj(v);
  const id = str(obj(o?.info)?.id);
  return !!o && !!id && id.startsWith("ses_") && Array.isArray(o.messages);
}

/** OpenHands: a list of V0 / V1 events, an evaluation record with `history`, a directory bundle. */
function probeOpenHands(v: unknown): Format | undefined {
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

/** Gemini CLI: a ConversationRecord (≤ v0.38), or the bundle with sub-agent sessions. */
function probeGemini(v: unknown): Format | undefined {
  const b = obj(obj(v)?.[GEMINI_BUNDLE_KEY]);
  if (b) return Array.isArray(b.main) ? "gemini-jsonl" : "gemini-json";
  return isGeminiRecord(v) ? "gemini-json" : undefined;
}

function classify(v: unknown): Format | undefined {
  const mine = probeOpenHands(v) ?? probeGemini(v);
  if (mine) return mine;
  if (Array.isArray(v)) {
    if (v.length && v.every(isExport)) return "opencode-export";
    if (
      v.length && v.every((m) => str(obj(m)?.role) !== undefined || str(obj(m)?.type) !== undefined)
    ) {
      return looksV2(v) ? "mini-swe-agent-1.1" : "mini-swe-agent-1";
    }
    return undefined;
  }
  const o = obj(v);
  if (!o) return undefined;
  const tf = str(o.trajectory_format);
  if (tf === "mini-swe-agent-1.1") return "mini-swe-agent-1.1";
  if (tf === "mini-swe-agent-1") return "mini-swe-agent-1";
  if (isExport(o)) return "opencode-export";
  if (Array.isArray(o.trajectory)) return "swe-agent";
  if (Array.isArray(o.messages) && obj(o.info)) {
    return looksV2(arr(o.messages)) ? "mini-swe-agent-1.1" : "mini-swe-agent-1";
  }
  return undefined;
}

/** The format a labelled log's shape says, when it is another harness's than its label. */
function labelConflict(v: unknown, labelled: Format): Format | undefined {
  const o = obj(v);
  if (!o || str(o.trajectory_format) !== labelled) return undefined;
  const shape = classify({ ...o, trajectory_format: undefined });
  const family = (f: Format) => f.replace(/-[\d.]+$/, "").replace(/-(export|jsonl)$/, "");
  return shape && family(shape) !== family(labelled) ? shape : undefined;
}

/** Aider: the LLM history is read; the markdown chat history is refused, saying why. */
function probeAider(t: string, file: string): Sniffed | undefined {
  if (looksAiderLlmHistory(t)) return { format: "aider-llm-history", data: t };
  if (looksAiderChatHistory(t)) {
    throw new LogFormatError(
      file,
      "an Aider chat history (.aider.chat.history.md) holds no file text — only which files were added — so the lines shown to the model cannot be known; run aider with --llm-history-file <file> and read that file",
    );
  }
  return undefined;
}

/** Gemini CLI JSONL (≥ v0.39) and OpenHands JSONL (events, or evaluation `output.jsonl`). */
function probeJsonl(
  first: Record<string, unknown> | undefined,
  t: string,
  file: string,
): Sniffed | undefined {
  if (!first) return undefined;
  if (isGeminiJsonlHead(first)) {
    return { format: "gemini-jsonl", data: jsonlValues(t, file, "a JSONL log") };
  }
  if (isV1Event(first) || isV0Event(first) || Array.isArray(first.history)) {
    const values = jsonlValues(t, file, "a JSONL log");
    const f = probeOpenHands(Array.isArray(first.history) ? values[0] : values);
    if (f) return { format: f, data: values };
  }
  return undefined;
}

/**
 * Detects the format of a log text and parses it. Throws {@link LogFormatError} naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sniff } from "./detect.ts";
 * const s = sniff('{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}', "log.json");
 * assert.ok(s.format === "mini-swe-agent-1");
 * ```
 */
export function sniff(text: string, file: string): Sniffed {
  if (typeof text !== "string") throw new LogFormatError(file, "log content is not text");
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!t.trim()) throw new LogFormatError(file, "empty log");
  const aider = probeAider(t, file);
  if (aider) return aider;
  let data: unknown;
  let parsed = false;
  let error = "";
  try {
    data = JSON.parse(t);
    parsed = true;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (parsed) {
    const f = classify(data);
    const shape = f && labelConflict(data, f);
    if (shape) {
      throw new LogFormatError(
        file,
        `labelled ${f} (trajectory_format) but shaped like ${shape} log: a log of another harness?`,
      );
    }
    if (f) return { format: f, data };
    const one = probeSession(t, [data]);
    if (one) return one;
    const keys = obj(data)
      ? Object.keys(obj(data)!).slice(0, 8).join(", ")
      : Array.isArray(data)
      ? "an array"
      : typeof data;
    throw new LogFormatError(
      file,
      `unknown log format (expected a mini-SWE-agent trajectory, an OpenCode export or JSONL stream, a SWE-agent .traj, a Claude Code session, a Codex rollout, an OpenHands trajectory / event list, a Gemini CLI session or an Aider LLM history; got ${
        keys || "an empty object"
      })`,
    );
  }
  const session = probeSession(t, headValues(t, 5));
  if (session) return session;
  // JSONL: the first non-blank line says which harness wrote it
  const first = obj(parseJsonl(t, { lines: 1 }).records[0]?.value);
  const jsonl = probeJsonl(first, t, file);
  if (jsonl) return jsonl;
  if (first && JSONL_TYPES.has(str(first.type) ?? "")) {
    // opencode run --format json
    return { format: "opencode-jsonl", data: jsonlValues(t, file, "a JSONL stream") };
  }
  // several concatenated exports
  const values = t.length < 512 * 1024 * 1024 ? jsonValues(t) : undefined;
  if (values && values.length > 1 && values.every(isExport)) {
    return { format: "opencode-export", data: values };
  }
  throw new LogFormatError(file, `invalid JSON (${error || "truncated or malformed"})`);
}

/**
 * Parses a log text as the given format (`reads --format`): the JSONL session formats are read
 * as such even when their first lines do not say so; any other format must be the one detected.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sniffAs } from "./detect.ts";
 * const s = sniffAs('{"type":"user","message":{"content":"hi"}}\n', "log.jsonl", "claude-code");
 * assert.ok(s.format === "claude-code");
 * ```
 */
export function sniffAs(text: string, file: string, format: Format): Sniffed {
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new LogFormatError(file, `unknown format ${format} (one of ${FORMATS.join(", ")})`);
  }
  if (format === "claude-code" || format === "codex") {
    const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (!t.trim()) throw new LogFormatError(file, "empty log");
    const data = parseJsonl(t);
    if (!data.records.length) throw new LogFormatError(file, `not a ${format} log: no JSON line`);
    return { format, data };
  }
  const s = sniff(text, file);
  const family = (f: string) => f.replace(/-1(\.1)?$/, "").replace(/-(export|jsonl)$/, "");
  if (s.format !== format && family(s.format) !== family(format)) {
    throw new LogFormatError(file, `not a ${format} log (it reads as ${s.format})`);
  }
  return s;
}

/**
 * The format of a log text (see {@link FORMATS}); throws {@link LogFormatError} naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFormat } from "./detect.ts";
 * assert.ok(detectFormat('{"trajectory": [], "history": [], "info": {}}', "x.traj") === "swe-agent");
 * let msg = "";
 * try { detectFormat('{"hello": 1}', "runs/x/log.json"); } catch (e) { msg = String(e); }
 * assert.ok(msg.includes("runs/x/log.json") && msg.includes("unknown log format"));
 * ```
 */
export function detectFormat(text: string, file: string): Format {
  return sniff(text, file).format;
}
