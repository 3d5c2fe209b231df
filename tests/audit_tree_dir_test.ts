/**
 * lib/audit `writePythonTree`: a commit's `.py` files written under a directory, as the
 * evaluation tasks (audit_jscpd, audit_agreement) read them — the commit's tree, not the working
 * tree; other files and symbolic links not listed.
 */
import assert from "node:assert/strict";
import { writePythonTree } from "../lib/audit/mod.ts";
import { withScratch } from "../lib/util/mod.ts";

function git(repo: string, ...args: string[]): void {
  const out = new Deno.Command("git", {
    args: ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

Deno.test("writePythonTree writes the commit's .py files, lists regular files only, sorted", async () => {
  await withScratch("tree-dir-test-", async (dir) => {
    const repo = `${dir}/repo`;
    await Deno.mkdir(`${repo}/pkg/sub`, { recursive: true });
    git(repo, "init", "-q");
    await Deno.writeTextFile(`${repo}/z.py`, "z = 1\n");
    await Deno.writeTextFile(`${repo}/pkg/__init__.py`, "");
    await Deno.writeTextFile(`${repo}/pkg/sub/m.py`, "def f():\n    return 1\n");
    await Deno.writeTextFile(`${repo}/notes.txt`, "not python\n");
    await Deno.symlink("z.py", `${repo}/link.py`);
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "first");
    const first = new TextDecoder().decode(
      new Deno.Command("git", { args: ["-C", repo, "rev-parse", "HEAD"] }).outputSync().stdout,
    ).trim();
    // a later commit and an uncommitted change: neither is in the first commit's tree
    await Deno.writeTextFile(`${repo}/later.py`, "y = 2\n");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "second");
    await Deno.writeTextFile(`${repo}/z.py`, "z = 99\n");

    const dest = `${dir}/out`;
    await Deno.mkdir(dest);
    assert.deepEqual(await writePythonTree(repo, first, dest), [
      "pkg/__init__.py",
      "pkg/sub/m.py",
      "z.py",
    ]);
    assert.equal(await Deno.readTextFile(`${dest}/z.py`), "z = 1\n");
    assert.equal(await Deno.readTextFile(`${dest}/pkg/sub/m.py`), "def f():\n    return 1\n");
    await assert.rejects(Deno.stat(`${dest}/notes.txt`), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${dest}/later.py`), Deno.errors.NotFound);
    await assert.rejects(writePythonTree(repo, "no-such-rev", dest));
  });
});
