/**
 * The viewer without a browser: the `view` command's contract (usage errors, kinds of input, one
 * line naming a bad file), the notebook display of one turn of the seaborn sample (marked lines
 * against the scored frames, outcome badges, no script), and what hostile input cannot do to a
 * page's markup.
 */
import assert from "node:assert/strict";
import { run as view } from "../tasks/commands/view.ts";
import { turnView } from "../lib/report/view/mod.ts";
import { html, jsonBlock, safeJson } from "../lib/report/view/html.ts";
import { slug, turnHref } from "../lib/report/view/paths.ts";
import { scoreRows } from "../lib/frames/score.ts";

const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-view-cache-" });
Deno.env.set("REPOREUSE_CACHE_DIR", cacheDir);

/** Runs the command with stderr captured. */
async function cli(args: string[]): Promise<{ code: number; err: string }> {
  const lines: string[] = [];
  const error = console.error, log = console.log;
  console.error = (...a: unknown[]) => lines.push(a.map(String).join(" "));
  console.log = () => {};
  try {
    return { code: await view(args), err: lines.join("\n") };
  } finally {
    console.error = error;
    console.log = log;
  }
}

Deno.test("view CLI: usage errors exit 2, a missing input 1, each with one line", async () => {
  assert.deepEqual((await cli(["data/sample"])).code, 2); // no --out
  assert.match((await cli(["data/sample"])).err, /--out <site-dir> is required/);
  assert.equal((await cli(["--out", "x"])).code, 2);
  const missing = await cli(["/nonexistent/corpus", "--out", "x"]);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /\/nonexistent\/corpus: no such file or directory/);
  const wrong = await cli(["data/sample", "--root", "data/sample", "--out", "x"]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /--root do\(es\) not apply to a corpus/);
  assert.equal((await cli(["data/sample", "--workers", "many", "--out", "x"])).code, 2);
});

Deno.test("view CLI: a log that is no log is one line naming it, and nothing is written", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/log.json`, "{ not json");
  const r = await cli([`${dir}/log.json`, "--out", `${dir}/site`]);
  assert.equal(r.code, 1);
  assert.match(r.err, /log\.json/);
  assert.equal(r.err.trim().split("\n").length, 1);
  assert.equal(await Deno.stat(`${dir}/site`).catch(() => null), null);
});

Deno.test("turnView: one turn of the sample inline — marked lines = the frames' lines, outcomes, no script", async () => {
  const keys = {
    harness: "OpenCode",
    model: "DeepSeek-v4.1-flash",
    memory: "interface",
    chain: "seaborn-001",
    turn: 2,
  };
  const v = await turnView({ corpus: "data/sample", ...keys, workers: 0 });
  const bundle = v.bundle();
  const page = bundle["text/html"];
  assert.ok(!page.includes("<script"));
  const rows = await scoreRows("data/sample", { workers: 0 });
  const row = rows.turns.find((r) => r.harness === keys.harness && r.turn === 2)!;
  // every shown line appears once, marked (the inline view keeps windows around them)
  assert.equal(page.match(/class="ln shown"/g)?.length, row.lines);
  // data/sample/README.md: this turn re-implements seaborn.utils.desaturate
  assert.match(
    page,
    /class="b o-reimplemented">⟳ re-implemented<\/span><\/td>\s*<td><code>seaborn\.utils\.desaturate</,
  );
  assert.match(bundle["text/plain"], /seaborn-001 · turn 2: 2 files, 148 lines shown/);
});

Deno.test("escaping: markup, JSON blocks and page names from hostile strings", () => {
  const evil = `"><script>alert(1)</script><!--`;
  assert.ok(!String(html`<a title="${evil}">${evil}</a>`).includes("<script>"));
  const block = String(jsonBlock("d", { s: evil, t: "\u2028" }));
  assert.equal(block.match(/<\/script>/g)?.length, 1); // only its own end
  assert.deepEqual(JSON.parse(safeJson({ s: evil })), { s: evil });
  for (const name of ["../../x", "a/b", "..", ".", "", "CON", "x".repeat(300), "é"]) {
    const s = slug(name);
    assert.match(s, /^[a-z0-9][a-z0-9._-]*$/, name);
    assert.ok(!s.includes("..") && s.length <= 60, name);
  }
  assert.notEqual(slug("Chain"), slug("chain"));
  const href = turnHref({
    harness: "../h",
    model: "<m>",
    memory: "none",
    chain: "../../etc",
    turn: 1,
  });
  assert.ok(!href.split("/").some((p) => p === ".." || p === "."), href);
});
