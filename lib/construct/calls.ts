/**
 * Executing single-line calls against a module in a Python subprocess (never in-process): the
 * module is imported from a workspace root (`PYTHONPATH`), each call is evaluated with the
 * module's listed functions, `np` and `pd` in scope, and the `repr` of its value (or the error)
 * is reported. Used by execution verification (expected values come from these real runs) and
 * mirrored by the hidden-test file of the protocol runner.
 *
 * @module
 */
import { defaultPython, NAMESPACE_PY, pythonEnv, runProcess } from "../util/mod.ts";

/** Outcome of one call. */
export type CallOutcome = { ok: true; repr: string } | { ok: false; error: string };

/** Outcome of one execution of a list of calls. */
export interface CallsRun {
  /** Import error of the module (then every call fails). */
  importError: string | null;
  outcomes: CallOutcome[];
}

/** Options of {@link runCalls}. */
export interface RunCallsOptions {
  python?: string;
  /** Limit of the whole subprocess (default 120 s). */
  timeoutMs?: number;
  /** Limit of one call, enforced inside Python with SIGALRM (default 20 s). */
  callTimeoutS?: number;
}

const HARNESS_PY = NAMESPACE_PY + `
import json, signal, sys

class _CallTimeout(BaseException):
    pass

def _alarm(signum, frame):
    raise _CallTimeout()

def main():
    spec = json.load(open(sys.argv[1]))
    out = {"import_error": None, "outcomes": []}
    try:
        ns = _reporeuse_namespace(spec["module"], spec["functions"])
    except BaseException as e:
        ns = None
        out["import_error"] = "%s: %s" % (type(e).__name__, e)
    signal.signal(signal.SIGALRM, _alarm)
    for call in spec["calls"]:
        if ns is None:
            out["outcomes"].append({"ok": False, "error": "import failed: " + out["import_error"]})
            continue
        try:
            signal.alarm(spec["call_timeout"])
            value = eval(call, dict(ns))
            text = repr(value)
            signal.alarm(0)
            out["outcomes"].append({"ok": True, "repr": text})
        except _CallTimeout:
            out["outcomes"].append({"ok": False, "error": "timeout after %ss" % spec["call_timeout"]})
        except BaseException as e:
            signal.alarm(0)
            out["outcomes"].append({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)

main()
`;

/**
 * Evaluates `calls` against `module` (functions `functions` in scope) importing from the
 * workspace root `workspace`, in a fresh Python subprocess run from a temporary directory.
 * Throws when the subprocess itself fails (interpreter missing, timeout, crash).
 */
export async function runCalls(
  workspace: string,
  module: string,
  functions: string[],
  calls: string[],
  opts: RunCallsOptions = {},
): Promise<CallsRun> {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-calls-" });
  try {
    await Deno.writeTextFile(`${tmp}/harness.py`, HARNESS_PY);
    await Deno.writeTextFile(
      `${tmp}/spec.json`,
      JSON.stringify({ module, functions, calls, call_timeout: opts.callTimeoutS ?? 20 }),
    );
    const python = opts.python ?? defaultPython();
    const r = await runProcess([python, "harness.py", "spec.json", "out.json"], {
      cwd: tmp,
      env: pythonEnv(workspace),
      timeoutMs: opts.timeoutMs ?? 120_000,
      contain: true, // generated code runs here: nothing it starts outlives the run
    });
    if (r.timedOut) throw new Error(`python calls of ${module} timed out`);
    let out: { import_error: string | null; outcomes: CallOutcome[] };
    try {
      out = JSON.parse(await Deno.readTextFile(`${tmp}/out.json`));
    } catch {
      throw new Error(
        `python harness for ${module} failed (exit ${r.code}): ${
          r.stderr.trim().split("\n").pop()
        }`,
      );
    }
    return { importError: out.import_error, outcomes: out.outcomes };
  } finally {
    // best effort in finally: a scratch left behind must not hide the harness's result
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
