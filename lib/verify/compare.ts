/**
 * Comparing two output directories file by file (`deno task verify identical`): byte-equal files
 * are identical; Parquet frames are compared by content (schema, then rows matched on the frame's
 * key columns, lib/frames `FRAME_KEYS`), CSV files as rows under their header, anything else as
 * text, line by line, naming the first difference.
 *
 * @example
 * ```ts
 * import { compareText } from "./compare.ts";
 * const d = compareText("a\nb\nc\n", "a\nB\nc\n");
 * console.assert(d?.line === 2 && d.column === 1 && d.lines === 1);
 * ```
 * @module
 */
import { Buffer } from "node:buffer";
import pl from "nodejs-polars";
import { FRAME_KEYS } from "../frames/mod.ts";
import { parseTruthCsv } from "../simulate/mod.ts";

/** Where two texts first differ. */
export interface TextDifference {
  /** 1-based line and column of the first difference. */
  line: number;
  column: number;
  /** That line's text around the difference, on each side. */
  a: string;
  b: string;
  /** Lines that differ, position by position (a line added shifts the rest). */
  lines: number;
  /** Lines of each side. */
  linesA: number;
  linesB: number;
}

const CONTEXT = 60;

/** An excerpt of `s` around `at`, with … where cut. */
function excerpt(s: string, at: number): string {
  const from = Math.max(0, at - CONTEXT), to = Math.min(s.length, at + CONTEXT);
  return `${from ? "…" : ""}${s.slice(from, to)}${to < s.length ? "…" : ""}`;
}

/** The first difference of two texts, or null when they are equal. */
export function compareText(a: string, b: string): TextDifference | null {
  if (a === b) return null;
  const la = a.split("\n"), lb = b.split("\n");
  let first = -1, lines = 0;
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] === lb[i]) continue;
    lines++;
    if (first < 0) first = i;
  }
  const x = la[first] ?? "", y = lb[first] ?? "";
  let c = 0;
  while (c < x.length && c < y.length && x[c] === y[c]) c++;
  return {
    line: first + 1,
    column: c + 1,
    a: first < la.length ? excerpt(x, c) : "(end of file)",
    b: first < lb.length ? excerpt(y, c) : "(end of file)",
    lines,
    linesA: la.length,
    linesB: lb.length,
  };
}

/** A row present on both sides with different values. */
export interface RowChange {
  /** The row's key values joined by " | " (or `row N` without key columns). */
  key: string;
  changes: { column: string; a: string; b: string }[];
}

/** Differences of two tables of rows. */
export interface RowDifferences {
  /** Column names (and types) differing, as text; empty when equal. */
  schema: string[];
  rowsA: number;
  rowsB: number;
  /** Keys of rows only on one side. */
  onlyA: string[];
  onlyB: string[];
  changed: RowChange[];
}

/** A value as text (null, big integers, lists, dates included). */
function show(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") {
    return JSON.stringify(v, (_k, x) => typeof x === "bigint" ? String(x) : x);
  }
  return String(v);
}

/** Rows by key; a key seen again gets `#2`, `#3` … (so duplicate keys still pair up in order). */
function keyed(rows: readonly Record<string, unknown>[], keys: readonly string[]) {
  const out = new Map<string, Record<string, unknown>>();
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    let k = keys.length ? keys.map((c) => show(r[c])).join(" | ") : `row ${i + 1}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n > 1) k += ` #${n}`;
    out.set(k, r);
  });
  return out;
}

/**
 * Compares two tables given as rows, matching rows on `keys` (when every key column is on both
 * sides; otherwise by position) and comparing the columns both have as text.
 */
export function compareRows(
  a: { columns: readonly string[]; rows: readonly Record<string, unknown>[] },
  b: { columns: readonly string[]; rows: readonly Record<string, unknown>[] },
  keys: readonly string[] = [],
  schema: string[] = [],
): RowDifferences {
  const cols = a.columns.filter((c) => b.columns.includes(c));
  for (const c of a.columns) if (!b.columns.includes(c)) schema.push(`column ${c} only in A`);
  for (const c of b.columns) if (!a.columns.includes(c)) schema.push(`column ${c} only in B`);
  if (!schema.length && a.columns.join() !== b.columns.join()) schema.push("column order differs");
  const k = keys.every((c) => cols.includes(c)) ? keys : [];
  const ka = keyed(a.rows, k), kb = keyed(b.rows, k);
  const out: RowDifferences = {
    schema,
    rowsA: a.rows.length,
    rowsB: b.rows.length,
    onlyA: [],
    onlyB: [],
    changed: [],
  };
  for (const [key, ra] of ka) {
    const rb = kb.get(key);
    if (!rb) {
      out.onlyA.push(key);
      continue;
    }
    const changes = cols.filter((c) => show(ra[c]) !== show(rb[c]))
      .map((c) => ({ column: c, a: show(ra[c]), b: show(rb[c]) }));
    if (changes.length) out.changed.push({ key, changes });
  }
  for (const key of kb.keys()) if (!ka.has(key)) out.onlyB.push(key);
  return out;
}

/** Whether {@link compareRows} found nothing. */
export function sameRows(d: RowDifferences): boolean {
  return !d.schema.length && !d.onlyA.length && !d.onlyB.length && !d.changed.length;
}

/** Outcome for one file. */
export interface FileComparison {
  /** Path relative to the compared directories. */
  path: string;
  /**
   * `identical` (same bytes), `same data` (a frame whose bytes differ but whose schema and rows are
   * equal — e.g. Parquet metadata), `different`, `only A` / `only B` (missing on the other side).
   */
  status: "identical" | "same data" | "different" | "only A" | "only B";
  /** Text difference (text files). */
  text?: TextDifference;
  /** Row differences (Parquet and CSV). */
  rows?: RowDifferences;
  /** Binary files: first differing byte offset. */
  byte?: number;
  /** Vega-Lite specs (`.vl.json`): the data rows they plot, compared apart from the styling. */
  data?: DataDifference;
}

/** The data rows of two Vega-Lite specs (every `data.values` and `datasets` entry). */
export interface DataDifference {
  rowsA: number;
  rowsB: number;
  /** Rows (canonical JSON) on one side only, as multisets. */
  onlyA: string[];
  onlyB: string[];
  /**
   * The numbers in those rows (every numeric value, as a multiset): how many on each side and how
   * many of them only on one side — so relabelled rows with the same numbers are told apart from
   * changed numbers.
   */
  numbers: { a: number; b: number; onlyA: number; onlyB: number };
}

/** JSON with object keys sorted (so key order does not make rows differ). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${
      Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")
    }}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** Every data row of a Vega-Lite spec: `data.values` at any level and `datasets`. */
function specRows(spec: unknown): unknown[] {
  const rows: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    const data = o.data as { values?: unknown } | undefined;
    if (data && Array.isArray(data.values)) rows.push(...data.values);
    if (o.datasets && typeof o.datasets === "object") {
      for (const d of Object.values(o.datasets)) if (Array.isArray(d)) rows.push(...d);
    }
    for (const [k, x] of Object.entries(o)) if (k !== "data" && k !== "datasets") walk(x);
  };
  walk(spec);
  return rows;
}

/** Every number inside `v`, as text. */
function numbersIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === "number") out.push(String(v));
  else if (Array.isArray(v)) v.forEach((x) => numbersIn(x, out));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => numbersIn(x, out));
  return out;
}

/** Rows of `a` not matched by a row of `b` (multiset difference), in `a`'s order. */
function minus(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const r of b) left.set(r, (left.get(r) ?? 0) + 1);
  return a.filter((r) => {
    const n = left.get(r) ?? 0;
    if (n) left.set(r, n - 1);
    return !n;
  });
}

function compareSpecData(a: string, b: string): DataDifference | undefined {
  let x: unknown[], y: unknown[];
  try {
    [x, y] = [specRows(JSON.parse(a)), specRows(JSON.parse(b))];
  } catch {
    // not JSON on one side: no data comparison, the text comparison reports the difference
    return undefined;
  }
  const [rx, ry] = [x.map(canonical), y.map(canonical)];
  const [nx, ny] = [numbersIn(x), numbersIn(y)];
  return {
    rowsA: x.length,
    rowsB: y.length,
    onlyA: minus(rx, ry),
    onlyB: minus(ry, rx),
    numbers: {
      a: nx.length,
      b: ny.length,
      onlyA: minus(nx, ny).length,
      onlyB: minus(ny, nx).length,
    },
  };
}

/** Key columns of a scored frame file (`targets.parquet` → FRAME_KEYS.targets), else none. */
function frameKeys(path: string): readonly string[] {
  const stem = path.slice(path.lastIndexOf("/") + 1).replace(/\.(parquet|csv)$/, "");
  return (FRAME_KEYS as Record<string, readonly string[]>)[stem] ?? [];
}

/** A column's type as Polars names it (`Int64`, `List(String)`, …). */
const typeName = (df: pl.DataFrame, c: string) =>
  String(df.getColumn(c).dtype).replace(/^DataType\((.*)\)$/, "$1");

function parquetRows(bytes: Uint8Array) {
  const df = pl.readParquet(Buffer.from(bytes));
  return { df, columns: df.columns, rows: df.toRecords() as Record<string, unknown>[] };
}

function compareParquet(path: string, a: Uint8Array, b: Uint8Array): RowDifferences {
  const [x, y] = [parquetRows(a), parquetRows(b)];
  const schema: string[] = [];
  for (const c of x.columns) {
    if (!y.columns.includes(c)) continue;
    const [ta, tb] = [typeName(x.df, c), typeName(y.df, c)];
    if (ta !== tb) schema.push(`column ${c}: ${ta} in A, ${tb} in B`);
  }
  return compareRows(x, y, frameKeys(path), schema);
}

function csvRows(text: string) {
  const rows = parseTruthCsv(text);
  // the header's names, also when there is no row (a blank row maps every name to "")
  const columns = Object.keys(parseTruthCsv(`${text.split("\n")[0]}\n\n`)[0] ?? {});
  return { columns, rows };
}

function compareCsv(path: string, a: string, b: string): RowDifferences {
  return compareRows(csvRows(a), csvRows(b), frameKeys(path));
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Compares one file present on both sides. */
export function compareFile(path: string, a: Uint8Array, b: Uint8Array): FileComparison {
  if (Buffer.compare(a, b) === 0) return { path, status: "identical" };
  if (path.endsWith(".parquet")) {
    const rows = compareParquet(path, a, b);
    return { path, status: sameRows(rows) ? "same data" : "different", rows };
  }
  let ta: string, tb: string;
  try {
    [ta, tb] = [decoder.decode(a), decoder.decode(b)];
  } catch {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return { path, status: "different", byte: i };
  }
  const text = compareText(ta, tb)!;
  if (path.endsWith(".csv")) {
    return { path, status: "different", rows: compareCsv(path, ta, tb), text };
  }
  if (path.endsWith(".vl.json")) {
    return { path, status: "different", text, data: compareSpecData(ta, tb) };
  }
  return { path, status: "different", text };
}

/** Files under `dir`, relative, sorted (symbolic links are not followed). */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(p);
      else out.push(p);
    }
  };
  await walk("");
  return out.sort();
}

/** Compares every file of two directories (the union of their files, sorted). */
export async function compareDirs(a: string, b: string): Promise<FileComparison[]> {
  const [fa, fb] = [await listFiles(a), await listFiles(b)];
  const all = [...new Set([...fa, ...fb])].sort();
  const out: FileComparison[] = [];
  for (const path of all) {
    if (!fb.includes(path)) out.push({ path, status: "only A" });
    else if (!fa.includes(path)) out.push({ path, status: "only B" });
    else {out.push(
        compareFile(path, await Deno.readFile(`${a}/${path}`), await Deno.readFile(`${b}/${path}`)),
      );}
  }
  return out;
}

/** Whether a comparison counts as equal (identical bytes or the same frame data). */
export function sameFile(c: FileComparison): boolean {
  return c.status === "identical" || c.status === "same data";
}

/**
 * A comparison as lines: `identical  <path>` or `DIFFERENT <path>: <first difference>`, then, for
 * frames, up to `maxRows` differing rows (labels name the sides, e.g. HEAD and 7398c4e).
 */
export function formatFile(
  c: FileComparison,
  labels: { a: string; b: string },
  maxRows = 20,
): string[] {
  const { a, b } = labels;
  if (c.status === "identical") return [`identical  ${c.path}`];
  if (c.status === "same data") {
    return [`identical  ${c.path} (same schema and rows; bytes differ)`];
  }
  if (c.status === "only A") return [`DIFFERENT  ${c.path}: only in ${a}`];
  if (c.status === "only B") return [`DIFFERENT  ${c.path}: only in ${b}`];
  if (c.byte !== undefined) {
    return [`DIFFERENT  ${c.path}: binary, first difference at byte ${c.byte}`];
  }
  const r = c.rows;
  if (r && (r.changed.length || r.onlyA.length || r.onlyB.length || r.schema.length)) {
    const lines = [
      `DIFFERENT  ${c.path}: ${r.changed.length} of ${r.rowsA} rows changed, ${r.onlyA.length} only in ${a}, ` +
      `${r.onlyB.length} only in ${b}` +
      (r.schema.length ? `; schema: ${r.schema.join("; ")}` : ""),
    ];
    const rows = [
      ...r.changed.map((x) =>
        `    ${x.key}: ` + x.changes.map((d) => `${d.column} ${a} ${d.a} → ${b} ${d.b}`).join(", ")
      ),
      ...r.onlyA.map((k) => `    ${k}: only in ${a}`),
      ...r.onlyB.map((k) => `    ${k}: only in ${b}`),
    ];
    lines.push(...rows.slice(0, maxRows));
    if (rows.length > maxRows) lines.push(`    … and ${rows.length - maxRows} more rows`);
    return lines;
  }
  const t = c.text!;
  const lines = [
    `DIFFERENT  ${c.path}: line ${t.line}, column ${t.column} ` +
    `(${t.lines === 1 ? "1 line differs" : `${t.lines} lines differ`} in place; ` +
    `${t.linesA} lines in ${a}, ${t.linesB} in ${b})`,
    `    ${a}: ${JSON.stringify(t.a)}`,
    `    ${b}: ${JSON.stringify(t.b)}`,
  ];
  const d = c.data;
  if (d && !d.onlyA.length && !d.onlyB.length) {
    lines.push(`    plotted data: the same ${d.rowsA} rows (only the spec's styling differs)`);
  } else if (d) {
    const n = d.numbers;
    lines.push(
      `    plotted data differs: ${d.onlyA.length} of ${d.rowsA} rows only in ${a}, ` +
        `${d.onlyB.length} of ${d.rowsB} only in ${b}; numbers in them: ` +
        (n.onlyA || n.onlyB
          ? `${n.onlyA} of ${n.a} only in ${a}, ${n.onlyB} of ${n.b} only in ${b}`
          : `the same ${n.a}`),
    );
    const cut = (r: string) => r.length > 200 ? `${r.slice(0, 200)}…` : r;
    for (const r of d.onlyA.slice(0, 2)) lines.push(`      e.g. ${a}: ${cut(r)}`);
    for (const r of d.onlyB.slice(0, 2)) lines.push(`      e.g. ${b}: ${cut(r)}`);
  }
  return lines;
}
