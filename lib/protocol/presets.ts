/**
 * `reporeuse run --agent <preset>`: the non-interactive command line of each harness, and how to
 * find the session log(s) it wrote and copy them into the turn's run directory (sub-agents
 * included), so a chain run with a real agent is scored with no manual step.
 *
 * Each preset's command is a runner template (placeholders of {@link fillCommand}: `{prompt_file}`,
 * `{workspace}`, `{log_dir}`, plus `{scratch}`, a per-turn directory for the harness's own files,
 * and `{session_id}`, a fresh UUID), run with bash in the workspace. Flags were checked against
 * each harness's documentation (docs/harnesses.md lists them with their sources). After the
 * process ends, `collect` finds the logs by what identifies this turn's session — the session id
 * we chose, a conversations directory we pointed the harness at, or the files written since the
 * turn started whose recorded working directory is the workspace — and writes them in the
 * run-log layout: one `log.*` file, sub-agent sessions beside it where the reader finds them.
 *
 * @module
 */
import { bundleLog } from "../logs/bundle.ts";
import { exists, readBounded, realDirUnder, writeFresh } from "../util/fs.ts";
import { MAX_LOG_BYTES } from "../logs/mod.ts";

/** The preset names of `--agent`. */
export const AGENT_PRESETS = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "openhands",
  "aider",
  "mini",
] as const;
/** One of {@link AGENT_PRESETS}. */
export type AgentPreset = typeof AGENT_PRESETS[number];

/** True when an `--agent` value names a preset rather than a command template. */
export function isAgentPreset(v: string): v is AgentPreset {
  return (AGENT_PRESETS as readonly string[]).includes(v);
}

/** What `collect` knows about the turn. */
export interface CollectContext {
  /** The turn's run directory (`runs/<config>/<chain>/turn<N>/`). */
  turnDir: string;
  /** The workspace (the agent's working directory). */
  workspace: string;
  /** Per-turn scratch directory (`{scratch}`). */
  scratch: string;
  /** The session id given to the harness (`{session_id}`). */
  sessionId: string;
  /** The agent's environment (HOME, CODEX_HOME, … as the agent saw them). */
  env: Record<string, string | undefined>;
  /** Epoch milliseconds when the agent process started. */
  startedMs: number;
  /** The agent's standard output. */
  stdout: string;
}

/** A harness preset. */
export interface Preset {
  name: AgentPreset;
  /** Harness name recorded in config.json when `--harness` is not given. */
  harness: string;
  /** Runner command template (bash). */
  command: string;
  /** Extra environment for the agent process. */
  env(c: { scratch: string; sessionId: string }): Record<string, string>;
  /** Copies the session log(s) into the turn directory; returns the files written (relative). */
  collect(c: CollectContext): Promise<string[]>;
}

const PROMPT = `"$(cat {prompt_file})"`;

async function statMs(p: string): Promise<number | undefined> {
  try {
    const s = await Deno.stat(p);
    return s.mtime?.getTime();
  } catch {
    return undefined;
  }
}

/** Files under `dir` (recursive, at most `depth` levels) whose name matches `re`. */
async function findFiles(dir: string, re: RegExp, depth = 6): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, left: number) => {
    let entries: Deno.DirEntry[] = [];
    try {
      for await (const e of Deno.readDir(d)) entries.push(e);
    } catch {
      return;
    }
    entries = entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = `${d}/${e.name}`;
      if (e.isFile && re.test(e.name)) out.push(p);
      else if (e.isDirectory && left > 0) await walk(p, left - 1);
    }
  };
  await walk(dir, depth);
  return out;
}

/** Files written since the turn started (one second of slack for coarse clocks). */
async function since(files: string[], startedMs: number): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const m = await statMs(f);
    if (m !== undefined && m >= startedMs - 1000) out.push(f);
  }
  return out;
}

/**
 * Copies the session file `src` to `rel` in the turn directory: only a regular file (a link the
 * agent left in its home, or a device, is not copied) of at most `MAX_LOG_BYTES`, written as a
 * new file in real directories (never through a link planted in the turn directory).
 */
async function copyInto(src: string, turnDir: string, rel: string): Promise<void> {
  if (!(await Deno.lstat(src)).isFile) {
    throw new Error(`${src}: not a regular file (a link or device is not copied)`);
  }
  const bytes = readBounded(src, MAX_LOG_BYTES);
  await writeInto(turnDir, rel, bytes);
}

/** Writes `rel` (plain segments) in the turn directory as a new file, never through a link. */
async function writeInto(turnDir: string, rel: string, data: string | Uint8Array): Promise<void> {
  const slash = rel.lastIndexOf("/");
  const dir = slash < 0 ? turnDir : await realDirUnder(turnDir, rel.slice(0, slash));
  await writeFresh(`${dir}/${rel.slice(slash + 1)}`, data);
}

async function head(path: string, bytes = 65536): Promise<string> {
  try {
    const f = await Deno.open(path);
    try {
      const buf = new Uint8Array(bytes);
      const n = await f.read(buf) ?? 0;
      return new TextDecoder().decode(buf.subarray(0, n));
    } finally {
      f.close();
    }
  } catch {
    return "";
  }
}

function home(env: Record<string, string | undefined>): string {
  return env.HOME ?? Deno.env.get("HOME") ?? "/root";
}

/** Claude Code's project directory name for a working directory (`/`, `.`, `:`, `\` → `-`). */
export function claudeProjectDir(cwd: string): string {
  return cwd.replace(/[/.:\\]/g, "-");
}

const claude: Preset = {
  name: "claude-code",
  harness: "claude-code",
  command:
    `claude -p ${PROMPT} --output-format stream-json --verbose --permission-mode bypassPermissions --session-id {session_id}`,
  env: () => ({}),
  async collect(c) {
    const base = `${c.env.CLAUDE_CONFIG_DIR ?? `${home(c.env)}/.claude`}/projects`;
    let main = `${base}/${claudeProjectDir(c.workspace)}/${c.sessionId}.jsonl`;
    if (!(await exists(main))) {
      // another project-directory spelling: find the session by its id
      const found = await findFiles(base, new RegExp(`^${c.sessionId}\\.jsonl$`), 1);
      if (!found.length) return [];
      main = found[0];
    }
    const out = ["log.jsonl"];
    await copyInto(main, c.turnDir, "log.jsonl");
    // sub-agents (2.1.x): <sessionId>/subagents/agent-*.jsonl (+ .meta.json) beside the session
    const subDir = `${main.slice(0, -".jsonl".length)}/subagents`;
    for (const f of await findFiles(subDir, /\.(jsonl|json)$/, 0)) {
      const rel = `${c.sessionId}/subagents/${f.slice(subDir.length + 1)}`;
      await copyInto(f, c.turnDir, rel);
      out.push(rel);
    }
    return out;
  },
};

/** The `session_meta` payload of a Codex rollout (enveloped or bare first line). */
async function codexMeta(path: string): Promise<Record<string, unknown> | undefined> {
  const first = (await head(path)).split("\n")[0];
  try {
    const o = JSON.parse(first);
    return o?.type === "session_meta" ? o.payload : o;
  } catch {
    return undefined;
  }
}

const codex: Preset = {
  name: "codex",
  harness: "codex",
  command:
    `codex exec --json --skip-git-repo-check --sandbox workspace-write -C {workspace} ${PROMPT}`,
  env: () => ({}),
  async collect(c) {
    const root = `${c.env.CODEX_HOME ?? `${home(c.env)}/.codex`}/sessions`;
    const fresh = await since(await findFiles(root, /^rollout-.*\.jsonl$/), c.startedMs);
    const metas: { file: string; id?: string; parent?: string; cwd?: string }[] = [];
    for (const f of fresh) {
      const m = await codexMeta(f);
      if (!m) continue;
      const src = m.source as Record<string, unknown> | undefined;
      const spawn = (src?.subagent as Record<string, unknown> | undefined)?.thread_spawn as
        | Record<string, unknown>
        | undefined;
      metas.push({
        file: f,
        id: typeof m.id === "string" ? m.id : undefined,
        parent: typeof spawn?.parent_thread_id === "string" ? spawn.parent_thread_id : undefined,
        cwd: typeof m.cwd === "string" ? m.cwd : undefined,
      });
    }
    const main = metas.find((m) => !m.parent && (m.cwd === c.workspace || m.cwd === undefined));
    if (!main) return [];
    await copyInto(main.file, c.turnDir, "log.jsonl");
    const out = ["log.jsonl"];
    // sub-agent rollouts: linked by their parent thread id (any depth)
    const ids = new Set([main.id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const m of metas) {
        if (m.parent && ids.has(m.parent) && !ids.has(m.id)) {
          ids.add(m.id);
          const rel = `subagents/${m.file.slice(m.file.lastIndexOf("/") + 1)}`;
          await copyInto(m.file, c.turnDir, rel);
          out.push(rel);
          grew = true;
        }
      }
    }
    return out;
  },
};

async function sha256Hex(s: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const gemini: Preset = {
  name: "gemini",
  harness: "gemini-cli",
  command: `gemini -p ${PROMPT} --approval-mode yolo --output-format json`,
  env: () => ({}),
  async collect(c) {
    const tmp = `${home(c.env)}/.gemini/tmp`;
    const fresh = await since(await findFiles(tmp, /^session-.*\.jsonl?$/, 3), c.startedMs);
    if (!fresh.length) return [];
    // this workspace's session: its project hash (sha256 of the root) or the path in the text
    const hash = await sha256Hex(c.workspace);
    const mine: string[] = [];
    for (const f of fresh) {
      const t = await head(f);
      if (t.includes(hash) || t.includes(c.workspace)) mine.push(f);
    }
    const pick = (mine.length ? mine : fresh).sort()[0];
    const bundled = await bundleLog(pick);
    if (bundled !== undefined) {
      await writeInto(c.turnDir, "log.json", bundled);
      return ["log.json"];
    }
    const name = pick.endsWith(".jsonl") ? "log.jsonl" : "log.json";
    await copyInto(pick, c.turnDir, name);
    return [name];
  },
};

const opencode: Preset = {
  name: "opencode",
  harness: "opencode",
  command: `opencode run --format json ${PROMPT}`,
  env: () => ({}),
  async collect(c) {
    // the export holds every part of the session; the printed JSONL is the fallback
    const id = c.stdout.match(/"sessionID"\s*:\s*"(ses_[A-Za-z0-9]+)"/)?.[1];
    if (id) {
      try {
        const r = await new Deno.Command("opencode", {
          args: ["export", id],
          cwd: c.workspace,
          env: c.env as Record<string, string>,
          stdout: "piped",
          stderr: "null",
        }).output();
        const text = new TextDecoder().decode(r.stdout).trim();
        const json = text.slice(text.indexOf("{"));
        if (r.success && json) {
          JSON.parse(json);
          await writeInto(c.turnDir, "log.json", json + "\n");
          return ["log.json"];
        }
      } catch {
        // no export: keep the stream
      }
    }
    const lines = c.stdout.split("\n").filter((l) => l.trim().startsWith("{"));
    if (!lines.length) return [];
    await writeInto(c.turnDir, "log.jsonl", lines.join("\n") + "\n");
    return ["log.jsonl"];
  },
};

const openhands: Preset = {
  name: "openhands",
  harness: "openhands",
  command: `openhands --headless --json --override-with-envs -f {prompt_file}`,
  env: ({ scratch }) => ({ OPENHANDS_CONVERSATIONS_DIR: `${scratch}/conversations` }),
  async collect(c) {
    const dirs: string[] = [];
    for (
      const root of [`${c.scratch}/conversations`, `${home(c.env)}/.openhands/conversations`]
    ) {
      try {
        for await (const e of Deno.readDir(root)) if (e.isDirectory) dirs.push(`${root}/${e.name}`);
      } catch {
        // none there
      }
      if (dirs.length) break;
    }
    let best: { dir: string; t: number } | undefined;
    for (const d of dirs) {
      const t = await statMs(`${d}/events`) ?? await statMs(d);
      if (t !== undefined && t >= c.startedMs - 1000 && (!best || t > best.t)) best = { dir: d, t };
    }
    if (!best) return [];
    const bundled = await bundleLog(best.dir);
    if (bundled === undefined) return [];
    await writeInto(c.turnDir, "log.json", bundled);
    return ["log.json"];
  },
};

const aider: Preset = {
  name: "aider",
  harness: "aider",
  command:
    `aider --message-file {prompt_file} --yes-always --no-git --no-auto-commits --no-stream --no-pretty --no-check-update --no-show-model-warnings --llm-history-file {log_dir}/log.llm.history --chat-history-file {scratch}/aider.chat.history.md --input-history-file {scratch}/aider.input.history`,
  env: () => ({}),
  async collect(c) {
    return (await exists(`${c.turnDir}/log.llm.history`)) ? ["log.llm.history"] : [];
  },
};

const mini: Preset = {
  name: "mini",
  harness: "mini-swe-agent",
  command: `mini -t ${PROMPT} --yolo --exit-immediately -o {log_dir}/log.traj.json`,
  env: () => ({}),
  async collect(c) {
    return (await exists(`${c.turnDir}/log.traj.json`)) ? ["log.traj.json"] : [];
  },
};

const PRESETS: Record<AgentPreset, Preset> = {
  "claude-code": claude,
  codex,
  gemini,
  opencode,
  openhands,
  aider,
  mini,
};

/**
 * The preset of a name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentPreset } from "./presets.ts";
 * assert.ok(agentPreset("codex").command.startsWith("codex exec --json"));
 * assert.ok(agentPreset("aider").command.includes("--llm-history-file {log_dir}/log.llm.history"));
 * ```
 */
export function agentPreset(name: AgentPreset): Preset {
  return PRESETS[name];
}

/**
 * The program a preset runs (the first word of its command line), which must be on `PATH`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentPreset, presetProgram } from "./presets.ts";
 * assert.equal(presetProgram(agentPreset("claude-code")), "claude");
 * ```
 */
export function presetProgram(p: Preset): string {
  return p.command.split(" ")[0];
}

/**
 * A preset's command template with extra user arguments appended (e.g. `--model x`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentPreset, presetCommand } from "./presets.ts";
 * assert.ok(presetCommand(agentPreset("mini"), "-m gpt-5").endsWith("log.traj.json -m gpt-5"));
 * ```
 */
export function presetCommand(p: Preset, extra?: string): string {
  return extra?.trim() ? `${p.command} ${extra.trim()}` : p.command;
}

/**
 * Runs a preset's `collect` after the agent stopped; a failure or a missing log is reported with
 * `log` (the turn is still scored, listed as missing its log), never thrown.
 */
export async function collectPresetLogs(
  p: Preset,
  c: CollectContext,
  log: (line: string) => void,
): Promise<string[]> {
  try {
    const files = await p.collect(c);
    if (!files.length) log(`no ${p.harness} session log found for this turn`);
    else log(`copied ${p.harness} log: ${files.join(", ")}`);
    return files;
  } catch (e) {
    log(`could not copy the ${p.harness} session log: ${e instanceof Error ? e.message : e}`);
    return [];
  }
}
