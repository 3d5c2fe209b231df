/**
 * data/audit/scan.py, the recall-sample scanner (docs/audit.md, "Evaluation"): run on a planted
 * history, with CPython (it imports neither the project nor reporeuse).
 */
import assert from "node:assert/strict";
import { commit, sh, write } from "./audit_helpers.ts";

const SCAN = new URL("../data/audit/scan.py", import.meta.url).pathname;

async function scan(
  repo: string,
  range: string,
): Promise<{ candidates: Record<string, unknown>[] }> {
  const out = await new Deno.Command("python3", {
    args: [SCAN, repo, range, "--min-tokens", "5"],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(out.code, 0);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("scan.py: a module copied whole under another path is another module, its copy a candidate", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-scan-" });
  await sh(repo, ["git", "init", "-q", "-b", "main"]);
  const body = "def alpha(x):\n    y = x + 1\n    z = y * 2\n    return z - 3\n";
  await write(repo, "pkg/__init__.py", "");
  await write(repo, "pkg/a.py", body);
  await commit(repo, "one");
  // the same bytes (the same blob) at a second path, in a subpackage
  await write(repo, "pkg/sub/__init__.py", "");
  await write(repo, "pkg/sub/b.py", body);
  await commit(repo, "copy");
  const r = await scan(repo, "HEAD~1..HEAD");
  assert.deepEqual(
    r.candidates.map((c) => [c.function, c.target, c.level, c.value]),
    [["pkg.sub.b.alpha", "pkg.a.alpha", "strong", 1]],
  );
  await Deno.remove(repo, { recursive: true });
});
