/**
 * Formats the registry recognises but does not read (yet, or ever: some hold no file text). A
 * log of one of them is refused with "unsupported log format: looks like …" and, where there is
 * one, the reason and what to read instead — never taken for a format it only resembles.
 *
 * Each recogniser tests the format's own markers, from the harness's source or documentation
 * (see docs/harnesses.md). A reader added for one of these formats removes its entry here (the
 * detector cross-test fails while both claim a fixture).
 *
 * @module
 */
import { arr, obj, str } from "./common.ts";
import { type LogInput, NOT_JSON, type Unsupported } from "./reader.ts";

/** The parsed values of a log: the items of a JSON array, one JSON value, or JSONL head values. */
function items(input: LogInput): unknown[] {
  const v = input.json();
  if (Array.isArray(v)) return v;
  if (v !== NOT_JSON) return [v];
  return input.head(8);
}

const DOTTED = /^(user|agent|session|span)\.[a-z_]+$/;

const RECOGNISERS: readonly Unsupported[] = [
  {
    looksLike: "an Aider chat history (.aider.chat.history.md)",
    reason:
      "it holds no file text — only which files were added — so the lines shown to the model cannot be known; run aider with --llm-history-file <file> and read that file",
    test: (input) => /^# aider chat started at \d{4}-\d\d-\d\d/m.test(input.text.slice(0, 4096)),
  },
  {
    looksLike: "a Gemini CLI `--output-format json` result ({response, stats})",
    reason:
      "it holds the final answer and tool counts only, no tool output; read the session recording (~/.gemini/tmp/<project>/chats/)",
    test(input) {
      const o = obj(input.json());
      return !!o && "response" in o && !!obj(o.stats) && !("messages" in o);
    },
  },
  {
    looksLike: "a Cline / Roo Code / Kilo Code ui_messages.json (the chat UI's say / ask messages)",
    reason: "it is what the user saw; read api_conversation_history.json beside it",
    test(input) {
      const v = input.json();
      return Array.isArray(v) && v.length > 0 &&
        v.every((m) => ["say", "ask"].includes(str(obj(m)?.type) ?? "") && "ts" in (obj(m) ?? {}));
    },
  },
  {
    looksLike:
      "a headless run's final result only (`claude -p` / `cursor-agent` `--output-format json`: one result object)",
    reason:
      "it holds the final answer, not the tool calls; use --output-format stream-json or the session transcript",
    test(input) {
      const o = obj(input.json());
      return !!o && str(o.type) === "result" && "session_id" in o;
    },
  },
  {
    looksLike: "a Qwen Code `--output-format json` / `stream-json` output (Claude-style messages)",
    reason:
      "its tool results are not read yet; read the session (~/.qwen/projects/<project>/chats/<sessionId>.jsonl)",
    test(input) {
      const v = input.json();
      const list = Array.isArray(v) ? v : input.head(8);
      return list.some((m) =>
        str(obj(m)?.type) === "system" && str(obj(m)?.subtype) === "session_start" &&
        "session_id" in (obj(m) ?? {})
      );
    },
  },
  {
    looksLike: "Claude Managed Agents session events ({domain}.{action} types with processed_at)",
    reason: "no reader for it yet",
    test(input) {
      const v = input.json();
      const list = obj(v) && Array.isArray(obj(v)!.data) ? arr(obj(v)!.data) : items(input);
      return list.some((e) => {
        const o = obj(e);
        return !!o && DOTTED.test(str(o.type) ?? "") && "processed_at" in o;
      });
    },
  },
  {
    looksLike: "a Codex CLI `codex exec --json` event stream (thread / turn / item events)",
    reason:
      "it is the printed stream, not the rollout; read the rollout (~/.codex/sessions/…/rollout-*.jsonl)",
    test: (input) =>
      input.head(8).some((v) =>
        /^(thread|turn|item)\.[a-z_]+$/.test(str(obj(v)?.type) ?? "") &&
        ("thread_id" in (obj(v) ?? {}) || "item" in (obj(v) ?? {}) || "usage" in (obj(v) ?? {}))
      ),
  },
];

/**
 * The known format a log looks like, among those no reader reads, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { looksLikeUnsupported } from "./unsupported.ts";
 * import { logInput } from "./reader.ts";
 * const out = JSON.stringify({ response: "done", stats: { tools: {} } });
 * assert.match(looksLikeUnsupported(logInput(out, "x.json"))!.looksLike, /--output-format json/);
 * assert.equal(looksLikeUnsupported(logInput('{"a":1}', "x.json")), undefined);
 * ```
 */
export function looksLikeUnsupported(input: LogInput): Unsupported | undefined {
  return RECOGNISERS.find((r) => r.test(input));
}

/** Every recogniser (for the docs and the detector cross-test). */
export const UNSUPPORTED: readonly Unsupported[] = RECOGNISERS;
