/**
 * The viewer's parallel jobs — a run log read against W_{t-1} and a Python file summarised (the
 * very jobs of scoring, lib/frames/jobs.ts), and a file highlighted ({@link highlightPython}) —
 * and the pool of Web Workers (lib/util/pool.ts) that runs them. `size: 0` runs them inline.
 *
 * @module
 */
import type { ReadsResult } from "../../logs/mod.ts";
import type { ModuleSummary } from "../../python/mod.ts";
import { type LogJob, runJob, type SummaryJob } from "../../frames/mod.ts";
import { WorkerPool } from "../../util/mod.ts";
import { highlightPython } from "./highlight.ts";

/** Highlight one Python text. */
export interface HighlightJob {
  type: "highlight";
  text: string;
}

/** A job of the viewer's pool. */
export type ViewJob = LogJob | SummaryJob | HighlightJob;

/** Runs one job in the current thread. */
export function runViewJob(job: ViewJob): Promise<ReadsResult | ModuleSummary | number[]> {
  return job.type === "highlight" ? highlightPython(job.text) : runJob(job);
}

/** The pool of the viewer's jobs. */
export class ViewPool {
  readonly #pool: WorkerPool<ViewJob, unknown>;

  constructor(size: number = navigator.hardwareConcurrency ?? 2) {
    this.#pool = new WorkerPool(new URL("./worker.ts", import.meta.url), size, {
      inline: runViewJob,
    });
  }

  /** Number of workers (0: inline). */
  get size(): number {
    return this.#pool.size;
  }

  /** Reads a log against W_{t-1}. */
  log(job: Omit<LogJob, "type">): Promise<ReadsResult> {
    return this.#pool.run({ type: "log", ...job }) as Promise<ReadsResult>;
  }

  /** Summarises a Python file. */
  summarize(source: string, file: string, module: string): Promise<ModuleSummary> {
    return this.#pool.run({ type: "summarize", source, file, module }) as Promise<ModuleSummary>;
  }

  /** Highlights a Python text (larger texts first). */
  highlight(text: string): Promise<number[]> {
    return this.#pool.run({ type: "highlight", text }, text.length) as Promise<number[]>;
  }

  /** Stops the workers. */
  close(): void {
    this.#pool.close();
  }
}
