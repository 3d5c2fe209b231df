/**
 * The worker pool (lib/util/pool.ts): queued jobs go out by priority, highest first and in order
 * of arrival among equals; results come back to the job that asked.
 */
import assert from "node:assert/strict";
import { WorkerPool } from "../lib/util/pool.ts";

const worker = new URL("./fixtures/pool/echo_worker.ts", import.meta.url);

Deno.test("pool: queued jobs go out highest priority first, in arrival order among equals", async () => {
  // one worker holding one job at a time: the first job goes out at once, the rest wait
  const pool = new WorkerPool<string, string>(worker, 1, { perWorker: 1 });
  const order: string[] = [];
  try {
    const jobs: [string, number][] = [
      ["first", 0],
      ["small-a", 1],
      ["big", 9],
      ["small-b", 1],
      ["none", 0],
      ["mid", 5],
    ];
    const results = await Promise.all(
      jobs.map(([job, priority]) => pool.run(job, priority).then((r) => (order.push(r), r))),
    );
    assert.deepEqual(results, jobs.map(([job]) => job));
    assert.deepEqual(order, ["first", "big", "mid", "small-a", "small-b", "none"]);
  } finally {
    pool.close();
  }
});
