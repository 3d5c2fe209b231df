/**
 * The one way this toolkit runs git: {@link runGit} (and {@link runGitSync} for clean-up steps).
 * A repository is hostile until checked — a pull request from a fork controls its tree and
 * `.gitattributes`, and a workspace a coding agent worked in may carry its own `.git/config` and
 * hooks — so git never runs a program that a repository (or anything but this module) names:
 *
 * - **environment**: cleared, then only `PATH`, `HOME`, `XDG_CONFIG_HOME` (the invoking user's own
 *   configuration: ignore rules, `safe.directory`) and `LC_ALL=C`, plus {@link GIT_ENV}:
 *   `GIT_CONFIG_NOSYSTEM`, no prompts, no pager, no optional locks (no index write, so no
 *   `post-index-change` hook), no replace objects, no lazy fetch. Inherited `GIT_DIR`,
 *   `GIT_CONFIG_PARAMETERS`, `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`, … are dropped.
 * - **configuration**: the command line's `-c` beats every configuration file, the repository's
 *   own and the files it includes (`include.path`, `includeIf`); {@link HARDENED_CONFIG} turns off
 *   every key that runs a program: `core.fsmonitor`, `core.hooksPath`, pagers (`--no-pager`),
 *   `diff.external`, editors, `gpg.*program`, `log.showSignature`, credential helpers,
 *   `core.askPass`, `core.sshCommand`, every transport (`protocol.allow=never`: no fetch, lazy or
 *   not), the untracked cache, embedded bare repositories (`safe.bareRepository=explicit`).
 *   `GIT_ALLOW_PROTOCOL` refuses every transport even where a configuration re-allows one
 *   (`protocol.ext.allow=always` beats `-c protocol.allow=never`). Filter drivers have names the
 *   repository chooses, so for a command that may run one ({@link mayFilter}: not `rev-parse`,
 *   `ls-tree`, `cat-file` without `--filters`, …) they are listed first (`git config --name-only
 *   --get-regexp`, which runs nothing) and each one's `clean`, `smudge` and `process` blanked
 *   through `GIT_CONFIG_KEY_n` ({@link driverOverrides}: any name, `=` included); textconv
 *   drivers and external diff commands are off by `--no-textconv --no-ext-diff`, which callers of
 *   `diff`/`log -p`/`show` must pass.
 * - **a time limit** ({@link GIT_TIMEOUT_MS} by default): a configuration that includes a FIFO
 *   cannot hang the caller.
 * - **ownership**: git refuses a repository owned by another user (`safe.directory`,
 *   CVE-2022-24765); the error says so in words ({@link GitError.refusedOwnership}). Entries of
 *   the system configuration's `safe.directory` (which `GIT_CONFIG_NOSYSTEM` skips) are honoured.
 *
 * @example
 * ```ts
 * import { runGit } from "./git.ts";
 * const out = new TextDecoder().decode(await runGit(null, ["--version"]));
 * console.assert(out.startsWith("git version"));
 * ```
 * @module
 */

/** Environment of every git process (beside `PATH`, `HOME`, `XDG_CONFIG_HOME`). */
export const GIT_ENV: Readonly<Record<string, string>> = {
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  GIT_EDITOR: "false",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_NO_LAZY_FETCH: "1",
  GIT_LFS_SKIP_SMUDGE: "1",
  GIT_PROTOCOL_FROM_USER: "0",
  // every transport refused, whatever `protocol.<name>.allow` a configuration sets (a repository's
  // `protocol.ext.allow=always` beats `-c protocol.allow=never`; this variable beats both)
  GIT_ALLOW_PROTOCOL: "reporeuse-none",
};

/**
 * `-c` settings of every git command: each key that can make git run a program is set to a value
 * that runs none (or, for transports, forbids them), whatever any configuration file says.
 */
export const HARDENED_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.editor=false",
  "sequence.editor=false",
  "diff.external=",
  "core.askPass=",
  "credential.helper=",
  "core.sshCommand=false",
  "ssh.variant=simple",
  "core.gitProxy=",
  "protocol.allow=never",
  "gpg.program=false",
  "gpg.openpgp.program=false",
  "gpg.x509.program=false",
  "gpg.ssh.program=false",
  "gpg.ssh.defaultKeyCommand=",
  "log.showSignature=false",
  "core.untrackedCache=false",
  "core.attributesFile=/dev/null",
  "safe.bareRepository=explicit",
  "core.quotePath=off",
];

/** Default time limit of one git command: 5 minutes. */
export const GIT_TIMEOUT_MS = 5 * 60_000;

/** A git command that failed: its exit code and last line of stderr, in `message`. */
export class GitError extends Error {
  override name = "GitError";
  constructor(
    message: string,
    /** git's exit code (-1 when it could not be started or was killed at the time limit). */
    readonly code: number,
    /** git's whole stderr. */
    readonly stderr: string,
  ) {
    super(message);
  }

  /** Whether git refused the repository because another user owns it (safe.directory). */
  get refusedOwnership(): boolean {
    return /detected dubious ownership/.test(this.stderr);
  }
}

/** Options of {@link runGit}. */
export interface GitOptions {
  /** Bytes written to git's stdin (default: none, stdin closed). */
  input?: Uint8Array;
  /** Extra environment (e.g. `GIT_AUTHOR_NAME`); cannot undo {@link GIT_ENV}. */
  env?: Record<string, string>;
  /** Time limit in milliseconds (default {@link GIT_TIMEOUT_MS}). */
  timeoutMs?: number;
}

const decoder = new TextDecoder();

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "XDG_CONFIG_HOME"]) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return { ...extra, ...env, ...GIT_ENV };
}

/** Blanking settings of filter drivers, by repository (listed once per process). */
const drivers = new Map<string, Promise<[string, string][]>>();

/**
 * Subcommands that never convert content through a filter driver (no checkout, no diff, no
 * index refresh): the drivers need not be listed for them. `cat-file` only without `--filters`
 * and `--textconv`.
 */
const FILTER_FREE = new Set([
  "rev-parse",
  "ls-tree",
  "cat-file",
  "merge-base",
  "rev-list",
  "config",
  "ls-files",
  "for-each-ref",
  "show-ref",
  "symbolic-ref",
  "init",
  "version",
]);

/** Whether a git command may run filter drivers (see {@link FILTER_FREE}). */
export function mayFilter(args: readonly string[]): boolean {
  const sub = args.find((a) => !a.startsWith("-"));
  if (sub === undefined) return false; // `git --version`
  if (sub === "cat-file") return args.some((a) => a === "--filters" || a === "--textconv");
  return !FILTER_FREE.has(sub);
}

/**
 * Settings (key, value) that blank every filter driver the configuration of `repo` defines: its
 * `clean`, `smudge` and `process` emptied, `required` off. Listing them runs nothing. They are
 * passed as `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, which take any driver name (`-c` would split
 * a name holding `=`).
 */
export function driverOverrides(
  repo: string,
  opts: GitOptions = {},
): Promise<[string, string][]> {
  let p = drivers.get(repo);
  if (!p) {
    const args = ["config", "-z", "--name-only", "--get-regexp", "^filter\\."];
    p = (async () => {
      const out = await spawnTrusted(["-C", repo, ...configArgs([]), ...args], {
        timeoutMs: opts.timeoutMs,
      });
      // a configuration that cannot be read in time stops the command that needs it too
      if (out.timedOut) {
        drivers.delete(repo);
        throw failure(args, out, opts.timeoutMs ?? GIT_TIMEOUT_MS);
      }
      if (out.code !== 0) return [];
      const names = new Set<string>();
      for (const key of decoder.decode(out.stdout).split("\0")) {
        const dot = key.lastIndexOf(".");
        if (key.startsWith("filter.") && dot > 7) names.add(key.slice(7, dot));
      }
      return [...names].sort().flatMap((d): [string, string][] => [
        [`filter.${d}.clean`, ""],
        [`filter.${d}.smudge`, ""],
        [`filter.${d}.process`, ""],
        [`filter.${d}.required`, "false"],
      ]);
    })();
    drivers.set(repo, p);
  }
  return p;
}

function configArgs(extra: string[]): string[] {
  return [...HARDENED_CONFIG, ...extra].flatMap((kv) => ["-c", kv]);
}

/** Entries of the system configuration's `safe.directory` (skipped with the rest of it). */
let systemSafe: Promise<string[]> | undefined;

function systemSafeDirectories(): Promise<string[]> {
  systemSafe ??= (async () => {
    const env = baseEnv();
    delete env.GIT_CONFIG_NOSYSTEM;
    const out = await new Deno.Command("git", {
      args: ["config", "--system", "--get-all", "safe.directory"],
      clearEnv: true,
      env,
      cwd: "/",
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output().catch(() => null); // no git to ask: no system entries
    if (!out?.success) return [];
    return decoder.decode(out.stdout).split("\n").filter(Boolean);
  })();
  return systemSafe;
}

interface Spawned {
  code: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  timedOut: boolean;
}

async function spawn(
  args: string[],
  opts: GitOptions,
  env: Record<string, string> = baseEnv(opts.env),
): Promise<Spawned> {
  const child = new Deno.Command("git", {
    args,
    clearEnv: true,
    env,
    stdin: opts.input ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.input) {
    const w = child.stdin.getWriter();
    // written concurrently with reading stdout, so large batches never deadlock
    w.write(opts.input).then(() => w.close()).catch(() => {});
  }
  let timedOut = false;
  const limit = opts.timeoutMs ?? GIT_TIMEOUT_MS;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, limit);
  try {
    const out = await child.output();
    return { code: out.code, stdout: out.stdout, stderr: out.stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * {@link spawn}; when git refuses the repository for its owner, asked again with the system
 * configuration's `safe.directory` entries (which `GIT_CONFIG_NOSYSTEM` skipped), if any.
 */
async function spawnTrusted(
  args: string[],
  opts: GitOptions,
  env?: Record<string, string>,
): Promise<Spawned> {
  const r = await spawn(args, opts, env);
  if (r.code === 0 || r.timedOut || !/detected dubious ownership/.test(decoder.decode(r.stderr))) {
    return r;
  }
  const safe = await systemSafeDirectories();
  if (!safe.length) return r;
  return await spawn([...safe.flatMap((s) => ["-c", `safe.directory=${s}`]), ...args], opts, env);
}

/** A hardened git command: its arguments and environment (see module doc). */
export interface GitInvocation {
  args: string[];
  env: Record<string, string>;
}

/**
 * The arguments and environment of a hardened git command in `repo` (null: no repository):
 * `--no-pager`, {@link HARDENED_CONFIG}, and — for a command that may run filter drivers
 * ({@link mayFilter}) — every driver of the repository's configuration blanked.
 */
export async function gitCommand(
  repo: string | null,
  args: string[],
  opts: GitOptions = {},
): Promise<GitInvocation> {
  const where = repo === null ? [] : ["-C", repo];
  const blank = repo !== null && mayFilter(args) ? await driverOverrides(repo, opts) : [];
  const env = baseEnv(opts.env);
  if (blank.length) {
    env.GIT_CONFIG_COUNT = String(blank.length);
    blank.forEach(([k, v], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = k;
      env[`GIT_CONFIG_VALUE_${i}`] = v;
    });
  }
  return { args: [...where, "--no-pager", ...configArgs([]), ...args], env };
}

function failure(args: string[], r: Spawned, limit: number): GitError {
  const stderr = decoder.decode(r.stderr);
  const sub = args.find((a) => !a.startsWith("-")) ?? "git";
  if (r.timedOut) {
    return new GitError(`git ${sub}: no answer within ${limit / 1000} s, stopped`, -1, stderr);
  }
  const last = stderr.trim().split("\n").filter((l) => l.trim()).pop() ?? `exit ${r.code}`;
  return new GitError(`git ${sub}: ${last.replace(/^(fatal|error): /, "")}`, r.code, stderr);
}

/**
 * Runs hardened git (see module doc) in `repo` (`git -C repo`; null: no repository) and returns
 * its stdout; a failure, or no answer within the time limit, is a {@link GitError} whose message
 * names the subcommand and git's last line of stderr.
 */
export async function runGit(
  repo: string | null,
  args: string[],
  opts: GitOptions = {},
): Promise<Uint8Array> {
  let r: Spawned;
  try {
    const cmd = await gitCommand(repo, args, opts);
    r = await spawnTrusted(cmd.args, opts, cmd.env);
  } catch (e) {
    if (e instanceof GitError) throw e;
    throw new GitError(`cannot run git: ${(e as Error).message}`, -1, "");
  }
  if (r.code !== 0 || r.timedOut) throw failure(args, r, opts.timeoutMs ?? GIT_TIMEOUT_MS);
  return r.stdout;
}

/**
 * {@link runGit}, synchronously and without filter drivers listed: for clean-up steps that run
 * while the process is being interrupted (e.g. `git worktree remove`). Returns whether git
 * succeeded.
 */
export function runGitSync(repo: string | null, args: string[]): boolean {
  const where = repo === null ? [] : ["-C", repo];
  try {
    return new Deno.Command("git", {
      args: [...where, "--no-pager", ...configArgs([]), ...args],
      clearEnv: true,
      env: baseEnv(),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false; // git could not be started: the command did not succeed
  }
}

/**
 * A one-line explanation of git refusing a repository owned by another user (git's own message
 * only names the command that would silence it).
 */
export function ownershipMessage(dir: string, e: GitError): string {
  const at = /dubious ownership in repository at '([^']*)'/.exec(e.stderr)?.[1] ?? dir;
  let owner = "";
  try {
    const uid = Deno.statSync(at).uid;
    if (uid !== null) owner = ` (owner uid ${uid}; you are uid ${Deno.uid()})`;
  } catch {
    // the path git named is gone; say it without the owner
  }
  return `${at}: git refuses to work in this repository because another user owns it${owner}: ` +
    "its configuration could run commands as you (safe.directory, CVE-2022-24765). " +
    "Run as its owner, or if you trust it: git config --global --add safe.directory " +
    `'${at.replaceAll("'", "'\\''")}'`;
}
