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
import {
  exists,
  findExecutable,
  isPlainSegment,
  linkOnPath,
  readBounded,
  realDirUnder,
  removeIfPresent,
  runProcess,
  shellQuote,
  writeFresh,
} from "../util/mod.ts";
import { runHiddenTests, type TestCase } from "./hidden.ts";
import { collectPresetLogs, type Preset, presetCommand, presetProgram } from "./presets.ts";
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

/**
 * Runs the agent on every turn of the chains and records the runs. Throws an Error (one line)
 * before any agent runs when the configuration name or a chain is not one plain directory name,
 * when a preset's program is not on `PATH`, or when `runs/` or `runs/<config>` is a symbolic link;
 * and during the run when the agent command is not found (bash's exit 127).
 *
 * Nothing is written through a link: every directory the runner writes into is checked component
 * by component after the agent (and the hidden tests, which run its code) stopped — every process
 * they started is gone by then (lib/util/contain.ts), so nothing changes behind the checks — and a
 * link found in the way is removed (never followed) and listed in meta.json "problems".
 */
export async function runProtocol(opts: RunOptions): Promise<TurnOutcome[]> {
  const log = opts.log ?? (() => {});
  const configName = opts.configName ?? configDirName(opts.config);
  if (!isPlainSegment(configName)) {
    throw new Error(
      `configuration name ${
        JSON.stringify(configName)
      } is not one plain directory name (no '/', not '.' or '..'): runs go to runs/<config>/`,
    );
  }
  for (const chain of opts.chains ?? []) {
    if (!isPlainSegment(chain)) {
      throw new Error(`chain ${JSON.stringify(chain)} is not one plain directory name of tasks/`);
    }
  }
  if (opts.preset) {
    const program = presetProgram(opts.preset);
    if (!findExecutable(program, opts.env?.PATH ?? Deno.env.get("PATH") ?? "")) {
      throw new Error(
        `the ${opts.preset.name} preset runs '${program}', which is not on PATH: install it, or give --agent a command template`,
      );
    }
  }
  const given = opts.corpus.replace(/\/+$/, "") || "/";
  // absolute and real: the agent runs in the workspace, and {log_dir} must point back here;
  // every later write checks that no component of this path was replaced by a link
  let corpus: string;
  try {
    corpus = await Deno.realPath(given);
  } catch (e) {
    throw new Error(`${given}: cannot read the corpus (${(e as Error).message.split("\n")[0]})`);
  }
  // links the user made (before any agent ran) are refused rather than replaced
  for (const rel of ["runs", `runs/${configName}`]) {
    // what cannot be lstat'ed is no link
    if ((await Deno.lstat(`${corpus}/${rel}`).catch(() => null))?.isSymlink) {
      throw new Error(
        `${corpus}/${rel} is a symbolic link: run writes only into real directories (remove the link, or choose another --config)`,
      );
    }
  }
  const runDir = await realDirUnder(corpus, `runs/${configName}`);
  const root = await Deno.realPath(
    opts.workRoot
      ? await Deno.mkdir(opts.workRoot, { recursive: true }).then(() => opts.workRoot!)
      : await Deno.makeTempDir({ prefix: "reporeuse-run-" }),
  );
  // Every chain runs in the same workspace path (one after the other), so the paths in the
  // agents' logs all start with config.cwd.
  const config = { ...opts.config, cwd: opts.config.cwd ?? `${root}/workspace` };
  await writeFresh(`${runDir}/config.json`, JSON.stringify(config, null, 2) + "\n");
  let chains = opts.chains;
  if (!chains) {
    chains = [];
    for await (const e of Deno.readDir(`${corpus}/tasks`)) if (e.isDirectory) chains.push(e.name);
    chains.sort();
  }
  const outcomes: TurnOutcome[] = [];
  try {
    for (const chain of chains) {
      outcomes.push(...await runChain(chain, corpus, configName, root, opts, log));
    }
  } finally {
    // best effort: the scratch root of finished runs
    if (!opts.workRoot) await Deno.remove(root, { recursive: true }).catch(() => {});
  }
  return outcomes;
}

async function runChain(
  chain: string,
  corpus: string,
  configName: string,
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
  await removeIfPresent(ws); // a workspace that cannot be cleared must not leak into this turn
  await realDirUnder(root, "workspace"); // a real directory, reached through no link
  log(`${chain}: preparing the workspace from ${w0}`);
  await prepareWorkspace(w0, ws, { package: spec.repo.package, python: opts.python });
  const outcomes: TurnOutcome[] = [];
  const sources: SubmittedSource[] = [];
  const runDir = `${corpus}/runs/${configName}`;
  for (const [i, turn] of spec.turns.entries()) {
    const n = turn.turn ?? i + 1;
    const turnRel = `runs/${configName}/${chain}/turn${n}`;
    const problems: string[] = [];
    /**
     * The turn's run directory, made real: a link found in its place or above it (left by an
     * agent) is removed, never followed, and listed with this turn.
     */
    const checked = async (rel = turnRel) => {
      const replaced: string[] = [];
      const dir = await realDirUnder(corpus, rel, replaced);
      for (const r of replaced) {
        problems.push(`${r} (left by an agent); nothing written through it`);
      }
      return dir;
    };
    const turnDir = `${await checked(`runs/${configName}/${chain}`)}/turn${n}`;
    await removeIfPresent(turnDir);
    await Deno.mkdir(turnDir);
    // the chain's own requirement text when it has no goal to render from
    const written = turn.goal
      ? null
      : await Deno.readTextFile(`${chainDir}/turn${n}/requirement.md`).catch((e) => {
        // no requirement.md: rendered from the spec; one that exists but cannot be read is an error
        if (e instanceof Deno.errors.NotFound) return null;
        throw e;
      });
    const requirement = written === null
      ? renderRequirement(turn, opts.config.memory, spec.turns.slice(0, i), sources)
      : withMemory(written, opts.config.memory, spec.turns.slice(0, i), sources);
    const submitPath = `${ws}/${turn.path}`;
    const prompt = renderPrompt(requirement, {
      workdir: ws,
      submitTo: turn.path,
      module: turn.module,
    });
    const inputs = await realDirUnder(root, `inputs/${chain}/turn${n}`);
    await writeFresh(`${inputs}/requirement.md`, requirement);
    await writeFresh(`${inputs}/prompt.md`, prompt);
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
      scratch: await realDirUnder(root, `scratch/${chain}/turn${n}`),
      session_id: crypto.randomUUID(),
    };
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
    // before anything is written there (every process of the agent is gone): the agent may have
    // replaced its log directory, or a directory above it, by a link, or planted links in it
    await checked();
    problems.push(...await dropOutsideLinks(turnDir, runDir));
    await writeFresh(`${turnDir}/prompt.md`, prompt);
    await writeFresh(`${turnDir}/agent-stdout.txt`, r.stdout);
    await writeFresh(`${turnDir}/agent-stderr.txt`, r.stderr);
    const missing = notFound(r.code, r.stderr);
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
    // a workspace replaced by a link would be read, and tested, wherever it points
    const wsLink = linkOnPath(ws);
    const read = wsLink === null ? await readSubmission(ws, turn.path) : {
      source: null,
      problem:
        `the workspace was replaced (${wsLink} is a link or no directory): no submission read, the chain stops here`,
    };
    if (read.problem) problems.push(read.problem);
    for (const p of problems) log(`${chain} turn ${n}: ${p}`);
    const submission = read.source;
    sources.push({ turn: n, module: turn.module, path: turn.path, source: submission });
    const cases = allCases[i];
    let passed = 0;
    if (submission !== null) {
      await writeFresh(`${await checked()}/submission.py`, submission);
      const tests = await runHiddenTests(
        ws,
        turn.module,
        turn.functions.map((f) => f.name),
        cases,
        { python: opts.python, timeoutMs: (opts.testTimeS ?? 600) * 1000 },
      );
      passed = tests.results.filter((x) => x.passed).length;
      // the tests ran the agent's code: check again before writing
      await writeFresh(
        `${await checked()}/results.json`,
        JSON.stringify({ cases: tests.results }, null, 2) + "\n",
      );
    }
    await checked();
    const meta = {
      seconds: Math.round(r.seconds * 10) / 10,
      exit_code: r.code,
      timed_out: r.timedOut,
      submitted: submission !== null,
      ...(r.cut.stdout || r.cut.stderr ? { output_cut: r.cut } : {}),
      ...(problems.length ? { problems } : {}),
    };
    await writeFresh(`${turnDir}/meta.json`, JSON.stringify(meta, null, 2) + "\n");
    if (missing) throw new Error(`${chain} turn ${n}: ${missing}`);
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
    if (wsLink !== null) {
      log(`${chain} turn ${n}: ${read.problem}`);
      break;
    }
  }
  return outcomes;
}

/**
 * Why an agent command that exited 126 or 127 was not run at all (bash: "command not found",
 * "Permission denied", "No such file or directory" for the command itself), or null.
 */
export function notFound(code: number, stderr: string): string | null {
  if (code !== 127 && code !== 126) return null;
  const line = stderr.split("\n").find((l) =>
    /^bash: (line \d+: )?[^:]+: (command not found|No such file or directory|Permission denied|cannot execute)/
      .test(l)
  );
  return line ? `the agent command could not be run (exit ${code}: ${line})` : null;
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
        // a link that cannot be resolved is refused below
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
    await writeFresh(`${turnDir}/log.json`, text + "\n");
    return;
  } catch {
    // not one JSON document
  }
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.every((l) => l.trim().startsWith("{"))) {
    try {
      lines.forEach((l) => JSON.parse(l));
      await writeFresh(`${turnDir}/log.jsonl`, text + "\n");
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
