/**
 * The two expensive, independent jobs of scoring — reading a log and summarising a Python file —
 * and the pool of Web Workers (lib/util/pool.ts, one per core by default) that runs them. With
 * `workers: 0` the jobs run in the calling thread.
 *
 * @module
 */
import { dirSource, type FileSource, parseLog, type ReadsResult } from "../logs/mod.ts";
import { type ModuleSummary, summarize } from "../python/mod.ts";
import { JobError, WorkerPool } from "../util/mod.ts";

/** Parse a log against W_{t-1}: W0 read from `workspace` on disk, overlaid with `overlays`. */
export interface LogJob {
  type: "log";
  /**
   * The log: its text, or its raw bytes (decoded as UTF-8 in the worker). Bytes are moved to the
   * worker, not copied ({@link JobPool.run}): the scorer's main thread then never holds a log's
   * text, which over a large corpus was the bulk of what it allocated.
   */
  text: string | Uint8Array;
  /** Name of the log for error messages. */
  file: string;
  cwd?: string;
  /** Absolute path of W0. */
  workspace: string;
  /** Workspace-relative path → text of the agent's earlier submissions. */
  overlays: Record<string, string>;
  /** Sub-agent logs of the session (Claude Code `subagents/`, Codex child rollouts). */
  companions?: { file: string; text: string }[];
}

/** Summarise one Python file (phase 1 of lib/python). */
export interface SummaryJob {
  type: "summarize";
  source: string;
  file: string;
  module: string;
}

export type Job = LogJob | SummaryJob;

const sources = new Map<string, FileSource>();
const texts = new Map<string, string | undefined>();
const MAX_CACHED = 64 * 1024 * 1024;
let cached = 0;

function w0Source(root: string): FileSource {
  let src = sources.get(root);
  if (!src) {
    const disk = dirSource(root);
    src = (path: string) => {
      const key = `${root}\u0000${path}`;
      if (texts.has(key)) return texts.get(key);
      const text = disk(path);
      if (cached < MAX_CACHED) {
        texts.set(key, text);
        cached += text?.length ?? 0;
      }
      return text;
    };
    sources.set(root, src);
  }
  return src;
}

/** Runs one job in the current thread. */
export async function runJob(job: LogJob): Promise<ReadsResult>;
export async function runJob(job: SummaryJob): Promise<ModuleSummary>;
export async function runJob(job: Job): Promise<ReadsResult | ModuleSummary>;
export async function runJob(job: Job): Promise<ReadsResult | ModuleSummary> {
  if (job.type === "summarize") return await summarize(job.source, job.file, job.module);
  const base = w0Source(job.workspace);
  const files: FileSource = (path) =>
    Object.hasOwn(job.overlays, path) ? job.overlays[path] : base(path);
  const text = typeof job.text === "string" ? job.text : new TextDecoder().decode(job.text);
  return await parseLog(text, {
    file: job.file,
    files,
    cwd: job.cwd,
    companions: job.companions,
  });
}

export { JobError };

/** The pool of scoring jobs (lib/util/pool.ts, with lib/frames/worker.ts); `size: 0` runs inline. */
export class JobPool {
  readonly #pool: WorkerPool<Job, ReadsResult | ModuleSummary>;

  constructor(size: number = navigator.hardwareConcurrency ?? 2) {
    this.#pool = new WorkerPool(new URL("./worker.ts", import.meta.url), size, { inline: runJob });
  }

  /** Number of workers (0: inline). */
  get size(): number {
    return this.#pool.size;
  }

  /** Runs a job on the first free worker; a log's bytes move to the worker (unusable after). */
  run(job: LogJob): Promise<ReadsResult>;
  run(job: SummaryJob): Promise<ModuleSummary>;
  run(job: Job): Promise<unknown> {
    const buffer = job.type === "log" && typeof job.text !== "string" ? job.text.buffer : undefined;
    return this.#pool.run(job, 0, buffer instanceof ArrayBuffer ? [buffer] : []);
  }

  /** Stops the workers. */
  close(): void {
    this.#pool.close();
  }
}
