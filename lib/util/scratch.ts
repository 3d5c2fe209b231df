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
 *   atCleanup(() => Promise.resolve()); // e.g. `git worktree remove` of a worktree inside dir
 * });
 * console.assert(!(await Deno.stat(kept).then(() => true, () => false)));
 * ```
 * @module
 */

type Cleanup = () => Promise<void>;

/** Clean-ups of every scratch space alive in this process, in registration order. */
const pending: Cleanup[] = [];
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
let interrupted = false;

async function onSignal(signal: (typeof SIGNALS)[number]): Promise<void> {
  if (interrupted) return; // a second Ctrl-C while cleaning up: keep cleaning
  interrupted = true;
  console.error(`\n${signal}: removing temporary files …`);
  for (const c of pending.toReversed()) await c().catch(() => {});
  Deno.exit(signal === "SIGINT" ? 130 : 143);
}

const handlers = SIGNALS.map((s) => [s, () => void onSignal(s)] as const);

function listen(on: boolean): void {
  if (Deno.build.os === "windows") return;
  for (const [s, h] of handlers) {
    if (on) Deno.addSignalListener(s, h);
    else Deno.removeSignalListener(s, h);
  }
}

/**
 * Runs `work` with a new temporary directory (`prefix` as Deno.makeTempDir's) and removes it
 * afterwards. `atCleanup(fn)` registers more clean-up (run before the directory is removed, last
 * registered first), e.g. removing a git worktree or stopping a child process.
 */
export async function withScratch<T>(
  prefix: string,
  work: (dir: string, atCleanup: (fn: Cleanup) => void) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  const mine: Cleanup[] = [() => Deno.remove(dir, { recursive: true }).catch(() => {})];
  const all: Cleanup = async () => {
    for (const c of mine.toReversed()) await c().catch(() => {});
  };
  if (pending.length === 0) listen(true);
  pending.push(all);
  try {
    return await work(dir, (fn) => mine.push(fn));
  } finally {
    await all();
    pending.splice(pending.indexOf(all), 1);
    if (pending.length === 0) listen(false);
  }
}
