/**
 * The runner against a hostile agent (issue 11, item 16): a submission linked out of the
 * workspace is never read into the corpus, links planted in the log directory are neither
 * followed nor written through, and a flood of stdout is kept to its head and tail.
 */
import assert from "node:assert/strict";
import { runProtocol } from "../lib/protocol/runner.ts";

const PY = "/usr/bin/python3";
const FIXTURE = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;

/** A one-chain corpus over the mini fixture: each turn asks for `mini/t<N>.py` with `double`. */
async function corpus(turns: number): Promise<string> {
  const dir = await Deno.makeTempDir();
  const chain = {
    chain: "c1",
    repo: { name: "mini", workspace: FIXTURE, package: "mini" },
    turns: Array.from({ length: turns }, (_, i) => ({
      turn: i + 1,
      module: `mini.t${i + 1}`,
      path: `mini/t${i + 1}.py`,
      functions: [{ name: "double", signature: "double(x)", returns: "int", behaviour: "2x" }],
    })),
  };
  await Deno.mkdir(`${dir}/tasks/c1`, { recursive: true });
  await Deno.writeTextFile(`${dir}/tasks/c1/chain.json`, JSON.stringify(chain));
  for (let n = 1; n <= turns; n++) {
    await Deno.mkdir(`${dir}/tasks/c1/turn${n}`);
    await Deno.writeTextFile(`${dir}/tasks/c1/turn${n}/requirement.md`, "Write double(x).\n");
    await Deno.writeTextFile(
      `${dir}/tasks/c1/turn${n}/tests.json`,
      JSON.stringify({ cases: [{ id: "case_01", call: "double(2)", expected: "4" }] }),
    );
  }
  return dir;
}

async function grepTree(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) hits.push(...await grepTree(p, needle));
    else if (e.isFile && (await Deno.readTextFile(p)).includes(needle)) hits.push(p);
  }
  return hits;
}

Deno.test("run: links out of the workspace or the run directory are never followed", async () => {
  const dir = await corpus(2);
  const outside = await Deno.makeTempDir();
  try {
    const secret = `${outside}/secret.py`;
    await Deno.writeTextFile(secret, "SECRET = 'do-not-copy'\ndef double(x):\n    return 2 * x\n");
    const victim = `${outside}/victim.txt`;
    await Deno.writeTextFile(victim, "untouched\n");
    await Deno.mkdir(`${outside}/hidden`);
    // turn 1: the submission is a link to a file outside; the log directory holds a link to the
    // secret as its log and meta.json linked to a file the runner must not overwrite.
    // turn 2: an honest file reached through a link that stays inside the workspace, and the
    // hidden tests' directory made a link to a directory outside.
    const agent = `if [ {turn} = 1 ]; then
  ln -s ${secret} {submit_path}
  ln -s ${secret} {log_dir}/log.json
  ln -s ${victim} {log_dir}/meta.json
  ln -s ${victim} {log_dir}/agent-stdout.txt
else
  printf 'def double(x):\\n    return 2 * x\\n' > {workspace}/mini/real.py
  ln -s real.py {submit_path}
  ln -sfn ${outside}/hidden {workspace}/_reporeuse_hidden_tests
fi
echo done`;
    const outcomes = await runProtocol({
      corpus: dir,
      config: { harness: "h", model: "m", memory: "none" },
      agent,
      python: PY,
      wallTimeS: 60,
    });
    assert.deepEqual(
      outcomes.map((o) => [o.turn, o.submitted, o.passed]),
      [[1, false, 0], [2, true, 1]],
    );
    assert.equal(await Deno.readTextFile(victim), "untouched\n");
    // the hidden tests were not written through the agent's link
    assert.deepEqual([...Deno.readDirSync(`${outside}/hidden`)], []);
    assert.deepEqual(await grepTree(`${dir}/runs`, "do-not-copy"), []);
    const t1 = `${dir}/runs/h__m__none/c1/turn1`;
    const meta = JSON.parse(await Deno.readTextFile(`${t1}/meta.json`));
    assert.equal(meta.submitted, false);
    assert.deepEqual(meta.problems.map((p: string) => p.replace(/\(to .*\)/, "(to X)")).sort(), [
      "mini/t1.py leads out of the workspace (to X); not read, counted as no submission",
      "removed agent-stdout.txt: a link out of the run directory (to X)",
      "removed log.json: a link out of the run directory (to X)",
      "removed meta.json: a link out of the run directory (to X)",
    ]);
    assert.equal(await Deno.readTextFile(`${t1}/agent-stdout.txt`), "done\n");
    assert.ok(!(await Deno.lstat(`${t1}/meta.json`)).isSymlink);
    const t2 = `${dir}/runs/h__m__none/c1/turn2`;
    assert.equal(
      await Deno.readTextFile(`${t2}/submission.py`),
      "def double(x):\n    return 2 * x\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("run: a flood of agent stdout is kept to its head and tail, and the cut noted", async () => {
  const dir = await corpus(1);
  try {
    // 400,000 lines of 13 bytes = 5.2 MB on stdout, kept within 64 KiB
    const agent = `${PY} -c "import sys
for i in range(400000): sys.stdout.write('line %07d\\n' % i)"
printf 'def double(x):\\n    return 2 * x\\n' > {submit_path}`;
    const max = 64 * 1024;
    const [o] = await runProtocol({
      corpus: dir,
      config: { harness: "h", model: "m", memory: "none" },
      agent,
      python: PY,
      wallTimeS: 60,
      maxOutputBytes: max,
    });
    assert.deepEqual([o.submitted, o.passed], [true, 1]);
    const t1 = `${dir}/runs/h__m__none/c1/turn1`;
    const out = await Deno.readTextFile(`${t1}/agent-stdout.txt`);
    const lines = out.trimEnd().split("\n");
    // whole lines at both ends: 32768 / 13 = 2520 lines each
    const kept = 2520;
    assert.equal(lines.length, 2 * kept + 1);
    assert.equal(lines[0], "line 0000000");
    assert.equal(lines[kept - 1], `line ${String(kept - 1).padStart(7, "0")}`);
    const cut = 400_000 * 13 - 2 * kept * 13;
    assert.equal(
      lines[kept],
      `[reporeuse: ${cut} bytes of output cut here; the first and last 32768 bytes at most are kept]`,
    );
    assert.equal(lines[kept + 1], `line ${String(400_000 - kept).padStart(7, "0")}`);
    assert.equal(lines.at(-1), "line 0399999");
    const meta = JSON.parse(await Deno.readTextFile(`${t1}/meta.json`));
    assert.deepEqual(meta.output_cut, { stdout: cut, stderr: 0 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: a submission over 16 MiB, or not a regular file, is no submission, said so", async () => {
  const dir = await corpus(2);
  try {
    // turn 1: a 20 MiB file (sparse); turn 2: a FIFO at the path
    const agent =
      `if [ {turn} = 1 ]; then truncate -s 20M {submit_path}; else mkfifo {submit_path}; fi`;
    const outcomes = await runProtocol({
      corpus: dir,
      config: { harness: "h", model: "m", memory: "none" },
      agent,
      python: PY,
      wallTimeS: 60,
    });
    assert.deepEqual(outcomes.map((o) => [o.turn, o.submitted]), [[1, false], [2, false]]);
    const meta = async (n: number) =>
      JSON.parse(await Deno.readTextFile(`${dir}/runs/h__m__none/c1/turn${n}/meta.json`));
    assert.deepEqual((await meta(1)).problems, [
      "mini/t1.py: is 20 MiB, over the 16 MiB limit; counted as no submission",
    ]);
    assert.deepEqual((await meta(2)).problems, [
      "mini/t2.py: not a regular file; counted as no submission",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
