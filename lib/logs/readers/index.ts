/**
 * The registry of log readers: one line per harness. Detection, parsing, `validate`'s harness
 * check, the `run --agent` presets, the help texts and the table in docs/harnesses.md all read
 * this list. To add a harness, write its reader module (it exports `reader`, a {@link LogReader})
 * and add its line here; see docs/harnesses.md, "Adding a harness".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FORMATS, READERS, readerOf } from "./index.ts";
 * assert.ok(READERS.length >= 8 && FORMATS.includes("claude-code"));
 * assert.equal(readerOf("mini-swe-agent-1.1")?.harness, "mini-SWE-agent");
 * ```
 * @module
 */
import type { LogReader } from "./reader.ts";
import { reader as claude } from "./claude.ts";
import { reader as claudeJson } from "./claude_json.ts";
import { reader as codex } from "./codex.ts";
import { reader as gemini } from "./gemini.ts";
import { reader as geminiChat } from "./gemini_chat.ts";
import { reader as geminiStream } from "./gemini_stream.ts";
import { reader as qwen } from "./qwen.ts";
import { reader as opencode } from "./opencode.ts";
import { reader as openhands } from "./openhands.ts";
import { reader as cline } from "./cline.ts";
import { reader as aider } from "./aider.ts";
import { reader as copilot } from "./copilot.ts";
import { reader as goose } from "./goose.ts";
import { reader as cursor } from "./cursor.ts";
import { reader as mini } from "./mini.ts";
import { reader as sweagent } from "./sweagent.ts";

/** Every reader, in the order help texts and docs list them. */
export const READERS: readonly LogReader[] = [
  claude,
  claudeJson,
  codex,
  gemini,
  geminiChat,
  geminiStream,
  qwen,
  opencode,
  openhands,
  cline,
  aider,
  copilot,
  goose,
  cursor,
  mini,
  sweagent,
];

/** Every format a reader reads (`reads --format`). */
export const FORMATS: readonly string[] = READERS.flatMap((r) => r.formats);

/** The reader of a format, or undefined. */
export function readerOf(format: string): LogReader | undefined {
  return READERS.find((r) => r.formats.includes(format));
}
