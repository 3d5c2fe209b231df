/**
 * No process an agent starts outlives its turn (issue 22 item 7): descendants started with `&`,
 * `nohup`, `setsid` or a double fork are all gone when the command ends — when it exits at once
 * and when it is killed at its wall time — under each mechanism this machine offers
 * (lib/util/contain.ts), and through the protocol runner.
 */
import assert from "node:assert/strict";
import { runProcess } from "../lib/util/process.ts";
import { type Containment, containmentAvailable } from "../lib/util/contain.ts";
import { runProtocol } from "../lib/protocol/runner.ts";

const PY = "/usr/bin/python3";
const FIXTURE = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;

/** PIDs of live (not zombie) processes whose command line holds `token`. */
function alive(token: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmd.includes(token) && state !== "Z") out.push(Number(e.name));
    } catch {
      // gone
    }
  }
  return out;
}

/** A process that sleeps under a name of its own (`exec -a`), to be found in /proc. */
const sleeper = (token: string) => `bash -c 'exec -a ${token} sleep 120'`;

/** The four ways out of a turn, each as a shell line that starts a sleeper and returns. */
const WAYS: Record<string, (token: string) => string> = {
  "&": (t) => `${sleeper(t)} &`,
  nohup: (t) => `nohup ${sleeper(t)} >/dev/null 2>&1 &`,
  setsid: (t) => `setsid -f ${sleeper(t)} >/dev/null 2>&1 </dev/null`,
  "setsid with a cleared environment": (t) =>
    `setsid -f env -i bash -c 'exec -a ${t} sleep 120' >/dev/null 2>&1 </dev/null`,
  // a daemon's double fork: fork, setsid, fork again, the grandchild re-parented to init
  "double fork": (t) =>
    `${PY} -c "import os, sys
if os.fork(): sys.exit(0)
os.setsid()
if os.fork(): sys.exit(0)
fd = os.open(os.devnull, os.O_RDWR)
for i in (0, 1, 2): os.dup2(fd, i)
os.execvp('bash', ['bash', '-c', 'exec -a ${t} sleep 120'])"`,
};

/** Waits until the sleeper is up (so the test knows it was started). */
const waitUp = (t: string) =>
  `for i in $(seq 100); do pgrep -f ${t} >/dev/null && break; sleep 0.05; done`;

async function withMode<T>(mode: Containment, fn: () => Promise<T>): Promise<T> {
  const before = Deno.env.get("REPOREUSE_CONTAIN");
  Deno.env.set("REPOREUSE_CONTAIN", mode);
  try {
    return await fn();
  } finally {
    if (before === undefined) Deno.env.delete("REPOREUSE_CONTAIN");
    else Deno.env.set("REPOREUSE_CONTAIN", before);
  }
}

for (const mode of ["pidns", "subreaper"] as const) {
  for (const [way, start] of Object.entries(WAYS)) {
    for (const ending of ["exits at once", "times out"] as const) {
      Deno.test({
        name: `contain (${mode}): a process started with ${way} is gone when the command ${ending}`,
        ignore: !containmentAvailable(mode),
        async fn() {
          const token = `reporeuse-escapee-${crypto.randomUUID()}`;
          const script = `${start(token)}\n${waitUp(token)}\necho started\n` +
            (ending === "times out" ? "sleep 60\n" : "exit 0\n");
          const r = await withMode(
            mode,
            () => runProcess(["bash", "-c", script], { timeoutMs: 3000, contain: true }),
          );
          assert.equal(r.stdout.trim(), "started", r.stderr);
          assert.equal(r.timedOut, ending === "times out");
          assert.ok(r.seconds < 20, `${r.seconds} s`);
          assert.deepEqual(alive(token), []);
        },
      });
    }
  }
  Deno.test({
    name: `contain (${mode}): the command's exit code is kept`,
    ignore: !containmentAvailable(mode),
    async fn() {
      const r = await withMode(mode, () => runProcess(["bash", "-c", "exit 3"], { contain: true }));
      assert.equal(r.code, 3);
    },
  });
}

Deno.test({
  name: "contain (subreaper): an agent that kills its supervisor first still leaves nothing behind",
  ignore: !containmentAvailable("subreaper"),
  async fn() {
    const token = `reporeuse-escapee-${crypto.randomUUID()}`;
    const script = `${WAYS.setsid(token)}\n${waitUp(token)}\nkill -9 $PPID\nsleep 60`;
    const r = await withMode(
      "subreaper",
      () => runProcess(["bash", "-c", script], { timeoutMs: 20_000, contain: true }),
    );
    assert.equal(r.timedOut, false); // the supervisor's death ended the command
    assert.deepEqual(alive(token), []);
  },
});

Deno.test("run: processes an agent leaves behind are gone when its turn ends (both endings)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const chain = {
      chain: "c1",
      repo: { name: "mini", workspace: FIXTURE, package: "mini" },
      turns: [1, 2].map((n) => ({
        turn: n,
        module: `mini.t${n}`,
        path: `mini/t${n}.py`,
        functions: [{ name: "double", signature: "double(x)", returns: "int", behaviour: "2x" }],
      })),
    };
    await Deno.mkdir(`${dir}/tasks/c1/turn1`, { recursive: true });
    await Deno.mkdir(`${dir}/tasks/c1/turn2`);
    await Deno.writeTextFile(`${dir}/tasks/c1/chain.json`, JSON.stringify(chain));
    for (const n of [1, 2]) {
      await Deno.writeTextFile(
        `${dir}/tasks/c1/turn${n}/tests.json`,
        JSON.stringify({ cases: [{ id: "case_01", call: "double(2)", expected: "4" }] }),
      );
    }
    const tokens = Object.keys(WAYS).map(() => `reporeuse-agent-escapee-${crypto.randomUUID()}`);
    const starts = Object.values(WAYS).map((f, i) => f(tokens[i])).join("\n");
    // turn 1 submits and exits at once; turn 2 submits, then hangs past its wall time; each
    // leaves four processes behind, which keep writing into the workspace
    const agent = `${starts}
printf 'def double(x):\\n    return 2 * x\\n' > {submit_path}
${tokens.map(waitUp).join("\n")}
if [ {turn} = 2 ]; then sleep 60; fi`;
    const outcomes = await runProtocol({
      corpus: dir,
      config: { harness: "h", model: "m", memory: "none" },
      agent,
      python: PY,
      wallTimeS: 4,
    });
    assert.deepEqual(
      outcomes.map((o) => [o.turn, o.submitted, o.passed, o.timedOut]),
      [[1, true, 1, false], [2, true, 1, true]],
    );
    for (const t of tokens) assert.deepEqual(alive(t), [], t);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
