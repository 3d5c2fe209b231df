import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  averages,
  byTurn,
  CONFIGS_SCHEMA,
  dtypeOf,
  erroredTurns,
  ERRORS_SCHEMA,
  EVENTS_SCHEMA,
  firstLast,
  readScored,
  scoreCorpus,
  type Scored,
  SCORED_FILES,
  TARGETS_SCHEMA,
  TESTS_SCHEMA,
  toFrame,
  toKeyedFrame,
  TURNS_SCHEMA,
  writeScored,
} from "../lib/frames/mod.ts";
import { FIXTURE, tempDir } from "./score_helpers.ts";

let frames: Promise<Scored> | undefined;
const fixture = () =>
  frames ??= tempDir().then((cacheDir) => scoreCorpus(FIXTURE, { workers: 0, cacheDir }));

function assertSchema(df: pl.DataFrame, schema: Record<string, string>) {
  assert.deepEqual(df.columns, Object.keys(schema));
  for (const [name, t] of Object.entries(schema)) {
    assert.equal(
      String(df.getColumn(name).dtype),
      String(dtypeOf(t as "str")),
      `column ${name}`,
    );
  }
}

Deno.test("frames: exact schemas and dtypes, sorted by join keys, nulls where undefined", async () => {
  const s = await fixture();
  assertSchema(s.turns, TURNS_SCHEMA);
  assertSchema(s.targets, TARGETS_SCHEMA);
  assertSchema(s.events, EVENTS_SCHEMA);
  assertSchema(s.tests, TESTS_SCHEMA);
  assertSchema(s.errors, ERRORS_SCHEMA);
  assertSchema(s.configs, CONFIGS_SCHEMA);
  assert.deepEqual(s.turns.getColumn("chain").toArray(), ["c1", "c1", "c1", "c2", "c2"]);
  assert.deepEqual(s.turns.getColumn("turn").toArray(), [1, 2, 3, 1, 2]);
  assert.deepEqual(s.turns.getColumn("reuse_repo").toArray(), [0.5, 0, null, 0, null]);
  assert.deepEqual(s.turns.getColumn("seconds").toArray(), [null, 42.5, null, null, null]);
  assert.equal(s.tests.height, 3 + 2 + 2 + 2 + 1);
  assert.deepEqual(s.configs.toRecords(), [
    { harness: "mini-SWE-agent", model: "Model A", memory: "interface", chains: 2, turns: 5 },
  ]);
  assert.equal(erroredTurns(s.errors), 0);
  const ev = s.events.filter(pl.col("chain").eq(pl.lit("c1")).and(pl.col("turn").eq(pl.lit(1))));
  assert.deepEqual(ev.getColumn("kind").toArray(), ["list", "search", "read", "write", "run"]);
  assert.deepEqual(ev.getColumn("lines_read").toArray(), [0, 1, 12, 0, 0]);
});

Deno.test("frames: writeScored / readScored round trip with the same types", async () => {
  const s = await fixture();
  const out = await tempDir();
  await writeScored(s, out);
  for (const f of SCORED_FILES) assert.ok((await Deno.stat(`${out}/${f}`)).isFile, f);
  const back = await readScored(out);
  for (const k of ["turns", "targets", "events", "tests", "errors", "configs"] as const) {
    assert.deepEqual(back[k].toRecords(), s[k].toRecords(), k);
    assert.deepEqual(back[k].columns, s[k].columns);
  }
  const csv = await Deno.readTextFile(`${out}/turns.csv`);
  assert.equal(csv.split("\n")[0], Object.keys(TURNS_SCHEMA).join(","));
  await assert.rejects(() => readScored(`${out}/nothing`), /missing/);
});

Deno.test("averages / byTurn: the paper's macro averages on the hand-worked corpus", async () => {
  const s = await fixture();
  const [row] = averages(s.turns).toRecords() as Record<string, number>[];
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);
  assert.equal(row.turns, 5);
  close(row.reuse_repo, (0.5 + 0 + 0) / 3); // c1/1, c1/2, c2/1 (c1/3, c2/2 have no repo target)
  close(row.reuse_self, (0.5 + 0 + 0.5) / 3); // from turn 2
  close(row.recall_repo, (0.5 + 0 + 1) / 3);
  close(row.recall_self, (1 + 0 + 0.5) / 3);
  close(row.files, (2 + 2 + 1 + 1 + 1) / 5);
  close(row.lines, (13 + 17 + 0 + 29 + 6) / 5);
  close(row.resolve, 2 / 5);
  close(row.pass, (2 / 3 + 1 + 0 + 0.5 + 1) / 5);
  close(row.c_dup, 0.5); // C_dup(1..3) = 1/2 each: c1 duplicated at turn 1, c2 never
  const by = byTurn(s.turns).toRecords() as Record<string, number | null>[];
  assert.deepEqual(by.map((r) => [r.turn, r.turns, r.c_dup]), [[1, 2, 0.5], [2, 2, 0.5], [
    3,
    1,
    0.5,
  ]]);
  assert.equal(by[0].reuse_self, null);
  assert.equal(by[2].reuse_repo, null);
});

Deno.test("firstLast: T1 / last-turn values and deltas (self metrics from turn 2)", async () => {
  const s = await fixture();
  const rows = firstLast(s.turns).toRecords() as Record<string, string | number | null>[];
  const m = (metric: string) => {
    const r = rows.find((x) => x.metric === metric)!;
    return [r.first_turn, r.first, r.last_turn, r.last, r.delta];
  };
  assert.deepEqual(m("reuse_repo"), [1, 0.25, 3, null, null]); // turn 3's only row has no repo target
  assert.deepEqual(m("reuse_self"), [2, 0.5, 3, 0, -0.5]);
  assert.deepEqual(m("recall_self"), [2, 0.75, 3, 0, -0.75]);
  assert.deepEqual(m("c_dup"), [1, 0.5, 3, 0.5, 0]);
  assert.equal(rows.length, 9);
});

Deno.test("toKeyedFrame equals toFrame (sorted by keys, then within) on shuffled and sorted rows", () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const rows = Array.from({ length: 500 }, (_, i) => ({
    harness: ["h1", "h2"][rnd(2)],
    model: ["m1", "m2", "m3"][rnd(3)],
    memory: "interface",
    chain: `c${rnd(4)}`,
    turn: 1 + rnd(5),
    case: `case_${String(i).padStart(3, "0")}`,
    passed: rnd(2) === 0,
  }));
  const keys = ["harness", "model", "memory", "chain", "turn"];
  const expected = toFrame(rows, TESTS_SCHEMA, [...keys, "case"]).toRecords();
  assert.deepEqual(toKeyedFrame(rows, TESTS_SCHEMA, keys, ["case"]).toRecords(), expected);
  const sorted = toFrame(rows, TESTS_SCHEMA, [...keys, "case"]).toRecords();
  assert.deepEqual(toKeyedFrame(sorted, TESTS_SCHEMA, keys, ["case"]).toRecords(), expected);
  assert.equal(toKeyedFrame([], TESTS_SCHEMA, keys, ["case"]).height, 0);
});
