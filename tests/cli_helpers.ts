/**
 * The one way the tests run the command line (not a test file): `reporeuse <args>`
 * (`deno run -A tasks/cli.ts …`, or another script of `tasks/`) in a child process, with its
 * output as text and, when asked, a time limit after which it is killed.
 */

/** The repository root (ends with `/`). */
export const ROOT = new URL("../", import.meta.url).pathname;
/** The CLI script. */
export const CLI = `${ROOT}tasks/cli.ts`;

/** Options of {@link runCli}. */
export interface CliOptions {
  /** Variables added to the inherited environment (`NO_COLOR=1` is always set). */
  env?: Record<string, string>;
  /** Working directory (default: the test process's). */
  cwd?: string;
  /** Text written to the child's standard input (default: none, stdin is null). */
  stdin?: string;
  /** Killed with SIGKILL after this many milliseconds (then `killed` is true). */
  timeoutMs?: number;
  /** The script run instead of tasks/cli.ts (a path, e.g. `${ROOT}tasks/verify.ts`). */
  script?: string;
}

/** What a run of the CLI gave: exit code, standard output and error (untrimmed). */
export interface CliResult {
  code: number;
  out: string;
  err: string;
  /** Whether the time limit killed it. */
  killed: boolean;
}

/** Runs `reporeuse <args>` in a child process (see {@link CliOptions}). */
export async function runCli(args: readonly string[], opts: CliOptions = {}): Promise<CliResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", opts.script ?? CLI, ...args],
    cwd: opts.cwd,
    env: { NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, opts.timeoutMs);
  try {
    if (opts.stdin !== undefined) {
      const w = child.stdin.getWriter();
      // a child that exits without reading its input closes the pipe: what it printed is the result
      await w.write(new TextEncoder().encode(opts.stdin)).catch(() => {});
      await w.close().catch(() => {}); // already closed by the child, as above
    }
    const r = await child.output();
    const dec = new TextDecoder();
    return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr), killed };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the CLI's `main(args)` in this process with its console output silenced, for its exit code
 * (tasks/cli.ts is loaded on first use: files that only spawn the CLI do not pay for it).
 */
export async function quiet(args: string[]): Promise<number> {
  const { main } = await import("../tasks/cli.ts");
  const log = console.log, err = console.error;
  console.log = () => {};
  console.error = () => {};
  try {
    return await main(args);
  } finally {
    console.log = log;
    console.error = err;
  }
}
