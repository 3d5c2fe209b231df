/**
 * Planted-truth recovery over many seeds (`deno task verify truth`): each seed's simulated corpus
 * (lib/simulate) is scored (lib/frames) and compared with its planted truth
 * (lib/simulate/check.ts): every planted target must come back with the same decisions, no other
 * target may appear, every turn's planted outcome must match, and no turn may be left unscored.
 *
 * @example
 * ```ts
 * import { parseSeeds } from "./recovery.ts";
 * console.assert(parseSeeds("1-3,7").join() === "1,2,3,7");
 * ```
 * @module
 */
import { erroredTurns, type ErrorRow, rowsOf, scoreCorpus, type Scored } from "../frames/mod.ts";
import { checkTruth, checkTurnsTruth, type Scale, simulateCorpus } from "../simulate/mod.ts";
import { eachLimited, withScratch } from "../util/mod.ts";

/**
 * Seeds from a list of numbers and ranges (`1-10`, `3`, `1,4,9-12`), in order, without repeats.
 * Throws on anything else.
 */
export function parseSeeds(spec: string): number[] {
  const out = new Set<number>();
  for (const part of spec.split(",").map((p) => p.trim())) {
    const m = part.match(/^(\d+)(?:-(\d+))?$/);
    if (!m) throw new Error(`seeds: expected N, N-M or a comma-separated list, got '${spec}'`);
    const [a, b] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (b < a) throw new Error(`seeds: empty range '${part}'`);
    if (b - a > 10_000) throw new Error(`seeds: range '${part}' is too long`);
    for (let s = a; s <= b; s++) out.add(s);
  }
  return [...out];
}

/** One difference between planted truth and the scores. */
export interface RecoveryProblem {
  /**
   * `error`: the scorer left turns unscored for this reason (`message`, `turns`); `mismatch`: both
   * have the row, a value differs; `missing`: planted, not scored; `extra`: scored, not planted.
   */
  kind: "error" | "mismatch" | "missing" | "extra";
  /** `targets` (truth/targets.csv) or `turns` (truth/turns.csv). */
  table: "targets" | "turns";
  /** The row's key: configuration (harness | model | memory), chain, turn and, for targets, target. */
  config: string;
  chain: string;
  turn: string;
  target?: string;
  /** For a mismatch: the column and the truth's and the scorer's value. */
  column?: string;
  truth?: string;
  scored?: string;
  /** For an error: the scorer's message (with the file it names) and how many turns it cost. */
  message?: string;
  turns?: number;
}

/** Recovery of one corpus's planted truth. */
export interface Recovery {
  /** Planted targets. */
  targets: number;
  /** Planted targets scored with every decision equal to the truth's. */
  recovered: number;
  /** Targets scored (distinct). */
  scored: number;
  /** Planted turns and those whose planted outcome the scores match. */
  turns: number;
  turnsMatched: number;
  /** Turns left unscored (named in the scorer's errors). */
  erroredTurns: number;
  /** Every difference, targets first. */
  problems: RecoveryProblem[];
  /** 100% recovered, nothing extra, every turn matched, none errored. */
  ok: boolean;
  /** Why the seed could not be checked at all (simulation or scoring failed). */
  error?: string;
}

/** The result of a seed that could not be simulated or scored. */
function failed(error: unknown): Recovery {
  return {
    targets: 0,
    recovered: 0,
    scored: 0,
    turns: 0,
    turnsMatched: 0,
    erroredTurns: 0,
    problems: [],
    ok: false,
    error: error instanceof Error ? error.message : String(error),
  };
}

function problem(
  kind: RecoveryProblem["kind"],
  table: RecoveryProblem["table"],
  key: string,
  more: Partial<RecoveryProblem> = {},
): RecoveryProblem {
  // keys are "harness | model | memory | chain | turn[ | target]" (lib/simulate/truth.ts)
  const [h, m, mem, chain, turn, target] = key.split(" | ");
  return { kind, table, config: `${h} | ${m} | ${mem}`, chain, turn, target, ...more };
}

/**
 * The scorer's errors that left turns unscored, one problem per distinct file and message (with
 * the first turn it hit and the number of turns): they explain the `missing` rows that follow.
 */
function errorProblems(errors: Scored["errors"]): RecoveryProblem[] {
  const byMessage = new Map<string, RecoveryProblem>();
  const counted = new Set<string>();
  for (const e of rowsOf<ErrorRow>(errors)) {
    if (e.config === null || e.chain === null || e.turn === null) continue;
    const message = e.path ? `${e.path}: ${e.message}` : e.message;
    let p = byMessage.get(message);
    if (!p) {
      const [config, chain, turn] = [e.config, e.chain, String(e.turn)];
      p = { kind: "error", table: "turns", config, chain, turn, message };
      p.turns = 0;
      byMessage.set(message, p);
    }
    const turn = `${message}\u0000${e.config}\u0000${e.chain}\u0000${e.turn}`;
    if (!counted.has(turn)) counted.add(turn), p.turns!++;
  }
  return [...byMessage.values()];
}

/**
 * Compares scored frames with the planted truth in `truthDir` (holding targets.csv and
 * turns.csv; a simulated corpus's `truth/`).
 */
export async function recovery(
  scored: Pick<Scored, "targets" | "turns" | "errors">,
  truthDir: string,
): Promise<Recovery> {
  const t = await checkTruth(scored.targets, `${truthDir}/targets.csv`);
  const u = await checkTurnsTruth(scored.turns, `${truthDir}/turns.csv`);
  const problems: RecoveryProblem[] = [];
  for (const [table, c] of [["targets", t], ["turns", u]] as const) {
    for (const k of c.missing) problems.push(problem("missing", table, k));
    for (const d of c.differences) {
      problems.push(problem("mismatch", table, d.key, {
        column: d.column,
        truth: d.planted,
        scored: d.scored,
      }));
    }
    for (const k of c.extra) problems.push(problem("extra", table, k));
  }
  problems.unshift(...errorProblems(scored.errors));
  const errored = erroredTurns(scored.errors);
  return {
    targets: t.truth,
    recovered: t.matched,
    scored: t.scored,
    turns: u.truth,
    turnsMatched: u.matched,
    erroredTurns: errored,
    problems,
    ok: t.ok && u.ok && errored === 0,
  };
}

/** Recovery as a percentage of planted targets (100 when none were planted). */
export function recoveryPercent(r: Recovery): number {
  return r.targets ? (100 * r.recovered) / r.targets : 100;
}

/** The recovery percentage with two decimals, never rounded up to 100.00 when a target is missed. */
export function percentText(r: Recovery): string {
  const pct = recoveryPercent(r);
  return r.recovered < r.targets && pct > 99.99 ? "99.99" : pct.toFixed(2);
}

/** One problem as a line: where (config, chain, turn, target), what, and which side has what. */
export function formatProblem(p: RecoveryProblem): string {
  const where = `${p.config}  ${p.chain} turn ${p.turn}` + (p.target ? `  ${p.target}` : "");
  if (p.kind === "error") {
    return `error    ${p.message} — ${p.turns} turn${
      p.turns === 1 ? "" : "s"
    } unscored, first ${where}`;
  }
  const what = p.kind === "missing"
    ? `planted ${p.table === "targets" ? "target" : "turn"} not scored`
    : p.kind === "extra"
    ? `scored ${p.table === "targets" ? "target" : "turn"} that was not planted`
    : `${p.table === "turns" ? "turn " : ""}${p.column}: truth ${p.truth || "(empty)"}, scored ${
      p.scored || "(empty)"
    }`;
  return `${p.kind.padEnd(8)} ${where}: ${what}`;
}

/**
 * The report of one seed: a summary line (targets, recovered, recovery %, turns, errors, OK or
 * FAIL), then up to `maxProblems` problem lines (indented) and a count of the rest.
 */
export function formatRecovery(
  label: string,
  r: Recovery,
  opts: { maxProblems?: number; seconds?: number } = {},
): string[] {
  if (r.error) return [`${label}  FAIL: ${r.error}`];
  const shown = percentText(r);
  const extra = r.problems.filter((p) => p.kind === "extra" && p.table === "targets").length;
  const lines = [
    `${label}  targets ${r.targets}  recovered ${r.recovered}  ${shown}%  extra ${extra}  ` +
    `turns ${r.turnsMatched}/${r.turns}  errored ${r.erroredTurns}` +
    (opts.seconds === undefined ? "" : `  ${opts.seconds.toFixed(1)} s`) +
    `  ${r.ok ? "OK" : "FAIL"}`,
  ];
  const max = opts.maxProblems ?? 50;
  for (const p of r.problems.slice(0, max)) lines.push(`  ${formatProblem(p)}`);
  if (r.problems.length > max) lines.push(`  … and ${r.problems.length - max} more`);
  return lines;
}

/** Options of {@link verifyTruth}. */
export interface VerifyTruthOptions {
  seeds: readonly number[];
  /** Corpus scale (default "paper": 3,750 run turns per seed). */
  scale?: Scale;
  /** Seeds simulated and scored at once (default 1). */
  jobs?: number;
  /** Scorer worker threads per seed (default: scoreCorpus's). */
  workers?: number;
  /** Called with each seed's result as soon as it is known. */
  onSeed?: (seed: number, r: Recovery, seconds: number) => void;
  /** Progress messages. */
  log?: (message: string) => void;
}

/**
 * Simulates, scores and checks each seed in a temporary directory (removed afterwards, also on
 * Ctrl-C; each seed's corpus is removed as soon as it is checked). Scoring uses a cache of its own
 * in that directory, so results never come from an earlier run's cache.
 */
export function verifyTruth(
  opts: VerifyTruthOptions,
): Promise<{ seed: number; recovery: Recovery; seconds: number }[]> {
  const scale = opts.scale ?? "paper", log = opts.log ?? (() => {});
  return withScratch("reporeuse-verify-truth-", async (root) => {
    const results: { seed: number; recovery: Recovery; seconds: number }[] = [];
    const one = async (seed: number) => {
      const t0 = performance.now();
      const corpus = `${root}/seed-${seed}`, cacheDir = `${root}/cache-${seed}`;
      let r: Recovery;
      try {
        log(`seed ${seed}: simulating (${scale})`);
        await simulateCorpus(corpus, { seed, scale });
        log(`seed ${seed}: scoring`);
        const scored = await scoreCorpus(corpus, { cacheDir, workers: opts.workers });
        r = await recovery(scored, `${corpus}/truth`);
      } catch (e) {
        r = failed(e); // the other seeds still run
      }
      // best effort: the seed's result stands, and the scratch directory holding these goes at the end
      for (const d of [corpus, cacheDir]) await Deno.remove(d, { recursive: true }).catch(() => {});
      const seconds = (performance.now() - t0) / 1000;
      results.push({ seed, recovery: r, seconds });
      opts.onSeed?.(seed, r, seconds);
    };
    await eachLimited(opts.seeds, one, opts.jobs ?? 1);
    return results.sort((a, b) => opts.seeds.indexOf(a.seed) - opts.seeds.indexOf(b.seed));
  });
}
