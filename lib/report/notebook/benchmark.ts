/**
 * Benchmark composition by turn (notebook 07).
 *
 * @module
 */

import pl from "nodejs-polars";
import { Chart } from "../display.ts";
import { CHART_CONFIG, NEUTRAL } from "../style.ts";

/**
 * Benchmark composition per turn index: mean test cases, requirement length (k chars) and new
 * functions from the `tasks` frame (`readTasks`), and mean repo / self reuse targets from the
 * `turns` frame (targets come from the reference solution, so they are the same in every
 * configuration).
 */
export function benchmarkChart(
  tasks: pl.DataFrame,
  turns: pl.DataFrame,
  opts: { provenance?: string } = {},
): Chart {
  const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  const byTurn = new Map<number, Record<string, number[]>>();
  const push = (turn: number, k: string, v: unknown) => {
    if (v === null || v === undefined || !Number.isFinite(Number(v))) return;
    const m = byTurn.get(turn) ?? {};
    (m[k] ??= []).push(Number(v));
    byTurn.set(turn, m);
  };
  for (const r of tasks.toRecords() as Record<string, unknown>[]) {
    push(Number(r.turn), "test cases", r.tests);
    push(Number(r.turn), "requirement (k chars)", Number(r.requirement_chars) / 1000);
    push(Number(r.turn), "new functions", r.functions);
  }
  const cols = turns.columns;
  if (cols.includes("n_repo") && cols.includes("n_self")) {
    // one value per (chain, turn): the targets are the reference solution's
    const seen = new Set<string>();
    for (const r of turns.select("chain", "turn", "n_repo", "n_self").toRecords()) {
      const id = `${r.chain}\u0000${r.turn}`;
      if (seen.has(id)) continue;
      seen.add(id);
      push(Number(r.turn), "repo targets", r.n_repo);
      if (Number(r.turn) >= 2) push(Number(r.turn), "self targets", r.n_self);
    }
  }
  const order = [
    "test cases",
    "requirement (k chars)",
    "new functions",
    "repo targets",
    "self targets",
  ];
  const values = [...byTurn.entries()].sort(([a], [b]) => a - b).flatMap(([turn, m]) =>
    order.filter((k) => m[k]?.length).map((k) => ({ turn, statistic: k, mean: mean(m[k]) }))
  );
  const t = "Benchmark composition by turn (means per turn)";
  return new Chart({
    title: opts.provenance
      ? { text: t, subtitle: `Data: ${opts.provenance}`, subtitleColor: "#b00000" }
      : t,
    config: CHART_CONFIG,
    data: { values },
    facet: { column: { field: "statistic", type: "nominal", sort: order, title: null } },
    spec: {
      width: 110,
      height: 160,
      mark: { type: "bar", color: NEUTRAL },
      encoding: {
        x: { field: "turn", type: "ordinal", title: "Turn", axis: { labelAngle: 0 } },
        y: { field: "mean", type: "quantitative", title: null },
        tooltip: [{ field: "statistic" }, { field: "turn" }, { field: "mean", format: ".2f" }],
      },
    },
    resolve: { scale: { y: "independent" } },
  }, t);
}
