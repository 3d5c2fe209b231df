/**
 * `deno task verify` (lib/verify): `verify truth` on one small seed reports 100% and leaves no
 * temporary file (also when interrupted); a planted wrong decision makes the recovery fail and is
 * named with its chain, turn, target and both sides' values; the file comparison of
 * `verify identical` finds changed frame rows by key, CSV rows, text lines and plotted data.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl from "nodejs-polars";
import { scoreCorpus } from "../lib/frames/mod.ts";
import { parseTruthCsv, simulateCorpus } from "../lib/simulate/mod.ts";
import { csvField } from "../lib/util/text.ts";
import {
  compareFile,
  compareText,
  formatFile,
  formatRecovery,
  parseSeeds,
  percentText,
  recovery,
  recoveryPercent,
} from "../lib/verify/mod.ts";

const TASK = new URL("../tasks/verify.ts", import.meta.url).pathname;

function verify(args: string[], tmp: string) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", TASK, ...args],
    env: { TMPDIR: tmp },
    stdout: "piped",
    stderr: "piped",
  });
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Runs `fn` with a new directory for the task's TMPDIR, and checks that it is left empty. */
async function withTmp(fn: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-verify-test-" });
  try {
    await fn(tmp);
    assert.deepEqual([...Deno.readDirSync(tmp)], [], "temporary directory left behind");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

Deno.test("verify truth --seeds 7 --scale small: 100%, exit 0, temporary files removed", () =>
  withTmp(async (tmp) => {
    const out = await verify(["truth", "--seeds", "7", "--scale", "small"], tmp).output();
    const stdout = text(out.stdout);
    assert.equal(out.code, 0, stdout + text(out.stderr));
    const m = stdout.match(
      /^seed {2}7 {2}targets (\d+) {2}recovered (\d+) {2}100\.00% {2}extra 0 /m,
    );
    assert.ok(m, stdout);
    assert.equal(m[1], m[2]);
    assert.ok(Number(m[1]) > 500, `${m[1]} planted targets`);
    assert.match(stdout, /turns 300\/300 {2}errored 0 .* OK$/m);
    assert.match(stdout, /^OK: 1 seeds, 100%/m);
  }));

Deno.test("verify truth: Ctrl-C removes the temporary corpus and exits 130", () =>
  withTmp(async (tmp) => {
    const child = verify(["truth", "--seeds", "1", "--scale", "small"], tmp).spawn();
    // wait until the corpus is being written
    const started = Date.now();
    const busy = () =>
      [...Deno.readDirSync(tmp)].some((e) => {
        try {
          return Deno.statSync(`${tmp}/${e.name}/seed-1`).isDirectory;
        } catch {
          return false;
        }
      });
    while (!busy() && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
    assert.ok(busy(), "the seed's corpus never appeared");
    child.kill("SIGINT");
    const out = await child.output();
    assert.equal(out.code, 130, text(out.stderr));
  }));

Deno.test("recovery: a planted wrong decision and a dropped truth row fail, named with both sides", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-verify-corrupt-" });
  try {
    await simulateCorpus(`${dir}/corpus`, { seed: 7, scale: "small" });
    const scored = await scoreCorpus(`${dir}/corpus`, { cacheDir: `${dir}/cache` });
    const good = await recovery(scored, `${dir}/corpus/truth`);
    assert.ok(good.ok, formatRecovery("good", good).join("\n"));
    assert.equal(good.recovered, good.targets);
    assert.equal(recoveryPercent(good), 100);

    // a copy of the truth with one decision flipped and one planted target dropped
    await Deno.mkdir(`${dir}/bad`);
    await Deno.copyFile(`${dir}/corpus/truth/turns.csv`, `${dir}/bad/turns.csv`);
    const csv = await Deno.readTextFile(`${dir}/corpus/truth/targets.csv`);
    const header = csv.slice(0, csv.indexOf("\n"));
    const rows = parseTruthCsv(csv);
    const flip = rows.findIndex((r) => r.reused === "true");
    const drop = rows.findIndex((r, i) => i !== flip && r.kind === "repo");
    const [f, d] = [rows[flip], rows[drop]];
    f.reused = "false";
    const cols = header.split(",");
    const kept = rows.filter((_, i) => i !== drop);
    await Deno.writeTextFile(
      `${dir}/bad/targets.csv`,
      [header, ...kept.map((r) => cols.map((c) => csvField(r[c])).join(","))].join("\n") + "\n",
    );
    const bad = await recovery(scored, `${dir}/bad`);
    assert.equal(bad.ok, false);
    assert.equal(bad.targets, good.targets - 1);
    assert.equal(bad.recovered, good.targets - 2);
    assert.deepEqual(
      bad.problems.map((p) => [p.kind, p.chain, p.turn, p.target, p.column, p.truth, p.scored]),
      [
        ["mismatch", f.chain, f.turn, f.target, "reused", "false", "true"],
        ["extra", d.chain, d.turn, d.target, undefined, undefined, undefined],
      ],
    );
    const lines = formatRecovery("seed  7", bad);
    assert.match(lines[0], / 99\.\d\d% {2}extra 1 .* FAIL$/);
    assert.ok(
      lines[1].includes(`${f.chain} turn ${f.turn}  ${f.target}: reused: truth false, scored true`),
    );
    assert.ok(lines[2].includes(`${d.target}: scored target that was not planted`));

    // a turn the scorer could not score is named with the scorer's message, before the rest
    const errors = pl.DataFrame({
      path: ["tasks/c1/chain.json"],
      chain: ["c1"],
      turn: [4],
      config: ["mini-SWE-agent__GPT-5.6-Terra__interface"],
      message: ["turns[3].path p/m.py is used by an earlier turn"],
    });
    const unscored = await recovery({ ...scored, errors }, `${dir}/corpus/truth`);
    assert.equal(unscored.ok, false);
    assert.equal(unscored.erroredTurns, 1);
    assert.equal(
      formatRecovery("seed  7", unscored)[1],
      "  error    tasks/c1/chain.json: turns[3].path p/m.py is used by an earlier turn — 1 turn " +
        "unscored, first mini-SWE-agent__GPT-5.6-Terra__interface  c1 turn 4",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseSeeds: ranges and lists; bad specs throw", () => {
  assert.deepEqual(parseSeeds("1-10"), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(parseSeeds("3, 1-2,3"), [3, 1, 2]);
  assert.throws(() => parseSeeds("5-1"), /empty range/);
  assert.throws(() => parseSeeds("x"), /expected N/);
});

Deno.test("percentText: a miss is never shown as 100.00%", () => {
  const r = (targets: number, recovered: number) => ({
    targets,
    recovered,
    scored: recovered,
    turns: 0,
    turnsMatched: 0,
    erroredTurns: 0,
    problems: [],
    ok: recovered === targets,
  });
  assert.equal(percentText(r(100_000, 99_999)), "99.99");
  assert.equal(percentText(r(3, 2)), "66.67");
  assert.equal(percentText(r(7, 7)), "100.00");
});

function parquet(df: pl.DataFrame, compression: "uncompressed" | "zstd" = "zstd"): Uint8Array {
  return new Uint8Array(df.writeParquet({ compression }) as Buffer);
}

Deno.test("compareFile: frames by key, same data in other bytes, CSV rows, text and plotted data", () => {
  const targets = (chain: string[], target: string[], callees: number[]) =>
    pl.DataFrame({
      harness: ["h", "h", "h"],
      model: ["m", "m", "m"],
      memory: ["interface", "interface", "interface"],
      chain,
      turn: [1, 2, 1],
      target,
      callees,
    });
  const a = targets(["c1", "c1", "c2"], ["p.f", "p.g", "p.f"], [3, 4, 5]);
  // B: c1 turn 2 changes, c2 is gone, c3 is new, and the rows come in another order
  const b = targets(["c3", "c1", "c1"], ["p.h", "p.g", "p.f"], [1, 5, 3]);
  const d = compareFile("scored/targets.parquet", parquet(a), parquet(b));
  assert.equal(d.status, "different");
  assert.deepEqual(d.rows!.changed, [{
    key: "h | m | interface | c1 | 2 | p.g",
    changes: [{ column: "callees", a: "4", b: "5" }],
  }]);
  assert.deepEqual(d.rows!.onlyA, ["h | m | interface | c2 | 1 | p.f"]);
  assert.deepEqual(d.rows!.onlyB, ["h | m | interface | c3 | 1 | p.h"]);
  const lines = formatFile(d, { a: "old", b: "new" });
  assert.match(
    lines[0],
    /^DIFFERENT {2}scored\/targets\.parquet: 1 of 3 rows changed, 1 only in old/,
  );
  assert.equal(lines[1], "    h | m | interface | c1 | 2 | p.g: callees old 4 → new 5");

  // same rows, other compression: bytes differ, content does not
  const same = compareFile("targets.parquet", parquet(a), parquet(a, "uncompressed"));
  assert.equal(same.status, "same data");
  // a column's type is part of the content
  const retyped = a.withColumn(pl.col("callees").cast(pl.Int64));
  assert.deepEqual(
    compareFile("targets.parquet", parquet(a), parquet(retyped)).rows!.schema,
    ["column callees: Float64 in A, Int64 in B"],
  );

  const enc = (s: string) => new TextEncoder().encode(s);
  const csv = compareFile("tables/table2.csv", enc("x,y\n1,2\n3,4\n"), enc("x,y\n1,2\n3,5\n"));
  assert.deepEqual(csv.rows!.changed, [{
    key: "row 2",
    changes: [{ column: "y", a: "4", b: "5" }],
  }]);
  assert.deepEqual(compareFile("t.md", enc("a"), enc("a")).status, "identical");

  const t = compareText("same\nabcdef\n", "same\nabcxef\nmore\n")!;
  assert.deepEqual([t.line, t.column, t.a, t.b, t.lines], [2, 4, "abcdef", "abcxef", 3]);

  const spec = (title: string, y: number) =>
    enc(JSON.stringify({ title, layer: [{ data: { values: [{ x: 1, y }, { x: 2, y: 0 }] } }] }));
  const restyled = compareFile("figures/f.vl.json", spec("A", 1), spec("B", 1));
  assert.deepEqual([restyled.data!.onlyA, restyled.data!.onlyB], [[], []]);
  assert.match(formatFile(restyled, { a: "old", b: "new" }).join("\n"), /plotted data: the same 2/);
  const moved = compareFile("figures/f.vl.json", spec("A", 1), spec("A", 2));
  assert.deepEqual([moved.data!.onlyA, moved.data!.onlyB], [['{"x":1,"y":1}'], ['{"x":1,"y":2}']]);
  assert.deepEqual(moved.data!.numbers, { a: 4, b: 4, onlyA: 1, onlyB: 1 });
  // relabelled rows: the rows differ, the numbers they plot do not
  const labelled = (label: string) =>
    enc(JSON.stringify({ data: { values: [{ label, v: 1.5 }] } }));
  const relabelled = compareFile("f.vl.json", labelled("x"), labelled("y"));
  assert.match(
    formatFile(relabelled, { a: "old", b: "new" }).join("\n"),
    /numbers in them: the same 1$/m,
  );
});
