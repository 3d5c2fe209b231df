/**
 * `simulateCorpus`: a complete corpus in the `docs/run-logs.md` layout at the paper's scale
 * (75 chains × 5 turns, 10 configurations, 3,750 run turns) or a small one, with planted truth in
 * `truth/targets.csv` and `truth/turns.csv`. Deterministic per seed: the same seed gives
 * byte-identical files.
 *
 * @module
 */
import { Rng } from "./rng.ts";
import { type ConfigCalibration, configId, CONFIGS } from "./calibration.ts";
import { generatePackage, type GenPackage } from "./package.ts";
import { generateChains, reqTurn, type TaskChain } from "./tasks.ts";
import { type SimConfig, type SimTurn, simulateConfig } from "./runs.ts";
import { planTurn, type SimWorkspace, tally } from "./reads.ts";
import { renderMini, renderOpenCode } from "./formats.ts";
import { renderClaude, renderCodex } from "./sessions.ts";
import { csvField as csv, eachLimited, escapeHtml, removeIfPresent } from "../util/mod.ts";
import { REIMPLEMENTATION_MIN_CALLEES, REIMPLEMENTATION_PERCENT } from "../metrics/mod.ts";
import { renderPrompt, renderRequirement, type SubmittedSource } from "../protocol/mod.ts";

/** Corpus size presets. */
export type Scale = "paper" | "small";

/** Options of {@link simulateCorpus}. */
export interface SimulateOptions {
  seed?: number;
  scale?: Scale;
  /**
   * Distinct replicas: with `k` ≥ 2, every configuration is run `k` times, replica `r` ≥ 2 in
   * `runs/<config>~r<r>/` with the model `"<model> r<r>"` (the names of
   * lib/simulate/replicate.ts), its plans, reads, logs and submissions drawn from a random stream
   * of its own: k times the turns, none of them shared (replicateConfigs links the same logs k
   * times). Planted truth describes the first replica only.
   */
  replicas?: number;
  /**
   * Log formats of the non-mini configurations: `opencode` (default: OpenCode exports, as the
   * paper's runs) or `mixed` (each turn's log is an OpenCode export, a Claude Code session — with
   * its `subagents/` files — or a Codex CLI rollout, a third each; mini-SWE-agent runs unchanged).
   * Those configurations then record the harness `mixed harnesses` (no reader's family: a
   * configuration naming one harness has its logs of other harnesses refused).
   */
  logs?: "opencode" | "mixed";
}

interface ScaleSpec {
  chains: number;
  repos: { repo: string; coreModules: number; utilModules: number }[];
}

const SCALES: Record<Scale, ScaleSpec> = {
  paper: {
    chains: 75,
    repos: [
      { repo: "plotkit", coreModules: 40, utilModules: 10 },
      { repo: "tablekit", coreModules: 38, utilModules: 9 },
      { repo: "unitflow", coreModules: 36, utilModules: 8 },
    ],
  },
  small: { chains: 6, repos: [{ repo: "plotkit", coreModules: 10, utilModules: 4 }] },
};

const MODEL_IDS: Record<string, string> = {
  "GPT-5.6 Terra": "gpt-5.6-terra",
  "DeepSeek-v4.1-flash": "deepseek-v4.1-flash",
  "Qwen3.7-plus": "qwen3.7-plus",
  "GLM-5.3": "glm-5.3",
};
const PRICE: Record<string, number> = {
  "GPT-5.6 Terra": 0.012,
  "DeepSeek-v4.1-flash": 0.0015,
  "Qwen3.7-plus": 0.004,
  "GLM-5.3": 0.005,
};

/** Everything generated, before it is written. */
export interface SimulatedCorpus {
  files: Map<string, string>;
  turns: number;
}

/** Builds the corpus in memory (path → content, sorted insertion). */
export function buildCorpus(opts: SimulateOptions = {}): SimulatedCorpus {
  const files = new Map<string, string>();
  const gen = corpusBatches(opts);
  for (let r = gen.next();; r = gen.next()) {
    if (r.done) return { files, turns: r.value };
    for (const [p, t] of r.value) files.set(p, t);
  }
}

/**
 * Generates the corpus in batches of files (W0 and tasks, then one batch per configuration, then
 * the truth), so a writer never holds the whole corpus in memory. Returns the number of run turns.
 */
export function* corpusBatches(
  opts: SimulateOptions = {},
): Generator<Map<string, string>, number, void> {
  const seed = opts.seed ?? 1;
  const scale = opts.scale ?? "paper";
  const spec = SCALES[scale];
  const root = new Rng(seed);
  let files = new Map<string, string>();
  const put = (path: string, text: string) => files.set(path, text);
  put(
    "corpus.json",
    JSON.stringify(
      {
        name: `reporeuse-simulated-${scale}-seed${seed}`,
        layout: 1,
        generator: "reporeuse simulate",
        seed,
        scale,
      },
      null,
      2,
    ) + "\n",
  );
  // W0 packages
  const repos: GenPackage[] = spec.repos.map((r) =>
    generatePackage(root.fork(`repo:${r.repo}`), {
      repo: r.repo,
      pkg: r.repo,
      coreModules: r.coreModules,
      utilModules: r.utilModules,
    })
  );
  for (const repo of repos) {
    for (const f of repo.files) put(`repos/${repo.repo}/${f.path}`, f.lines.join("\n") + "\n");
    for (const e of repo.extras) put(`repos/${repo.repo}/${e.path}`, e.text);
  }
  // tasks
  const chains = generateChains(root.fork("chains"), repos, spec.chains);
  for (const ch of chains) {
    put(
      `tasks/${ch.chain}/chain.json`,
      JSON.stringify(
        {
          chain: ch.chain,
          repo: {
            name: ch.repo.repo,
            version: ch.repo.version,
            workspace: `../../repos/${ch.repo.repo}`,
            package: ch.repo.pkg,
          },
          turns: ch.turns.map((t) => ({
            turn: t.turn,
            module: t.module,
            path: t.path,
            functions: t.functions.map((f) => ({
              name: f.name,
              signature: f.signature,
              returns: f.returns,
              behaviour: f.behaviour,
            })),
          })),
        },
        null,
        2,
      ) + "\n",
    );
    for (const t of ch.turns) {
      put(`tasks/${ch.chain}/turn${t.turn}/requirement.md`, t.requirement);
      put(`tasks/${ch.chain}/turn${t.turn}/solution.py`, t.solution);
      put(
        `tasks/${ch.chain}/turn${t.turn}/tests.json`,
        JSON.stringify({ cases: t.tests }, null, 2) + "\n",
      );
    }
  }
  // runs
  const truthTargets = [
    "harness,model,memory,chain,turn,target,kind,implemented,read,reused,reimplemented,reimplemented_by,file,start,end,body_start,callees",
  ];
  const truthTurns = [
    "harness,model,memory,chain,turn,submitted,n_repo,n_self,tests,passed,resolved,reimplemented,files_goal,lines_goal,files_planned,lines_planned",
  ];
  let count = 0;
  yield files;
  for (let replica = 1; replica <= (opts.replicas ?? 1); replica++) {
    for (const [ci, calib] of CONFIGS.entries()) {
      files = new Map();
      const cr = root.fork(`config:${configId(calib)}${replica > 1 ? `~r${replica}` : ""}`);
      const sim = simulateConfig(cr.fork("plan"), calib, chains);
      count += writeConfig(
        cr.fork("logs"),
        calib,
        ci,
        sim,
        chains,
        put,
        replica > 1 ? [] : truthTargets,
        replica > 1 ? [] : truthTurns,
        opts.logs ?? "opencode",
        replica,
      );
      yield files;
    }
  }
  files = new Map();
  put("truth/targets.csv", truthTargets.join("\n") + "\n");
  put("truth/turns.csv", truthTurns.join("\n") + "\n");
  put("truth/README.md", TRUTH_README);
  yield files;
  return count;
}

const TRUTH_README = `# Planted truth

Written by \`deno task simulate\`. \`targets.csv\` has one row per (configuration, chain, turn,
target) with the decisions planted in the run files: \`read\` (the turn's reads show at least one
line of the target's body), \`reused\` (the submission calls it through a resolved edge) and
\`reimplemented\` (not called, yet ≥ ${REIMPLEMENTATION_PERCENT} of its ≥ ${REIMPLEMENTATION_MIN_CALLEES} non-builtin callees are called). \`turns.csv\`
has the planted test outcomes and the planner's own Files/Lines counts.
`;

function writeConfig(
  rng: Rng,
  calib: ConfigCalibration,
  ci: number,
  sim: SimConfig,
  chains: TaskChain[],
  put: (path: string, text: string) => void,
  truthTargets: string[],
  truthTurns: string[],
  logs: "opencode" | "mixed" = "opencode",
  replica = 1,
): number {
  const id = configId(calib) + (replica > 1 ? `~r${replica}` : "");
  const model = calib.model + (replica > 1 ? ` r${replica}` : "");
  const mini = calib.harness === "mini-SWE-agent";
  const cwd = mini ? "/testbed" : undefined;
  const harness = logs === "mixed" && !mini ? "mixed harnesses" : calib.harness;
  put(
    `runs/${id}/config.json`,
    JSON.stringify(
      { harness, model, memory: calib.memory, ...(cwd ? { cwd } : {}) },
      null,
      2,
    ) + "\n",
  );
  const keys = [harness, model, calib.memory].map(csv).join(",");
  const base = Date.UTC(2026, 5, 1) + ci * 86400000;
  let count = 0;
  chains.forEach((ch, c) => {
    const cwsFiles = new Map<string, string[]>();
    const header = new Map<string, number>();
    for (const f of ch.repo.files) {
      cwsFiles.set(f.path, f.lines);
      header.set(f.path, f.headerEnd);
    }
    const sources: SubmittedSource[] = [];
    sim.turns[c].forEach((turn: SimTurn) => {
      const t = turn.t;
      const r = rng.fork(`${ch.chain}:${t}`);
      const ws: SimWorkspace = {
        pkg: ch.repo.pkg,
        files: new Map(cwsFiles),
        extras: ch.repo.extras.map((e) => e.path),
        header,
      };
      const runCheck = `python -c "from ${turn.task.module} import ${
        turn.task.functions[0].name
      }; print(${turn.task.tests[0].call.replaceAll('"', "'")})"`;
      // mini-SWE-agent v2 (tool calls, `mini-swe-agent-1.1`) for even configs, v1 for odd ones, 10% swapped
      const v2 = mini && (ci % 2 === 0) !== r.chance(0.1);
      const actions = planTurn(r.fork("plan"), ws, turn, {
        maxChars: mini ? 9500 : 40000,
        runCheck,
        elide: v2,
      });
      const counted = tally(ws, actions);
      // verify planted reads against what the actions show
      for (const tg of turn.targets) {
        const shown = tg.path ? counted.reads.get(tg.path) : undefined;
        // planted read: a line of the body block (after the `def` line) is shown;
        // planted unread: no line of the definition, `def` line included, is shown
        let body = false, any = false;
        if (shown && tg.implemented) {
          for (let l = tg.start!; l <= tg.end!; l++) {
            if (!shown.has(l)) continue;
            any = true;
            if (l > tg.start!) body = true;
          }
        }
        const read = tg.read ? body : any;
        if (read !== tg.read) {
          throw new Error(
            `simulate: read of ${tg.id} in ${id}/${ch.chain}/turn${t} is ${read}, planted ${tg.read}`,
          );
        }
      }
      const earlier = ch.turns.slice(0, t - 1).map(reqTurn);
      const requirement = renderRequirement(reqTurn(turn.task), calib.memory, earlier, sources);
      const workdir = mini ? "/testbed" : `/workspace/${ch.repo.repo}`;
      const prompt = renderPrompt(requirement, {
        workdir,
        submitTo: turn.task.path,
        module: turn.task.module,
      });
      const steps = actions.length + (mini && turn.submitted ? 1 : 0);
      const cost = Math.round(PRICE[calib.model] * steps * (0.6 + r.float()) * 1e4) / 1e4;
      const seconds = Math.round(steps * (4 + r.float() * 8) * 10) / 10;
      const ctx = {
        prompt,
        model: MODEL_IDS[calib.model],
        submitted: turn.submitted,
        cost,
        start: base + (c * 5 + t) * 3_600_000,
        seconds,
      };
      const dir = `runs/${id}/${ch.chain}/turn${t}`;
      if (mini) {
        put(
          `${dir}/${v2 ? "log.json" : "log.traj"}`,
          renderMini(r.fork("log"), ws, actions, ctx, v2),
        );
      } else if (logs === "mixed" && r.fork("harness").float() < 2 / 3) {
        // a Claude Code session or a Codex CLI rollout (own random stream: the default corpus
        // is unchanged)
        const h = r.fork("harness-log");
        if (h.float() < 0.5) {
          const s = renderClaude(h, ws, actions, {
            ...ctx,
            repo: ch.repo.repo,
            version: h.pick(["1.0.108", "2.0.61", "2.1.39", "2.1.112", "2.1.150"]),
          });
          put(`${dir}/log.jsonl`, s.log);
          for (const [name, text] of s.subagents) put(`${dir}/subagents/${name}`, text);
        } else {
          const era = h.pick(["pre", "shell_command", "exec", "exec"] as const);
          const version = era === "pre" ? "0.20.0" : era === "shell_command" ? "0.77.0" : "0.142.4";
          put(
            `${dir}/log.jsonl`,
            renderCodex(h, ws, actions, { ...ctx, repo: ch.repo.repo, version, era }),
          );
        }
      } else {
        const roll = r.float();
        const version = roll < 0.15
          ? r.pick(["1.1.21", "1.1.36"])
          : roll < 0.4
          ? r.pick(["1.3.10", "1.4.2"])
          : r.pick(["1.2.5", "1.2.10", "1.2.15"]);
        put(
          `${dir}/log.json`,
          renderOpenCode(r.fork("log"), ws, actions, {
            ...ctx,
            version,
            repo: ch.repo.repo,
            writer: calib.model.startsWith("GPT") ? "apply_patch" : "write",
            editFix: r.chance(0.25),
          }),
        );
      }
      if (turn.submitted) put(`${dir}/submission.py`, turn.submission!);
      writeResults(r.fork("results"), turn, dir, put);
      // meta.json is optional in the layout: a few turns go without it
      if (!r.chance(0.04)) put(`${dir}/meta.json`, JSON.stringify({ cost, steps, seconds }) + "\n");
      count++;
      // truth
      const reimpl = turn.targets.filter((x) => x.reimplemented).length;
      const passed = turn.passed.filter(Boolean).length;
      truthTurns.push([
        keys,
        csv(ch.chain),
        t,
        turn.submitted,
        turn.targets.filter((x) => x.kind === "repo").length,
        turn.targets.filter((x) => x.kind === "self").length,
        turn.passed.length,
        passed,
        passed === turn.passed.length,
        reimpl,
        turn.filesGoal,
        turn.linesGoal,
        counted.files,
        counted.lines,
      ].join(","));
      for (const tg of turn.targets) {
        truthTargets.push([
          keys,
          csv(ch.chain),
          t,
          csv(tg.id),
          tg.kind,
          tg.implemented,
          tg.read,
          tg.reused,
          tg.reimplemented,
          csv(tg.reimplementedBy ?? ""),
          csv(tg.path ?? ""),
          tg.start ?? "",
          tg.end ?? "",
          tg.start === undefined ? "" : tg.start + 1,
          new Set(tg.callees).size,
        ].join(","));
      }
      // the workspace of the next turn
      if (turn.submitted) {
        const lines = turn.submission!.replace(/\n$/, "").split("\n");
        cwsFiles.set(turn.task.path, lines);
        const first = turn.fns.length
          ? Math.min(...turn.fns.map((f) => f.start))
          : lines.length + 1;
        header.set(turn.task.path, first - 1);
      }
      sources.push({
        turn: t,
        module: turn.task.module,
        path: turn.task.path,
        source: turn.submitted ? turn.submission! : null,
      });
    });
  });
  return count;
}

function writeResults(
  rng: Rng,
  turn: SimTurn,
  dir: string,
  put: (path: string, text: string) => void,
) {
  const cases = turn.task.tests;
  if (!turn.submitted && rng.chance(0.6)) return; // no file, no results: all cases fail
  const fail = (i: number) =>
    turn.submitted
      ? `AssertionError: assert ${cases[i].call} == ${cases[i].expected}`
      : `ModuleNotFoundError: No module named '${turn.task.module}'`;
  if (rng.chance(0.5)) {
    // now and then a run errors out part-way: failing cases are missing (they count as failed)
    const dropFailed = rng.chance(0.05);
    const out = cases.map((c, i) =>
      turn.passed[i] ? { id: c.id, passed: true } : { id: c.id, passed: false, message: fail(i) }
    ).filter((c) => c.passed || !dropFailed);
    put(`${dir}/results.json`, JSON.stringify({ cases: out }, null, 2) + "\n");
    return;
  }
  const failures = turn.passed.filter((p) => !p).length;
  const cls = `test_turn${turn.t}`;
  const body = cases.map((c, i) => {
    const attrs = `classname="${cls}" name="test_case[${c.id}]" time="${
      (0.001 + rng.float() * 0.01).toFixed(3)
    }"`;
    if (turn.passed[i]) return `<testcase ${attrs} />`;
    const m = escapeHtml(fail(i));
    return `<testcase ${attrs}><failure message="${m}">${m}</failure></testcase>`;
  }).join("");
  put(
    `${dir}/results.xml`,
    `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="${failures}" skipped="0" tests="${cases.length}" time="${
      (0.2 + rng.float()).toFixed(3)
    }" hostname="runner">${body}</testsuite></testsuites>\n`,
  );
}

/**
 * Writes a simulated corpus to `outDir` (created; existing files of the same names are
 * overwritten) and returns its directory and number of run turns.
 *
 * @example
 * ```ts
 * import { simulateCorpus } from "./corpus.ts";
 * const dir = await Deno.makeTempDir();
 * const { turns } = await simulateCorpus(dir, { seed: 1, scale: "small" });
 * console.assert(turns === 6 * 5 * 10);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function simulateCorpus(
  outDir: string,
  opts: SimulateOptions = {},
): Promise<{ dir: string; turns: number }> {
  await prepareOut(outDir);
  await Deno.mkdir(outDir, { recursive: true });
  const made = new Set<string>();
  const enc = new TextEncoder();
  const gen = corpusBatches(opts);
  for (let r = gen.next();; r = gen.next()) {
    if (r.done) return { dir: outDir, turns: r.value };
    const dirs = new Set<string>();
    for (const p of r.value.keys()) {
      const slash = p.lastIndexOf("/");
      const d = slash > 0 ? `${outDir}/${p.slice(0, slash)}` : "";
      if (d && !made.has(d)) dirs.add(d), made.add(d);
    }
    await eachLimited([...dirs].sort(), (d) => Deno.mkdir(d, { recursive: true }), 32);
    await eachLimited(
      [...r.value],
      ([p, text]) => Deno.writeFile(`${outDir}/${p}`, enc.encode(text)),
      32,
    );
  }
}

/** Subdirectories a simulated corpus consists of (cleared before it is written again). */
const PARTS = ["repos", "tasks", "runs", "truth"];

/**
 * Makes `outDir` ready: absent or empty is fine; a previous simulated corpus (its corpus.json
 * names this generator) is cleared so no stale file survives; anything else is refused.
 */
async function prepareOut(outDir: string): Promise<void> {
  let names: string[];
  try {
    names = [...Deno.readDirSync(outDir)].map((e) => e.name);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw new Error(`${outDir}: cannot read the output directory (${(e as Error).message})`);
  }
  if (names.length === 0) return;
  let generator: unknown;
  try {
    generator = JSON.parse(await Deno.readTextFile(`${outDir}/corpus.json`)).generator;
  } catch {
    generator = undefined;
  }
  if (generator !== "reporeuse simulate") {
    throw new Error(
      `${outDir}: directory is not empty and holds no simulated corpus; choose a new or empty --out`,
    );
  }
  for (const part of PARTS) await removeIfPresent(`${outDir}/${part}`);
}
