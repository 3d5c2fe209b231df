/**
 * A frame as CSV for people (and their spreadsheets): what `score` writes (`turns.csv`,
 * `targets.csv`, `errors.csv`) and `query --format csv` prints. Polars writes it (full float
 * precision, null as an empty field, RFC 4180 quoting where needed); list and struct columns
 * become JSON arrays, and every text cell a spreadsheet would run as a formula — one starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return that is not a plain number — gets a leading
 * `'` (lib/util/text.ts `spreadsheetSafe`, OWASP's CSV-injection advice). Numbers, negative ones
 * included, stay numbers. Parquet files keep the exact values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { frameCsv } from "./csv.ts";
 * const df = pl.DataFrame({ model: ["=1+1", "-x", "gpt"], delta: [-0.5, 1, 2] });
 * assert.equal(frameCsv(df), "model,delta\n'=1+1,-0.5\n'-x,1.0\ngpt,2.0\n");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { isFormulaLike, spreadsheetSafe } from "../util/mod.ts";

/** Plain JS value of a nested cell for JSON: BigInt → number, non-finite → null. */
function plain(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** The frame with nested columns as JSON text and formula-like text cells neutralised. */
export function spreadsheetSafeFrame(df: pl.DataFrame): pl.DataFrame {
  let out = df;
  for (const [i, name] of df.columns.entries()) {
    const variant = String((df.dtypes[i] as unknown as { variant: string }).variant);
    const nested = variant === "List" || variant === "Array" || variant === "Struct";
    if (!nested && variant !== "String" && variant !== "Utf8") continue;
    const values = df.getColumn(name).toArray() as unknown[];
    if (!nested && !values.some((v) => typeof v === "string" && isFormulaLike(v))) continue;
    const text = values.map((v) =>
      v === null || v === undefined
        ? null
        : spreadsheetSafe(nested ? JSON.stringify(plain(v)) : String(v))
    );
    out = out.withColumn(pl.Series(name, text, pl.Utf8));
  }
  return out;
}

/** The frame as CSV text (see the module doc). */
export function frameCsv(df: pl.DataFrame): string {
  return spreadsheetSafeFrame(df).writeCSV().toString();
}
