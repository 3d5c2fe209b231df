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
 * The presets themselves live with their readers (the `run` of each reader in the registry,
 * lib/logs/readers/): adding a harness adds its preset.
 *
 * @module
 */
import { type CollectContext, READERS, type RunPreset } from "../logs/mod.ts";

export type { CollectContext };
export { claudeProjectDir } from "../logs/mod.ts";

/** A harness preset (each reader's `run` in the registry, lib/logs/readers/). */
export type Preset = RunPreset;

const PRESETS: ReadonlyMap<string, Preset> = new Map(
  READERS.flatMap((r) => r.run ? [[r.run.name, r.run] as const] : []),
);

/** The preset names of `--agent`: every reader of the registry with a `run` preset. */
export const AGENT_PRESETS: readonly string[] = [...PRESETS.keys()];
/** One of {@link AGENT_PRESETS}. */
export type AgentPreset = string;

/** True when an `--agent` value names a preset rather than a command template. */
export function isAgentPreset(v: string): v is AgentPreset {
  return PRESETS.has(v);
}

/**
 * The `run --help` lines of the presets, indented as the help text lists them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presetHelp } from "./presets.ts";
 * assert.match(presetHelp(), /^  claude-code +claude -p "<prompt>"/m);
 * ```
 */
export function presetHelp(): string {
  const width = Math.max(...AGENT_PRESETS.map((n) => n.length)) + 2;
  return [...PRESETS.values()].map((p) =>
    p.help.split("\n").map((l, i) => `  ${(i ? "" : p.name).padEnd(width)} ${l}`).join("\n")
  ).join("\n");
}

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
  const p = PRESETS.get(name);
  if (!p) throw new Error(`unknown agent preset ${name} (one of ${AGENT_PRESETS.join(", ")})`);
  return p;
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
