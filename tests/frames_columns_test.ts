// Each frame column is declared once (lib/metrics/rows.ts): the schemas, the frame → row decoder,
// the checks of cached rows, the report's rows and the meta columns all follow the declarations.
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  decodeRows,
  FRAME_COLUMNS,
  FRAME_SCHEMAS,
  RATE_COLUMNS,
  rowsOf,
  scoreCorpus,
  toFrame,
  TURN_KEYS,
  typeOf,
} from "../lib/frames/mod.ts";
import { isTurnResult } from "../lib/frames/valid.ts";
import { META_COLUMNS, rowOf, TURN_COLUMNS, type TurnRow } from "../lib/metrics/rows.ts";
import { META_FIELDS, parseMeta } from "../lib/layout/mod.ts";
import { turnRows } from "../lib/report/aggregate.ts";
import { FIXTURE, tempDir } from "./score_helpers.ts";

Deno.test("columns: every frame's schema is its declarations, in order", () => {
  for (const [frame, cols] of Object.entries(FRAME_COLUMNS)) {
    const schema = FRAME_SCHEMAS[frame as keyof typeof FRAME_SCHEMAS];
    assert.deepEqual(Object.keys(schema), Object.keys(cols), frame);
    for (const [name, d] of Object.entries(cols)) assert.equal(schema[name], typeOf(d), name);
  }
  // the rates of the query's range check are exactly the columns declared as rates
  assert.deepEqual(
    [...RATE_COLUMNS].sort(),
    [
      "callee_overlap",
      "coverage",
      "pass_rate",
      "recall_repo",
      "recall_self",
      "reuse_repo",
      "reuse_self",
    ],
  );
});

Deno.test("columns: scored rows → frame → report rows keep every declared column", async () => {
  const scored = await scoreCorpus(FIXTURE, { workers: 0, cacheDir: await tempDir() });
  const direct = rowsOf<TurnRow>(scored.turns);
  assert.ok(direct.length > 0);
  // the report's decoder returns every column of the frame, not a hand-picked subset
  const decoded = turnRows(scored.turns);
  assert.deepEqual(Object.keys(decoded[0]), Object.keys(TURN_COLUMNS));
  assert.deepEqual(decoded, direct);
  // integers written as Float64 by another tool, booleans as 0/1: decoded to the declared types
  const foreign = scored.turns.withColumns(
    pl.col("turn").cast(pl.Float64),
    pl.col("resolved").cast(pl.Int32),
  );
  assert.deepEqual(turnRows(foreign), direct);
  // a frame lacking a column the report needs is named
  assert.throws(() => turnRows(scored.turns.drop("dup_chain")), /lacks column\(s\) dup_chain/);
});

Deno.test("columns: decodeRows gives zeros and nulls by declaration, drops undeclared columns", () => {
  const df = pl.DataFrame({ harness: ["h"], turn: [3], other: ["x"] });
  const [row] = decodeRows(df, TURN_COLUMNS);
  assert.deepEqual(row, rowOf(TURN_COLUMNS, { harness: "h", turn: 3 }));
  assert.equal(row.files, 0); // non-nullable count
  assert.equal(row.reuse_repo, null); // nullable rate
  assert.equal(row.resolved, false);
  assert.equal("other" in row, false);
});

Deno.test("columns: a cached turn is valid only with every column, nulls only where declared", () => {
  const keys = { harness: "h", model: "m", memory: "none", chain: "c", turn: 1 };
  const turn = rowOf(TURN_COLUMNS, keys);
  const ok = { turn, targets: [], events: [], tests: [] };
  assert.equal(isTurnResult(ok, keys), true);
  // a nullable column may be null; a non-nullable one may not
  assert.equal(isTurnResult({ ...ok, turn: { ...turn, cost: null } }, keys), true);
  assert.equal(isTurnResult({ ...ok, turn: { ...turn, files: null } }, keys), false);
  // an integer column holding a fraction, or a missing declared column: a miss
  assert.equal(isTurnResult({ ...ok, turn: { ...turn, lines: 1.5 } }, keys), false);
  const { seconds: _, ...without } = turn;
  assert.equal(isTurnResult({ ...ok, turn: without }, keys), false);
});

Deno.test("columns: every meta column is a meta.json figure, read by parseMeta", () => {
  assert.ok(META_COLUMNS.length > 0);
  for (const c of META_COLUMNS) assert.ok((META_FIELDS as readonly string[]).includes(c), c);
  const text = JSON.stringify(Object.fromEntries(META_FIELDS.map((f, i) => [f, i + 1])));
  const meta = parseMeta(text, "meta.json");
  META_FIELDS.forEach((f, i) => assert.equal(meta[f], i + 1, f));
  assert.throws(() => parseMeta(`{"${META_FIELDS.at(-1)}": -1}`, "m.json"), /non-negative/);
});

Deno.test("columns: toFrame builds every declared type (i64 included) and decodes back", () => {
  const cols = { k: ["str", "key"], big: ["i64?", "a large count"], on: ["bool", "flag"] } as const;
  const rows = [{ k: "a", big: 3_000_000_000, on: true }, { k: "b", big: null, on: false }];
  const schema = Object.fromEntries(Object.entries(cols).map(([n, d]) => [n, typeOf(d)]));
  const df = toFrame(rows, schema, ["k"]);
  assert.equal(String(df.getColumn("big").dtype), "DataType(Int64)");
  assert.deepEqual(decodeRows(df, cols), rows);
  assert.deepEqual([...TURN_KEYS], Object.keys(TURN_COLUMNS).slice(0, 5));
});
