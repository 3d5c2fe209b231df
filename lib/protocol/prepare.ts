/**
 * Workspace preparation (paper Appendix A.1): W0 is copied, git history and every test file are
 * removed file by file (`test_*.py`, `*_test.py`, `conftest.py`, cached test listings such as
 * `.pytest_cache`), compiled caches are dropped, and the package must still import afterwards.
 * Helpers that the package imports at runtime (non-test modules, even inside `tests/`) are kept.
 *
 * @example
 * ```ts
 * import { isRemovedPath } from "./prepare.ts";
 * console.assert(isRemovedPath("pkg/tests/test_core.py"));
 * console.assert(isRemovedPath("conftest.py"));
 * console.assert(!isRemovedPath("pkg/_testing.py"));
 * ```
 * @module
 */
import { defaultPython, pythonEnv, runProcess } from "../util/mod.ts";

const REMOVED_DIRS = new Set([
  ".git",
  ".pytest_cache",
  "__pycache__",
  ".hypothesis",
  ".tox",
  ".nox",
]);

/** Whether a workspace-relative path is removed by workspace preparation. */
export function isRemovedPath(rel: string): boolean {
  const parts = rel.split("/");
  if (parts.some((p) => REMOVED_DIRS.has(p))) return true;
  const base = parts[parts.length - 1];
  if (base === ".git") return true; // a worktree's .git file
  if (base === "conftest.py") return true;
  if (/^test_.*\.py$/.test(base) || /_test\.py$/.test(base)) return true;
  return false;
}

/** Outcome of {@link prepareWorkspace}. */
export interface PreparedWorkspace {
  dir: string;
  /** Workspace-relative paths removed (directories listed once). */
  removed: string[];
}

/**
 * Copies W0 (`source`, followed through symlinks) to `dest` without git history, test files and
 * caches, then checks that `package` still imports with `python`. Throws an Error naming the
 * workspace when it does not.
 */
export async function prepareWorkspace(
  source: string,
  dest: string,
  opts: { package?: string; python?: string; checkImport?: boolean } = {},
): Promise<PreparedWorkspace> {
  const removed: string[] = [];
  // what cannot be stat'ed is no directory: the error below names it
  const info = await Deno.stat(source).catch(() => null);
  if (!info?.isDirectory) throw new Error(`${source}: W0 is not a directory`);
  await Deno.mkdir(dest, { recursive: true });
  await copyTree(source, dest, "", removed);
  if (opts.package && opts.checkImport !== false) {
    await checkImports(dest, opts.package, opts.python);
  }
  return { dir: dest, removed };
}

async function copyTree(src: string, dest: string, rel: string, removed: string[]): Promise<void> {
  for await (const entry of Deno.readDir(src)) {
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    const from = `${src}/${entry.name}`;
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(from);
    } catch {
      continue; // dangling symlink
    }
    if (isRemovedPath(r)) {
      removed.push(r);
      continue;
    }
    if (info.isDirectory) {
      await Deno.mkdir(`${dest}/${entry.name}`, { recursive: true });
      await copyTree(from, `${dest}/${entry.name}`, r, removed);
    } else if (info.isFile) {
      await Deno.copyFile(from, `${dest}/${entry.name}`);
    }
  }
}

/** Throws unless `import <package>` succeeds with the workspace on `PYTHONPATH`. */
export async function checkImports(workspace: string, pkg: string, python?: string): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-import-" });
  try {
    const py = python ?? defaultPython();
    const r = await runProcess([py, "-c", `import ${pkg}`], {
      cwd: tmp,
      env: pythonEnv(workspace),
      timeoutMs: 120_000,
    });
    if (r.code !== 0) {
      const last = r.stderr.trim().split("\n").pop() ?? `exit ${r.code}`;
      throw new Error(`${workspace}: package '${pkg}' does not import after preparation: ${last}`);
    }
  } finally {
    // best effort: the scratch copy of a prepared workspace
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
