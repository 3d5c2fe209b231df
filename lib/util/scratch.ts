/**
 * Scratch space that does not outlive the run: {@link withScratch} makes a temporary directory,
 * hands it to the work, and removes it afterwards — also when the work throws, and when the
 * process gets SIGINT (Ctrl-C) or SIGTERM, in which case the registered clean-ups run (last
 * registered first), the directory goes, and the process exits with 130 (143 for SIGTERM).
 *
 * @example
 * ```ts
 * import { withScratch } from "./scratch.ts";
 * let kept = "";
 * await withScratch("reporeuse-example-", async (dir, atCleanup) => {
 *   kept = dir;
 *   await Deno.writeTextFile(`${dir}/a.txt`, "a");
 *   atCleanup(() => {}); // e.g. `git worktree remove` of a worktree inside dir
 * });
 * console.assert(!(await Deno.stat(kept).then(() => true, () => false)));
 * ```
 * @module
 */

/** A clean-up step. Synchronous, so that once interrupted no other work of the process runs. */
type Cleanup = () => void;

/** Clean-ups of every scratch space alive in this process, in registration order. */
const pending: Cleanup[] = [];
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
let interrupted = false;

/** Blocks the thread for `ms` (no other JavaScript of this process runs meanwhile). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function onSignal(signal: (typeof SIGNALS)[number]): void {
  if (interrupted) return;
  interrupted = true;
  console.error(`\n${signal}: removing temporary files …`);
  // Nothing here yields to the event loop, so no new file operation of the interrupted work
  // starts; a second pass removes what operations already under way when the signal came left.
  for (let pass = 0; pass < 2; pass++) {
    for (const c of pending.toReversed()) c();
    sleepSync(100);
  }
  Deno.exit(signal === "SIGINT" ? 130 : 143);
}

const handlers = SIGNALS.map((s) => [s, () => onSignal(s)] as const);

function listen(on: boolean): void {
  if (Deno.build.os === "windows") return;
  for (const [s, h] of handlers) {
    if (on) Deno.addSignalListener(s, h);
    else Deno.removeSignalListener(s, h);
  }
}

const quietly = (fn: Cleanup) => () => {
  try {
    fn();
  } catch {
    // a clean-up that fails (already done, already gone) must not stop the others
  }
};

/**
 * Runs `work` with a new temporary directory (`prefix` as Deno.makeTempDir's) and removes it
 * afterwards. `atCleanup(fn)` registers more clean-up (run before the directory is removed, last
 * registered first; it may run twice), e.g. removing a git worktree or stopping a child process.
 */
export async function withScratch<T>(
  prefix: string,
  work: (dir: string, atCleanup: (fn: Cleanup) => void) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  const mine: Cleanup[] = [quietly(() => Deno.removeSync(dir, { recursive: true }))];
  const all: Cleanup = () => mine.toReversed().forEach((c) => c());
  if (pending.length === 0) listen(true);
  pending.push(all);
  try {
    return await work(dir, (fn) => mine.push(quietly(fn)));
  } finally {
    all();
    pending.splice(pending.indexOf(all), 1);
    if (pending.length === 0) listen(false);
  }
}
