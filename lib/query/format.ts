/**
 * Rendering query results for the terminal and for files: aligned text, CSV, JSON, Markdown.
 *
 * @module
 */
import pl from "nodejs-polars";
import { frameCsv } from "../frames/mod.ts";
import { mdText } from "../util/mod.ts";

/** Output formats of the `query` command. */
export const FORMATS = ["table", "csv", "json", "md"] as const;
/** One of {@link FORMATS}. */
export type Format = typeof FORMATS[number];

type Cell = unknown;

const isNumeric = (variant: string) => /^(U?Int|Float|Decimal)/.test(variant);
const isFloat = (variant: string) => /^(Float|Decimal)/.test(variant);

/** Plain JS value of a cell: BigInt → number, non-finite → null. */
function plain(v: Cell): Cell {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** A cell as text for humans: floats to at most 4 decimals, lists as JSON, null as `null`. */
function text(v: Cell, float: boolean): string {
  v = plain(v);
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") {
    return float ? String(Number(v.toFixed(4))) : String(v);
  }
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function columns(df: pl.DataFrame): { name: string; numeric: boolean; float: boolean }[] {
  return df.columns.map((name, i) => {
    const variant = String((df.dtypes[i] as unknown as { variant: string }).variant);
    return { name, numeric: isNumeric(variant), float: isFloat(variant) };
  });
}

/** Longest cell shown by the table and Markdown formats (CSV and JSON keep every character). */
export const MAX_CELL = 80;

/** One display line per cell: line breaks shown as ⏎, long cells cut with … */
function oneLine(s: string): string {
  const flat = s.replace(/\r?\n/g, "⏎");
  return flat.length > MAX_CELL ? flat.slice(0, MAX_CELL - 1) + "…" : flat;
}

function cells(df: pl.DataFrame): string[][] {
  const cols = columns(df);
  return df.toRecords().map((r) => cols.map((c) => oneLine(text(r[c.name], c.float))));
}

/** A frame as an aligned plain-text grid: header, dashes, one line per row; numbers right-aligned. */
export function textGrid(df: pl.DataFrame): string {
  const cols = columns(df);
  const rows = cells(df);
  // a loop, not Math.max(...cells): spreading 125k+ arguments overflows the call stack
  const widths = cols.map((c) => c.name.length);
  for (const r of rows) r.forEach((s, i) => widths[i] = Math.max(widths[i], s.length));
  const line = (r: string[]) =>
    r.map((s, i) => cols[i].numeric ? s.padStart(widths[i]) : s.padEnd(widths[i])).join("  ")
      .trimEnd();
  return [
    line(cols.map((c) => c.name)),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
  ]
    .join("\n");
}

/** GitHub-flavoured Markdown table; cells are escaped (no raw HTML, `|` or inline markup). */
export function toMarkdown(df: pl.DataFrame): string {
  const cols = columns(df);
  const esc = mdText;
  const rows = cells(df);
  return [
    `| ${cols.map((c) => esc(c.name)).join(" | ")} |`,
    `|${cols.map((c) => c.numeric ? "---:" : "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

/**
 * CSV as Polars writes it (full float precision, null as an empty field), so `pl.readCSV` reads
 * back the same frame; list columns become JSON arrays, and text cells a spreadsheet would run as
 * a formula get a leading `'` (lib/frames/csv.ts).
 */
export function toCSV(df: pl.DataFrame): string {
  return frameCsv(df);
}

/** JSON array of row objects (BigInt → number, NaN/Infinity → null). */
export function toJSON(df: pl.DataFrame): string {
  const rows = df.toRecords().map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))
  );
  return JSON.stringify(rows, null, 2);
}

/**
 * Renders a frame in one of the {@link FORMATS}.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { formatFrame } from "./format.ts";
 * const df = pl.DataFrame({ model: ["Qwen3.7-plus"], reuse: [0.123456] });
 * const md = formatFrame(df, "md");
 * if (md !== "| model | reuse |\n|---|---:|\n| Qwen3.7-plus | 0.1235 |") throw new Error(md);
 * ```
 */
export function formatFrame(df: pl.DataFrame, format: Format): string {
  switch (format) {
    case "table":
      return textGrid(df);
    case "md":
      return toMarkdown(df);
    case "csv":
      return toCSV(df);
    case "json":
      return toJSON(df);
  }
}
