/**
 * The held-out log evaluation's scorer (tasks/logs_eval.ts, lib/logs/eval.ts), checked on a small
 * planted set with known answers (tests/fixtures/logs_eval/) — never on data/logs/eval itself,
 * so no test is tuned to the held-out logs.
 */
import assert from "node:assert/strict";
import { evaluate, totals } from "../tasks/logs_eval.ts";
import { insideKey, scoreReads } from "../lib/logs/eval.ts";

const DIR = new URL("./fixtures/logs_eval/", import.meta.url).pathname;

Deno.test("scoreReads: recall, missed ranges, must-not hits, outside keys, extra lines", () => {
  const s = scoreReads(
    { "a.py": [[1, 5]], "/etc/passwd": [[1, 1]], "C:/x/y.py": [[1, 1]], "../up.py": [[2, 2]] },
    {
      shown: { "a.py": [[2, 4], [7, 8]], "b.py": [[1, 1]] },
      must_not: { "a.py": [5, 6] },
      outside: [],
    },
  );
  assert.equal(s.shown, 6);
  assert.equal(s.credited, 3);
  assert.deepEqual(s.missed, { "a.py": [[7, 8]], "b.py": [[1, 1]] });
  assert.deepEqual(s.mustNotHits, { "a.py": [5] });
  assert.equal(s.mustNotCredited, 1);
  assert.deepEqual(s.outsideKeys, ["../up.py", "/etc/passwd", "C:/x/y.py"]);
  assert.equal(s.extra, 2); // lines 1 and 5 of a.py: credited, not labelled
  // probes: calls, each credited only when all its lines are
  const p = scoreReads({ "a.py": [[1, 5]] }, {
    shown: { "a.py": [[2, 6]] },
    must_not: {},
    outside: ["/etc/x"],
    probes: [
      { path: "a.py", ranges: [[2, 4]] },
      { path: "a.py", ranges: [[4, 6]] },
      { path: "/etc/x", outside: true },
    ],
  });
  assert.deepEqual([p.probes, p.probesCredited], [2, 1]);
  assert.ok(insideKey("pkg/a..b.py") && !insideKey("pkg/../../x") && !insideKey("~/.ssh/id"));
});

Deno.test("logs-eval on the planted set: read / refused / misdetected, recall and must-not", async () => {
  const rows = await evaluate(DIR);
  const by = Object.fromEntries(rows.map((r) => [r.id, r]));
  // a Claude Code session: Read of pkg/a.py lines 1-3 (limit 3, so the empty line 3 is a line);
  // pkg/never.py is labelled but never read: 2 of 6 labelled lines credited, must-not 4 is not
  assert.equal(by.claude.outcome, "read");
  assert.deepEqual([by.claude.score?.credited, by.claude.score?.shown], [2, 6]);
  assert.deepEqual(by.claude.score?.missed, { "pkg/never.py": [[1, 4]] });
  assert.equal(by.claude.score?.mustNotCredited, 0);
  // the same log with line 2 planted as must-not: a violation
  assert.deepEqual(by["claude-mustnot"].score?.mustNotHits, { "pkg/a.py": [2] });
  // a mini-SWE-agent trajectory the manifest says is Claude Code: misdetected (read as mini)
  assert.equal(by["mini-as-claude"].outcome, "misdetected");
  assert.equal(by["mini-as-claude"].format, "mini-swe-agent-1");
  // a Cursor stream, `refuse` when planted with `after: "cursor"`: the Cursor CLI reader (preset
  // `cursor`) added since reads it, so it counts as read by its own reader
  assert.equal(by.cursor.outcome, "read");
  assert.equal(by.cursor.format, "cursor-stream-json");
  assert.equal(by.cursor.scored, true);
  // a truncated JSONL line: refused (invalid JSON is the right answer for a broken file)
  assert.equal(by.broken.outcome, "refused");
  assert.deepEqual(totals(rows), {
    logs: 5,
    read: 3,
    refused: 1,
    misdetected: 1,
    shown: 10, // 6 + 2 + 2 (the misdetected log is still scored)
    credited: 6,
    mustNot: 1,
    outside: 0,
    probes: 0, // the planted labels list no calls
    probesCredited: 0,
    unscored: 0,
  });
});

Deno.test("deno task logs-eval exits 1 when a must-not line is credited", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tasks/logs_eval.ts", DIR],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const text = new TextDecoder().decode(out.stdout);
  assert.match(text, /\| all +\| +5 \| +3 \| +1 \| +1 \| +0\/0 \| +10 \| +6 \| +60\.0 \| +1 \|/);
});

Deno.test("data/logs/eval: every log of the manifest exists, has its source, and its labels are current", async () => {
  // consistency only (no reader runs here): the held-out numbers are measured by the task
  const root = new URL("../data/logs/eval/", import.meta.url).pathname;
  const manifest = JSON.parse(await Deno.readTextFile(root + "manifest.json")) as {
    logs: { id: string; path: string; rules: string | null }[];
  };
  const sources = await Deno.readTextFile(root + "SOURCES.md");
  assert.equal(new Set(manifest.logs.map((l) => l.id)).size, manifest.logs.length, "ids unique");
  for (const log of manifest.logs) {
    assert.ok((await Deno.stat(root + log.path)).isFile, log.path);
    assert.ok(sources.includes("`" + log.path + "`"), `${log.path} not in SOURCES.md`);
    if (log.rules) assert.ok((await Deno.stat(`${root}labels/${log.id}.json`)).isFile, log.id);
  }
  const check = await new Deno.Command("python3", {
    args: [root + "label.py", "--check"],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(check.code, 0, new TextDecoder().decode(check.stderr));
});
