/**
 * `query` on large and damaged scored directories: a table of any height renders (issue 11,
 * item 13); a Parquet file whose known columns hold impossible values is refused, named
 * (item 14).
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { formatFrame, openScored, QueryError } from "../lib/query/mod.ts";
import { writeFixture } from "./fixtures/query/fixture.ts";
import { runCli } from "./cli_helpers.ts";

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(["query", ...args]);
  return { code, out, err };
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

/** Byte offsets of `needle` in `hay`. */
function find(hay: Uint8Array, needle: Uint8Array): number[] {
  const at: number[] = [];
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    at.push(i);
  }
  return at;
}

Deno.test("query: a bit-flipped rate in turns.parquet is refused, naming the file and column", async () => {
  const dir = await writeFixture();
  const file = `${dir}/turns.parquet`;
  // rewrite turns uncompressed, so one value's bytes can be found and one bit flipped
  const turns = pl.readParquet(file);
  const q0 = (await openScored(dir)).sql("SELECT AVG(reuse_repo) AS r FROM turns");
  const before = q0.getColumn("r").get(0) as number;
  turns.writeParquet(file, { compression: "uncompressed" });
  const bytes = await Deno.readFile(file);
  // 2/3 (recall_repo of two turns) as little-endian f64 is in the data page; flipping the top
  // exponent bit of the first makes it about 1.2e308
  const v = new Uint8Array(new Float64Array([2 / 3]).buffer);
  const hits = find(bytes, v);
  assert.ok(hits.length >= 1, "the value is in the file");
  bytes[hits[0] + 7] ^= 0x40;
  await Deno.writeFile(file, bytes);
  assert.ok(before >= 0 && before <= 1);

  const err = await openScored(dir).catch((e) => e);
  assert.ok(err instanceof QueryError, String(err));
  assert.match(
    err.message,
    new RegExp(
      `^${file.replaceAll(".", "\\.")}: column recall_repo holds 1 value outside \\[0, 1\\] ` +
        `\\(e\\.g\\. 1\\.\\d+e\\+308\\): the file is damaged or was not written by ` +
        `'reporeuse score'; not queried$`,
    ),
  );
  const r = await cli("--scored", dir, "SELECT AVG(reuse_repo) FROM turns");
  assert.equal(r.code, 1);
  assert.equal(r.out, "");
  assert.equal(r.err.trim(), `query: ${err.message}`);
});

Deno.test("query: negative counts, NaN and infinite amounts in known columns are refused", async () => {
  const cases: [string, string, number, string][] = [
    ["targets", "callees", -3, "column callees holds 1 value below 0 (e.g. -3)"],
    ["events", "lines_read", -1, "column lines_read holds 1 value below 0 (e.g. -1)"],
    [
      "turns",
      "cost",
      Infinity,
      "column cost holds 1 value that is not a finite number ≥ 0 (e.g. Infinity)",
    ],
    ["turns", "coverage", NaN, "column coverage holds 1 value outside [0, 1] (e.g. NaN)"],
  ];
  for (const [table, column, value, says] of cases) {
    const dir = await writeFixture();
    const file = `${dir}/${table}.parquet`;
    const df = pl.readParquet(file);
    const values = df.getColumn(column).toArray();
    values[0] = value;
    const dtype = df.getColumn(column).dtype;
    df.withColumn(pl.Series(column, values).cast(dtype)).writeParquet(file);
    const err = await openScored(dir).catch((e) => e);
    assert.ok(err instanceof QueryError, `${table}.${column}: ${err}`);
    assert.equal(
      err.message,
      `${file}: ${says}: the file is damaged or was not written by 'reporeuse score'; not queried`,
    );
  }
  // the untouched fixture opens
  await openScored(await writeFixture());
});
