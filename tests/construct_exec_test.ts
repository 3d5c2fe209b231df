/** Subprocesses under a wall-time limit: the whole process group is killed, nothing is left. */
import assert from "node:assert/strict";
import { MAX_OUTPUT_BYTES, runProcess } from "../lib/util/process.ts";

async function alive(marker: string): Promise<boolean> {
  const r = await new Deno.Command("pgrep", { args: ["-f", marker], stdout: "piped" }).output();
  return r.code === 0;
}

Deno.test("exec: a timeout kills the process group, children included", async () => {
  const marker = `reporeuse-exec-test-${crypto.randomUUID()}`;
  const r = await runProcess(
    ["bash", "-c", `echo a; (exec -a ${marker} sleep 30) & sleep 30; echo b`],
    { timeoutMs: 500 },
  );
  assert.equal(r.timedOut, true);
  assert.notEqual(r.code, 0);
  assert.equal(r.stdout, "a\n");
  assert.ok(r.seconds < 10);
  assert.equal(await alive(marker), false);
});

Deno.test("exec: a finished leader does not wait for what it left running", async () => {
  const marker = `reporeuse-exec-test-${crypto.randomUUID()}`;
  const r = await runProcess(["bash", "-c", `(exec -a ${marker} sleep 30) & echo started`], {
    timeoutMs: 20_000,
  });
  assert.deepEqual([r.code, r.stdout, r.timedOut], [0, "started\n", false]);
  assert.ok(r.seconds < 10);
  assert.equal(await alive(marker), false);
});

Deno.test("exec: stdin, stdout and stderr", async () => {
  const r = await runProcess(["sh", "-c", "cat; echo err >&2; exit 3"], { stdin: "in\n" });
  assert.deepEqual([r.code, r.stdout, r.stderr, r.timedOut], [3, "in\n", "err\n", false]);
  await assert.rejects(runProcess(["/nonexistent/tool"]), /cannot start '\/nonexistent\/tool'/);
});

Deno.test("exec: captured output is capped by default (head and tail kept, the cut counted)", async () => {
  const total = 70_000_000;
  const r = await runProcess(["bash", "-c", `head -c ${total} /dev/zero | tr '\\0' a`], {
    timeoutMs: 60_000,
  });
  const half = MAX_OUTPUT_BYTES / 2;
  assert.equal(r.cut.stdout, total - 2 * half);
  const note = `[reporeuse: ${total - 2 * half} bytes of output cut here; the first and last ` +
    `${half} bytes at most are kept]\n`;
  assert.equal(r.stdout.length, 2 * half + 1 + note.length);
  assert.equal(r.stdout.slice(half, half + 1 + note.length), "\n" + note);
  assert.equal(r.cut.stderr, 0);
});
