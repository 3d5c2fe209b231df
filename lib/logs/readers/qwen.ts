/**
 * Qwen Code sessions (`~/.qwen/projects/<sanitized cwd>/chats/<sessionId>.jsonl`). Qwen Code is
 * a fork of Gemini CLI whose recording is a tree of `ChatRecord` lines
 * (`packages/core/src/services/chatRecordingService.ts`): `{uuid, parentUuid, sessionId,
 * timestamp, type: "user" | "assistant" | "tool_result" | "system", subtype?, cwd, version,
 * message?: Content, toolCallResult?, systemPayload?}`, where `message` is the Gemini API
 * `Content` sent to or received from the model — the assistant's `functionCall` parts, and on
 * `tool_result` lines the `functionResponse` parts whose `response.output` is what the model saw.
 *
 * The conversation read is the branch that ends at the last message line, followed back through
 * `parentUuid` (a rewind or a fork leaves the abandoned branch in the file); a file whose chain is
 * broken is read in file order. The calls are read by the Gemini CLI reader with Qwen's
 * differences (`read-file.ts`, `grep.ts`, `tool-names.ts`): `read_file` takes a 0-based `offset`
 * and prefixes a cut read with `Showing lines A-B of N total lines.` then `---`; an unchanged
 * re-read is a `[File … unchanged since last read …]` stub (nothing new shown); `grep_search`
 * prints `L12: ` lines trimmed at both ends; `agent` (`task` before) starts a sub-agent.
 *
 * @module
 */
import { arr, type Json, obj, str } from "./common.ts";
import { readGemini } from "./gemini.ts";
import { historyRecord } from "./gemini_chat.ts";
import type { LogReader } from "./reader.ts";
import { copyInto, findFiles, head, home, PROMPT, since } from "./collect.ts";

const TYPES = new Set(["user", "assistant", "tool_result", "system"]);

/** True when a JSONL value is a Qwen Code `ChatRecord` (its own threading and a Gemini Content). */
export function isQwenRecord(v: unknown): boolean {
  const o = obj(v);
  if (!o || typeof o.sessionId !== "string" || typeof o.uuid !== "string") return false;
  if (!TYPES.has(str(o.type) ?? "") || !("parentUuid" in o)) return false;
  const m = obj(o.message);
  return (!!m && Array.isArray(m.parts)) || "systemPayload" in o || "toolCallResult" in o;
}

/**
 * The records of the branch that ends at the last message record, in order; the file order when
 * a `parentUuid` names no record of the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { activeBranch } from "./qwen.ts";
 * const r = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, type: "user" });
 * // b was rewound: c continues from a
 * assert.deepEqual(activeBranch([r("a", null), r("b", "a"), r("c", "a")]).map((x) => x.uuid), ["a", "c"]);
 * ```
 */
export function activeBranch(records: Json[]): Json[] {
  const byId = new Map<string, Json>();
  for (const r of records) if (typeof r.uuid === "string") byId.set(r.uuid, r);
  const leaf = records.findLast((r) => r.type !== "system" && typeof r.uuid === "string");
  if (!leaf) return records;
  const chain: Json[] = [];
  const seen = new Set<string>();
  for (let r: Json | undefined = leaf; r;) {
    const id = r.uuid as string;
    if (seen.has(id)) return records; // a cycle: not a tree
    seen.add(id);
    chain.push(r);
    const p = r.parentUuid;
    if (p === null || p === undefined) break;
    r = byId.get(String(p));
    if (!r) return records; // broken chain: every record, in file order
  }
  return chain.reverse();
}

/** The records' conversation as a Gemini API history (assistant → model, the rest → user). */
function history(records: Json[]): Json[] {
  const out: Json[] = [];
  for (const r of activeBranch(records)) {
    const m = obj(r.message);
    if (!m || r.type === "system") continue;
    out.push({ role: r.type === "assistant" ? "model" : "user", parts: arr(m.parts) });
  }
  return out;
}

/** The Qwen Code reader (registry entry). */
export const reader: LogReader = {
  name: "qwen-code",
  harness: "Qwen Code",
  harnessNames: ["qwencode", "qwen"],
  formats: ["qwen-jsonl"],
  files: ["~/.qwen/projects/<sanitized cwd>/chats/<sessionId>.jsonl"],
  detect: (input) => input.head(8).some(isQwenRecord) ? "qwen-jsonl" : undefined,
  read(input, format, opts) {
    const records = input.values("a JSONL log").map((v) => obj(v)).filter((o): o is Json => !!o);
    const cwd = records.map((r) => str(r.cwd)).find((c) => c);
    return readGemini(historyRecord(history(records), cwd), opts, format, {
      trimmedGrep: true,
      runTools: [
        "task_create",
        "task_get",
        "task_list",
        "task_update",
        "task_stop",
        "task_output",
        "todo_write",
        "skill",
        "lsp",
        "ask_user_question",
        "exit_plan_mode",
        "web_search",
      ],
      agentTools: ["agent", "task"],
    });
  },
  run: {
    name: "qwen",
    harness: "qwen-code",
    command: `qwen -p ${PROMPT} --yolo --output-format json`,
    help: `qwen -p "<prompt>" --yolo --output-format json
→ log.jsonl from ~/.qwen/projects/*/chats/ (this workspace's session)`,
    env: () => ({}),
    async collect(c) {
      const base = `${c.env.QWEN_RUNTIME_DIR ?? `${home(c.env)}/.qwen`}/projects`;
      const fresh = await since(await findFiles(base, /\.jsonl$/, 3), c.startedMs);
      // this workspace's session: its records name the workspace as their cwd
      const mine: string[] = [];
      for (const f of fresh) {
        if (!f.includes("/chats/")) continue;
        const cwds = (await head(f)).split("\n").map((l) => {
          try {
            return str(obj(JSON.parse(l))?.cwd);
          } catch {
            return undefined; // a line cut by the head's byte limit
          }
        });
        if (cwds.includes(c.workspace)) mine.push(f);
      }
      if (!mine.length) return [];
      await copyInto(mine.sort()[0], c.turnDir, "log.jsonl");
      return ["log.jsonl"];
    },
  },
  doc: {
    versions:
      "session JSONL `chats/<sessionId>.jsonl` (`ChatRecord` tree: `uuid` / `parentUuid`, Gemini `Content` in `message`); the branch ending at the last message is read (rewound branches are not)",
    read:
      "`read_file` (0-based `offset`/`limit`; the `Showing lines A-B of N total lines.` prefix of a cut read; whole file without it), `run_shell_command` via the shell analysis",
    search: "`grep_search` (`File:` and trimmed `L12:` lines, compared trimmed)",
    listing: "`glob`, `list_directory`",
    refused:
      "the `[File … unchanged since last read]` stub shows nothing new; `@`-mention reads (`at_command` records) and sub-agent transcripts (`subagents/`) are not read; `qwen --output-format json` / `stream-json` (Claude-style messages with Qwen's tool names) are not read — read the session",
    log:
      '`~/.qwen/projects/<sanitized cwd>/chats/` (or `$QWEN_RUNTIME_DIR`). Preset `qwen`: `qwen -p "<prompt>" --yolo --output-format json` (Qwen Code headless docs); the session written during the turn whose records name the workspace as cwd → `log.jsonl`',
  },
};
