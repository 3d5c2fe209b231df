/**
 * `openScored(dir)`: the scored frames of a `score --out <dir>` directory as lazy Polars frames,
 * with SQL over them (nodejs-polars `SQLContext`) and the ready-made views of `./views.ts`.
 *
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  checkShards,
  type ColumnType,
  DTYPE_SHORT_NAMES,
  FRAME_SCHEMAS,
  RATE_COLUMNS,
  scanScored,
} from "../frames/mod.ts";
import { existsSync } from "../util/mod.ts";
import { type Catalog, checkTables, explainError, QueryError } from "./errors.ts";
import { type View, VIEWS } from "./views.ts";

/** Base tables, in listing order; each is read from `<dir>/<name>.parquet`. */
export const TABLES = ["turns", "targets", "events", "tests", "configs", "errors"] as const;

/** The column schema of each base table (lib/frames/schema.ts). */
const SCHEMAS: Record<typeof TABLES[number], Record<string, ColumnType>> = FRAME_SCHEMAS;

/** A column as `--schema` lists it. */
export interface ColumnInfo {
  name: string;
  /** Schema-style dtype name: str, i32, f64, bool, str[], u32, … */
  type: string;
}

/** A table or view of the context. */
export interface TableInfo {
  name: string;
  kind: "table" | "view";
  /** The file a table is read from, or the view's SQL. */
  source: string;
  /** What a row is (views). */
  doc?: string;
  columns: ColumnInfo[];
}

/** Schema-style name of a Polars dtype (`str`, `i32`, `f64`, `bool`, `str[]`, …). */
export function typeName(dtype: pl.DataType): string {
  return nameOf(String(dtype));
}

/** `DataType(List(DataType(String)))` → `str[]`. */
function nameOf(text: string): string {
  const m = text.match(/^DataType\((.*)\)$/);
  const inner = m ? m[1] : text;
  const list = inner.match(/^(?:List|Array)\((.*)\)$/);
  if (list) return `${nameOf(list[1])}[]`;
  return DTYPE_SHORT_NAMES[inner] ?? inner.toLowerCase();
}

function firstLine(e: unknown): string {
  return String(e instanceof Error ? e.message : e).split("\n")[0].replace(/^Error: /, "");
}

/** The native plan of a lazy frame is an Error object when Polars SQL rejected the query. */
function planError(lf: pl.LazyDataFrame): Error | undefined {
  const inner = (lf as unknown as { _ldf: unknown })._ldf;
  return inner instanceof Error ? inner : undefined;
}

/**
 * Refuses a table whose known numeric columns hold values no scorer writes: a rate outside
 * [0, 1] or NaN, a count below 0, an amount that is not a finite number ≥ 0 — what a flipped bit
 * or a foreign file looks like. Reads those columns once (one pass, min/max/counts).
 */
function checkRanges(lf: pl.LazyDataFrame, schema: Record<string, ColumnType>, file: string) {
  const dtypes = lf.limit(0).collectSync();
  const checks = dtypes.columns.flatMap((name, i) => {
    const variant = String((dtypes.dtypes[i] as unknown as { variant: string }).variant);
    const type = schema[name];
    if (!/^(U?Int|Float)/.test(variant) || (type !== "i32" && type !== "f64")) return [];
    const c = pl.col(name);
    const float = variant.startsWith("Float");
    const rate = RATE_COLUMNS.has(name);
    const bad = rate
      ? c.lt(0).or(c.gt(1)).or(c.isNan())
      : float
      ? c.lt(0).or(c.isNan()).or(c.isInfinite())
      : c.lt(0);
    const what = rate ? "outside [0, 1]" : float ? "that is not a finite number ≥ 0" : "below 0";
    return [{ name, float, what, bad }];
  });
  if (!checks.length) return;
  let row: Record<string, unknown>;
  try {
    row = lf.select(
      ...checks.flatMap(({ name, float, bad }) => [
        bad.sum().alias(`${name}\0bad`),
        pl.col(name).min().alias(`${name}\0min`),
        pl.col(name).max().alias(`${name}\0max`),
        (float ? pl.col(name).isNan().sum() : pl.lit(0)).alias(`${name}\0nan`),
      ]),
    ).collectSync().toRecords()[0];
  } catch (e) {
    throw new QueryError(`cannot read ${file}: ${firstLine(e)}`);
  }
  for (const { name, what } of checks) {
    const n = Number(row[`${name}\0bad`] ?? 0);
    if (!n) continue;
    const min = Number(row[`${name}\0min`]);
    const example = Number(row[`${name}\0nan`]) ? NaN : min < 0 ? min : Number(row[`${name}\0max`]);
    throw new QueryError(
      `${file}: column ${name} holds ${n} value${n === 1 ? "" : "s"} ${what} (e.g. ${example}): ` +
        `the file is damaged or was not written by 'reporeuse score'; not queried`,
    );
  }
}

/**
 * Reads one base table lazily — flat or hive layout, of one directory or of the directories of a
 * run's shards (lib/frames `scanScored`); errors.csv (what `score` writes) is read when there is
 * no Parquet.
 */
function scanTable(
  dirs: readonly string[],
  name: typeof TABLES[number],
): { lf: pl.LazyDataFrame; source: string } | undefined {
  let scanned: ReturnType<typeof scanScored>;
  try {
    scanned = scanScored(dirs, name);
    void scanned?.lf.columns; // reads the footers: a damaged file fails here, named
  } catch (e) {
    throw new QueryError(firstLine(e)); // names the file
  }
  if (scanned) {
    const source = scanned.sources.join(", ");
    checkRanges(scanned.lf, SCHEMAS[name] ?? {}, source);
    return { lf: scanned.lf, source };
  }
  const csv = join(dirs[0], `${name}.csv`);
  if (name === "errors" && dirs.length === 1 && existsSync(csv)) {
    try {
      let df = pl.readCSV(csv, { inferSchemaLength: 0 }); // all columns as text
      if (df.columns.includes("turn")) {
        df = df.withColumn(pl.col("turn").cast(pl.Int32));
      }
      return { lf: df.lazy(), source: csv };
    } catch (e) {
      throw new QueryError(`cannot read ${csv}: ${firstLine(e)}`);
    }
  }
  return undefined;
}

/**
 * The scored frames of one directory, queryable with SQL.
 *
 * Tables: `turns`, `targets`, `events`, `tests`, `configs`, `errors` (those present in the
 * directory); views: `missed_targets`, `reimplementations`, `flips`, `event_paths`,
 * `target_reads` (see `docs/queries.md`).
 */
export class ScoredQuery {
  /** The scored directory. */
  readonly dir: string;
  /** The Polars SQL context holding every table and view. */
  readonly context: ReturnType<typeof pl.SQLContext>;
  /** Every table and view as a lazy frame (nothing is read until collected). */
  readonly frames: Record<string, pl.LazyDataFrame> = {};
  /** View names, in registration order. */
  readonly views: string[] = [];
  /** Tables and views that could not be registered → why (one line). */
  readonly unavailable: Record<string, string> = {};
  readonly #info: Record<string, Omit<TableInfo, "columns">> = {};
  readonly #catalog: Catalog = {};

  constructor(
    dir: string,
    tables: Record<string, { lf: pl.LazyDataFrame; source: string }>,
    inMemory = false,
  ) {
    this.dir = dir;
    this.context = pl.SQLContext();
    for (const [name, { lf, source }] of Object.entries(tables)) {
      this.#add(name, lf, { name, kind: "table", source });
    }
    for (const name of TABLES) {
      if (name in tables) continue;
      this.unavailable[name] = inMemory ? `no ${name} frame given` : `no ${name}.parquet in ${dir}`;
    }
    for (const view of VIEWS) this.#addView(view);
  }

  #add(name: string, lf: pl.LazyDataFrame, info: Omit<TableInfo, "columns">) {
    this.context.register(name, lf);
    this.frames[name] = lf;
    this.#catalog[name] = lf.columns;
    this.#info[name] = info;
  }

  #addView(view: View) {
    const missing = view.needs.filter((n) => !(n in this.#catalog));
    if (missing.length) {
      this.unavailable[view.name] = `view '${view.name}' is unavailable: it needs ` +
        missing.map((n) => this.unavailable[n] ? `'${n}' (${this.unavailable[n]})` : `'${n}'`)
          .join(", ");
      return;
    }
    const lf = this.context.execute(view.sql);
    const err = planError(lf);
    if (err) {
      this.unavailable[view.name] = `view '${view.name}' does not fit the frames in ${this.dir}: ${
        firstLine(err)
      }`;
      return;
    }
    this.#add(view.name, lf, { name: view.name, kind: "view", source: view.sql, doc: view.doc });
    this.views.push(view.name);
  }

  /** Table and view names → their column names. */
  catalog(): Catalog {
    return structuredClone(this.#catalog);
  }

  /** Tables then views, with column names and dtypes (reads Parquet footers only). */
  schema(): TableInfo[] {
    return Object.values(this.#info).map((info) => {
      const df = this.frames[info.name].limit(0).collectSync();
      return {
        ...info,
        columns: df.columns.map((name, i) => ({ name, type: typeName(df.dtypes[i]) })),
      };
    });
  }

  /**
   * A query as a lazy frame. Unknown tables are caught before Polars runs; SQL Polars rejects is
   * a {@link QueryError} whose one-line message names the wrong table or column.
   */
  lazy(query: string): pl.LazyDataFrame {
    const sql = query.trim().replace(/;\s*$/, "");
    if (!sql) throw new QueryError("empty query");
    checkTables(sql, this.#catalog, this.views, this.unavailable);
    const lf = this.context.execute(sql);
    const err = planError(lf);
    if (err) throw explainError(err.message, sql, this.#catalog, this.views);
    return lf;
  }

  /**
   * Runs a query and returns the result frame.
   *
   * @example
   * ```ts
   * import { openScored } from "./open.ts";
   * const dir = await Deno.makeTempDir();
   * const { default: pl } = await import("nodejs-polars");
   * pl.DataFrame({ model: ["a", "a", "b"], reuse_repo: [1, 0.5, 0] })
   *   .writeParquet(`${dir}/turns.parquet`);
   * const q = await openScored(dir);
   * const df = q.sql("SELECT model, AVG(reuse_repo) AS reuse FROM turns GROUP BY model ORDER BY model");
   * if (JSON.stringify(df.toRecords()) !== '[{"model":"a","reuse":0.75},{"model":"b","reuse":0}]') {
   *   throw new Error(JSON.stringify(df.toRecords()));
   * }
   * ```
   */
  sql(query: string): pl.DataFrame {
    const lf = this.lazy(query);
    try {
      return lf.collectSync();
    } catch (e) {
      throw explainError(firstLine(e), query, this.#catalog, this.views);
    }
  }
}

/**
 * Opens a scored directory (what `deno task reporeuse score <corpus> --out <dir>` writes, flat or
 * `--partitioned`), or the N directories of a run's shards (`score --shard i/N`), which are
 * queried as that one run. Tables are lazy: a query reads only what it needs.
 * Throws a one-line {@link QueryError} when a directory is missing, holds no scored frames, a file
 * cannot be read, or the directories are not the complete shards of one run.
 */
export async function openScored(dir: string | readonly string[]): Promise<ScoredQuery> {
  const dirs = typeof dir === "string" ? [dir] : [...dir];
  if (!dirs.length) throw new QueryError("no scored directory given");
  for (const d of dirs) {
    let stat: Deno.FileInfo;
    try {
      stat = await Deno.stat(d);
    } catch {
      throw new QueryError(
        `scored directory '${d}' not found (write it with: deno task reporeuse score <corpus> --out ${d})`,
      );
    }
    if (!stat.isDirectory) throw new QueryError(`scored directory '${d}' is not a directory`);
  }
  try {
    checkShards(dirs);
  } catch (e) {
    throw new QueryError(firstLine(e));
  }
  const tables: Record<string, { lf: pl.LazyDataFrame; source: string }> = {};
  for (const name of TABLES) {
    const t = scanTable(dirs, name);
    if (t) tables[name] = t;
  }
  const label = dirs.join(", ");
  if (Object.keys(tables).length === 0) {
    throw new QueryError(
      `no scored frames in '${label}' (expected ${TABLES.map((t) => `${t}.parquet`).join(", ")})`,
    );
  }
  return new ScoredQuery(label, tables);
}

/**
 * Queries frames already in memory (e.g. what `scoreCorpus` returned), without a directory.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { fromFrames } from "./open.ts";
 * const q = fromFrames({ configs: pl.DataFrame({ model: ["a", "b"], turns: [5, 3] }) });
 * const n = q.sql("SELECT SUM(turns) AS n FROM configs").getColumn("n").get(0);
 * if (n !== 8) throw new Error(String(n));
 * ```
 */
export function fromFrames(
  frames: Partial<Record<typeof TABLES[number], pl.DataFrame | pl.LazyDataFrame | undefined>>,
  label = "(in memory)",
): ScoredQuery {
  const tables: Record<string, { lf: pl.LazyDataFrame; source: string }> = {};
  for (const name of TABLES) {
    const f = frames[name];
    if (!f) continue;
    const lf = pl.DataFrame.isDataFrame(f) ? (f as pl.DataFrame).lazy() : f as pl.LazyDataFrame;
    tables[name] = { lf, source: label };
  }
  if (Object.keys(tables).length === 0) throw new QueryError("no scored frames given");
  return new ScoredQuery(label, tables, true);
}
