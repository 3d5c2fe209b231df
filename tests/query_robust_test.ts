/**
 * `query` on large and damaged scored directories: a table of any height renders (issue 11,
 * item 13); a Parquet file whose known columns hold impossible values is refused, named
 * (item 14).
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { formatFrame } from "../lib/query/mod.ts";

const CLI = new URL("../tasks/cli.ts", import.meta.url).pathname;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const res = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "query", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: res.code, out: dec.decode(res.stdout), err: dec.decode(res.stderr) };
}

Deno.test("query table format: 150k rows render aligned (no call-stack overflow)", () => {
  const n = 150_000;
  const df = pl.DataFrame({
    chain: Array.from({ length: n }, (_, i) => `c${i}`),
    turn: Array.from({ length: n }, (_, i) => i % 7),
  });
  for (const format of ["table", "md"] as const) {
    const lines = formatFrame(df, format).split("\n");
    assert.equal(lines.length, n + 2, format);
  }
  const lines = formatFrame(df, "table").split("\n");
  // widest chain is c149999 (7 characters); turn is right-aligned under its 4-wide header
  assert.equal(lines[0], "chain    turn");
  assert.equal(lines[1], "-------  ----");
  assert.equal(lines[2], "c0          0");
  assert.equal(lines[n + 1], "c149999     3");
});

Deno.test("cli: query prints 200k rows in the default table format", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const n = 200_000;
    pl.DataFrame({
      harness: Array(n).fill("h"),
      model: Array(n).fill("m"),
      memory: Array(n).fill("none"),
      chain: Array.from({ length: n }, (_, i) => `c${i}`),
      turn: Array.from({ length: n }, () => 1),
    }).withColumn(pl.col("turn").cast(pl.Int32)).writeParquet(`${dir}/turns.parquet`);
    const r = await cli("--scored", dir, "SELECT chain, turn FROM turns");
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err.trim(), `(${n} rows)`);
    assert.equal(r.out.trimEnd().split("\n").length, n + 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
