/**
 * Uncertainty of the report's numbers: cluster-bootstrap intervals for every Table 2/4 cell
 * (chains resampled whole), paired comparisons of two configurations on the same chains, and their
 * Markdown rendering (`ci.md`).
 *
 * The chain is the unit throughout: turns and targets of a chain are not independent. A paired
 * comparison gives, per metric, the paired-bootstrap interval of Δ = A − B and a chain-level
 * permutation test (A and B swapped within random subsets of chains); per target kind, the matched
 * targets' 2×2 counts with the chain-level sign-flip test of Σ (only A − only B) and Obuchowski's
 * clustered McNemar test (lib/report/clustered.ts). Holm's correction runs over a declared family
 * of comparisons ({@link holmFamily}: the memory ablation, or harness vs harness).
 *
 * @module
 */
import { mdText } from "../util/mod.ts";
import type pl from "nodejs-polars";
import {
  asTurnRows,
  byChain,
  byConfig,
  type ChainStats,
  chainStats,
  configId,
  type ConfigKey,
  configMetrics,
  configOrder,
  type Metric,
  METRICS,
  metricsAtTurnOfStats,
  metricsOfStats,
  PERCENT_METRICS,
  type TurnRow,
} from "./aggregate.ts";
import {
  type BootstrapOptions,
  clusterBootstrap,
  clusterBootstrapAll,
  DEFAULT_B,
  DEFAULT_FLIPS,
  DEFAULT_SEED,
  formatP,
  formatPermutationP,
  holm,
  type Interval,
  pairedBootstrapAll,
  pairedPermutationAll,
  type PermutationOptions,
  type PermutationP,
} from "./stats.ts";
import { type Cells, type ClusteredPaired, clusteredPaired } from "./clustered.ts";
import { fmt } from "./table_render.ts";
import { metricLabel } from "./style.ts";

/** The interval of one Table 2/4 cell. */
export interface CellInterval {
  config: ConfigKey;
  metric: Metric;
  chains: number;
  interval: Interval;
}

/** Each configuration's rows (in paper order) with the bootstrap statistics of its chains. */
function configChains(
  turns: pl.DataFrame | TurnRow[],
): { key: ConfigKey; rows: TurnRow[]; chains: ChainStats[] }[] {
  const groups = byConfig(asTurnRows(turns)).sort((a, b) => configOrder(a.key, b.key));
  return groups.map((g) => ({ ...g, chains: byChain(g.rows).map(chainStats) }));
}

/**
 * Cluster-bootstrap 95% intervals (chains resampled with replacement) of every Table 2/4 metric of
 * every configuration. Each configuration's replicates reuse the same seed, so all its metrics are
 * computed on the same resamples.
 */
export function cellIntervals(
  turns: pl.DataFrame | TurnRow[],
  opts: BootstrapOptions = {},
): CellInterval[] {
  const out: CellInterval[] = [];
  for (const { key, chains } of configChains(turns)) {
    const all = clusterBootstrapAll(chains, metricsOfStats, opts);
    for (const m of METRICS) {
      out.push({ config: key, metric: m, chains: chains.length, interval: all[m] });
    }
  }
  return out;
}

/** First/last-turn cells of Tables 3 and 5: metric and its first turn (self reuse: turn 2). */
export const TURN_CELLS: readonly (readonly [Metric, number])[] = [
  ["recall_repo", 1],
  ["reuse_repo", 1],
  ["reuse_self", 2],
  ["c_dup", 1],
];

/** The readable name of a Table 3/5 cell key: `recall_repo_t1` → "Recall (repo) T1", `…_delta` → "… Δ". */
function turnCellLabel(key: string): string {
  const m = key.match(/^(.*)_(t\d+|delta)$/);
  if (!m) return key;
  return `${metricLabel(m[1])} ${m[2] === "delta" ? "Δ" : m[2].toUpperCase()}`;
}

/** The interval of one Table 3/5 cell (`<metric>_t1|t2`, `<metric>_t5`, `<metric>_delta`). */
export interface TurnCellInterval {
  config: ConfigKey;
  /** Cell key, e.g. `recall_repo_t1`, `reuse_self_t5`, `c_dup_delta` (unrounded last − first). */
  cell: string;
  chains: number;
  interval: Interval;
}

/**
 * Cluster-bootstrap intervals of the first/last-turn cells (Tables 3 and 5) of every configuration;
 * the last turn is the configuration's last turn present (5 in the paper).
 */
export function turnCellIntervals(
  turns: pl.DataFrame | TurnRow[],
  opts: BootstrapOptions = {},
): TurnCellInterval[] {
  const out: TurnCellInterval[] = [];
  for (const { key, rows, chains } of configChains(turns)) {
    const last = Math.max(...rows.map((r) => r.turn));
    const stat = (cs: ChainStats[]) => {
      const rec: Record<string, number | null> = {};
      const byTurn = new Map<number, Record<Metric, number | null>>();
      const at = (t: number) => {
        let m = byTurn.get(t);
        if (!m) byTurn.set(t, m = metricsAtTurnOfStats(cs, t));
        return m;
      };
      for (const [m, first] of TURN_CELLS) {
        const a = at(first)[m], b = at(last)[m];
        rec[`${m}_t${first}`] = a;
        rec[`${m}_t5`] = b;
        rec[`${m}_delta`] = a === null || b === null ? null : b - a;
      }
      return rec;
    };
    const all = clusterBootstrapAll(chains, stat, opts);
    for (const [cell, interval] of Object.entries(all)) {
      out.push({ config: key, cell, chains: chains.length, interval });
    }
  }
  return out;
}

/** Per-target reuse pairs of two configurations and the chain-level tests on them. */
export interface TargetPairs {
  kind: "repo" | "self" | "all";
  pairs: number;
  /** Both reused. */
  both: number;
  /** Only A reused (McNemar b). */
  aOnly: number;
  /** Only B reused (McNemar c). */
  bOnly: number;
  neither: number;
  /** The 2×2 counts of each chain holding a matched target (the unit of the tests). */
  chains: Cells[];
  /** Δ = share reused under A − under B over the matched targets (in %), chain-bootstrap interval. */
  delta: Interval;
  /** Chain-level sign-flip test (primary) and Obuchowski's clustered McNemar test. */
  clustered: ClusteredPaired;
  /** Holm-adjusted sign-flip p within the family ({@link holmFamily}); absent before. */
  pHolm?: number;
}

/** One metric of a paired comparison: A, B, the paired-bootstrap Δ and its permutation test. */
export interface MetricDelta {
  metric: Metric;
  a: number | null;
  b: number | null;
  delta: Interval;
  /** Chain-level permutation test of Δ (A and B swapped within random subsets of chains). */
  test: PermutationP;
  /** Holm-adjusted p within the family ({@link holmFamily}); absent before. */
  pHolm?: number;
}

/** A paired comparison of configurations A and B on their common chains. */
export interface PairedComparison {
  a: ConfigKey;
  b: ConfigKey;
  chains: number;
  deltas: MetricDelta[];
  targets: TargetPairs[];
  /** The family of comparisons Holm's correction ran over, once {@link holmFamily} has. */
  family?: { name: string; tests: number };
}

/**
 * Per-target reuse pairs: targets frame rows of A and B matched on (chain, turn, kind, target),
 * counted per chain, with the chain-level tests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { targetPairs } from "./ci.ts";
 * const t = pl.DataFrame({ harness: ["h", "h", "h", "h"], model: ["m", "m", "m", "m"],
 *   memory: ["x", "x", "y", "y"], chain: ["c", "c", "c", "c"], turn: [1, 1, 1, 1],
 *   kind: ["repo", "repo", "repo", "repo"], target: ["f", "g", "f", "g"],
 *   reused: [true, true, false, true] });
 * const [all] = targetPairs(t, { harness: "h", model: "m", memory: "x" }, { harness: "h", model: "m", memory: "y" });
 * assert(all.pairs === 2 && all.aOnly === 1 && all.both === 1 && all.chains.length === 1);
 * assert(all.clustered.signFlip.p === 1); // one discordant chain can show nothing
 * ```
 */
export function targetPairs(
  targets: pl.DataFrame,
  a: ConfigKey,
  b: ConfigKey,
  opts: BootstrapOptions = {},
): TargetPairs[] {
  const need = ["harness", "model", "memory", "chain", "turn", "kind", "target", "reused"];
  const missing = need.filter((c) => !targets.columns.includes(c));
  if (missing.length) {
    throw new Error(
      `targets frame lacks column(s) ${missing.join(", ")} (see lib/frames/schema.ts)`,
    );
  }
  const ida = configId(a), idb = configId(b);
  const sideA = new Map<string, boolean>(), sideB = new Map<string, boolean>();
  for (const r of targets.select(...need).toRecords() as Record<string, unknown>[]) {
    const id = configId({
      harness: String(r.harness),
      model: String(r.model),
      memory: String(r.memory),
    });
    if (id !== ida && id !== idb) continue;
    const key = `${r.kind}\u0000${r.chain}\u0000${Number(r.turn)}\u0000${r.target}`;
    (id === ida ? sideA : sideB).set(key, r.reused === true);
  }
  const tally = (kind: TargetPairs["kind"]): TargetPairs => {
    const perChain = new Map<string, Cells>();
    for (const [key, ra] of sideA) {
      const [k, chain] = key.split("\u0000", 2);
      if (kind !== "all" && k !== kind) continue;
      const rb = sideB.get(key);
      if (rb === undefined) continue;
      let c = perChain.get(chain);
      if (!c) perChain.set(chain, c = { a: 0, b: 0, c: 0, d: 0 });
      if (ra && rb) c.a++;
      else if (ra) c.b++;
      else if (rb) c.c++;
      else c.d++;
    }
    const chains = [...perChain.entries()].sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0)
      .map(([, c]) => c);
    const sum = (f: (c: Cells) => number) => chains.reduce((s, c) => s + f(c), 0);
    const [both, aOnly, bOnly, neither] = [
      sum((c) => c.a),
      sum((c) => c.b),
      sum((c) => c.c),
      sum(
        (c) => c.d,
      ),
    ];
    const share = (cs: Cells[]) => {
      const n = cs.reduce((s, c) => s + c.a + c.b + c.c + c.d, 0);
      return n ? (100 * cs.reduce((s, c) => s + c.b - c.c, 0)) / n : null;
    };
    return {
      kind,
      pairs: both + aOnly + bOnly + neither,
      both,
      aOnly,
      bOnly,
      neither,
      chains,
      delta: clusterBootstrap(chains, share, opts),
      clustered: clusteredPaired(chains),
    };
  };
  return [tally("all"), tally("repo"), tally("self")];
}

/**
 * Compares configurations A and B on the chains both ran: per metric, A, B, the paired-bootstrap
 * interval of A − B and the chain-level permutation test of it; with a targets frame, per target
 * kind, the matched targets and the chain-level sign-flip test (see {@link targetPairs}).
 * p-values are raw: adjust them over the family with {@link holmFamily}.
 */
export function pairedComparison(
  turns: pl.DataFrame | TurnRow[],
  targets: pl.DataFrame | undefined,
  a: ConfigKey,
  b: ConfigKey,
  opts: BootstrapOptions & { flips?: number } = {},
): PairedComparison {
  const rows = asTurnRows(turns);
  const pick = (k: ConfigKey) => {
    const id = configId(k);
    return byChain(rows.filter((r) => configId(r) === id));
  };
  const ca = pick(a), cb = pick(b);
  if (!ca.length || !cb.length) {
    throw new Error(
      `pairedComparison: no turns for ${!ca.length ? configId(a) : configId(b)} in the turns frame`,
    );
  }
  const inB = new Map(cb.map((c) => [c[0].chain, c]));
  const pa: TurnRow[][] = [], pb: TurnRow[][] = [];
  for (const c of ca) {
    const other = inB.get(c[0].chain);
    if (other) {
      pa.push(c);
      pb.push(other);
    }
  }
  const va = configMetrics(pa.flat()), vb = configMetrics(pb.flat());
  const sa = pa.map(chainStats), sb = pb.map(chainStats);
  const deltas = pairedBootstrapAll(sa, sb, metricsOfStats, opts);
  const perm: PermutationOptions = { flips: opts.flips ?? DEFAULT_FLIPS, seed: opts.seed };
  const tests = pairedPermutationAll(sa, sb, metricsOfStats, perm);
  return {
    a,
    b,
    chains: pa.length,
    deltas: METRICS.map((m) => ({
      metric: m,
      a: va[m],
      b: vb[m],
      delta: deltas[m],
      test: tests[m],
    })),
    targets: targets ? targetPairs(targets, a, b, opts) : [],
  };
}

/**
 * Holm's correction over a declared family of paired comparisons: every metric's permutation test
 * and every target kind's sign-flip test of every comparison (positively dependent tests: Holm
 * controls the family-wise error under any dependence). Returns copies with `pHolm` and `family`
 * set; the same comparisons always get the same adjusted p, wherever they are shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holmFamily, type PairedComparison } from "./ci.ts";
 * const test = (p: number) => ({ estimate: 1, p, exact: true, patterns: 8, seed: 1 });
 * const d = (p: number) => ({ metric: "resolve" as const, a: 1, b: 0, delta: {} as never, test: test(p) });
 * const k = { harness: "h", model: "m", memory: "x" };
 * const cmp: PairedComparison = { a: k, b: k, chains: 3, targets: [], deltas: [d(0.01), d(0.04)] };
 * const [out] = holmFamily("demo", [cmp]);
 * assert.deepEqual(out.deltas.map((x) => x.pHolm), [0.02, 0.04]);
 * assert.deepEqual(out.family, { name: "demo", tests: 2 });
 * ```
 */
export function holmFamily(
  name: string,
  comparisons: readonly PairedComparison[],
): PairedComparison[] {
  const copies = comparisons.map((c) => ({
    ...c,
    deltas: c.deltas.map((d) => ({ ...d })),
    targets: c.targets.map((t) => ({ ...t })),
  }));
  const slots: { p: number; set: (q: number) => void }[] = [];
  for (const c of copies) {
    for (const d of c.deltas) {
      if (d.test?.p != null) slots.push({ p: d.test.p, set: (q) => d.pHolm = q });
    }
    for (const t of c.targets) {
      if (t.pairs > 0) slots.push({ p: t.clustered.signFlip.p, set: (q) => t.pHolm = q });
    }
  }
  holm(slots.map((s) => s.p)).forEach((q, i) => slots[i].set(q));
  for (const c of copies) c.family = { name, tests: slots.length };
  return copies;
}

/** The configurations present in the rows. */
function configsOf(rows: readonly TurnRow[]): ConfigKey[] {
  return byConfig(rows).map((g) => g.key);
}

/**
 * The memory-ablation family: interface memory (A) against every other memory setting of one
 * harness × model (B, in the paper's order), Holm-adjusted together. What `tables/ci.md` and
 * notebook 04 both show.
 */
export function memoryComparisons(
  turns: pl.DataFrame | TurnRow[],
  targets: pl.DataFrame | undefined,
  which: { harness: string; model: string },
  opts: BootstrapOptions & { flips?: number } = {},
): PairedComparison[] {
  const rows = asTurnRows(turns);
  const mine = configsOf(rows).filter((k) =>
    k.harness === which.harness && k.model === which.model
  );
  const a = mine.find((k) => k.memory === "interface");
  if (!a) return [];
  const others = mine.filter((k) => k.memory !== "interface").sort(configOrder);
  const ps = others.map((b) => pairedComparison(rows, targets, a, b, opts));
  return holmFamily(`memory ablation, ${which.harness} · ${which.model}`, ps);
}

/**
 * The harness family: for every model run by both of the paper's harnesses under interface
 * memory, OpenCode (A) against mini-SWE-agent (B), Holm-adjusted together.
 */
export function harnessComparisons(
  turns: pl.DataFrame | TurnRow[],
  targets: pl.DataFrame | undefined,
  opts: BootstrapOptions & { flips?: number } = {},
): PairedComparison[] {
  const rows = asTurnRows(turns);
  const keys = configsOf(rows).filter((k) => k.memory === "interface");
  const ps: PairedComparison[] = [];
  for (const a of keys.filter((k) => k.harness === "OpenCode").sort(configOrder)) {
    const b = keys.find((k) => k.harness === "mini-SWE-agent" && k.model === a.model);
    if (b) ps.push(pairedComparison(rows, targets, a, b, opts));
  }
  return holmFamily("harness, OpenCode vs mini-SWE-agent under interface memory", ps);
}

function digits(m: Metric): number {
  return m === "lines" ? 0 : 1;
}

function ciText(i: Interval, d: number, signed = false): string {
  return `${fmt(i.estimate, d, signed)} [${fmt(i.low, d, signed)}, ${fmt(i.high, d, signed)}]`;
}

/**
 * Markdown rows of interval cells, one per configuration (in the cells' order): harness, model,
 * memory, chains, then the cell of each column (`–` where a configuration has none).
 */
function configRows<C extends { config: ConfigKey; chains: number; interval: Interval }>(
  cells: readonly C[],
  columns: readonly string[],
  columnOf: (c: C) => string,
  text: (i: Interval, column: string) => string,
): string[] {
  const groups = new Map<string, C[]>();
  for (const c of cells) {
    const id = configId(c.config);
    groups.set(id, [...(groups.get(id) ?? []), c]);
  }
  return [...groups.values()].map((cs) => {
    const k = cs[0].config;
    const texts = columns.map((col) => {
      const c = cs.find((x) => columnOf(x) === col);
      return c ? text(c.interval, col) : "–";
    });
    const keys = [k.harness, k.model, k.memory].map(mdText).join(" | ");
    return `| ${keys} | ${cs[0].chains} | ${texts.join(" | ")} |`;
  });
}

/** What every paired-comparison table says about its unit, tests and correction. */
export function pairedMethods(opts: { B?: number; seed?: number; flips?: number } = {}): string {
  const B = opts.B ?? DEFAULT_B, seed = opts.seed ?? DEFAULT_SEED;
  const flips = opts.flips ?? DEFAULT_FLIPS;
  return "**Unit: the task chain** — both configurations ran the same chains, and the turns and " +
    "targets of a chain are not independent, so every interval resamples and every test permutes " +
    `whole chains. Δ = A − B with a paired cluster-bootstrap 95% interval (B = ${B}, seed = ${seed}). ` +
    "**Tests:** per metric, a chain-level permutation test of Δ (A and B swapped within random " +
    `subsets of chains; exact when the chains are few, else ${flips} seeded patterns); per target ` +
    "kind, the targets scored under both (matched on chain, turn and target) with the chain-level " +
    "sign-flip test of Σ (only A − only B) per chain (exact), and Obuchowski's clustered McNemar " +
    "χ² as a check. **Correction:** Holm over the family named in each heading (every test of its " +
    "comparisons), p (Holm) beside the raw p. Pooled McNemar tests, which treat targets as " +
    "independent, are not reported (docs/statistics.md).";
}

function pairedMarkdown(
  paired: readonly PairedComparison[],
  opts: { B: number; seed: number },
): string[] {
  // comparisons not adjusted yet form one family: everything in this file
  const adjusted = paired.every((p) => p.family)
    ? [...paired]
    : holmFamily("all comparisons in this file", paired);
  const families = new Map<string, PairedComparison[]>();
  for (const p of adjusted) {
    const f = p.family!.name;
    families.set(f, [...(families.get(f) ?? []), p]);
  }
  const lines = [
    "",
    "## Paired comparisons on the same chains",
    "",
    pairedMethods(opts),
  ];
  for (const [family, ps] of families) {
    lines.push(
      "",
      `### Family: ${family} (${ps.length} comparison${ps.length === 1 ? "" : "s"}, ` +
        `${ps[0].family!.tests} tests, Holm)`,
    );
    for (const p of ps) {
      lines.push(
        "",
        `#### A = ${mdText(configId(p.a))} vs B = ${
          mdText(configId(p.b))
        } (${p.chains} common chains)`,
        "",
        "| Metric | A | B | Δ (A − B) [95% CI] | p (permutation, chains) | p (Holm) |",
        "|---|---:|---:|---:|---:|---:|",
      );
      for (const d of p.deltas) {
        const dg = digits(d.metric);
        const unit = PERCENT_METRICS.has(d.metric) ? " pts" : "";
        lines.push(
          `| ${metricLabel(d.metric)} | ${fmt(d.a, dg)} | ${fmt(d.b, dg)} | ${
            ciText(d.delta, dg, true)
          }${unit} | ${formatPermutationP(d.test) ?? "–"} | ${formatP(d.pHolm) ?? "–"} |`,
        );
      }
      if (p.targets.length && p.targets[0].pairs === 0) {
        lines.push("", "No targets matched between A and B: no per-target test.");
      } else if (p.targets.length) {
        lines.push(
          "",
          "| Targets | Pairs | Chains (discordant) | Both reused | Only A | Only B | Neither | " +
            "Δ reused (A − B) [95% CI] | p (sign-flip, chains) | Obuchowski χ² (p) | p (Holm) |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        );
        for (const t of p.targets) {
          const c = t.clustered;
          lines.push(
            `| ${t.kind} | ${t.pairs} | ${c.chains} (${c.signFlip.discordantChains}) | ${t.both} | ` +
              `${t.aOnly} | ${t.bOnly} | ${t.neither} | ${ciText(t.delta, 1, true)} pts | ` +
              `${formatP(c.signFlip.p)} | ${c.obuchowski.statistic.toFixed(2)} ` +
              `(${formatP(c.obuchowski.p)}) | ${formatP(t.pHolm) ?? "–"} |`,
          );
        }
        const few = p.targets.filter((t) => t.pairs > 0 && t.clustered.signFlip.minP > 0.05);
        if (few.length) {
          lines.push(
            "",
            `With ${
              few.map((t) =>
                `${t.clustered.signFlip.discordantChains} discordant chain(s) (${t.kind})`
              ).join(", ")
            } ` +
              "the sign-flip test cannot reach p ≤ 0.05 (smallest attainable p = 2 / 2^chains).",
          );
        }
      }
    }
  }
  return lines;
}

/** Markdown of the intervals and paired comparisons (`out/tables/ci.md`). */
export function ciMarkdown(
  cells: CellInterval[],
  paired: PairedComparison[],
  opts: { provenance: string; B?: number; seed?: number; turnCells?: TurnCellInterval[] },
): string {
  const B = opts.B ?? DEFAULT_B, seed = opts.seed ?? DEFAULT_SEED;
  const lines = [
    "## 95% cluster-bootstrap intervals of the Table 2 and Table 4 cells",
    "",
    `> **Data: ${mdText(opts.provenance)}**`,
    "",
    `Percentile intervals from a cluster bootstrap that resamples whole task chains with replacement ` +
    `(B = ${B} replicates, seed = ${seed}, PRNG mulberry32; the same seed gives the same intervals). ` +
    "Cells: estimate [2.5%, 97.5%]. Rates in %, Files and Lines per turn; C_dup averaged over the " +
    "cumulative turn-wise rates.",
    "",
    `| Harness | Model | Memory | Chains | ${METRICS.map(metricLabel).join(" | ")} |`,
    `|---|---|---|---:|${METRICS.map(() => "---:").join("|")}|`,
  ];
  lines.push(
    ...configRows(cells, METRICS, (c) => c.metric, (i, m) => ciText(i, digits(m as Metric))),
  );
  if (opts.turnCells?.length) {
    const keys = TURN_CELLS.flatMap(([m, first]) => [`${m}_t${first}`, `${m}_t5`, `${m}_delta`]);
    lines.push(
      "",
      "## 95% cluster-bootstrap intervals of the Table 3 and Table 5 cells",
      "",
      "First turn (turn 2 for reuse_self), last turn (T5) and their difference Δ (of the unrounded " +
        "values), in %; same resampling, B and seed as above.",
      "",
      `| Harness | Model | Memory | Chains | ${keys.map(turnCellLabel).join(" | ")} |`,
      `|---|---|---|---:|${keys.map(() => "---:").join("|")}|`,
    );
    lines.push(
      ...configRows(
        opts.turnCells,
        keys,
        (c) => c.cell,
        (i, key) => ciText(i, 1, key.endsWith("_delta")),
      ),
    );
  }
  if (paired.length) lines.push(...pairedMarkdown(paired, { B, seed }));
  return lines.join("\n") + "\n";
}
