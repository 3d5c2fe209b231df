/**
 * Worker side of the scoring pool: parses a run log against W_{t-1} (W0 on disk plus the agent's
 * earlier submissions) or summarises a Python file. Never executes submitted code.
 *
 * Messages: `{ id, job }` in, `{ id, ok: true, value }` or `{ id, ok: false, error, name }` out.
 *
 * @module
 */
import { runJob } from "./jobs.ts";

const self = globalThis as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(msg: unknown): void;
};

self.onmessage = async (e: MessageEvent) => {
  const { id, job } = e.data;
  try {
    self.postMessage({ id, ok: true, value: await runJob(job) });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    self.postMessage({ id, ok: false, error: error.message, name: error.name });
  }
};
