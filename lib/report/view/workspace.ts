/**
 * The files of a workspace directory as the viewer lists them: regular files under the root
 * (symbolic links only when they stay inside it, as the log readers do), version-control and cache
 * directories skipped, at most {@link MAX_TREE_FILES}, sorted; texts read through lib/logs'
 * `dirSource` (never outside the root), CRLF read as LF like the readers do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listWorkspace } from "./workspace.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/pkg/__pycache__`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/pkg/a.py`, "x = 1\r\n");
 * await Deno.writeTextFile(`${dir}/pkg/__pycache__/a.pyc`, "");
 * await Deno.symlink("/etc/passwd", `${dir}/pkg/out.py`);
 * const ws = await listWorkspace(dir);
 * assert.deepEqual(ws.files, ["pkg/a.py"]);
 * assert.equal(ws.text("pkg/a.py"), "x = 1\n");
 * assert.equal(ws.text("pkg/out.py"), undefined);
 * ```
 * @module
 */
import { dirSource } from "../../logs/mod.ts";

/** At most this many files of a workspace are listed in a tree. */
export const MAX_TREE_FILES = 20_000;
/** Files larger than this are listed but their text is not shown. */
export const MAX_SHOWN_BYTES = 2 * 1024 * 1024;

const SKIP_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  "__pycache__",
  "node_modules",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".tox",
  ".venv",
]);

/** A workspace on disk: its files and a safe reader of their texts. */
export interface WorkspaceFiles {
  root: string;
  /** Workspace-relative posix paths, sorted. */
  files: string[];
  /** True when the listing stopped at {@link MAX_TREE_FILES}. */
  truncated: boolean;
  /** A file's text (LF line endings), undefined when absent, unreadable, too large or binary. */
  text(path: string): string | undefined;
}

/** Lists a workspace directory (see the module doc). */
export async function listWorkspace(root: string): Promise<WorkspaceFiles> {
  const realRoot = await Deno.realPath(root);
  const files: string[] = [];
  let truncated = false;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (files.length >= MAX_TREE_FILES) {
        truncated = true;
        return;
      }
      const path = rel ? `${rel}/${e.name}` : e.name;
      const abs = `${dir}/${e.name}`;
      if (e.isDirectory) {
        if (!SKIP_DIRS.has(e.name)) await walk(abs, path);
      } else if (e.isFile) files.push(path);
      else if (e.isSymlink) {
        // a link counts when it leads to a regular file inside the workspace
        const real = await Deno.realPath(abs).catch(() => null);
        if (real?.startsWith(realRoot + "/") && (await Deno.stat(real)).isFile) files.push(path);
      }
    }
  };
  await walk(realRoot, "");
  const source = dirSource(realRoot, MAX_SHOWN_BYTES);
  return {
    root: realRoot,
    files,
    truncated,
    text: (path) => {
      const t = source(path);
      if (t === undefined || t.includes("\u0000")) return undefined;
      return t.includes("\r\n") ? t.replaceAll("\r\n", "\n") : t;
    },
  };
}
