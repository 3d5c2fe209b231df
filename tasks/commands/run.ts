/**
 * `deno task reporeuse run` — runs an agent on a corpus's task chains under the paper's protocol
 * (Appendix A.1) and records the runs in the run-log layout.
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { isPlainSegment } from "../../lib/util/mod.ts";
import {
  AGENT_PRESETS,
  agentPreset,
  configDirName,
  isAgentPreset,
  type Memory,
  type Preset,
  presetHelp,
  runProtocol,
} from "../../lib/protocol/mod.ts";

export const summary =
  "run an agent on task chains under the protocol and record its runs (App. A)";

export const help =
  `Usage: deno task reporeuse run <corpus> --agent '<command template>' --harness <h> --model <m> [options]

Runs an agent on every turn of the corpus's chains (tasks/<chain>/) following the paper's
protocol (Appendix A.1): the workspace is prepared from W0 (git history and test files
removed, the package must still import); per turn the requirement is rendered for the memory
setting (Appendix A.3/B.2) and a fresh agent process is started under a wall-time limit
(its process group is killed on timeout); the file at the required path is read back; the
hidden tests are copied in only after the agent stops, run from a temporary directory and
removed. A failed turn does not end the chain. Runs are written to
<corpus>/runs/<config>/<chain>/turn<N>/ (agent log, submission.py, results.json, meta.json),
ready for \`deno task reporeuse score <corpus>\`.

The agent is treated as hostile (docs/security.md). No process it starts outlives its turn
(it runs as PID 1 of its own PID namespace, else under a subreaper that kills its whole tree).
Links are never followed out of the workspace: a submission that is (or passes through) a link
out of it counts as no submission, and links the agent leaves in its log directory that lead out
of the run directory are removed; a log directory (or a directory above it) the agent replaced by
a link is made a real directory again, nothing written through the link; meta.json "problems"
says which. The agent's stdout and stderr are kept up to 32 MiB each (the head and the tail,
with a note of the cut; meta.json "output_cut" counts the bytes cut).

Exit status: 0 when every turn ran; 1 when the run could not go on (the preset's program is not
on PATH, the agent command is not found, runs/<config> is a link); 2 on a usage error (--config
and --chain take one plain directory name each).

The agent command is run with bash in the workspace. Placeholders (shell-quoted), also exported
as REPOREUSE_<NAME> environment variables:
  {prompt_file}       the full prompt (delivery instructions + requirement), a file
  {requirement_file}  the requirement alone, a file
  {workspace}         the workspace root (the agent's working directory)
  {submit_path}       absolute path of the file to create; {submit_to}: the same, workspace-relative
  {module}            its importable module name
  {log_dir}           the turn's run directory: write the agent's log there as log.json, log.jsonl
                      or log.traj (JSON printed on stdout is kept as the log when no file is written)
  {turn} {chain} {memory}

Presets (--agent NAME): the harness's own non-interactive command line, given the prompt and run
in the workspace; after it stops, the session log(s) it wrote — sub-agents included — are copied
into the turn directory (docs/harnesses.md says where each is found):
${presetHelp()}
Model, provider and keys are the harness's own settings (environment, config files); add flags
with --agent-args, e.g. --agent codex --agent-args '-m gpt-5'.

Options:
  --agent <template|preset>  agent command template, or one of the presets above (required)
  --agent-args <flags>   extra arguments appended to a preset's command line
  --harness <name>       harness name for config.json (required for a template; a preset
                         records its reader's harness name, e.g. codex, gemini-cli)
  --model <name>         model name for config.json (required)
  --memory <m>           none | interface | source (default interface)
  --config <name>        directory name under runs/ (default <harness>__<model>__<memory>)
  --chain <id>           run only this chain (repeatable)
  --wall-time <s>        wall-time limit per turn (default 2400)
  --test-timeout <s>     hidden-test timeout (default 600)
  --python <path>        interpreter used for the import check and hidden tests
                         (default $REPOREUSE_PYTHON or python3)
  --work-root <dir>      where the workspace is created (default: a temporary directory); the
                         workspace is <dir>/workspace and is recorded as config.json "cwd"
  --cwd <dir>            record this as config.json "cwd" instead (the workspace path the agent's
                         logs show, e.g. /testbed when the agent runs in a container)
  -h, --help             this help

Example:
  deno task reporeuse run data/sample --harness demo --model none --memory interface \\
    --python /usr/bin/python3 --agent 'cp my_solution.py {submit_path}'`;

/** A usage error: one line, exit 2. */
function fail(message: string): number {
  console.error(`reporeuse run: ${message}`);
  return 2;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse run", {
    args,
    options: {
      agent: { type: "string" },
      "agent-args": { type: "string" },
      harness: { type: "string" },
      model: { type: "string" },
      memory: { type: "string" },
      config: { type: "string" },
      chain: { type: "string", multiple: true },
      "wall-time": { type: "string" },
      "test-timeout": { type: "string" },
      python: { type: "string" },
      "work-root": { type: "string" },
      cwd: { type: "string" },
    },
    allowPositionals: true,
  }, " (see --help)");
  if (!parsed) return 2;
  const v = parsed.values;
  if (parsed.positionals.length !== 1) return fail("expected one corpus directory (see --help)");
  const corpus = parsed.positionals[0];
  if (!v.agent) return fail("--agent is required (see --help)");
  const preset: Preset | undefined = isAgentPreset(v.agent) ? agentPreset(v.agent) : undefined;
  if (v["agent-args"] !== undefined && !preset) {
    return fail(`--agent-args needs a preset --agent (${AGENT_PRESETS.join(", ")})`);
  }
  const harness = v.harness ?? preset?.harness;
  if (!harness) return fail("--harness is required (see --help)");
  if (!v.model) return fail("--model is required (see --help)");
  const memory = (v.memory ?? "interface") as Memory;
  if (!["none", "interface", "source"].includes(memory)) {
    return fail(`--memory must be none, interface or source (got ${JSON.stringify(v.memory)})`);
  }
  const seconds = (name: string, raw: string | undefined, dflt: number): number | string => {
    if (raw === undefined) return dflt;
    const n = Number(raw);
    return Number.isFinite(n) && n > 0 ? n : `--${name} must be a positive number of seconds`;
  };
  const wall = seconds("wall-time", v["wall-time"], 2400);
  const testTime = seconds("test-timeout", v["test-timeout"], 600);
  if (typeof wall === "string") return fail(wall);
  if (typeof testTime === "string") return fail(testTime);
  for (
    const [flag, names] of [["--config", v.config ? [v.config] : []], [
      "--chain",
      v.chain ?? [],
    ]] as const
  ) {
    for (const name of names) {
      if (!isPlainSegment(name)) {
        return fail(
          `${flag} ${JSON.stringify(name)}: one plain directory name (no '/', not '.' or '..')`,
        );
      }
    }
  }
  try {
    if (!(await Deno.stat(`${corpus}/tasks`)).isDirectory) throw new Error();
  } catch {
    return fail(`${corpus}: no tasks/ directory (not a corpus)`);
  }
  const config = { harness, model: v.model, memory, ...(v.cwd ? { cwd: v.cwd } : {}) };
  try {
    const outcomes = await runProtocol({
      corpus,
      config,
      configName: v.config ?? configDirName(config),
      agent: preset ? undefined : v.agent,
      preset,
      agentArgs: v["agent-args"],
      chains: v.chain,
      wallTimeS: wall,
      testTimeS: testTime,
      python: v.python,
      workRoot: v["work-root"],
      log: (line) => console.error(line),
    });
    const passed = outcomes.reduce((s, o) => s + o.passed, 0);
    const cases = outcomes.reduce((s, o) => s + o.cases, 0);
    const timeouts = outcomes.filter((o) => o.timedOut).length;
    const missing = outcomes.filter((o) => !o.submitted).length;
    console.log(
      `ran ${outcomes.length} turns: ${passed}/${cases} cases passed, ${missing} without submission, ${timeouts} agent timeouts → ${corpus}/runs/${
        v.config ?? configDirName(config)
      }`,
    );
    return 0;
  } catch (e) {
    // the run could not go on (a missing agent program, a corpus that is not one): exit 1
    console.error(`reporeuse run: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  }
}
