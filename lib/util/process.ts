/**
 * Running external processes under a wall-time limit: the process is started in its own session
 * (`setsid`), so on timeout the whole process group — the agent and everything it spawned — is
 * killed, not only the direct child.
 *
 * @example
 * ```ts
 * import { runProcess } from "./process.ts";
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
  if (!findExecutable(argv[0], opts.env?.PATH ?? Deno.env.get("PATH") ?? "")) {
    throw new Error(`cannot start '${argv[0]}': not found or not executable`);
  }
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
  const stdoutP = collect(child.stdout);
  const stderrP = collect(child.stderr);
  try {
    const status = await child.status;
    // the leader is gone: whatever it left running in its group goes too (closing the pipes)
    killGroup(child.pid);
    const [stdout, stderr] = await Promise.all([stdoutP.done(2000), stderrP.done(2000)]);
    if (opts.stdoutFile) await Deno.writeTextFile(opts.stdoutFile, stdout);
    if (opts.stderrFile) await Deno.writeTextFile(opts.stderrFile, stderr);
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

/** Reads a stream into text; `done(graceMs)` gives up waiting (a pipe held open elsewhere). */
function collect(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const finished = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        chunks.push(value);
      }
    } catch {
      // cancelled or broken pipe: keep what was read
    }
  })();
  return {
    async done(graceMs: number): Promise<string> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((r) => timer = setTimeout(r, graceMs));
      await Promise.race([finished, grace]);
      clearTimeout(timer);
      await reader.cancel().catch(() => {});
      const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let off = 0;
      for (const c of chunks) {
        all.set(c, off);
        off += c.length;
      }
      return new TextDecoder().decode(all);
    },
  };
}

/** The path of an executable (a path, or a name looked up in `PATH`), or null. */
export function findExecutable(name: string, path: string): string | null {
  const candidates = name.includes("/")
    ? [name]
    : path.split(":").filter(Boolean).map((d) => `${d}/${name}`);
  for (const c of candidates) {
    try {
      const info = Deno.statSync(c);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111)) return c;
    } catch {
      // next candidate
    }
  }
  return null;
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
