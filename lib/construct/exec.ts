/**
 * Running external processes under a wall-time limit: the process is started in its own session
 * (`setsid`), so on timeout the whole process group — the agent and everything it spawned — is
 * killed, not only the direct child.
 *
 * @example
 * ```ts
 * import { runProcess } from "./exec.ts";
 * const r = await runProcess(["sh", "-c", "echo hi"], { timeoutMs: 10_000 });
 * console.assert(r.code === 0 && r.stdout.trim() === "hi" && !r.timedOut);
 * ```
 * @module
 */

/** Outcome of {@link runProcess}. */
export interface ProcessResult {
  /** Exit code (non-zero when killed). */
  code: number;
  stdout: string;
  stderr: string;
  /** Whether the wall-time limit was reached and the process group killed. */
  timedOut: boolean;
  /** Wall time in seconds. */
  seconds: number;
}

/** Options of {@link runProcess}. */
export interface ProcessOptions {
  cwd?: string;
  /** Extra environment variables (merged over the current environment). */
  env?: Record<string, string>;
  /** Wall-time limit in milliseconds (default: none). */
  timeoutMs?: number;
  /** Text fed to stdin (default: stdin closed). */
  stdin?: string;
  /** Files the stdout/stderr are also written to (e.g. an agent's log). */
  stdoutFile?: string;
  stderrFile?: string;
}

const SETSID = (() => {
  for (const p of ["/usr/bin/setsid", "/bin/setsid"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // try the next location
    }
  }
  return null;
})();

/**
 * Runs `argv` (no shell) and collects its output. On timeout the process group is killed with
 * SIGKILL and `timedOut` is set; a missing executable throws an Error naming it.
 */
export async function runProcess(
  argv: string[],
  opts: ProcessOptions = {},
): Promise<ProcessResult> {
  const [cmd, ...args] = SETSID ? [SETSID, ...argv] : argv;
  const started = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new Error(`cannot start '${argv[0]}': ${(e as Error).message}`);
  }
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin)).catch(() => {});
    await w.close().catch(() => {});
  }
  let timedOut = false;
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, opts.timeoutMs);
  try {
    const [out, status] = await Promise.all([child.output(), child.status]);
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    if (opts.stdoutFile) await Deno.writeTextFile(opts.stdoutFile, stdout);
    if (opts.stderrFile) await Deno.writeTextFile(opts.stderrFile, stderr);
    if (timedOut) killGroup(child.pid); // stragglers that outlived the leader
    return {
      code: status.code,
      stdout,
      stderr,
      timedOut,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function killGroup(pid: number): void {
  try {
    Deno.kill(SETSID ? -pid : pid, "SIGKILL");
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
