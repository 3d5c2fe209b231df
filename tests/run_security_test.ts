/**
 * `run` against a hostile agent and hostile names (issue 22, items 6 and 10): an agent that
 * replaces its log directory, a directory above it or the workspace by a link cannot make the
 * runner create, overwrite or delete anything at the link's target; a session file the agent
 * links elsewhere is not copied; a missing agent program fails loudly; `--config` and `--chain`
 * cannot lead the run directory out of the corpus.
 */
import assert from "node:assert/strict";
import { runCli } from "./cli_helpers.ts";
import { runProtocol } from "../lib/protocol/runner.ts";
import { agentPreset } from "../lib/protocol/presets.ts";
import { sha256 } from "../lib/util/cache.ts";

const PY = "/usr/bin/python3";
const FIXTURE = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;
const ROOT = new URL("..", import.meta.url).pathname;
const SUBMIT = `printf 'def double(x):\\n    return 2 * x\\n' > {submit_path}`;

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
    await Deno.writeTextFile(
      `${dir}/tasks/c1/turn${n}/tests.json`,
      JSON.stringify({ cases: [{ id: "case_01", call: "double(2)", expected: "4" }] }),
    );
  }
  return dir;
}

/** Every entry under `dir` (links not followed) with a digest of its bytes or link target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = `${d}/${e.name}`, r = `${rel}${e.name}`;
      if (e.isSymlink) out[r] = `-> ${Deno.readLinkSync(p)}`;
      else if (e.isDirectory) {
        out[`${r}/`] = "dir";
        walk(p, `${r}/`);
      } else out[r] = sha256(Deno.readFileSync(p));
    }
  };
  walk(dir, "");
  return out;
}

/** A directory of someone else's files, named as the runner's outputs are. */
async function victim(): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (
    const f of [
      "meta.json",
      "agent-stdout.txt",
      "agent-stderr.txt",
      "prompt.md",
      "submission.py",
      "results.json",
      "log.json",
      "precious.txt",
    ]
  ) {
    await Deno.writeTextFile(`${dir}/${f}`, `not yours: ${f}\n`);
  }
  await Deno.mkdir(`${dir}/turn2`);
  await Deno.writeTextFile(`${dir}/turn2/precious.txt`, "not yours either\n");
  return dir;
}

for (
  const [what, target] of [
    ["its log directory ({log_dir})", "{log_dir}"],
    ["the chain's run directory above it", "$(dirname {log_dir})"],
    ["the configuration's run directory", "$(dirname $(dirname {log_dir}))"],
  ] as const
) {
  Deno.test(`run: an agent that replaces ${what} by a link cannot make the runner write there`, async () => {
    const dir = await corpus(2);
    const outside = await victim();
    try {
      const before = snapshot(outside);
      // turn 1 moves the directory away and puts a link to the victim in its place
      const agent = `${SUBMIT}
echo '{"log": 1}' > {log_dir}/log.json
if [ {turn} = 1 ]; then d=${target}; mv "$d" "$d.moved"; ln -s ${outside} "$d"; fi
echo done`;
      const outcomes = await runProtocol({
        corpus: dir,
        config: { harness: "h", model: "m", memory: "none" },
        agent,
        python: PY,
        wallTimeS: 60,
      });
      assert.deepEqual(outcomes.map((o) => [o.turn, o.submitted, o.passed]), [[1, true, 1], [
        2,
        true,
        1,
      ]]);
      // nothing created, overwritten or deleted at the link's target
      assert.deepEqual(snapshot(outside), before);
      // the run's records are real files in real directories of the corpus
      const t1 = `${dir}/runs/h__m__none/c1/turn1`;
      for (const p of [`${dir}/runs/h__m__none`, `${dir}/runs/h__m__none/c1`, t1]) {
        assert.ok(Deno.lstatSync(p).isDirectory, p);
      }
      const meta = JSON.parse(Deno.readTextFileSync(`${t1}/meta.json`));
      assert.equal(meta.submitted, true);
      assert.ok(
        meta.problems.some((p: string) =>
          p.includes(`a link to ${outside}, removed (left by an agent)`)
        ),
        JSON.stringify(meta.problems),
      );
      assert.equal(Deno.readTextFileSync(`${t1}/agent-stdout.txt`), "done\n");
      assert.ok(Deno.lstatSync(`${t1}/submission.py`).isFile);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  });
}

Deno.test("run: an agent that replaces the workspace by a link: nothing read or written there", async () => {
  const dir = await corpus(2);
  const outside = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${outside}/mini`);
    await Deno.writeTextFile(
      `${outside}/mini/t1.py`,
      "SECRET = 'do-not-copy'\ndef double(x):\n    return 2 * x\n",
    );
    const before = snapshot(outside);
    const agent = `cd /; mv {workspace} {workspace}.moved; ln -s ${outside} {workspace}`;
    const outcomes = await runProtocol({
      corpus: dir,
      config: { harness: "h", model: "m", memory: "none" },
      agent,
      python: PY,
      wallTimeS: 60,
    });
    // the chain stops at the turn that lost its workspace
    assert.deepEqual(outcomes.map((o) => [o.turn, o.submitted]), [[1, false]]);
    assert.deepEqual(snapshot(outside), before);
    const t1 = `${dir}/runs/h__m__none/c1/turn1`;
    assert.throws(() => Deno.statSync(`${t1}/submission.py`));
    const meta = JSON.parse(Deno.readTextFileSync(`${t1}/meta.json`));
    assert.match(meta.problems.join("\n"), /the workspace was replaced .*: no submission read/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("run --agent claude-code: a session file linked elsewhere is not copied into the corpus", async () => {
  const dir = await corpus(1);
  const home = await Deno.makeTempDir();
  const bin = await Deno.makeTempDir();
  try {
    const secret = `${home}/secret.txt`;
    await Deno.writeTextFile(secret, "do-not-copy\n");
    // a stub `claude` that submits and leaves its session file as a link to the secret
    await Deno.writeTextFile(
      `${bin}/claude`,
      `#!/bin/sh
printf 'def double(x):\\n    return 2 * x\\n' > "$REPOREUSE_SUBMIT_PATH"
for a in "$@"; do case "$prev" in --session-id) id="$a";; esac; prev="$a"; done
d="$HOME/.claude/projects/$(echo "$REPOREUSE_WORKSPACE" | sed 's#[/.:]#-#g')"
mkdir -p "$d" && ln -s ${secret} "$d/$id.jsonl"
`,
    );
    await Deno.chmod(`${bin}/claude`, 0o755);
    const lines: string[] = [];
    const [o] = await runProtocol({
      corpus: dir,
      config: { harness: "claude-code", model: "m", memory: "none" },
      preset: agentPreset("claude-code"),
      env: { HOME: home, PATH: `${bin}:${Deno.env.get("PATH")}` },
      python: PY,
      wallTimeS: 60,
      log: (l) => lines.push(l),
    });
    assert.equal(o.submitted, true);
    const t1 = `${dir}/runs/claude-code__m__none/c1/turn1`;
    assert.throws(() => Deno.lstatSync(`${t1}/log.jsonl`));
    assert.ok(
      lines.some((l) => /not a regular file \(a link or device is not copied\)/.test(l)),
      lines.join("\n"),
    );
  } finally {
    for (const d of [dir, home, bin]) await Deno.remove(d, { recursive: true });
  }
});

async function cli(args: string[], env: Record<string, string> = {}) {
  const r = await runCli(["run", ...args], { cwd: ROOT, env });
  return { code: r.code, out: r.out.trim(), err: r.err.trim() };
}

Deno.test("run --agent claude-code without a claude program fails loudly, before any run", async () => {
  const dir = await corpus(1);
  try {
    // a PATH with bash but no claude
    const r = await cli([dir, "--agent", "claude-code", "--model", "m", "--python", PY], {
      PATH: "/usr/bin:/bin",
    });
    assert.equal(r.code, 1, r.err);
    assert.equal(
      r.err,
      "reporeuse run: the claude-code preset runs 'claude', which is not on PATH: install it, or give --agent a command template",
    );
    assert.throws(() => Deno.statSync(`${dir}/runs`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run with an agent command that is not found fails loudly (exit 1, one line)", async () => {
  const dir = await corpus(2);
  try {
    const r = await cli([
      dir,
      "--agent",
      "no-such-agent-1f3a --prompt {prompt_file}",
      "--harness",
      "h",
      "--model",
      "m",
      "--python",
      PY,
    ]);
    assert.equal(r.code, 1, r.err);
    const last = r.err.split("\n").at(-1)!;
    assert.match(
      last,
      /^reporeuse run: c1 turn 1: the agent command could not be run \(exit 127: bash: .*no-such-agent-1f3a: command not found\)$/,
    );
    // the turn is recorded; the next one was not started
    const meta = JSON.parse(
      Deno.readTextFileSync(`${dir}/runs/h__m__interface/c1/turn1/meta.json`),
    );
    assert.equal(meta.exit_code, 127);
    assert.throws(() => Deno.statSync(`${dir}/runs/h__m__interface/c1/turn2`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --config / --chain with '..' or '/' cannot put a run directory outside the corpus", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const dir = `${parent}/a/b/corpus`;
    await Deno.mkdir(`${parent}/a/b`, { recursive: true });
    await Deno.rename(await corpus(1), dir);
    const before = snapshot(parent);
    const base = [dir, "--agent", SUBMIT, "--harness", "h", "--model", "m", "--python", PY];
    for (
      const [flag, value] of [
        ["--config", "../../x"],
        ["--config", ".."],
        ["--config", "a/b"],
        ["--chain", "../../x"],
      ]
    ) {
      const r = await cli([...base, flag, value]);
      assert.equal(r.code, 2, r.err);
      assert.equal(
        r.err,
        `reporeuse run: ${flag} ${
          JSON.stringify(value)
        }: one plain directory name (no '/', not '.' or '..')`,
      );
      assert.deepEqual(snapshot(parent), before);
    }
    // the library refuses them too
    await assert.rejects(
      runProtocol({
        corpus: dir,
        config: { harness: "h", model: "m", memory: "none" },
        configName: "../../x",
        agent: "true",
      }),
      /configuration name "\.\.\/\.\.\/x" is not one plain directory name/,
    );
    assert.deepEqual(snapshot(parent), before);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
