/**
 * Building typed nodejs-polars DataFrames from plain rows, exactly per lib/frames/schema.ts:
 * explicit dtypes (ints cast to Int32 — JS numbers would arrive as Float64), nulls where a value
 * is undefined (NaN too), and a deterministic sort by the frame's join keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toFrame } from "./build.ts";
 * const df = toFrame([{ k: "b", n: 2 }, { k: "a", n: null }], { k: "str", n: "i32" }, ["k"]);
 * assert.deepEqual(df.getColumn("k").toArray(), ["a", "b"]);
 * assert.equal(String(df.getColumn("n").dtype), "DataType(Int32)");
 * assert.deepEqual(df.getColumn("n").toArray(), [null, 2]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { type Columns, type ColumnType, missingValue, type RowOf, typeOf } from "./schema.ts";

/** The polars dtype of a schema column type. */
export function dtypeOf(t: ColumnType): pl.DataType {
  switch (t) {
    case "str":
      return pl.String;
    case "i32":
      return pl.Int32;
    case "i64":
      return pl.Int64;
    case "f64":
      return pl.Float64;
    case "bool":
      return pl.Bool;
    case "str[]":
      return pl.List(pl.String);
  }
}

function clean(v: unknown, t: ColumnType): unknown {
  if (v === undefined || v === null) return t === "str[]" ? [] : null;
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  return v;
}

const SEP = "\u0000";

/** One typed Series (list elements must not contain NUL characters). */
export function column(name: string, values: unknown[], t: ColumnType): pl.Series {
  const vals = values.map((v) => clean(v, t));
  switch (t) {
    case "i32":
    case "i64":
      return pl.Series(name, vals as (number | null)[], pl.Float64).cast(dtypeOf(t));
    case "str[]": {
      // building list series element by element is slow (~8 µs per row); instead join each list
      // with a leading separator per element, split, and drop the empty head: "" → [], "\0a" → ["a"]
      const joined = (vals as string[][]).map((v) => v.map((x) => SEP + x).join(""));
      const split = pl.Series(name, joined, pl.String).str.split(SEP);
      return pl.DataFrame([split]).select(pl.col(name).lst.slice(1, 2 ** 31 - 1)).getColumn(name);
    }
    default:
      return pl.Series(name, vals, dtypeOf(t));
  }
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

/** Sorts rows by the given keys (nulls first), in place, and returns them. */
export function sortRows<T>(rows: T[], keys: readonly string[]): T[] {
  const cmp = (x: T, y: T) => {
    for (const k of keys) {
      const c = compare((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
      if (c) return c;
    }
    return 0;
  };
  // rows usually arrive sorted (the scorer assembles them in key order): check in one pass
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) sorted = cmp(rows[i - 1], rows[i]) <= 0;
  return sorted ? rows : rows.sort(cmp);
}

/** A DataFrame with exactly the schema's columns (in its order), rows sorted by `keys`. */
export function toFrame(
  rows: readonly object[],
  schema: Record<string, ColumnType>,
  keys: readonly string[],
): pl.DataFrame {
  const sorted = sortRows([...rows] as Record<string, unknown>[], keys);
  return pl.DataFrame(
    Object.entries(schema).map(([name, t]) => column(name, sorted.map((r) => r[name]), t)),
  );
}

/** Casts a frame read back from disk to the schema's dtypes (missing columns become nulls). */
export function conform(df: pl.DataFrame, schema: Record<string, ColumnType>): pl.DataFrame {
  const cols = Object.entries(schema).map(([name, t]) => {
    if (!df.columns.includes(name)) return column(name, new Array(df.height).fill(null), t);
    const s = df.getColumn(name);
    return String(s.dtype) === String(dtypeOf(t)) ? s : s.cast(dtypeOf(t));
  });
  return pl.DataFrame(cols);
}

/** A value of a declared column's type from whatever a frame holds (null when it cannot be). */
function decode(v: unknown, t: ColumnType): unknown {
  if (v === null || v === undefined) return null;
  switch (t) {
    case "str":
      return String(v);
    case "i32":
    case "i64":
    case "f64": {
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    }
    case "bool":
      return typeof v === "boolean"
        ? v
        : typeof v === "number"
        ? v !== 0
        : typeof v === "string"
        ? v === "true" || v === "1"
        : null;
    case "str[]":
      return Array.isArray(v) ? v.map(String) : null;
  }
}

/**
 * Typed rows of a frame with declared columns (lib/metrics/rows.ts): every declared column of
 * every row, its value coerced to the declared type (integers read back as Float64, booleans
 * written as 0/1 or text by another tool); a missing or null value of a non-nullable column
 * becomes its zero (`""`, 0, false, []), of a nullable one null. Columns the frame has but the
 * declaration does not are left out. Throws naming the `required` columns the frame lacks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { decodeRows } from "./build.ts";
 * const cols = { k: ["str", "key"], n: ["i32", "count"], r: ["f64?", "rate"] } as const;
 * const df = pl.DataFrame({ k: ["a"], n: [2.0], extra: [1] });
 * assert.deepEqual(decodeRows(df, cols), [{ k: "a", n: 2, r: null }]);
 * assert.throws(() => decodeRows(df, cols, ["r"]), /lacks column\(s\) r/);
 * ```
 */
export function decodeRows<C extends Columns>(
  df: pl.DataFrame,
  columns: C,
  required: readonly (keyof C & string)[] = [],
): RowOf<C>[] {
  const have = new Set(df.columns);
  const missing = required.filter((c) => !have.has(c));
  if (missing.length) {
    throw new Error(`frame lacks column(s) ${missing.join(", ")} (see lib/metrics/rows.ts)`);
  }
  const decls = Object.entries(columns).map(([name, d]) => ({ name, d, t: typeOf(d) }));
  return (df.toRecords() as Record<string, unknown>[]).map((r) => {
    const row: Record<string, unknown> = {};
    for (const { name, d, t } of decls) {
      const v = decode(r[name], t);
      row[name] = v === null ? missingValue(d) : v;
    }
    return row as RowOf<C>;
  });
}

/** Plain row objects of a frame (null kept, lists as arrays). */
export function rowsOf<T>(df: pl.DataFrame): T[] {
  return df.toRecords() as unknown as T[];
}

/**
 * Like {@link toFrame} for frames at a finer grain than a turn (targets, events, tests): the key
 * columns, repeated on every row, are built once per turn and joined in natively, which avoids
 * converting hundreds of thousands of repeated strings. Rows end sorted by `keys` then `within`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toKeyedFrame } from "./build.ts";
 * const rows = [{ k: "b", i: 1, v: "x" }, { k: "a", i: 2, v: "y" }, { k: "a", i: 1, v: "z" }];
 * const df = toKeyedFrame(rows, { k: "str", i: "i32", v: "str" }, ["k"], ["i"]);
 * assert.deepEqual(df.getColumn("v").toArray(), ["z", "y", "x"]);
 * assert.deepEqual(df.columns, ["k", "i", "v"]);
 * ```
 */
export function toKeyedFrame(
  rows: readonly object[],
  schema: Record<string, ColumnType>,
  keys: readonly string[],
  within: readonly string[],
): pl.DataFrame {
  const recs = rows as Record<string, unknown>[];
  const { groups, ids } = groupByKeys(recs, keys);
  // rank the groups in key order so that sorting by (rank, within) is the full sort
  const order: Record<string, unknown>[] = sortRows(groups.map((g, i) => ({ ...g, __g: i })), keys);
  const rank = new Array<number>(groups.length);
  order.forEach((g, r) => (rank[g.__g as number] = r));
  const rowRank = ids.map((g) => rank[g]);
  // key columns: one value per group, gathered natively onto the rows
  const keyColumns = new Map(
    keys.map((k) => [k, column(k, order.map((g) => g[k]), schema[k]).gather(rowRank)] as const),
  );
  const columns = Object.entries(schema).map(([name, t]) =>
    keyColumns.get(name) ?? column(name, recs.map((r) => r[name]), t)
  );
  const df = pl.DataFrame(columns);
  // already in (keys, within) order? (the scorer assembles rows that way)
  if (inRankOrder(recs, rowRank, within)) return df;
  return df
    .withColumn(column("__rank", rowRank, "i32"))
    .sort(["__rank", ...within])
    .select(...Object.keys(schema));
}

/**
 * The distinct key tuples of the rows (`groups`, each holding only the key columns, in order of
 * first appearance) and each row's group index (`ids`).
 */
function groupByKeys(
  recs: readonly Record<string, unknown>[],
  keys: readonly string[],
): { groups: Record<string, unknown>[]; ids: number[] } {
  const index = new Map<string, number>();
  const groups: Record<string, unknown>[] = [];
  const ids = new Array<number>(recs.length);
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    // rows usually come grouped: same keys as the previous row → same group
    if (i > 0 && keys.every((k) => r[k] === recs[i - 1][k])) {
      ids[i] = ids[i - 1];
      continue;
    }
    const id = keys.map((k) => String(r[k] ?? "\u0001")).join("\u0000");
    let g = index.get(id);
    if (g === undefined) {
      g = groups.length;
      index.set(id, g);
      const key: Record<string, unknown> = {};
      for (const k of keys) key[k] = r[k];
      groups.push(key);
    }
    ids[i] = g;
  }
  return { groups, ids };
}

/** Whether rows are already sorted by their group's rank, then by the `within` columns. */
function inRankOrder(
  recs: readonly Record<string, unknown>[],
  rowRank: readonly number[],
  within: readonly string[],
): boolean {
  for (let i = 1; i < recs.length; i++) {
    const d = rowRank[i] - rowRank[i - 1];
    if (d < 0) return false;
    if (d > 0) continue;
    for (const w of within) {
      const c = compare(recs[i - 1][w], recs[i][w]);
      if (c < 0) break;
      if (c > 0) return false;
    }
  }
  return true;
}
