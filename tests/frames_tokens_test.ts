// The `tokens_in` / `tokens_out` columns end to end: read from the log (Claude Code here) or
// meta.json, into the turns frame, its CSV, the report's rows and SQL.
import assert from "node:assert/strict";
import { readLog } from "../lib/logs/mod.ts";
import { readScored, scoreCorpus, writeScored } from "../lib/frames/mod.ts";
import { openScored } from "../lib/query/mod.ts";
import { turnRows } from "../lib/report/aggregate.ts";
import { copyCorpus, tempDir } from "./score_helpers.ts";

const DIR = new URL("./fixtures/logs/claude-code/", import.meta.url).pathname;

// Expected figures computed outside the reader, with Python's json module: every `assistant` line's
// message.usage, one entry per message.id (a reply repeats its usage on each of its lines), summed —
// input_tokens + cache_read_input_tokens + cache_creation_input_tokens, and output_tokens.
Deno.test("Claude Code (real): tokens of every reply counted once, cached prompt tokens included", async () => {
  const compact = await readLog(`${DIR}2.1.112-compact.jsonl`); // 7 distinct replies
  assert.deepEqual([compact.meta.tokens_in, compact.meta.tokens_out], [389784, 10432]);
  const sidechain = await readLog(`${DIR}1.0.108-sidechain.jsonl`); // 20, inline sidechains too
  assert.deepEqual([sidechain.meta.tokens_in, sidechain.meta.tokens_out], [372135, 3629]);
  // 2.x: the session file (6 replies) and its two sub-agent files (3 more)
  const spotter = await readLog(
    `${DIR}2.1.39-subagents/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl`,
  );
  assert.deepEqual([spotter.meta.tokens_in, spotter.meta.tokens_out], [348711, 552]);
});

Deno.test("Claude Code: a log without usage figures has no token figures (null, never 0)", async () => {
  const dir = await tempDir();
  const line = {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/w",
    sessionId: "s1",
    version: "2.1.112",
    type: "assistant",
    message: {
      id: "m1",
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [{ type: "text", text: "hi" }],
    },
    uuid: "u1",
    timestamp: "2026-01-01T00:00:00.000Z",
  };
  await Deno.writeTextFile(`${dir}/s.jsonl`, JSON.stringify(line) + "\n");
  const r = await readLog(`${dir}/s.jsonl`);
  assert.equal(r.format, "claude-code");
  assert.equal(r.meta.tokens_in, undefined);
  assert.equal(r.meta.tokens_out, undefined);
});

Deno.test("tokens: meta.json figures reach the turns frame, its files, the report and SQL", async () => {
  const corpus = await copyCorpus();
  const turn = `${corpus}/runs/k1/c1/turn2`;
  const meta = JSON.parse(await Deno.readTextFile(`${turn}/meta.json`));
  // above 2^31: the column is Int64, so sums in SQL do not wrap
  await Deno.writeTextFile(
    `${turn}/meta.json`,
    JSON.stringify({ ...meta, tokens_in: 3_000_000_000, tokens_out: 1200 }),
  );
  const out = `${await tempDir()}/scored`;
  await writeScored(await scoreCorpus(corpus, { workers: 0, cacheDir: await tempDir() }), out);
  const back = await readScored(out);
  assert.equal(String(back.turns.getColumn("tokens_in").dtype), "DataType(Int64)");
  const rows = turnRows(back.turns);
  const t = rows.find((r) => r.chain === "c1" && r.turn === 2)!;
  assert.deepEqual([t.tokens_in, t.tokens_out], [3_000_000_000, 1200]);
  // the fixture's other logs (mini-SWE-agent) record no tokens: null, not 0
  assert.ok(rows.filter((r) => r !== t).every((r) => r.tokens_in === null));
  const csv = (await Deno.readTextFile(`${out}/turns.csv`)).split("\n");
  assert.ok(csv[0].endsWith(",tokens_in,tokens_out"), csv[0]);
  const q = await openScored(out);
  // (nodejs-polars 0.25.2's Series.get wraps an Int64 to 32 bits: read values with toRecords)
  const [{ s }] = q.sql("SELECT SUM(tokens_in) + SUM(tokens_in) AS s FROM turns").toRecords();
  assert.equal(s, 6_000_000_000);
});
