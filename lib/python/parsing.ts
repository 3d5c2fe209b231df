/**
 * Parsing the files of a package that the cache does not hold (phase 1 of
 * lib/python/analyze.ts): on a pool of Web Workers (lib/python/worker.ts) from the fourth file on,
 * else on the calling thread; with the native parser when lib/python/parser_choice.ts says so.
 * Each summary comes back as its two JSON texts (lib/python/summary_cache.ts), written to its
 * per-file cache entry by the worker that made it.
 *
 * @module
 */
import { WorkerPool } from "../util/mod.ts";
import type { NativeFiles } from "./native_build.ts";
import { builtNativeParser, nativeForPackage, useNativeSummaries } from "./parser_choice.ts";
import { pythonParser } from "./direct.ts";
import type { PackageFile } from "./files.ts";
import { summarizeWith } from "./summary.ts";
import type { ModuleSummary } from "./summary_format.ts";
import {
  type ParsedSummary,
  type Rest,
  type SummaryText,
  summaryText,
  writeSummaryText,
} from "./summary_cache.ts";

/** What {@link Parsing} needs of the analysis options (lib/python/analyze.ts `AnalyzeOptions`). */
export interface ParseOptions {
  /** Number of workers (default `navigator.hardwareConcurrency`); 0 = parse on this thread. */
  workers?: number;
  /**
   * The native parser (lib/python/parser_choice.ts): `"auto"` (default) uses it when built and
   * builds it first when there is much source to parse; `"off"` never.
   */
  native?: "auto" | "off";
}

/**
 * The summaries of {@link summarizeFiles} as they arrive, by file index: each is parsed back at
 * once (the main thread is idle while the workers parse); for the package entry, each one's meta
 * text and the size of its per-file entry (when written).
 */
export class Results {
  readonly metaTexts: (string | undefined)[];
  readonly sizes: (number | undefined)[];
  readonly metas: ModuleSummary[];
  readonly rests: Rest[];

  constructor(n: number) {
    this.metaTexts = new Array(n);
    this.sizes = new Array(n);
    this.metas = new Array(n);
    this.rests = new Array(n);
  }

  put(index: number, t: SummaryText, parsed?: ParsedSummary): void {
    this.metaTexts[index] = t.meta;
    this.sizes[index] = t.bytes;
    this.metas[index] = parsed?.meta ?? JSON.parse(t.meta);
    this.rests[index] = parsed?.rest ?? JSON.parse(t.rest);
  }

  /** The indexes of the files summarised, in order. */
  indexes(): number[] {
    return this.metaTexts.flatMap((t, i) => t !== undefined ? [i] : []);
  }
}

/** Files from which the workers pay off (fewer are parsed on the calling thread). */
const POOL_FILES = 4;

/**
 * The files of {@link summarizeFiles} to parse: each goes to the workers as soon as it is known
 * (largest first among those waiting, so the workers finish together), from the fourth on and
 * once the parser is settled — at once when the native parser is built, else when every file is
 * known (`finish`), since how much source there is decides whether to build it. A job a worker
 * could not do is done on the calling thread.
 */
export class Parsing {
  #jobs = new Map<number, { source: string; key: string }>();
  #waiting: number[] = [];
  #running: Promise<void>[] = [];
  /** Files parsed on the calling thread: too few for the workers, or failed in one. */
  #here: number[] = [];
  /**
   * The native parser's files, undefined for the wasm parser, null while undecided. Asked for
   * when the first file is to be parsed (a warm run never asks); when it is not built yet, `finish`
   * decides by how much source there is.
   */
  #native: NativeFiles | undefined | null = null;
  #asked = false;
  #pool?: WorkerPool<SummaryJob, SummaryText>;
  readonly #workers: number;

  constructor(
    readonly files: PackageFile[],
    readonly opts: ParseOptions,
    /** The cache root the workers write per-file entries to, when caching. */
    readonly cacheDir: string | undefined,
    readonly got: Results,
  ) {
    this.#workers = opts.workers ?? navigator.hardwareConcurrency ?? 1;
    if (!cacheDir) this.#startPool();
  }

  /** Whether any file is to be parsed. */
  get any(): boolean {
    return this.#jobs.size > 0;
  }

  has(index: number): boolean {
    return this.#jobs.has(index);
  }

  add(index: number, source: string, key: string): void {
    this.#jobs.set(index, { source, key });
    this.#waiting.push(index);
    this.#startPool();
    if (!this.#asked) {
      this.#asked = true;
      if (this.opts.native === "off") this.#native = undefined;
      else this.#native = builtNativeParser() ?? null;
    }
    if (this.#pool && this.#jobs.size >= POOL_FILES && this.#native !== null) this.#dispatch();
  }

  /** Parses what is left; resolves when every file is summarised. */
  async finish(): Promise<void> {
    if (this.#native === null) {
      this.#native = await nativeForPackage([...this.#jobs.values()], this.opts.native);
    }
    if (this.#pool && this.#jobs.size >= POOL_FILES) this.#dispatch();
    else this.#here.push(...this.#waiting.splice(0));
    // a job may fail in its worker: wait for every one, then do those here
    await Promise.all(this.#running);
    this.close();
    if (!this.#here.length) return;
    const fp = await pythonParser();
    if (this.#native && !fp.native) useNativeSummaries(fp, this.#native);
    for (const index of this.#here.sort((a, b) => a - b)) {
      const f = this.files[index], job = this.#jobs.get(index)!;
      const text = summaryText(summarizeWith(fp, job.source, f.file, f.module));
      if (this.cacheDir) {
        // no per-file entry (cache not writable): no package entry either, a cost in time only
        text.bytes = await writeSummaryText(this.cacheDir, job.key, text).catch(() => undefined);
      }
      this.got.put(index, text);
    }
  }

  /** Stops the workers (they are started only when some file is to be parsed). */
  close(): void {
    this.#pool?.close();
  }

  #startPool(): void {
    if (this.#pool || this.#workers <= 0 || this.files.length < POOL_FILES) return;
    this.#pool = new WorkerPool(new URL("./worker.ts", import.meta.url), this.#workers);
    this.#pool.start();
  }

  /** Sends the waiting files to the workers, each as a job of priority its size. */
  #dispatch(): void {
    const pool = this.#pool!;
    for (const index of this.#waiting.splice(0)) {
      const f = this.files[index], { source, key } = this.#jobs.get(index)!;
      const job = {
        source,
        file: f.file,
        module: f.module,
        key,
        cacheDir: this.cacheDir,
        native: this.#native ?? undefined,
      };
      this.#running.push(
        pool.run(job, source.length).then(
          (r) => this.got.put(index, r),
          () => void this.#here.push(index),
        ),
      );
    }
  }
}

/** A summary job of the package workers (lib/python/worker.ts). */
export interface SummaryJob {
  source: string;
  file: string;
  module: string;
  /** Cache entry to write in the worker (key and root), when caching. */
  key?: string;
  cacheDir?: string;
  /** The native parser's files, when it is used (lib/python/native_build.ts). */
  native?: NativeFiles;
}
