/**
 * The worker pool (lib/util/pool.ts): queued jobs go out by priority, highest first and in order
 * of arrival among equals; results come back to the job that asked; buffers listed in `transfer`
 * move to the worker.
 */
import assert from "node:assert/strict";
import { WorkerPool } from "../lib/util/pool.ts";
import { JobPool } from "../lib/frames/jobs.ts";

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

Deno.test("pool: buffers listed in transfer move to the worker instead of being copied", async () => {
  const pool = new WorkerPool<Uint8Array, Uint8Array>(worker, 1);
  try {
    const bytes = new TextEncoder().encode("a log of a few bytes");
    const moved = bytes.subarray(2, 5);
    const back = await pool.run(moved, 0, [moved.buffer]);
    assert.equal(bytes.byteLength, 0, "the caller's buffer is detached: it moved");
    assert.equal(new TextDecoder().decode(back), "log");
    // not listed: copied, the caller keeps its bytes
    const kept = new TextEncoder().encode("kept");
    assert.equal(new TextDecoder().decode(await pool.run(kept)), "kept");
    assert.equal(kept.byteLength, 4);
  } finally {
    pool.close();
  }
});

Deno.test("JobPool: a log job given the log's bytes reads the same as given its text", async () => {
  const root = new URL("./fixtures/score/corpus/", import.meta.url).pathname;
  const log = `${root}runs/k1/c1/turn2/log.traj.json`;
  const job = (text: string | Uint8Array) => ({
    type: "log" as const,
    text,
    file: "runs/k1/c1/turn2/log.traj.json",
    cwd: "/testbed",
    workspace: `${root}repos/minipkg`,
    overlays: {},
  });
  const pool = new JobPool(1);
  try {
    const fromText = await pool.run(job(Deno.readTextFileSync(log)));
    const bytes = Deno.readFileSync(log);
    const fromBytes = await pool.run(job(bytes));
    assert.equal(bytes.byteLength, 0, "the bytes moved to the worker");
    assert.ok(fromText.events.length > 0);
    assert.deepEqual(fromBytes, fromText);
  } finally {
    pool.close();
  }
});
