/**
 * Views and documented examples against the hand-written fixture (tests/fixtures/query/fixture.ts).
 * Every expected row below was worked out by hand from the fixture's rows.
 */
import assert from "node:assert/strict";
import { writeFixture } from "./fixtures/query/fixture.ts";
import { EXAMPLES, openScored, type ScoredQuery, VIEWS } from "../lib/query/mod.ts";

const A = "mini-SWE-agent";
const B = "OpenCode";
const Q = "Qwen3.7-plus";

let opened: ScoredQuery | undefined;
async function scored(): Promise<ScoredQuery> {
  opened ??= await openScored(await writeFixture());
  return opened;
}

function rows(q: ScoredQuery, sql: string): unknown[][] {
  const df = q.sql(sql);
  return df.toRecords().map((r) => df.columns.map((c) => r[c]));
}

function example(id: string): string {
  const e = EXAMPLES.find((x) => x.id === id);
  assert.ok(e, id);
  return e.sql;
}

Deno.test("views: every view is registered and documented", async () => {
  const q = await scored();
  assert.deepEqual(q.views, [
    "missed_targets",
    "reimplementations",
    "flips",
    "event_paths",
    "target_reads",
  ]);
  const docs = await Deno.readTextFile(new URL("../docs/queries.md", import.meta.url));
  for (const v of VIEWS) {
    assert.ok(docs.includes(`\`${v.name}\``), `docs/queries.md documents ${v.name}`);
  }
});

Deno.test("missed_targets: not-reused targets classed never_read / read_not_used / absent", async () => {
  const q = await scored();
  assert.deepEqual(
    rows(
      q,
      "SELECT harness, turn, target, kind, class FROM missed_targets ORDER BY harness, turn, target",
    ),
    [
      [B, 1, "pkg.core.load", "repo", "never_read"],
      [B, 1, "pkg.util.norm", "repo", "read_not_used"],
      // a self target the agent never wrote: nothing to read (lib/metrics/outcomes.ts)
      [B, 2, "pkg.feat.f1.scale_values", "self", "absent"],
      [A, 1, "pkg.core.load", "repo", "never_read"],
      [A, 1, "pkg.util.scale", "repo", "read_not_used"],
      [A, 2, "pkg.util.norm", "repo", "read_not_used"],
    ],
  );
});

Deno.test("reimplementations: target with the submission function re-implementing it", async () => {
  const q = await scored();
  assert.deepEqual(
    rows(
      q,
      "SELECT harness, turn, target, reimplemented_by, body_lines FROM reimplementations ORDER BY harness, turn",
    ),
    [
      [B, 1, "pkg.util.norm", "pkg.feat.f1.normalize", 10],
      [A, 1, "pkg.util.scale", "pkg.feat.f1.scale_values", 69],
      [A, 2, "pkg.util.norm", "pkg.feat.f2.normalise", 10],
    ],
  );
});

Deno.test("flips: every flip in both directions, with change a → b", async () => {
  const q = await scored();
  assert.deepEqual(
    rows(
      q,
      `SELECT harness_a, harness_b, turn, target, change, reused_a, reused_b, reimplemented_b
       FROM flips ORDER BY harness_a, turn, target`,
    ),
    [
      [B, A, 1, "pkg.util.norm", "gained", false, true, false],
      [B, A, 1, "pkg.util.scale", "lost", true, false, true],
      [B, A, 2, "pkg.feat.f1.scale_values", "gained", false, true, false],
      [B, A, 2, "pkg.util.norm", "lost", true, false, true],
      [A, B, 1, "pkg.util.norm", "lost", true, false, true],
      [A, B, 1, "pkg.util.scale", "gained", false, true, false],
      [A, B, 2, "pkg.feat.f1.scale_values", "lost", true, false, false],
      [A, B, 2, "pkg.util.norm", "gained", false, true, false],
    ],
  );
  assert.deepEqual(
    rows(q, "SELECT DISTINCT config_a FROM flips WHERE harness_a = 'OpenCode'"),
    [[`${B}/${Q}/none`]],
  );
});

Deno.test("event_paths: one row per (event, path); pathless actions dropped", async () => {
  const q = await scored();
  assert.deepEqual(
    rows(q, "SELECT harness, turn, idx, kind, path FROM event_paths ORDER BY harness, turn, idx"),
    [
      [B, 1, 0, "search", "pkg/util.py"],
      [B, 1, 1, "list", "pkg"],
      [B, 2, 0, "read", "pkg/util.py"],
      [A, 1, 0, "search", "pkg"],
      [A, 1, 1, "read", "pkg/util.py"],
      [A, 1, 2, "write", "pkg/feat/f1.py"],
      [A, 2, 0, "search", "pkg/util.py"],
      [A, 2, 1, "read", "pkg/feat/f1.py"],
    ],
  );
});

Deno.test("target_reads: actions on a target's file or a directory above it", async () => {
  const q = await scored();
  assert.deepEqual(
    rows(
      q,
      "SELECT harness, turn, idx, target, match, reused FROM target_reads ORDER BY harness, turn, idx, target",
    ),
    [
      [B, 1, 0, "pkg.util.norm", "file", false],
      [B, 1, 0, "pkg.util.scale", "file", true],
      [B, 1, 1, "pkg.core.load", "dir", false],
      [B, 1, 1, "pkg.util.norm", "dir", false],
      [B, 1, 1, "pkg.util.scale", "dir", true],
      [B, 2, 0, "pkg.util.norm", "file", true],
      [A, 1, 0, "pkg.core.load", "dir", false],
      [A, 1, 0, "pkg.util.norm", "dir", true],
      [A, 1, 0, "pkg.util.scale", "dir", false],
      [A, 1, 1, "pkg.util.norm", "file", true],
      [A, 1, 1, "pkg.util.scale", "file", false],
      [A, 2, 0, "pkg.util.norm", "file", false],
      [A, 2, 1, "pkg.feat.f1.scale_values", "file", true],
    ],
  );
});

Deno.test("example missed-by-class", async () => {
  assert.deepEqual(rows(await scored(), example("missed-by-class")), [
    [Q, "never_read", 2],
    [Q, "read_not_used", 3],
  ]);
});

Deno.test("example qwen-read-not-reused (last turn = 2)", async () => {
  assert.deepEqual(rows(await scored(), example("qwen-read-not-reused")), [
    [A, "none", "c1", 2, "pkg.util.norm"],
  ]);
});

Deno.test("example long-reimplementations", async () => {
  assert.deepEqual(rows(await scored(), example("long-reimplementations")), [[Q, 3, 1]]);
});

Deno.test("example harness-flips", async () => {
  assert.deepEqual(rows(await scored(), example("harness-flips")), [[Q, 1, 1]]);
});

Deno.test("example grep-then-bypass: bash grep, native grep tool, directory grep", async () => {
  assert.deepEqual(rows(await scored(), example("grep-then-bypass")), [
    [B, Q, "none", "c1", 1, "pkg.util.norm"],
    [A, Q, "none", "c1", 1, "pkg.core.load"],
    [A, Q, "none", "c1", 1, "pkg.util.scale"],
    [A, Q, "none", "c1", 2, "pkg.util.norm"],
  ]);
});

Deno.test("example resolved-but-duplicated", async () => {
  assert.deepEqual(rows(await scored(), example("resolved-but-duplicated")), [
    [B, Q, 1, 1],
    [A, Q, 1, 1],
  ]);
});

Deno.test("every example has a test above, and five are in the README", () => {
  const src = Deno.readTextFileSync(new URL(import.meta.url));
  for (const e of EXAMPLES) assert.ok(src.includes(`example("${e.id}")`), e.id);
  assert.equal(EXAMPLES.filter((e) => e.readme).length, 5);
});

Deno.test("base tables: errors.csv read with typed turn; configs", async () => {
  const q = await scored();
  assert.deepEqual(rows(q, "SELECT chain, turn + 1 AS next FROM errors"), [["c2", 2]]);
  assert.deepEqual(rows(q, "SELECT harness, chains, turns FROM configs ORDER BY harness"), [
    [B, 1, 2],
    [A, 1, 2],
  ]);
  const schema = q.schema();
  assert.deepEqual(schema.map((t) => `${t.kind}:${t.name}`), [
    "table:turns",
    "table:targets",
    "table:events",
    "table:tests",
    "table:configs",
    "table:errors",
    "view:missed_targets",
    "view:reimplementations",
    "view:flips",
    "view:event_paths",
    "view:target_reads",
  ]);
  const events = schema.find((t) => t.name === "events")!;
  assert.equal(events.columns.find((c) => c.name === "paths")?.type, "str[]");
  assert.equal(events.columns.find((c) => c.name === "turn")?.type, "i32");
});
