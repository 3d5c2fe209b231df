/**
 * The Python environment of every subprocess that imports a workspace (execution verification,
 * hidden tests, workspace import checks): the interpreter, the environment variables, and the
 * namespace a call or test case is evaluated in.
 *
 * @example
 * ```ts
 * import { pythonEnv } from "./python.ts";
 * console.assert(pythonEnv("/ws").PYTHONPATH === "/ws");
 * ```
 * @module
 */

/** The Python interpreter used by default: `$REPOREUSE_PYTHON`, else `python3`. */
export function defaultPython(): string {
  return Deno.env.get("REPOREUSE_PYTHON") ?? "python3";
}

/** Environment of a Python subprocess importing from the workspace root (headless matplotlib). */
export function pythonEnv(workspace: string): Record<string, string> {
  return { PYTHONPATH: workspace, MPLBACKEND: "Agg" };
}

/** Namespace setup shared by the verification harness and the hidden tests. */
export const NAMESPACE_PY = `
import importlib, warnings
warnings.simplefilter("ignore")
import os
os.environ.setdefault("MPLBACKEND", "Agg")

def _reporeuse_namespace(module, functions):
    ns = {}
    try:
        import numpy as np
        ns["np"] = np
    except Exception:
        pass
    try:
        import pandas as pd
        ns["pd"] = pd
    except Exception:
        pass
    mod = importlib.import_module(module)
    for name in functions:
        if hasattr(mod, name):
            ns[name] = getattr(mod, name)
    return ns
`;
