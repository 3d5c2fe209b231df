/**
 * A commit's Python files on disk, for tools that read a directory rather than blobs (jscpd; the
 * code model's `summarizeFiles` over an older tree): `git archive` of the tree's `.py` files,
 * unpacked with `tar` under a directory the caller owns. Unlike git.ts (blobs analysed in
 * memory, nothing written), this writes the repository's names to disk — under `dest` only:
 * `git archive` writes no absolute path and no `..` component, and GNU tar refuses both.
 * Symbolic links in the tree are unpacked as links but not listed (they may point anywhere).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writePythonTree } from "./tree_dir.ts";
 * const repo = await Deno.makeTempDir();
 * const git = (...args: string[]) => new Deno.Command("git", { args: ["-C", repo, ...args] }).outputSync();
 * git("init", "-q");
 * await Deno.mkdir(`${repo}/pkg`);
 * await Deno.writeTextFile(`${repo}/pkg/a.py`, "x = 1\n");
 * await Deno.writeTextFile(`${repo}/README.md`, "hi\n");
 * git("add", ".");
 * git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c");
 * const dest = await Deno.makeTempDir();
 * assert.deepEqual(await writePythonTree(repo, "HEAD", dest), ["pkg/a.py"]);
 * assert.equal(await Deno.readTextFile(`${dest}/pkg/a.py`), "x = 1\n");
 * ```
 * @module
 */
import { runGit } from "../util/mod.ts";

/** Every regular `.py` file under `dir`, relative to it (symbolic links not followed). */
async function* pythonFiles(dir: string, prefix = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(prefix ? `${dir}/${prefix}` : dir)) {
    const p = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) yield* pythonFiles(dir, p);
    else if (e.isFile && p.endsWith(".py")) yield p;
  }
}

/**
 * Writes the `.py` files of `commit`'s tree in `repo` under `dest` (an existing directory, best
 * empty) and returns their paths relative to `dest`, sorted. Throws naming the commit when git
 * or tar fails.
 */
export async function writePythonTree(
  repo: string,
  commit: string,
  dest: string,
): Promise<string[]> {
  const tar = await runGit(repo, ["archive", "--format=tar", commit, "--", ":(glob)**/*.py"]);
  const file = await Deno.makeTempFile({ prefix: "reporeuse-tree-", suffix: ".tar" });
  try {
    await Deno.writeFile(file, tar);
    const x = await new Deno.Command("tar", {
      args: ["-x", "-f", file, "-C", dest],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!x.success) throw new Error(`${commit}: tar failed`);
  } finally {
    await Deno.remove(file);
  }
  const paths: string[] = [];
  for await (const p of pythonFiles(dest)) paths.push(p);
  return paths.sort();
}
