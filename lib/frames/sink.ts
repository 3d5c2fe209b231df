/**
 * Writing scored rows as they are produced, in flat memory: {@link FrameSink} takes each
 * (configuration, chain)'s rows in key order (lib/frames/score.ts `scoreStream`), keeps at most a
 * batch of them, and writes every full batch as Parquet part files — so the memory of `score` is
 * bounded by the workers, the batch and the largest turn, not by the number of turns.
 *
 * Two layouts of a scored directory (docs/scale.md):
 *
 * - **flat** (default, what `score` always wrote): `turns.parquet`, `targets.parquet`,
 *   `events.parquet`, `tests.parquet` — the parts concatenated at the end by Polars' streaming
 *   engine (`scanParquet(…).sinkParquet(…)`, never the whole frame in memory) — plus `turns.csv`
 *   and `targets.csv`, appended batch by batch;
 * - **hive** (`score --partitioned`): `<frame>/harness=<h>/model=<m>/memory=<x>/part-….parquet`,
 *   one directory per configuration (values percent-encoded: every byte outside
 *   `[A-Za-z0-9_.-]` as `%XX`, which Polars, DuckDB and Spark all decode), the partition columns
 *   only in the path, as Hive, Spark, DuckDB and Polars expect; `turns` and `targets` parts also
 *   as `part-….csv` with every column, for readers without a Parquet engine (Debian's Dask).
 *   Files are written under a name starting with `.` and renamed, so no engine sees half a file.
 *
 * Both hold `configs.parquet`, `errors.csv`, `errors.parquet` and `_scored.json` (the
 * {@link ScoredManifest}: layout, shard, corpus, scorer, counts), written last.
 *
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { toFrame, toKeyedFrame } from "./build.ts";
import {
  CONFIG_KEYS,
  type ConfigRow,
  CONFIGS_SCHEMA,
  type ErrorRow,
  ERRORS_SCHEMA,
  EVENTS_SCHEMA,
  TARGETS_SCHEMA,
  TESTS_SCHEMA,
  TURN_KEYS,
  type TurnRow,
  TURNS_SCHEMA,
} from "./schema.ts";
import type { GroupRows, Shard } from "./score.ts";
import type { ConfigSpec } from "../layout/mod.ts";

/** The frames written part by part, with the columns each is sorted by within a turn. */
export const STREAMED_FRAMES = {
  turns: { schema: TURNS_SCHEMA, within: [] as string[] },
  targets: { schema: TARGETS_SCHEMA, within: ["target"] },
  events: { schema: EVENTS_SCHEMA, within: ["idx"] },
  tests: { schema: TESTS_SCHEMA, within: ["case"] },
} as const;

/** A frame written part by part. */
export type StreamedFrame = keyof typeof STREAMED_FRAMES;

/** The partition columns of the hive layout, in directory order. */
export const PARTITION_KEYS = CONFIG_KEYS;

/** Frames of the flat layout that also get a CSV file. */
const CSV_FRAMES: readonly StreamedFrame[] = ["turns", "targets"];

/** `_scored.json`: what a scored directory holds. */
export interface ScoredManifest {
  format: "reporeuse-scored";
  version: 1;
  layout: "flat" | "hive";
  /** The corpus directory as given to `score`. */
  corpus: string;
  /** The shard this directory holds, or null for a whole corpus. */
  shard: Shard | null;
  /** lib/frames `scorerCodeHash()`: outputs of different scorers are never merged. */
  scorer: string;
  /** Rows written: turns scored, and turns found (scored + those in errors). */
  turns: number;
  found: number;
  errors: number;
}

/** Name of the manifest file. */
export const MANIFEST = "_scored.json";

/** Options of a {@link FrameSink}. */
export interface SinkOptions {
  /** Write the hive layout instead of the flat one. */
  partitioned?: boolean;
  /** Rows (of all four frames together) kept before a batch is written (default 50,000). */
  batchRows?: number;
  /** The shard being written (names its part files). */
  shard?: Shard;
}

/**
 * A partition value as a path segment: every byte outside `[A-Za-z0-9_.-]` as `%XX`, and a value
 * of dots only (`.`, `..`) wholly encoded, so that it never names a directory of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { partitionValue } from "./sink.ts";
 * assert.equal(partitionValue("GPT-5.6 Terra"), "GPT-5.6%20Terra");
 * assert.equal(partitionValue("a/b=c"), "a%2Fb%3Dc");
 * assert.equal(partitionValue("é"), "%C3%A9");
 * assert.equal(partitionValue(".."), "%2E%2E"); // never a path of its own
 * ```
 */
export function partitionValue(v: string): string {
  if (/^\.+$/.test(v)) return [...v].map(() => "%2E").join("");
  return v.replace(
    /[^A-Za-z0-9_.-]/gu,
    (c) =>
      [...new TextEncoder().encode(c)].map((b) =>
        `%${b.toString(16).toUpperCase().padStart(2, "0")}`
      )
        .join(""),
  );
}

/** The directory of a configuration's partition (relative to the frame's directory). */
export function partitionDir(key: { harness: string; model: string; memory: string }): string {
  return PARTITION_KEYS.map((k) => `${k}=${partitionValue(key[k])}`).join("/");
}

/** Writes streamed rows to a scored directory (see the module doc). */
export class FrameSink {
  readonly dir: string;
  readonly #partitioned: boolean;
  readonly #batchRows: number;
  readonly #tag: string;
  #buffer: GroupRows = { turns: [], targets: [], events: [], tests: [] };
  #buffered = 0;
  /** Configuration key of the buffered rows (hive: a batch never spans two partitions). */
  #bufferKey: string | undefined;
  #seq = 0;
  #csvStarted = new Set<StreamedFrame>();
  /** Turns and chains written per configuration (the `configs` frame). */
  readonly #perConfig = new Map<string, ConfigRow & { chainSet: Set<string> }>();
  #turns = 0;

  constructor(dir: string, opts: SinkOptions = {}) {
    this.dir = dir;
    this.#partitioned = opts.partitioned ?? false;
    this.#batchRows = opts.batchRows ?? 50_000;
    this.#tag = opts.shard ? `s${opts.shard.index}of${opts.shard.count}-` : "";
  }

  /** Turns written so far. */
  get turns(): number {
    return this.#turns;
  }

  /** Takes one group's rows (groups in key order); writes a batch when one is full. */
  add(g: GroupRows): void {
    if (!g.turns.length) return;
    const t = g.turns[0];
    const key = configKey(t);
    if (this.#partitioned && this.#bufferKey !== undefined && key !== this.#bufferKey) {
      this.#flush();
    }
    this.#bufferKey = key;
    for (const k of Object.keys(STREAMED_FRAMES) as StreamedFrame[]) {
      for (const r of g[k]) (this.#buffer[k] as unknown[]).push(r);
      this.#buffered += g[k].length;
    }
    let c = this.#perConfig.get(key);
    if (!c) {
      c = {
        harness: t.harness,
        model: t.model,
        memory: t.memory,
        chains: 0,
        turns: 0,
        chainSet: new Set(),
      };
      this.#perConfig.set(key, c);
    }
    c.turns += g.turns.length;
    c.chainSet.add(t.chain);
    c.chains = c.chainSet.size;
    this.#turns += g.turns.length;
    if (this.#buffered >= this.#batchRows) this.#flush();
  }

  /** Writes the buffered rows as one part per frame (and appends the flat CSV files). */
  #flush(): void {
    if (!this.#buffer.turns.length) return;
    const seq = String(this.#seq++).padStart(6, "0");
    const first = this.#buffer.turns[0];
    // the batch leaves the sink now, and each frame's rows leave the batch once its columns are
    // built: a frame's rows are not held while the frames after it are built and written
    const batch = this.#buffer;
    this.#buffer = { turns: [], targets: [], events: [], tests: [] };
    this.#buffered = 0;
    for (const frame of Object.keys(STREAMED_FRAMES) as StreamedFrame[]) {
      let df = takeFrame(batch, frame);
      if (this.#partitioned) {
        const dir = join(this.dir, frame, partitionDir(first));
        Deno.mkdirSync(dir, { recursive: true });
        const file = `part-${this.#tag}${seq}`;
        if (CSV_FRAMES.includes(frame)) {
          // for readers without a Parquet engine (Debian's Dask): every column, as flat CSV has
          const text = df.writeCSV({ includeHeader: true }).toString();
          Deno.writeTextFileSync(join(dir, `.${file}.csv.tmp`), text);
          Deno.renameSync(join(dir, `.${file}.csv.tmp`), join(dir, `${file}.csv`));
        }
        df = df.drop(...PARTITION_KEYS);
        df.writeParquet(join(dir, `.${file}.parquet.tmp`), { compression: "zstd" });
        Deno.renameSync(join(dir, `.${file}.parquet.tmp`), join(dir, `${file}.parquet`));
      } else {
        const dir = join(this.dir, ".parts", frame);
        Deno.mkdirSync(dir, { recursive: true });
        df.writeParquet(join(dir, `part-${seq}.parquet`), { compression: "zstd" });
        if (CSV_FRAMES.includes(frame)) this.#appendCsv(frame, df);
      }
    }
  }

  #appendCsv(frame: StreamedFrame, df: pl.DataFrame): void {
    const header = !this.#csvStarted.has(frame);
    this.#csvStarted.add(frame);
    const text = df.writeCSV({ includeHeader: header }).toString();
    Deno.writeTextFileSync(join(this.dir, `${frame}.csv`), text, { append: !header });
  }

  /**
   * Writes what is left, the flat files (parts concatenated by Polars' streaming engine),
   * `configs`, `errors` and the manifest; returns the manifest.
   */
  async finish(
    run: { errors: ErrorRow[]; configs: ConfigSpec[]; found: number },
    manifest: Pick<ScoredManifest, "corpus" | "scorer" | "shard">,
  ): Promise<ScoredManifest> {
    this.#flush();
    if (!this.#partitioned) {
      for (const [name, { schema }] of Object.entries(STREAMED_FRAMES)) {
        const frame = name as StreamedFrame;
        const parts = join(this.dir, ".parts", frame);
        const out = join(this.dir, `${frame}.parquet`);
        if (this.#seq > 0) await concatParts(parts, out);
        else {
          const empty = toFrame([], schema, []);
          empty.writeParquet(out, { compression: "zstd" });
          if (CSV_FRAMES.includes(frame)) this.#appendCsv(frame, empty);
        }
      }
      // best effort: the parts are merged; a leftover .parts is ignored on reading
      await Deno.remove(join(this.dir, ".parts"), { recursive: true }).catch(() => {});
    }
    const errors = toFrame(run.errors, ERRORS_SCHEMA, [
      "config",
      "chain",
      "turn",
      "path",
      "message",
    ]);
    errors.writeCSV(join(this.dir, "errors.csv"));
    errors.writeParquet(join(this.dir, "errors.parquet"));
    toFrame(this.#configRows(run.configs), CONFIGS_SCHEMA, CONFIG_KEYS)
      .writeParquet(join(this.dir, "configs.parquet"));
    const m: ScoredManifest = {
      format: "reporeuse-scored",
      version: 1,
      layout: this.#partitioned ? "hive" : "flat",
      ...manifest,
      turns: this.#turns,
      found: run.found,
      errors: run.errors.length,
    };
    await Deno.writeTextFile(join(this.dir, MANIFEST), JSON.stringify(m, null, 2) + "\n");
    return m;
  }

  /** One row per configuration found (those with no scored turn too), as `framesOf` builds it. */
  #configRows(configs: readonly ConfigSpec[]): ConfigRow[] {
    const rows = new Map<string, ConfigRow>();
    for (const c of configs) {
      rows.set(configKey(c), {
        harness: c.harness,
        model: c.model,
        memory: c.memory,
        chains: 0,
        turns: 0,
      });
    }
    for (const [k, c] of this.#perConfig) {
      rows.set(k, {
        harness: c.harness,
        model: c.model,
        memory: c.memory,
        chains: c.chains,
        turns: c.turns,
      });
    }
    return [...rows.values()];
  }
}

/**
 * Rows per row group of the flat files: Polars' Parquet sink holds a row group being encoded, so
 * its default (hundreds of thousands of rows) made the final concatenation the peak of a large
 * run — the `events` frame of 37,500 turns took 380 MB to concatenate, 190 MB with groups of
 * 10,000 rows (docs/scale.md "Measured").
 */
export const FLAT_ROW_GROUP_ROWS = 10_000;

/**
 * Concatenates the part files under `parts` (in name order) into one Parquet file, by Polars'
 * streaming engine reading one part at a time: by default it opens up to eight parts at once and
 * decodes them ahead, which measured 155 MB against 190 MB for the same parts read one by one.
 * Polars reads `POLARS_MAX_CONCURRENT_SCANS` when it plans a scan, so the setting is made for
 * this scan only (a value the user exported is kept) and removed after.
 */
export async function concatParts(parts: string, out: string): Promise<void> {
  const scans = "POLARS_MAX_CONCURRENT_SCANS";
  let set = false;
  try {
    if (Deno.env.get(scans) === undefined) {
      Deno.env.set(scans, "1");
      set = true;
    }
  } catch {
    // without --allow-env the parts are read with Polars' defaults: more memory, same file
  }
  try {
    await pl.scanParquet(join(parts, "*.parquet"))
      .sinkParquet(out, {
        maintainOrder: true,
        compression: "zstd",
        rowGroupSize: FLAT_ROW_GROUP_ROWS,
      })
      .collect();
  } finally {
    if (set) Deno.env.delete(scans);
  }
}

/** One frame of a batch as a DataFrame; the batch lets go of that frame's rows. */
function takeFrame(batch: GroupRows, frame: StreamedFrame): pl.DataFrame {
  const rows = batch[frame] as object[];
  batch[frame] = [];
  const { schema, within } = STREAMED_FRAMES[frame];
  return within.length
    ? toKeyedFrame(rows, schema, TURN_KEYS, within)
    : toFrame(rows, schema, TURN_KEYS);
}

function configKey(r: Pick<TurnRow, "harness" | "model" | "memory">): string {
  return `${r.harness}\u0000${r.model}\u0000${r.memory}`;
}
