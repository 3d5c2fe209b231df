/**
 * Running external processes under a wall-time limit: the process is started in its own session
 * (`setsid`), so on timeout the whole process group — the agent and everything it spawned — is
 * killed, not only the direct child. With `contain`, no process it starts outlives it, not even
 * one that left the group (`setsid`, double fork): lib/util/contain.ts.
 *
 * @example
 * ```ts
 * import { runProcess } from "./process.ts";
 * const r = await runProcess(["sh", "-c", "echo hi"], { timeoutMs: 10_000 });
 * console.assert(r.code === 0 && r.stdout.trim() === "hi" && !r.timedOut);
 * ```
 * @module
 */
import { contain, sweep } from "./contain.ts";
import { findExecutable } from "./fs.ts";

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
  /** Bytes of stdout / stderr cut out of the middle to stay within `maxOutputBytes` (0: none). */
  cut: { stdout: number; stderr: number };
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
  /**
   * Most bytes kept of each of stdout and stderr (default {@link MAX_OUTPUT_BYTES}): beyond it the
   * first and last halves are kept, cut at line ends, with a note of the cut between them.
   */
  maxOutputBytes?: number;
  /**
   * Kill every process the command started when it ends or times out, wherever it went
   * (lib/util/contain.ts: a PID namespace, else a subreaper, plus a sweep by a marker variable).
   */
  contain?: boolean;
}

/** Default cap of a process's captured stdout and of its stderr: 32 MiB each. */
export const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

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
  const contained = opts.contain ? contain(argv) : undefined;
  const inner = contained?.argv ?? argv;
  const [cmd, ...args] = SETSID ? [SETSID, ...inner] : inner;
  const started = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      cwd: opts.cwd,
      env: contained ? { ...opts.env, ...contained.env } : opts.env,
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new Error(`cannot start '${argv[0]}': ${(e as Error).message}`);
  }
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    // a child that exits without reading its input closes the pipe: not an error
    await w.write(new TextEncoder().encode(opts.stdin)).catch(() => {});
    await w.close().catch(() => {}); // already closed by the child (above)
  }
  let timedOut = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    if (contained?.stopSignal === "SIGTERM") {
      // the supervisor kills its whole tree, then exits; the group goes if it does not
      signal(child.pid, "SIGTERM");
      grace = setTimeout(() => killGroup(child.pid), STOP_GRACE_MS);
    } else killGroup(child.pid);
  }, opts.timeoutMs);
  const max = opts.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const stdoutP = collect(child.stdout, max);
  const stderrP = collect(child.stderr, max);
  try {
    const status = await child.status;
    // the leader is gone: whatever it left running in its group goes too (closing the pipes)
    killGroup(child.pid);
    if (contained) sweep(contained.id);
    const [out, err] = await Promise.all([stdoutP.done(2000), stderrP.done(2000)]);
    const [stdout, stderr] = [out.text, err.text];
    if (opts.stdoutFile) await Deno.writeTextFile(opts.stdoutFile, stdout);
    if (opts.stderrFile) await Deno.writeTextFile(opts.stderrFile, stderr);
    return {
      code: status.code,
      stdout,
      stderr,
      timedOut,
      seconds: (performance.now() - started) / 1000,
      cut: { stdout: out.cut, stderr: err.cut },
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (grace !== undefined) clearTimeout(grace);
  }
}

/** How long a contained command's supervisor has to kill its tree after SIGTERM. */
const STOP_GRACE_MS = 5000;

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // already gone
  }
}

/**
 * Reads a stream into text, keeping at most `max` bytes: once over, the first `max / 2` bytes
 * and a window of the last `max / 2` are kept, so memory stays bounded whatever the process
 * prints. `done(graceMs)` gives up waiting (a pipe held open elsewhere).
 */
function collect(stream: ReadableStream<Uint8Array>, max: number) {
  const reader = stream.getReader();
  const half = Math.floor(max / 2);
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const tail: Uint8Array[] = [];
  let tailBytes = 0;
  let total = 0;
  const finished = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        total += value.length;
        let chunk = value;
        if (headBytes < half) {
          const take = Math.min(half - headBytes, chunk.length);
          head.push(chunk.subarray(0, take));
          headBytes += take;
          chunk = chunk.subarray(take);
        }
        if (!chunk.length) continue;
        tail.push(chunk);
        tailBytes += chunk.length;
        // drop whole chunks from the window's front while the rest still covers `half`
        while (tail.length > 1 && tailBytes - tail[0].length >= half) {
          tailBytes -= tail.shift()!.length;
        }
      }
    } catch {
      // cancelled or broken pipe: keep what was read
    }
  })();
  return {
    async done(graceMs: number): Promise<{ text: string; cut: number }> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((r) => timer = setTimeout(r, graceMs));
      await Promise.race([finished, grace]);
      clearTimeout(timer);
      // the stream has ended or errored already: what was read is the output
      await reader.cancel().catch(() => {});
      return keepEnds(concat(head), concat(tail), total, max);
    },
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return all;
}

/** The text of head + tail when they fit in `max`; else both ends cut at line ends, with a note. */
function keepEnds(
  head: Uint8Array,
  tail: Uint8Array,
  total: number,
  max: number,
): { text: string; cut: number } {
  const dec = new TextDecoder();
  if (total <= max) return { text: dec.decode(concat([head, tail])), cut: 0 };
  const end = tail.subarray(tail.length - Math.min(tail.length, Math.floor(max / 2)));
  // whole lines where the ends allow it: the head up to its last line end, the tail from its first
  const lastNl = head.lastIndexOf(10);
  const firstNl = end.indexOf(10);
  const h = lastNl >= 0 ? head.subarray(0, lastNl + 1) : head;
  const t = firstNl >= 0 && firstNl + 1 < end.length ? end.subarray(firstNl + 1) : end;
  const cut = total - h.length - t.length;
  const note = `[reporeuse: ${cut} bytes of output cut here; the first and last ${
    Math.floor(max / 2)
  } bytes at most are kept]\n`;
  return { text: dec.decode(h) + (h.at(-1) === 10 ? "" : "\n") + note + dec.decode(t), cut };
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
