/**
 * Uncertainty of the report's numbers: cluster-bootstrap intervals for every Table 2/4 cell
 * (chains resampled whole), paired comparisons of two configurations on the same chains (paired
 * bootstrap deltas + McNemar on per-target reuse), and their Markdown rendering (`ci.md`).
 *
 * @module
 */
import { mdText } from "../util/text.ts";
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
  clusterBootstrapAll,
  DEFAULT_B,
  DEFAULT_SEED,
  holm,
  type Interval,
  type McNemar,
  mcnemar,
  pairedBootstrapAll,
} from "./stats.ts";
import { fmt } from "./table_render.ts";

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

/** Per-target reuse pairs of two configurations and McNemar's test on them. */
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
  test: McNemar;
}

/** A paired comparison of configurations A and B on their common chains. */
export interface PairedComparison {
  a: ConfigKey;
  b: ConfigKey;
  chains: number;
  deltas: { metric: Metric; a: number | null; b: number | null; delta: Interval }[];
  targets: TargetPairs[];
}

/**
 * McNemar on per-target reuse: targets frame rows of A and B matched on (chain, turn, kind, target).
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
 * assert(all.pairs === 2 && all.aOnly === 1 && all.both === 1 && all.test.p === 1);
 * ```
 */
export function targetPairs(targets: pl.DataFrame, a: ConfigKey, b: ConfigKey): TargetPairs[] {
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
    let both = 0, aOnly = 0, bOnly = 0, neither = 0;
    for (const [key, ra] of sideA) {
      if (kind !== "all" && !key.startsWith(`${kind}\u0000`)) continue;
      const rb = sideB.get(key);
      if (rb === undefined) continue;
      if (ra && rb) both++;
      else if (ra) aOnly++;
      else if (rb) bOnly++;
      else neither++;
    }
    return {
      kind,
      pairs: both + aOnly + bOnly + neither,
      both,
      aOnly,
      bOnly,
      neither,
      test: mcnemar(aOnly, bOnly),
    };
  };
  return [tally("all"), tally("repo"), tally("self")];
}

/**
 * Compares configurations A and B on the chains both ran: per metric, A, B and the paired-bootstrap
 * interval of A − B; with a targets frame, McNemar's test on per-target reuse.
 */
export function pairedComparison(
  turns: pl.DataFrame | TurnRow[],
  targets: pl.DataFrame | undefined,
  a: ConfigKey,
  b: ConfigKey,
  opts: BootstrapOptions = {},
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
  const deltas = pairedBootstrapAll(pa.map(chainStats), pb.map(chainStats), metricsOfStats, opts);
  return {
    a,
    b,
    chains: pa.length,
    deltas: METRICS.map((m) => ({ metric: m, a: va[m], b: vb[m], delta: deltas[m] })),
    targets: targets ? targetPairs(targets, a, b) : [],
  };
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

function pValue(p: number): string {
  return p < 0.0001 ? "< 0.0001" : p.toFixed(4);
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
    `| Harness | Model | Memory | Chains | ${METRICS.join(" | ")} |`,
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
      `| Harness | Model | Memory | Chains | ${keys.join(" | ")} |`,
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
  // Holm's correction over every McNemar test printed (the family of this file)
  const tests = paired.flatMap((p) => p.targets.filter((t) => t.pairs > 0));
  const adjusted = new Map(holm(tests.map((t) => t.test.p)).map((q, i) => [tests[i], q]));
  if (paired.length) {
    lines.push(
      "",
      "## Paired comparisons on the same chains",
      "",
      "Δ = A − B with a paired cluster-bootstrap interval (one resample of chains applied to both " +
        `configurations; B = ${B}, seed = ${seed}). McNemar's test on per-target reuse pairs matched ` +
        "on (chain, turn, target): exact two-sided binomial when the discordant pairs number fewer " +
        "than 25, else chi-square with continuity correction; p (Holm) adjusts for all the McNemar " +
        "tests in this file.",
    );
    for (const p of paired) {
      lines.push(
        "",
        `### A = ${mdText(configId(p.a))} vs B = ${
          mdText(configId(p.b))
        } (${p.chains} common chains)`,
        "",
        "| Metric | A | B | Δ (A − B) [95% CI] |",
        "|---|---:|---:|---:|",
      );
      for (const d of p.deltas) {
        const dg = digits(d.metric);
        const unit = PERCENT_METRICS.has(d.metric) ? " pts" : "";
        lines.push(
          `| ${d.metric} | ${fmt(d.a, dg)} | ${fmt(d.b, dg)} | ${
            ciText(d.delta, dg, true)
          }${unit} |`,
        );
      }
      if (p.targets.length && p.targets[0].pairs === 0) {
        lines.push("", "No targets matched between A and B: McNemar's test not computed.");
      } else if (p.targets.length) {
        lines.push(
          "",
          "| Targets | Pairs | Both reused | Only A | Only B | Neither | Test | Statistic | p | p (Holm) |",
          "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
        );
        for (const t of p.targets) {
          lines.push(
            `| ${t.kind} | ${t.pairs} | ${t.both} | ${t.aOnly} | ${t.bOnly} | ${t.neither} | ` +
              `${t.test.method === "exact" ? "exact binomial" : "χ² (cc)"} | ` +
              `${t.test.statistic.toFixed(3)} | ${pValue(t.test.p)} | ` +
              `${pValue(adjusted.get(t)!)} |`,
          );
        }
      }
    }
  }
  return lines.join("\n") + "\n";
}
