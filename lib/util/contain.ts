/**
 * Containment of a command and everything it starts, so that no process outlives it: not one
 * started with `&`, `nohup`, `setsid` or a double fork, whether the command exits at once or is
 * killed at its wall time. Used for what an agent runs (lib/protocol) — the agent and the hidden
 * tests that import its code.
 *
 * Three mechanisms, the strongest available chosen once per process ({@link containment};
 * `REPOREUSE_CONTAIN=pidns|subreaper|group` forces one):
 *
 * - `pidns` — the command runs as PID 1 of a new PID namespace (`unshare --pid --fork
 *   --kill-child`, util-linux; as root directly, else inside a user namespace mapping the user to
 *   itself). When PID 1 exits, or is killed with `unshare` at the wall time, the kernel kills
 *   every process of the namespace: nothing escapes, `setsid` or not, and no process inside can
 *   signal the supervisor (it has no PID there).
 * - `subreaper` — where user namespaces are not allowed (e.g. Ubuntu ≥ 23.10's AppArmor
 *   restriction): a small Python supervisor marks itself a child subreaper
 *   (`prctl(PR_SET_CHILD_SUBREAPER)`), so orphans — double forks, `setsid` — are re-parented to
 *   it instead of to init; when the command exits, or on SIGTERM at the wall time, it kills its
 *   whole tree of descendants (found in `/proc`) until it has no child left. An agent that
 *   kills its supervisor first (`kill -9 $PPID`) escapes it (the sweep below still applies).
 * - `group` — neither is available: the process group only (the command is started with
 *   `setsid`), said once on stderr; `setsid` and double forks escape it.
 *
 * In every mode the command's environment carries `REPOREUSE_CONTAIN_ID=<uuid>`, and after it
 * ends any process of the user whose environment still holds that id is killed ({@link sweep}):
 * a last line that a process which clears its environment (`env -i`) escapes. Processes started
 * through a daemon (`systemd-run`, `at`, a container engine, `ssh localhost`) are no descendants
 * and escape every mechanism: run agents in a container or VM where that matters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { containment } from "./contain.ts";
 * assert.ok(["pidns", "subreaper", "group"].includes(containment()));
 * ```
 * @module
 */
import { findExecutable } from "./fs.ts";

/** A containment mechanism (see the module doc). */
export type Containment = "pidns" | "subreaper" | "group";

/** Name of the environment variable that marks a contained command's processes. */
export const CONTAIN_ID_VAR = "REPOREUSE_CONTAIN_ID";

/**
 * The subreaper supervisor (Python 3.9+, Linux): `python3 -c SUPERVISOR argv…`. It exits with the
 * command's status (128 + N when the command was killed by signal N); SIGTERM, SIGINT or SIGHUP
 * kill the whole tree and exit 128 + that signal.
 */
export const SUPERVISOR_PY = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(36, 1, 0, 0, 0) != 0:
    sys.stderr.write("reporeuse: cannot become a child subreaper\\n")
    sys.exit(125)
me = os.getpid()

def tree():
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d, "rb") as f:
                s = f.read()
            ppid = int(s[s.rindex(b")") + 2:].split()[1])
        except Exception:
            continue
        kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [me]
    while todo:
        for c in kids.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out

def kill_all():
    while True:
        for p in tree():
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        try:
            while True:
                r, _ = os.waitpid(-1, os.WNOHANG)
                if r == 0:
                    break
        except ChildProcessError:
            return
        time.sleep(0.005)

def stop(sig, frame):
    kill_all()
    os._exit(128 + sig)

pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, stop)
while True:
    r, status = os.waitpid(-1, 0)
    if r == pid:
        break
kill_all()
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
`;

function runs(cmd: string, args: string[]): boolean {
  try {
    const r = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" })
      .outputSync();
    return r.success;
  } catch {
    // a program that cannot start does not run: the next mechanism is tried
    return false;
  }
}

let unshareArgs: string[] | null | undefined;

/** `unshare` and its flags for a PID namespace here, or null when none can be made. */
function pidnsPrefix(): string[] | null {
  if (unshareArgs !== undefined) return unshareArgs;
  unshareArgs = null;
  const unshare = findExecutable("unshare", `/usr/bin:/bin:${Deno.env.get("PATH") ?? ""}`);
  if (unshare) {
    const base = ["--pid", "--fork", "--kill-child"];
    for (const extra of [[], ["--user", "--map-current-user"]]) {
      const flags = [...extra, ...base];
      if (runs(unshare, [...flags, "--", "true"])) {
        unshareArgs = [unshare, ...flags, "--"];
        break;
      }
    }
  }
  return unshareArgs;
}

let python: string | null | undefined;

/** A Python interpreter that can run the subreaper supervisor here, or null. */
function supervisorPython(): string | null {
  if (python !== undefined) return python;
  python = null;
  const path = `/usr/bin:/bin:${Deno.env.get("PATH") ?? ""}`;
  for (const name of ["python3", "python"]) {
    const p = findExecutable(name, path);
    if (p && runs(p, ["-c", SUPERVISOR_PY, "true"])) {
      python = p;
      break;
    }
  }
  return python;
}

/** Whether a mechanism can be used on this machine. */
export function containmentAvailable(mode: Containment): boolean {
  if (mode === "pidns") return pidnsPrefix() !== null;
  if (mode === "subreaper") return supervisorPython() !== null;
  return true;
}

let chosen: Containment | undefined;
let warned = false;

/**
 * The mechanism used here: `$REPOREUSE_CONTAIN` when set (an unavailable one is an error), else
 * `pidns` when a PID namespace can be made, else `subreaper` when Python can run the supervisor,
 * else `group` (said once on stderr).
 */
export function containment(): Containment {
  const forced = Deno.env.get("REPOREUSE_CONTAIN");
  if (forced) {
    if (forced !== "pidns" && forced !== "subreaper" && forced !== "group") {
      throw new Error(`REPOREUSE_CONTAIN must be pidns, subreaper or group (got ${forced})`);
    }
    if (!containmentAvailable(forced)) {
      throw new Error(`REPOREUSE_CONTAIN=${forced}: not available on this machine`);
    }
    return forced;
  }
  chosen ??= containmentAvailable("pidns")
    ? "pidns"
    : containmentAvailable("subreaper")
    ? "subreaper"
    : "group";
  if (chosen === "group" && !warned) {
    warned = true;
    console.error(
      "warning: neither a PID namespace (unshare) nor a subreaper (python3) is available: " +
        "processes an agent leaves in the background may outlive its turn",
    );
  }
  return chosen;
}

/** How to start a contained command: its argv and how to stop it at its wall time. */
export interface Contained {
  mode: Containment;
  argv: string[];
  /** Environment to add: the marker of its processes ({@link CONTAIN_ID_VAR}). */
  env: Record<string, string>;
  /** The marker's value. */
  id: string;
  /**
   * The first signal to send the started process at the wall time (the group is killed after
   * a grace period in any case): SIGTERM lets the subreaper kill its tree before it goes.
   */
  stopSignal: Deno.Signal;
}

/** Wraps `argv` in the mechanism of {@link containment}. */
export function contain(argv: string[]): Contained {
  const mode = containment();
  const id = crypto.randomUUID();
  const env = { [CONTAIN_ID_VAR]: id };
  if (mode === "pidns") {
    return { mode, argv: [...pidnsPrefix()!, ...argv], env, id, stopSignal: "SIGKILL" };
  }
  if (mode === "subreaper") {
    return {
      mode,
      argv: [supervisorPython()!, "-c", SUPERVISOR_PY, ...argv],
      env,
      id,
      stopSignal: "SIGTERM",
    };
  }
  return { mode, argv, env, id, stopSignal: "SIGKILL" };
}

/**
 * Kills every process of this user whose environment holds `REPOREUSE_CONTAIN_ID=<id>` (read
 * from `/proc/<pid>/environ`), until none is left; returns how many were killed.
 */
export function sweep(id: string): number {
  const needle = new TextEncoder().encode(`${CONTAIN_ID_VAR}=${id}\0`);
  let killed = 0;
  for (let round = 0; round < 50; round++) {
    const found: number[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync("/proc")];
    } catch {
      return killed; // no /proc: nothing to find
    }
    for (const e of entries) {
      if (!/^\d+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
      let env: Uint8Array;
      try {
        env = Deno.readFileSync(`/proc/${e.name}/environ`);
      } catch {
        continue; // gone, or another user's
      }
      if (includes(env, needle)) found.push(Number(e.name));
    }
    if (!found.length) return killed;
    for (const pid of found) {
      try {
        Deno.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // already gone
      }
    }
  }
  return killed;
}

function includes(hay: Uint8Array, needle: Uint8Array): boolean {
  // the environ block starts with a variable or follows a NUL
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    if (i > 0 && hay[i - 1] !== 0) continue;
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
