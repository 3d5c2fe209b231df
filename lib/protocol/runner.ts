/**
 * The protocol runner (paper Appendix A.1): each chain runs in its own prepared workspace, turns in
 * order. Per turn the requirement is rendered for the memory setting, wrapped in the delivery
 * instructions and handed to a fresh agent process (a user-given command template) under a
 * wall-time limit (the process group is killed on timeout). When the agent stops, the file at the
 * required path is read back, the hidden tests are copied in, run from a temporary directory with
 * a timeout and removed. A failed turn does not end the chain. Everything is recorded in the
 * run-log layout (docs/run-logs.md): `runs/<config>/<chain>/turn<N>/` holds the agent's log,
 * `submission.py`, `results.json` and `meta.json`, so `score` consumes it directly.
 *
 * Command-template placeholders (values are shell-quoted): `{prompt_file}` (the full prompt),
 * `{requirement_file}`, `{workspace}`, `{submit_path}` (absolute), `{submit_to}` (relative),
 * `{module}`, `{turn}`, `{chain}`, `{memory}`, `{log_dir}` (the turn's run directory: an agent
 * writes its log there as `log.json`, `log.jsonl` or `log.traj`). The same values are exported
 * as `REPOREUSE_<NAME>` environment variables.
 *
 * @module
 */
import { runProcess } from "../util/process.ts";
import { shellQuote } from "../util/text.ts";
import { exists, readBounded } from "../util/fs.ts";
import { runHiddenTests, type TestCase } from "./hidden.ts";
import { collectPresetLogs, type Preset, presetCommand } from "./presets.ts";
import { prepareWorkspace } from "./prepare.ts";
import {
  type Memory,
  renderPrompt,
  renderRequirement,
  type SubmittedSource,
  type TurnSpec,
  withMemory,
} from "./requirement.ts";

/** A configuration (runs/<config>/config.json). */
export interface RunConfig {
  harness: string;
  model: string;
  memory: Memory;
  /** Working directory as the agent's log shows it (default: the real workspace path). */
  cwd?: string;
}

/** Options of {@link runProtocol}. */
export interface RunOptions {
  /** Corpus directory holding `tasks/`; runs go to `<corpus>/runs/<configName>/`. */
  corpus: string;
  config: RunConfig;
  /** Directory name under runs/ (default `<harness>__<model>__<memory>`, unsafe characters replaced). */
  configName?: string;
  /** Agent command template, run with `bash -c` (unused when `preset` is given). */
  agent?: string;
  /** A harness preset (lib/protocol/presets.ts): its command line and log collection. */
  preset?: Preset;
  /** Extra arguments appended to the preset's command line (shell words). */
  agentArgs?: string;
  /** Extra environment for the agent process (e.g. HOME, API keys). */
  env?: Record<string, string>;
  /** Chains to run (default: all under tasks/). */
  chains?: string[];
  /** Wall-time limit per turn in seconds (default 2400). */
  wallTimeS?: number;
  /** Hidden-test timeout in seconds (default 600). */
  testTimeS?: number;
  python?: string;
  /**
   * Most bytes kept of the agent's stdout and of its stderr (default 32 MiB each); beyond it the
   * head and tail are kept with a note of the cut, and meta.json records how much was cut.
   */
  maxOutputBytes?: number;
  /** Where chain workspaces are created (default: a temporary directory, removed afterwards). */
  workRoot?: string;
  log?: (line: string) => void;
}

/** What one turn produced. */
export interface TurnOutcome {
  chain: string;
  turn: number;
  submitted: boolean;
  passed: number;
  cases: number;
  timedOut: boolean;
  exitCode: number;
  seconds: number;
}

interface ChainJson {
  chain?: string;
  repo: { workspace: string; package: string };
  turns: (TurnSpec & { goal?: string })[];
}

/** Shell-quotes a value for bash (lib/util/text.ts). */
export { shellQuote };

/** Fills a command template's `{name}` placeholders with shell-quoted values. */
export function fillCommand(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, name) => {
    if (!(name in values)) {
      throw new Error(
        `agent command: unknown placeholder ${m} (known: ${Object.keys(values).join(", ")})`,
      );
    }
    return shellQuote(values[name]);
  });
}

/** Default configuration directory name. */
export function configDirName(c: RunConfig): string {
  return `${c.harness}__${c.model}__${c.memory}`.replace(/[^A-Za-z0-9._-]+/g, "-");
}

/** Runs the agent on every turn of the chains and records the runs. */
export async function runProtocol(opts: RunOptions): Promise<TurnOutcome[]> {
  const log = opts.log ?? (() => {});
  const given = opts.corpus.replace(/\/+$/, "");
  // absolute: the agent runs in the workspace, and {log_dir} must point back here
  const corpus = given.startsWith("/") ? given : `${Deno.cwd()}/${given}`;
  const configName = opts.configName ?? configDirName(opts.config);
  const runDir = `${corpus}/runs/${configName}`;
  await Deno.mkdir(runDir, { recursive: true });
  const root = opts.workRoot ?? await Deno.makeTempDir({ prefix: "reporeuse-run-" });
  // Every chain runs in the same workspace path (one after the other), so the paths in the
  // agents' logs all start with config.cwd.
  const config = { ...opts.config, cwd: opts.config.cwd ?? `${root}/workspace` };
  await Deno.writeTextFile(`${runDir}/config.json`, JSON.stringify(config, null, 2) + "\n");
  let chains = opts.chains;
  if (!chains) {
    chains = [];
    for await (const e of Deno.readDir(`${corpus}/tasks`)) if (e.isDirectory) chains.push(e.name);
    chains.sort();
  }
  const outcomes: TurnOutcome[] = [];
  try {
    for (const chain of chains) {
      outcomes.push(...await runChain(chain, corpus, runDir, root, opts, log));
    }
  } finally {
    if (!opts.workRoot) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  return outcomes;
}

async function runChain(
  chain: string,
  corpus: string,
  runDir: string,
  root: string,
  opts: RunOptions,
  log: (line: string) => void,
): Promise<TurnOutcome[]> {
  const chainDir = `${corpus}/tasks/${chain}`;
  const file = `${chainDir}/chain.json`;
  let spec: ChainJson;
  try {
    spec = JSON.parse(await Deno.readTextFile(file));
  } catch (e) {
    throw new Error(`${file}: cannot read the chain (${(e as Error).message})`);
  }
  if (!spec?.repo?.workspace || !spec.repo.package || !Array.isArray(spec.turns)) {
    throw new Error(`${file}: needs repo.workspace, repo.package and turns`);
  }
  for (const [i, t] of spec.turns.entries()) {
    const ok = t && typeof t.module === "string" && typeof t.path === "string" &&
      Array.isArray(t.functions) && t.functions.every((f) => typeof f?.name === "string");
    if (!ok) throw new Error(`${file}: turns[${i}] needs module, path and functions with names`);
  }
  const w0 = spec.repo.workspace.startsWith("/")
    ? spec.repo.workspace
    : `${chainDir}/${spec.repo.workspace}`;
  // every turn's test cases are readable before any agent runs
  const allCases = await Promise.all(
    spec.turns.map((t, i) => readCases(`${chainDir}/turn${t.turn ?? i + 1}/tests.json`)),
  );
  const ws = `${root}/workspace`;
  await Deno.remove(ws, { recursive: true }).catch(() => {});
  log(`${chain}: preparing the workspace from ${w0}`);
  await prepareWorkspace(w0, ws, { package: spec.repo.package, python: opts.python });
  const outcomes: TurnOutcome[] = [];
  const sources: SubmittedSource[] = [];
  for (const [i, turn] of spec.turns.entries()) {
    const n = turn.turn ?? i + 1;
    const turnDir = `${runDir}/${chain}/turn${n}`;
    await Deno.remove(turnDir, { recursive: true }).catch(() => {});
    await Deno.mkdir(turnDir, { recursive: true });
    // the chain's own requirement text when it has no goal to render from
    const written = turn.goal
      ? null
      : await Deno.readTextFile(`${chainDir}/turn${n}/requirement.md`)
        .catch(() => null);
    const requirement = written === null
      ? renderRequirement(turn, opts.config.memory, spec.turns.slice(0, i), sources)
      : withMemory(written, opts.config.memory, spec.turns.slice(0, i), sources);
    const submitPath = `${ws}/${turn.path}`;
    const prompt = renderPrompt(requirement, {
      workdir: ws,
      submitTo: turn.path,
      module: turn.module,
    });
    const inputs = `${root}/inputs/${chain}/turn${n}`;
    await Deno.mkdir(inputs, { recursive: true });
    await Deno.writeTextFile(`${inputs}/requirement.md`, requirement);
    await Deno.writeTextFile(`${inputs}/prompt.md`, prompt);
    await Deno.writeTextFile(`${turnDir}/prompt.md`, prompt);
    const values: Record<string, string> = {
      prompt_file: `${inputs}/prompt.md`,
      requirement_file: `${inputs}/requirement.md`,
      workspace: ws,
      submit_path: submitPath,
      submit_to: turn.path,
      module: turn.module,
      turn: String(n),
      chain,
      memory: opts.config.memory,
      log_dir: turnDir,
      scratch: `${root}/scratch/${chain}/turn${n}`,
      session_id: crypto.randomUUID(),
    };
    await Deno.mkdir(values.scratch, { recursive: true });
    const env: Record<string, string> = { ...opts.env };
    if (opts.preset) {
      Object.assign(
        env,
        opts.preset.env({ scratch: values.scratch, sessionId: values.session_id }),
      );
    }
    for (const [k, v] of Object.entries(values)) env[`REPOREUSE_${k.toUpperCase()}`] = v;
    const template = opts.preset ? presetCommand(opts.preset, opts.agentArgs) : opts.agent ?? "";
    log(`${chain} turn ${n}: running the agent`);
    const startedMs = Date.now();
    const r = await runProcess(["bash", "-c", fillCommand(template, values)], {
      cwd: ws,
      env,
      timeoutMs: (opts.wallTimeS ?? 2400) * 1000,
      maxOutputBytes: opts.maxOutputBytes,
      contain: true, // nothing the agent starts outlives its turn (lib/util/contain.ts)
    });
    // before anything is written there: the agent may have planted links in its log directory
    const problems = await dropOutsideLinks(turnDir, runDir);
    await writeFresh(`${turnDir}/agent-stdout.txt`, r.stdout);
    await writeFresh(`${turnDir}/agent-stderr.txt`, r.stderr);
    if (r.timedOut) {
      log(`${chain} turn ${n}: the agent timed out after ${opts.wallTimeS ?? 2400} s`);
    }
    for (const stream of ["stdout", "stderr"] as const) {
      if (r.cut[stream]) {
        log(
          `${chain} turn ${n}: ${r.cut[stream]} bytes of agent ${stream} cut (head and tail kept)`,
        );
      }
    }
    if (opts.preset) {
      await collectPresetLogs(opts.preset, {
        turnDir,
        workspace: ws,
        scratch: values.scratch,
        sessionId: values.session_id,
        env: { ...Deno.env.toObject(), ...env },
        startedMs,
        stdout: r.stdout,
      }, (line) => log(`${chain} turn ${n}: ${line}`));
    } else if (!r.cut.stdout) await adoptStdoutLog(turnDir, r.stdout); // a cut stdout is no whole log
    const read = await readSubmission(ws, turn.path);
    if (read.problem) problems.push(read.problem);
    for (const p of problems) log(`${chain} turn ${n}: ${p}`);
    const submission = read.source;
    sources.push({ turn: n, module: turn.module, path: turn.path, source: submission });
    const cases = allCases[i];
    let passed = 0;
    if (submission !== null) {
      await writeFresh(`${turnDir}/submission.py`, submission);
      const tests = await runHiddenTests(
        ws,
        turn.module,
        turn.functions.map((f) => f.name),
        cases,
        { python: opts.python, timeoutMs: (opts.testTimeS ?? 600) * 1000 },
      );
      passed = tests.results.filter((x) => x.passed).length;
      await writeFresh(
        `${turnDir}/results.json`,
        JSON.stringify({ cases: tests.results }, null, 2) + "\n",
      );
    }
    const meta = {
      seconds: Math.round(r.seconds * 10) / 10,
      exit_code: r.code,
      timed_out: r.timedOut,
      submitted: submission !== null,
      ...(r.cut.stdout || r.cut.stderr ? { output_cut: r.cut } : {}),
      ...(problems.length ? { problems } : {}),
    };
    await writeFresh(`${turnDir}/meta.json`, JSON.stringify(meta, null, 2) + "\n");
    log(
      `${chain} turn ${n}: ${
        submission === null ? "no submission" : `${passed}/${cases.length} passed`
      }`,
    );
    outcomes.push({
      chain,
      turn: n,
      submitted: submission !== null,
      passed,
      cases: cases.length,
      timedOut: r.timedOut,
      exitCode: r.code,
      seconds: r.seconds,
    });
  }
  return outcomes;
}

/** Largest submission read back: 16 MiB (a module is a few KB; more is an agent gone wrong). */
export const MAX_SUBMISSION_BYTES = 16 * 2 ** 20;

/**
 * The submitted file at `rel` in the workspace, read only when it really lies inside the
 * workspace: a path that is (or passes through) a symbolic link out of it counts as no
 * submission, with the reason, and is never read.
 */
export async function readSubmission(
  workspace: string,
  rel: string,
): Promise<{ source: string | null; problem?: string }> {
  const path = `${workspace}/${rel}`;
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch {
    return { source: null }; // nothing there (or a dangling link): no submission
  }
  const root = await Deno.realPath(workspace);
  if (!real.startsWith(`${root}/`)) {
    return {
      source: null,
      problem: `${rel} leads out of the workspace (to ${real}); not read, counted as no submission`,
    };
  }
  try {
    return { source: new TextDecoder().decode(readBounded(real, MAX_SUBMISSION_BYTES)) };
  } catch (e) {
    return { source: null, problem: `${rel}: ${(e as Error).message}; counted as no submission` };
  }
}

/** Writes a file the runner owns, replacing whatever the agent put at that name (never through a link). */
async function writeFresh(path: string, text: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {});
  await Deno.writeTextFile(path, text, { createNew: true });
}

/**
 * Removes symbolic links the agent left in its turn directory that lead out of the configuration's
 * run directory (a log linked to /etc/passwd would copy that file into the corpus); returns one
 * line per removed link.
 */
async function dropOutsideLinks(dir: string, runDir: string): Promise<string[]> {
  const problems: string[] = [];
  const root = await Deno.realPath(runDir);
  const walk = async (d: string): Promise<void> => {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isSymlink) {
        const real = await Deno.realPath(p).catch(() => null);
        if (real === null || !real.startsWith(`${root}/`)) {
          await Deno.remove(p);
          problems.push(
            `removed ${p.slice(dir.length + 1)}: a link ${
              real === null ? "to nothing" : `out of the run directory (to ${real})`
            }`,
          );
        }
      } else if (e.isDirectory) await walk(p);
    }
  };
  await walk(dir);
  return problems;
}

/** When the agent wrote no log file but printed JSON (e.g. `opencode run --format json`), keep it as the log. */
async function adoptStdoutLog(turnDir: string, stdout: string): Promise<void> {
  for (const name of ["log.json", "log.jsonl", "log.traj", "log.traj.json"]) {
    if (await exists(`${turnDir}/${name}`)) return;
  }
  const text = stdout.trim();
  if (!text) return;
  try {
    JSON.parse(text);
    await Deno.writeTextFile(`${turnDir}/log.json`, text + "\n");
    return;
  } catch {
    // not one JSON document
  }
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.every((l) => l.trim().startsWith("{"))) {
    try {
      lines.forEach((l) => JSON.parse(l));
      await Deno.writeTextFile(`${turnDir}/log.jsonl`, text + "\n");
    } catch {
      // not JSONL either: no log
    }
  }
}

async function readCases(file: string): Promise<TestCase[]> {
  let cases: unknown;
  try {
    cases = JSON.parse(await Deno.readTextFile(file)).cases;
  } catch (e) {
    throw new Error(`${file}: cannot read test cases (${(e as Error).message.split("\n")[0]})`);
  }
  if (!Array.isArray(cases)) throw new Error(`${file}: "cases" must be a list`);
  return cases as TestCase[];
}
