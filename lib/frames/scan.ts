/**
 * Reading scored directories lazily (Polars `scanParquet`: nothing is read until a query is
 * collected, and then only the columns and row groups it needs), whatever their layout — flat
 * (`turns.parquet`, …) or hive (`turns/harness=…/model=…/memory=…/part-….parquet`, lib/frames/
 * sink.ts) — and across the directories of the shards of one run (`score --shard i/N`), which
 * together are that run: frames concatenated, `configs` summed per configuration.
 *
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { existsSync } from "../util/mod.ts";
import { dtypeOf } from "./build.ts";
import { type ColumnType, CONFIG_KEYS, FRAME_SCHEMAS } from "./schema.ts";
import { MANIFEST, PARTITION_KEYS, type ScoredManifest } from "./sink.ts";

/** A frame of a scored directory. */
export type FrameName = keyof typeof FRAME_SCHEMAS;

/** The manifest of a scored directory (`_scored.json`), or undefined (written before it existed). */
export function readManifest(dir: string): ScoredManifest | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(dir, MANIFEST));
  } catch {
    // no manifest: not a streamed directory
    return undefined;
  }
  const m = JSON.parse(text);
  if (m?.format !== "reporeuse-scored") throw new Error(`${join(dir, MANIFEST)}: not a manifest`);
  return m as ScoredManifest;
}

/** Whether a directory holds any `*.parquet` file (at any depth, hidden names left out). */
function hasParquet(dir: string): boolean {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    // a directory that cannot be listed holds no partitions
    return false;
  }
  return entries.some((e) =>
    !e.name.startsWith(".") &&
    (e.isFile ? e.name.endsWith(".parquet") : e.isDirectory && hasParquet(join(dir, e.name)))
  );
}

/** Casts (and orders) a lazy frame's columns to a schema; a missing column is all null. */
function conformLazy(lf: pl.LazyDataFrame, schema: Record<string, ColumnType>): pl.LazyDataFrame {
  const have = new Set(lf.columns);
  return lf.select(
    ...Object.entries(schema).map(([name, t]) =>
      have.has(name)
        ? pl.col(name).cast(dtypeOf(t)).alias(name)
        : pl.lit(null).cast(dtypeOf(t)).alias(name)
    ),
  );
}

/**
 * One frame of one scored directory as a lazy frame with the schema's columns and dtypes, and
 * the path it reads (a file, or a hive directory's glob); undefined when the directory has none.
 */
export function scanFrame(
  dir: string,
  name: FrameName,
): { lf: pl.LazyDataFrame; source: string } | undefined {
  const schema = FRAME_SCHEMAS[name];
  const flat = join(dir, `${name}.parquet`);
  // the columns are read here (the footers): a damaged file fails now, named
  const named = (source: string, f: () => pl.LazyDataFrame) => {
    try {
      return { lf: conformLazy(f(), schema), source };
    } catch (e) {
      const m = String(e instanceof Error ? e.message : e).split("\n")[0].replace(/^Error: /, "");
      throw new Error(`cannot read ${source}: ${m}`);
    }
  };
  if (existsSync(flat)) return named(flat, () => pl.scanParquet(flat));
  const hive = join(dir, name);
  if (!existsSync(hive)) return undefined;
  const glob = join(hive, "**", "*.parquet");
  if (!hasParquet(hive)) {
    // a partitioned frame with no rows: no part files
    return { lf: conformLazy(pl.DataFrame([]).lazy(), schema), source: glob };
  }
  return named(glob, () =>
    pl.scanParquet(
      glob,
      {
        hivePartitioning: true,
        // the partition values are names, never numbers or dates: no type inference
        hiveSchema: Object.fromEntries(PARTITION_KEYS.map((k) => [k, pl.String])),
        tryParseHiveDates: false,
      } as Parameters<typeof pl.scanParquet>[1],
    ));
}

/**
 * Checks that directories holding shards are the shards of one run: every one has a manifest
 * naming the same shard count, scorer and corpus, and each index appears exactly once. A single
 * directory is always fine. Throws one line naming what is wrong.
 */
export function checkShards(dirs: readonly string[]): void {
  if (dirs.length < 2) return;
  const ms = dirs.map((d) => {
    const m = readManifest(d);
    if (!m) throw new Error(`${d}: no ${MANIFEST} (not written by 'reporeuse score')`);
    if (!m.shard) throw new Error(`${d}: a whole run, not a shard (score --shard i/N)`);
    return m;
  });
  const n = ms[0].shard!.count;
  const seen = new Map<number, string>();
  ms.forEach((m, i) => {
    if (m.shard!.count !== n) {
      throw new Error(`${dirs[i]}: shard of ${m.shard!.count}, but ${dirs[0]} is a shard of ${n}`);
    }
    if (m.scorer !== ms[0].scorer) {
      throw new Error(`${dirs[i]}: scored by another version of the scorer than ${dirs[0]}`);
    }
    if (m.corpus !== ms[0].corpus) {
      throw new Error(`${dirs[i]}: shard of ${m.corpus}, but ${dirs[0]} of ${ms[0].corpus}`);
    }
    const twice = seen.get(m.shard!.index);
    if (twice) throw new Error(`${dirs[i]}: shard ${m.shard!.index} again (also ${twice})`);
    seen.set(m.shard!.index, dirs[i]);
  });
  const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length) {
    throw new Error(`shards ${missing.map((i) => `${i}/${n}`).join(", ")} missing`);
  }
}

/**
 * One frame of one or more scored directories (the shards of a run, {@link checkShards}) as one
 * lazy frame: rows of every directory (no order promised: sort when order matters), `configs`
 * summed per configuration. Undefined when no directory has the frame.
 */
export function scanScored(
  dirs: string | readonly string[],
  name: FrameName,
): { lf: pl.LazyDataFrame; sources: string[] } | undefined {
  const list = typeof dirs === "string" ? [dirs] : dirs;
  const parts = list.map((d) => scanFrame(d, name)).filter((p) => p !== undefined);
  if (!parts.length) return undefined;
  let lf = parts.length === 1 ? parts[0].lf : pl.concat(parts.map((p) => p.lf));
  if (name === "configs" && parts.length > 1) {
    lf = conformLazy(
      lf.groupBy([...CONFIG_KEYS]).agg(pl.col("chains").sum(), pl.col("turns").sum()),
      FRAME_SCHEMAS.configs,
    );
  }
  return { lf, sources: parts.map((p) => p.source) };
}
