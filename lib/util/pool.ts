/**
 * One pool of Web Workers for every parallel job of the project (log parsing and Python summaries
 * while scoring, Python summaries of a whole package): jobs wait in one queue and each worker
 * holds at most `perWorker` of them (two by default: the next job is queued while a worker works,
 * so it never waits for a message round trip; more would unbalance the pool). A worker that dies
 * fails only the jobs it held and is replaced. With `size: 0` jobs run in the calling thread.
 *
 * The worker module calls {@link serveJobs} with its job function. Messages: `{ id, job }` in,
 * `{ id, ok: true, value }` or `{ id, ok: false, error, name }` out.
 *
 * @example
 * ```ts
 * import { WorkerPool } from "./pool.ts";
 * const pool = new WorkerPool<number, number>("unused.ts", 0, { inline: (n) => Promise.resolve(n * 2) });
 * console.assert((await pool.run(21)) === 42);
 * pool.close();
 * ```
 * @module
 */

/** An error raised by a job, with the original error's name (e.g. `LogFormatError`). */
export class JobError extends Error {
  constructor(message: string, readonly kind: string) {
    super(message);
    this.name = "JobError";
  }
}

interface Queued<J> {
  job: J;
  priority: number;
  transfer: Transferable[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Options of {@link WorkerPool}. */
export interface PoolOptions<J, R> {
  /** Runs a job in the calling thread (required for `size: 0`). */
  inline?: (job: J) => Promise<R>;
  /** Jobs a worker holds at once (default 2). */
  perWorker?: number;
}

/** A pool of workers running jobs `J` to results `R` (see the module doc). */
export class WorkerPool<J, R> {
  readonly size: number;
  readonly #url: string;
  readonly #opts: PoolOptions<J, R>;
  #workers: Worker[] = [];
  #held: Map<number, Queued<J>>[] = [];
  #queue: Queued<J>[] = [];
  #next = 0;

  constructor(url: string | URL, size: number, opts: PoolOptions<J, R> = {}) {
    this.#url = String(url);
    this.size = Math.max(0, Math.floor(size));
    this.#opts = opts;
  }

  /**
   * Runs a job on the first free worker (inline when the pool has none). Queued jobs go out by
   * `priority`, highest first (in order of arrival among equals): a job's size, say, so that the
   * workers finish together. `transfer` lists buffers of the job that move to the worker instead
   * of being copied (the caller must not use them after; inline, they stay where they are).
   */
  run(job: J, priority = 0, transfer: Transferable[] = []): Promise<R> {
    if (this.size === 0) {
      if (!this.#opts.inline) return Promise.reject(new Error("WorkerPool of size 0 needs inline"));
      return this.#opts.inline(job).catch((e) => {
        const err = e instanceof Error ? e : new Error(String(e));
        throw new JobError(err.message, err.name);
      });
    }
    return new Promise<R>((resolve, reject) => {
      const q = this.#queue;
      // after the last job of at least this priority (binary search: the queue is sorted)
      let lo = 0, hi = q.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (q[mid].priority >= priority) lo = mid + 1;
        else hi = mid;
      }
      q.splice(lo, 0, {
        job,
        priority,
        transfer,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.#pump();
    });
  }

  #pump(): void {
    if (!this.#workers.length) {
      for (let i = 0; i < this.size; i++) this.#spawn(i);
    }
    const limit = this.#opts.perWorker ?? 2;
    for (let round = 0; round < limit && this.#queue.length; round++) {
      for (let i = 0; i < this.#workers.length && this.#queue.length; i++) {
        if (this.#held[i].size > round) continue;
        const q = this.#queue.shift()!;
        const id = this.#next++;
        this.#held[i].set(id, q);
        this.#workers[i].postMessage({ id, job: q.job }, q.transfer);
        q.transfer = [];
      }
    }
  }

  /** A worker for slot i; when it dies, the jobs it held fail and the slot gets a new worker. */
  #spawn(i: number): void {
    const w = new Worker(this.#url, { type: "module" });
    this.#workers[i] = w;
    this.#held[i] = new Map();
    w.onmessage = (e: MessageEvent) => {
      const { id, ok, value, error, name } = e.data;
      const q = this.#held[i].get(id);
      if (!q) return;
      this.#held[i].delete(id);
      if (ok) q.resolve(value);
      else q.reject(new JobError(error, name));
      this.#pump();
    };
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const held = this.#held[i];
      w.terminate();
      if (this.#workers[i] === w) this.#spawn(i);
      for (const q of held.values()) {
        q.reject(new JobError(`worker failed: ${e.message}`, "WorkerError"));
      }
      this.#pump();
    };
  }

  /** Starts the workers now, so that they load while the caller prepares their jobs. */
  start(): void {
    if (!this.#workers.length) { for (let i = 0; i < this.size; i++) this.#spawn(i); }
  }

  /** Stops the workers (jobs still queued or held are left unsettled). */
  close(): void {
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
    this.#held = [];
  }
}

/**
 * The worker side: answers each `{ id, job }` message with the result of `fn(job)` (see the
 * module doc). Call once at the top of a worker module.
 */
export function serveJobs<J, R>(fn: (job: J) => R | Promise<R>): void {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    postMessage(msg: unknown): void;
  };
  scope.onmessage = async (e: MessageEvent) => {
    const { id, job } = e.data;
    try {
      scope.postMessage({ id, ok: true, value: await fn(job) });
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      scope.postMessage({ id, ok: false, error: error.message, name: error.name });
    }
  };
}
