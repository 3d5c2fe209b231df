/**
 * Small filters and columns used in notebook cells.
 *
 * @module
 */

import pl from "nodejs-polars";

/** Rows of one memory setting: `frame.filter(memoryIs("interface"))`. */
export function memoryIs(memory: string): pl.Expr {
  return pl.col("memory").eq(pl.lit(memory));
}

/** A `config` column "harness · model" (add with `withColumns(configLabel())`). */
export function configLabel(): pl.Expr {
  return pl.concatString([pl.col("harness"), pl.col("model")], " · ").alias("config");
}

/** The memory settings a harness × model ran under, in the paper's order (none, interface, source). */
export function memoriesOf(
  turns: pl.DataFrame,
  which: { harness: string; model: string },
): string[] {
  const found = new Set(
    (turns.filter(
      pl.col("harness").eq(pl.lit(which.harness)).and(pl.col("model").eq(pl.lit(which.model))),
    )
      .select("memory").unique().toRecords() as { memory: string }[]).map((r) => r.memory),
  );
  const order = ["none", "interface", "source"];
  return [...found].sort((a, b) =>
    (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b)
  );
}
