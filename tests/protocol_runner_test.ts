/**
 * The protocol runner with a trivial scripted agent on the seaborn sample, and workspace
 * preparation on a fixture repository.
 */
import assert from "node:assert/strict";
import { runProtocol } from "../lib/protocol/runner.ts";
import { HIDDEN_DIR } from "../lib/protocol/hidden.ts";
import { prepareWorkspace } from "../lib/protocol/prepare.ts";
import { ROOT, runCli } from "./cli_helpers.ts";

const PY = "/usr/bin/python3";
const SAMPLE = new URL("../data/sample", import.meta.url).pathname;
const FIXTURE = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;

async function exists(p: string): Promise<boolean> {
  return await Deno.stat(p).then(() => true, () => false);
}

Deno.test("protocol: a scripted agent on the seaborn sample (pass, timeout, chain goes on)", async () => {
  const corpus = await Deno.makeTempDir();
  const work = await Deno.makeTempDir();
  try {
    // the sample's first three turns, W0 referenced by absolute path
    const chain = JSON.parse(await Deno.readTextFile(`${SAMPLE}/tasks/seaborn-001/chain.json`));
    chain.repo.workspace = `${SAMPLE}/repos/seaborn`;
    chain.turns = chain.turns.slice(0, 3);
    await Deno.mkdir(`${corpus}/tasks/seaborn-001`, { recursive: true });
    await Deno.writeTextFile(`${corpus}/tasks/seaborn-001/chain.json`, JSON.stringify(chain));
    for (const n of [1, 2, 3]) {
      const dir = `${corpus}/tasks/seaborn-001/turn${n}`;
      await Deno.mkdir(dir);
      for (const f of ["tests.json", "solution.py", "requirement.md"]) {
        await Deno.copyFile(`${SAMPLE}/tasks/seaborn-001/turn${n}/${f}`, `${dir}/${f}`);
      }
    }
    // the agent writes the reference solution and a log; at turn 2 it hangs (with a child)
    const agent = `if [ {turn} = 2 ]; then sleep 60 & sleep 60; fi
cp ${corpus}/tasks/{chain}/turn{turn}/solution.py {submit_path}
printf '{"agent": "scripted", "turn": %s}\\n' {turn} > {log_dir}/log.json`;
    const started = performance.now();
    const outcomes = await runProtocol({
      corpus,
      config: { harness: "scripted", model: "none", memory: "interface" },
      agent,
      wallTimeS: 8,
      python: PY,
      workRoot: work,
    });
    // killed at the 8 s limit (with its child): turn 2's own time, not the whole test's, which
    // includes preparing the seaborn workspace and varies with the machine's load
    assert.ok(outcomes[1].seconds < 20, `the hanging agent ran ${outcomes[1].seconds} s`);
    assert.ok(performance.now() - started < 120_000);
    assert.deepEqual(
      outcomes.map((o) => [o.turn, o.submitted, o.passed, o.cases, o.timedOut]),
      [[1, true, 13, 13, false], [2, false, 0, 9, true], [3, true, 0, 8, false]],
    );
    const runs = `${corpus}/runs/scripted__none__interface`;
    assert.deepEqual(JSON.parse(await Deno.readTextFile(`${runs}/config.json`)), {
      harness: "scripted",
      model: "none",
      memory: "interface",
      cwd: `${work}/workspace`,
    });
    const t1 = `${runs}/seaborn-001/turn1`;
    assert.equal(
      await Deno.readTextFile(`${t1}/submission.py`),
      await Deno.readTextFile(`${SAMPLE}/tasks/seaborn-001/turn1/solution.py`),
    );
    const r1 = JSON.parse(await Deno.readTextFile(`${t1}/results.json`));
    assert.equal(r1.cases.length, 13);
    assert.ok(r1.cases.every((c: { passed: boolean }) => c.passed));
    assert.deepEqual(JSON.parse(await Deno.readTextFile(`${t1}/log.json`)), {
      agent: "scripted",
      turn: 1,
    });
    // turn 2: killed at the wall-time limit, nothing submitted, no results
    const t2 = `${runs}/seaborn-001/turn2`;
    const m2 = JSON.parse(await Deno.readTextFile(`${t2}/meta.json`));
    assert.equal(m2.timed_out, true);
    assert.equal(m2.submitted, false);
    assert.ok(!(await exists(`${t2}/submission.py`)) && !(await exists(`${t2}/results.json`)));
    // the prompt of turn 2: delivery instructions + requirement + interface note of round 1
    const prompt = await Deno.readTextFile(`${t2}/prompt.md`);
    assert.ok(prompt.startsWith(`You are working in the repository checkout at ${work}/workspace`));
    assert.ok(prompt.includes("### Round 1 – `seaborn._core.level_colors`"));
    assert.ok(
      prompt.includes(
        `A new Python module at exactly \`${work}/workspace/seaborn/_core/frame_levels.py\``,
      ),
    );
    // turn 3 still ran: its module imports the missing turn-2 module, so every case fails
    const r3 = JSON.parse(await Deno.readTextFile(`${runs}/seaborn-001/turn3/results.json`));
    assert.equal(r3.cases.length, 8);
    assert.ok(r3.cases.every((c: { passed: boolean }) => !c.passed));
    assert.match(r3.cases[0].message, /ModuleNotFoundError|frame_levels/);
    // hidden tests were removed; the agent's submissions stay in the workspace
    assert.ok(!(await exists(`${work}/workspace/${HIDDEN_DIR}`)));
    assert.ok(await exists(`${work}/workspace/seaborn/_core/level_colors.py`));
  } finally {
    await Deno.remove(corpus, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("protocol: workspace preparation removes git history, tests and caches", async () => {
  const src = await Deno.makeTempDir();
  const dest = await Deno.makeTempDir();
  try {
    await new Deno.Command("cp", { args: ["-r", `${FIXTURE}/.`, src] }).output();
    await Deno.mkdir(`${src}/.git/refs`, { recursive: true });
    await Deno.writeTextFile(`${src}/.git/HEAD`, "ref: refs/heads/main\n");
    await Deno.mkdir(`${src}/.pytest_cache/v/cache`, { recursive: true });
    await Deno.writeTextFile(`${src}/.pytest_cache/v/cache/nodeids`, "[]");
    await Deno.writeTextFile(`${src}/mini/_impl/rank_test.py`, "def test_x():\n    pass\n");
    await Deno.mkdir(`${src}/mini/__pycache__`);
    await Deno.writeTextFile(`${src}/mini/__pycache__/api.cpython-311.pyc`, "");
    const { removed } = await prepareWorkspace(src, `${dest}/ws`, { package: "mini", python: PY });
    assert.deepEqual(removed.sort(), [
      ".git",
      ".pytest_cache",
      "conftest.py",
      "mini/__pycache__",
      "mini/_impl/rank_test.py",
      "tests/test_rank.py",
    ]);
    // runtime helpers are kept, even inside tests/
    assert.ok(await exists(`${dest}/ws/tests/helpers.py`));
    assert.ok(await exists(`${dest}/ws/mini/_impl/rank.py`));

    // a package importing one of its test modules no longer imports: a clear error
    await Deno.writeTextFile(`${src}/mini/test_support.py`, "VALUE = 1\n");
    await Deno.writeTextFile(`${src}/mini/__init__.py`, "from mini.test_support import VALUE\n");
    await assert.rejects(
      prepareWorkspace(src, `${dest}/ws2`, { package: "mini", python: PY }),
      /ws2: package 'mini' does not import after preparation: ModuleNotFoundError/,
    );
  } finally {
    await Deno.remove(src, { recursive: true });
    await Deno.remove(dest, { recursive: true });
  }
});

async function cli(args: string[]) {
  const r = await runCli(args, { cwd: ROOT });
  return { code: r.code, stderr: r.err.trim() };
}

Deno.test("protocol: run CLI errors are one clear line", async () => {
  const empty = await Deno.makeTempDir();
  try {
    const base = ["run", SAMPLE, "--harness", "h", "--model", "m"];
    assert.deepEqual(await cli(base), {
      code: 2,
      stderr: "reporeuse run: --agent is required (see --help)",
    });
    assert.deepEqual(await cli([...base, "--agent", "true", "--memory", "full"]), {
      code: 2,
      stderr: 'reporeuse run: --memory must be none, interface or source (got "full")',
    });
    assert.deepEqual(
      await cli(["run", empty, "--agent", "true", "--harness", "h", "--model", "m"]),
      {
        code: 2,
        stderr: `reporeuse run: ${empty}: no tasks/ directory (not a corpus)`,
      },
    );
    await Deno.mkdir(`${empty}/tasks/c1/turn1`, { recursive: true });
    await Deno.writeTextFile(
      `${empty}/tasks/c1/chain.json`,
      JSON.stringify({
        chain: "c1",
        repo: { name: "mini", workspace: FIXTURE, package: "mini" },
        turns: [{ turn: 1, module: "mini.x", path: "mini/x.py", functions: [] }],
      }),
    );
    await Deno.writeTextFile(`${empty}/tasks/c1/turn1/tests.json`, "{oops");
    const bad = await cli(["run", empty, "--agent", "true", "--harness", "h", "--model", "m"]);
    assert.equal(bad.code, 1); // bad input, not a usage error

    assert.match(
      bad.stderr,
      /^reporeuse run: .*tasks\/c1\/turn1\/tests\.json: cannot read test cases/,
    );
    assert.equal(bad.stderr.split("\n").length, 1);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
