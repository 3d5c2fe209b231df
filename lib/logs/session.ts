/**
 * Which files make up one agent session on disk: the session log and its sub-agent files.
 *
 * - Claude Code 2.x writes sub-agents to `<sessionId>/subagents/agent-<id>.jsonl` next to
 *   `<sessionId>.jsonl`; Codex CLI writes each sub-agent as its own rollout beside the parent's,
 *   linked by `session_meta.payload.source.subagent.thread_spawn.parent_thread_id`.
 * - In the run-log layout a turn holds `log.jsonl` and, when there are sub-agents, a
 *   `subagents/` directory of their files.
 *
 * A path may name the session file or a directory holding one session (its log and the
 * `subagents/` directory, or a parent rollout and its children, or a Cline-family task directory
 * with its `api_conversation_history.json`).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { LogFormatError } from "./errors.ts";
import { obj, str } from "./readers/common.ts";
import { headValues } from "./readers/jsonl.ts";
import { readLogHead } from "./files.ts";
import { codexParentId } from "./readers/codex.ts";

/** Files of a run-log turn or a corpus that are not logs. */
const NOT_LOGS = new Set([
  "meta.json",
  "results.json",
  "config.json",
  "chain.json",
  "tests.json",
  "corpus.json",
  "journal.jsonl",
]);

/** The session log and its sub-agent files (absolute or as given). */
export interface SessionFiles {
  main: string;
  companions: string[];
}

function listDir(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)].sort((
      a,
      b,
    ) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // a session directory that cannot be listed has no companion files
    return [];
  }
}

/** `*.jsonl` files of a `subagents/` directory (metadata `.meta.json` files excluded). */
function subagentFiles(dir: string): string[] {
  return listDir(dir).filter((e) =>
    e.isFile && e.name.endsWith(".jsonl") && e.name !== "journal.jsonl"
  )
    .map((e) => join(dir, e.name));
}

/** First line of a file (up to 4 MB read), for rollout headers. */
function firstValues(path: string): unknown[] {
  const text = readLogHead(path, 4 * 1024 * 1024);
  const nl = text.indexOf("\n");
  return headValues(nl < 0 ? text : text.slice(0, nl), 1);
}

/** `{id, parent}` of a Codex rollout from its first line (either era). */
function rolloutIds(path: string): { id?: string; parent?: string } {
  const o = obj(firstValues(path)[0]);
  const meta = str(o?.type) === "session_meta" ? obj(o?.payload) : o;
  return { id: str(meta?.id), parent: codexParentId(meta) };
}

/** Rollouts beside a rollout that descend from it (sub-agents of sub-agents included). */
function childRollouts(path: string): string[] {
  const dir = dirname(path);
  const siblings = listDir(dir).filter((e) =>
    e.isFile && /^rollout-.*\.jsonl$/.test(e.name) && join(dir, e.name) !== path
  ).slice(0, 5000);
  if (!siblings.length) return [];
  const self = rolloutIds(path).id;
  if (!self) return [];
  const ids = siblings.map((e) => ({ path: join(dir, e.name), ...rolloutIds(join(dir, e.name)) }));
  const out: string[] = [];
  const frontier = [self];
  const seen = new Set([self]);
  while (frontier.length) {
    const p = frontier.pop()!;
    for (const s of ids) {
      if (s.parent === p && s.id && !seen.has(s.id)) {
        seen.add(s.id);
        out.push(s.path);
        frontier.push(s.id);
      }
    }
  }
  return out.sort();
}

/**
 * Claude Code 2.0.x sub-agent transcripts written flat beside the session
 * (`<project>/agent-<id>.jsonl`): those whose lines carry this session's `sessionId`.
 */
function flatAgents(path: string): string[] {
  const dir = dirname(path);
  const agents = listDir(dir).filter((e) => e.isFile && /^agent-.*\.jsonl$/.test(e.name))
    .slice(0, 5000);
  if (!agents.length) return [];
  const session = str(obj(firstValues(path).find((v) => str(obj(v)?.sessionId)))?.sessionId) ??
    basename(path).replace(/\.jsonl$/, "");
  return agents.map((e) => join(dir, e.name)).filter((f) =>
    str(obj(firstValues(f)[0])?.sessionId) === session
  );
}

/**
 * The session files of a log path (a file or a session directory). Throws
 * {@link LogFormatError} naming the path when a directory holds no session or several.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionFiles } from "./session.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/s1.jsonl`, "{}\n");
 * await Deno.mkdir(`${dir}/s1/subagents`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/s1/subagents/agent-a1.jsonl`, "{}\n");
 * await Deno.writeTextFile(`${dir}/s1/subagents/agent-a1.meta.json`, "{}\n");
 * const s = sessionFiles(`${dir}/s1.jsonl`);
 * assert.ok(s.companions.length === 1 && s.companions[0].endsWith("agent-a1.jsonl"));
 * assert.ok(sessionFiles(dir).main.endsWith("s1.jsonl"));
 * ```
 */
export function sessionFiles(path: string): SessionFiles {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    throw new LogFormatError(path, `cannot read the file: ${e instanceof Error ? e.message : e}`);
  }
  if (info.isDirectory) {
    const entries = listDir(path);
    const files = entries.filter((e) => e.isFile);
    // a run-log layout turn: its log.* file; else any session-looking file
    const named = files.filter((e) => /^log\./.test(e.name));
    const logs = (named.length
      ? named
      : files.filter((e) =>
        /\.(jsonl|json|traj)$/.test(e.name) && !e.name.startsWith("agent-") &&
        !e.name.endsWith(".meta.json") && !NOT_LOGS.has(e.name)
      )).map((e) =>
        join(path, e.name)
      );
    // a Cline / Roo / Kilo task directory: the conversation sent to the model is the log (its
    // ui_messages.json, task_metadata.json and context_history.json are the UI's and metadata)
    const task = logs.find((l) => basename(l) === "api_conversation_history.json");
    if (task && !named.length) return { main: task, companions: [] };
    let roots = logs;
    if (logs.length > 1 && logs.every((l) => /\.jsonl$/.test(l))) {
      // a parent rollout and its children: the one without a parent
      const withIds = logs.map((l) => ({ l, ...rolloutIds(l) }));
      const known = new Set(withIds.map((x) => x.id).filter((x) => x));
      roots = withIds.filter((x) => !x.parent || !known.has(x.parent)).map((x) => x.l);
    }
    if (roots.length === 0) {
      throw new LogFormatError(path, "no session log in this directory");
    }
    if (roots.length > 1) {
      throw new LogFormatError(
        path,
        `several sessions in this directory (${
          roots.map((r) => basename(r)).slice(0, 5).join(", ")
        }); name one file`,
      );
    }
    const main = roots[0];
    const companions = new Set(sessionFiles(main).companions);
    for (const l of logs) if (l !== main) companions.add(l);
    return { main, companions: [...companions].sort() };
  }
  const dir = dirname(path);
  const stem = basename(path).replace(/\.(jsonl|json)$/, "");
  const companions = new Set<string>();
  for (const d of [join(dir, stem, "subagents"), join(dir, "subagents")]) {
    for (const f of subagentFiles(d)) companions.add(f);
  }
  if (/^rollout-.*\.jsonl$/.test(basename(path))) {
    for (const f of childRollouts(path)) companions.add(f);
  }
  if (!basename(path).startsWith("agent-") && path.endsWith(".jsonl")) {
    for (const f of flatAgents(path)) companions.add(f);
  }
  return { main: path, companions: [...companions].sort() };
}
