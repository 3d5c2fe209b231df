/**
 * The two expensive, independent jobs of scoring — reading a log and summarising a Python file —
 * and a pool of Web Workers (one per core by default) that runs them. With `workers: 0` the jobs
 * run in the calling thread.
 *
 * @module
 */
import { dirSource, parseLog, type ReadsResult } from "../logs/mod.ts";
import { type ModuleSummary, summarize } from "../python/mod.ts";
import type { FileSource } from "../logs/types.ts";

/** Parse a log against W_{t-1}: W0 read from `workspace` on disk, overlaid with `overlays`. */
export interface LogJob {
  type: "log";
  text: string;
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
  return await parseLog(job.text, {
    file: job.file,
    files,
    cwd: job.cwd,
    companions: job.companions,
  });
}

/** An error raised by a job, with the original error's name (e.g. `LogFormatError`). */
export class JobError extends Error {
  constructor(message: string, readonly kind: string) {
    super(message);
    this.name = "JobError";
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** A pool of workers running {@link runJob}; `size: 0` runs jobs inline. */
export class JobPool {
  readonly size: number;
  #workers: Worker[] = [];
  #load: number[] = [];
  #pending = new Map<number, Pending & { worker: number }>();
  #next = 0;

  constructor(size: number = navigator.hardwareConcurrency ?? 2) {
    this.size = Math.max(0, Math.floor(size));
  }

  #start() {
    if (this.#workers.length || this.size === 0) return;
    for (let i = 0; i < this.size; i++) {
      this.#workers.push(this.#spawn(i));
      this.#load.push(0);
    }
  }

  /** A worker for slot i; when it dies, its pending jobs fail and the slot gets a new worker. */
  #spawn(i: number): Worker {
    const w = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
    w.onmessage = (e: MessageEvent) => {
      const { id, ok, value, error, name } = e.data;
      const p = this.#pending.get(id);
      if (!p) return;
      this.#pending.delete(id);
      this.#load[p.worker]--;
      if (ok) p.resolve(value);
      else p.reject(new JobError(error, name));
    };
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      for (const [id, p] of this.#pending) {
        if (p.worker !== i) continue;
        this.#pending.delete(id);
        p.reject(new JobError(`worker failed: ${e.message}`, "WorkerError"));
      }
      this.#load[i] = 0;
      w.terminate();
      if (this.#workers[i] === w) this.#workers[i] = this.#spawn(i);
    };
    return w;
  }

  /** Runs a job on the least busy worker. */
  run(job: LogJob): Promise<ReadsResult>;
  run(job: SummaryJob): Promise<ModuleSummary>;
  run(job: Job): Promise<unknown> {
    if (this.size === 0) {
      return runJob(job).catch((e) => {
        const err = e instanceof Error ? e : new Error(String(e));
        throw new JobError(err.message, err.name);
      });
    }
    this.#start();
    let w = 0;
    for (let i = 1; i < this.#workers.length; i++) if (this.#load[i] < this.#load[w]) w = i;
    const id = this.#next++;
    this.#load[w]++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, worker: w });
      this.#workers[w].postMessage({ id, job });
    });
  }

  /** Stops the workers. */
  close(): void {
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
    this.#load = [];
  }
}
