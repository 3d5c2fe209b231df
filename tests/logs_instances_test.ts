// Issue 23 item 4: an OpenHands evaluation output.jsonl holding many instances. Fixtures:
// openhands_v1_eval_2instances.jsonl is a real two-instance file (OpenHands/benchmarks, see
// SOURCES.md; 18 history events each, counted from the file); the V0 case is built from the real
// single-instance openhands_v0_output.jsonl record (49 events): copies with another instance id
// and a resumed duplicate (the last line of an instance wins).
import assert from "node:assert/strict";
import {
  evalInstances,
  layoutInstances,
  LogFormatError,
  parseLog,
  readInstances,
  readLog,
} from "../lib/logs/mod.ts";
import { runCli } from "./cli_helpers.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url).pathname;
const V1 = `${DIR}openhands_v1_eval_2instances.jsonl`;
const V0_RECORD = JSON.parse(
  Deno.readTextFileSync(`${DIR}openhands_v0_output.jsonl`).split("\n")[0],
);

/** A V0 output.jsonl: the real record (first 20 events), a second instance, then a resumed copy. */
async function v0File(): Promise<string> {
  const rec = (id: string, n: number) =>
    JSON.stringify({ ...V0_RECORD, instance_id: id, history: V0_RECORD.history.slice(0, n) });
  const dir = await Deno.makeTempDir();
  const path = `${dir}/output.jsonl`;
  await Deno.writeTextFile(
    path,
    [rec("ponylang__ponyc-4595", 20), rec("ponylang__other-1", 10), rec("ponylang__ponyc-4595", 49)]
      .join("\n") + "\n",
  );
  return path;
}

Deno.test("eval output.jsonl: instances listed, one read with --instance, never all at once", async () => {
  const list = (await readInstances(V1))!;
  assert.deepEqual(list.map((i) => [i.instance_id, i.line, i.history]), [
    ["safety-misconfig", 1, 18],
    ["safety-business-intelligence", 2, 18],
  ]);
  await assert.rejects(() => readLog(V1), (e: Error) => {
    assert.ok(e instanceof LogFormatError);
    assert.match(
      e.message,
      /2 instances \(safety-misconfig, safety-business-intelligence\): read one with --instance ID/,
    );
    return true;
  });
  const one = await readLog(V1, { instance: "safety-business-intelligence" });
  const alone = await parseLog(Deno.readTextFileSync(V1).split("\n")[1], { file: "x.jsonl" });
  assert.deepEqual(one.events, alone.events);
  assert.equal(one.format, "openhands-v1");
  await assert.rejects(
    () => readLog(V1, { instance: "nope" }),
    /no instance nope \(instances: safety-misconfig/,
  );
  await assert.rejects(
    () => readLog(`${DIR}openhands_v1_events.jsonl`, { instance: "x" }),
    /not an evaluation output.jsonl/,
  );
  // a single-instance file reads as before
  assert.equal(await readInstances(`${DIR}openhands_v0_output.jsonl`), undefined);
});

Deno.test("eval output.jsonl: a resumed instance is read from its last line", async () => {
  const path = await v0File();
  const list = evalInstances(Deno.readTextFileSync(path))!;
  assert.deepEqual(list.map((i) => [i.id, i.line, i.events]), [["ponylang__other-1", 2, 10], [
    "ponylang__ponyc-4595",
    3,
    49,
  ]]);
  const r = await readLog(path, { instance: "ponylang__ponyc-4595" });
  const whole = await readLog(`${DIR}openhands_v0_output.jsonl`);
  assert.deepEqual(r.reads, whole.reads);
  assert.equal(r.events.length, whole.events.length);
});

Deno.test("eval output.jsonl: laid out as run logs, all or nothing, never through a link", async () => {
  const out = await Deno.makeTempDir();
  const text = Deno.readTextFileSync(V1);
  const turns = await layoutInstances(text, V1, out, { "safety-misconfig": "chainA/turn2" });
  assert.deepEqual(turns, ["chainA/turn2", "safety-business-intelligence/turn1"]);
  const laid = await readLog(`${out}/chainA/turn2/log.json`);
  assert.deepEqual(laid.events, (await readLog(V1, { instance: "safety-misconfig" })).events);
  // again: the logs exist, nothing is overwritten
  await assert.rejects(() => layoutInstances(text, V1, out), /exists: not overwritten/);
  // a name that is not <chain>/turn<N>, and a link in the way: refused before anything is written
  const out2 = await Deno.makeTempDir();
  await assert.rejects(
    () => layoutInstances(text, V1, out2, { "safety-misconfig": "../x/turn1" }),
    /is not <chain>\/turn<N>/,
  );
  await Deno.symlink("/tmp", `${out2}/safety-business-intelligence`);
  await assert.rejects(
    () => layoutInstances(text, V1, out2),
    /a link: nothing is written through it/,
  );
  assert.deepEqual([...Deno.readDirSync(out2)].map((e) => e.name), [
    "safety-business-intelligence",
  ]);
});

Deno.test("reads CLI: lists the instances, reads one, lays them out", async () => {
  const list = await runCli(["reads", "--compact", V1]);
  assert.equal(list.code, 0, list.err);
  const l = JSON.parse(list.out);
  assert.deepEqual(l.instances.map((i: { instance_id: string }) => i.instance_id), [
    "safety-misconfig",
    "safety-business-intelligence",
  ]);
  const one = await runCli(["reads", "--compact", "--instance", "safety-misconfig", V1]);
  assert.equal(one.code, 0, one.err);
  assert.equal(JSON.parse(one.out).format, "openhands-v1");
  const bad = await runCli(["reads", "--instance", "zzz", V1]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^reporeuse reads: .*no instance zzz/);
  const out = await Deno.makeTempDir();
  const lay = await runCli(["reads", "--compact", "--layout", out, V1]);
  assert.equal(lay.code, 0, lay.err);
  assert.deepEqual(JSON.parse(lay.out).turns, [
    "safety-misconfig/turn1",
    "safety-business-intelligence/turn1",
  ]);
});
