/**
 * Benchmark: reading a ~5 MB mini-SWE-agent v1 trajectory, and a ~50 MB Claude Code session.
 *
 * Generates, in a temp directory, a workspace (60 Python files of 300–900 lines) and a
 * trajectory of shell actions in the idioms agents use (`nl -ba | sed -n`, `sed -n`, `cat`
 * (long ones elided the way mini shows them), `grep -n -C`, `grep -rn`, `head`, heredoc writes,
 * `sed -i`), then times:
 *
 * 1. the whole process: `deno task reporeuse reads <log> --root <ws>` (startup, tree-sitter init,
 *    JSON parse, reading, output) — the number to compare with the goal "well under a second";
 * 2. in this process: `parseLog` with the workspace as a FileSource (after a warm-up), and
 *    without it.
 *
 * The Claude Code session (a 50 MB session, which should be read in a few seconds) is the
 * simulator's (lib/simulate/sessions.ts) with what real 2.x sessions hold around the calls:
 * streamed assistant lines (thinking, text, tool_use) with their envelope fields, `Read` results
 * with `N\t` prefixes and offset/limit (and the "File unchanged" stub for re-reads), `Grep`
 * content mode, `Glob`, `Bash`, `Write`, a `Task` sub-agent, hook `progress` lines and
 * `file-history-snapshot` lines.
 *
 * Run: `deno task bench logs` (or `deno run -A tasks/bench/logs.ts`).
 *
 * @module
 */
import { bashParser, parseLog } from "../../lib/logs/mod.ts";
import { type Action, renderClaude, Rng, type SimWorkspace } from "../../lib/simulate/mod.ts";

const TARGET_BYTES = 5 * 1024 * 1024;
const CLAUDE_BYTES = 50 * 1024 * 1024;

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pyFile(r: () => number, name: string, n: number): string {
  const lines: string[] = [`"""Module ${name}."""`, "from __future__ import annotations", ""];
  let k = 0;
  while (lines.length < n) {
    lines.push(`def func_${k}(value, scale=1.0):`);
    lines.push(`    """Compute thing ${k} of ${name}."""`);
    const body = 2 + Math.floor(r() * 8);
    for (let i = 0; i < body; i++) lines.push(`    value = value * scale + ${i}  # step ${i}`);
    lines.push("    return value", "", "");
    k++;
  }
  return lines.slice(0, n).join("\n") + "\n";
}

/** Writes the 60-file workspace under `dir/ws`; returns it with each file's lines by path. */
function workspace(dir: string, r: () => number): { ws: string; files: Map<string, string[]> } {
  const ws = `${dir}/ws`;
  Deno.mkdirSync(`${ws}/pkg/sub`, { recursive: true });
  const files = new Map<string, string[]>();
  for (let i = 0; i < 60; i++) {
    const path = `pkg/${i % 3 === 0 ? "sub/" : ""}mod_${i}.py`;
    const text = pyFile(r, path, 300 + Math.floor(r() * 600));
    Deno.writeTextFileSync(`${ws}/${path}`, text);
    files.set(path, text.split("\n").slice(0, -1));
  }
  return { ws, files };
}

/**
 * An action's file (one of `paths`), its window `a..b` (`min` lines and up to `spread` more)
 * and its kind (`0..kinds-1`).
 */
function pick(
  r: () => number,
  files: Map<string, string[]>,
  paths: string[],
  { min, spread, kinds }: { min: number; spread: number; kinds: number },
) {
  const p = paths[Math.floor(r() * paths.length)];
  const lines = files.get(p)!;
  const n = lines.length;
  const a = 1 + Math.floor(r() * (n - 40));
  const b = a + min + Math.floor(r() * spread);
  return { p, lines, n, a, b, kind: Math.floor(r() * kinds) };
}

/** The `path:N:line` hits of `def func_<f>(` over the workspace, paths prefixed. */
function defHits(files: Map<string, string[]>, f: number, prefix = ""): string[] {
  const out: string[] = [];
  for (const [q, ls] of files) {
    ls.forEach((l, i) => {
      if (l.startsWith(`def func_${f}(`)) out.push(`${prefix}${q}:${i + 1}:${l}`);
    });
  }
  return out;
}

function observation(output: string, rc: number): string {
  if (output.length < 10000) return `<returncode>${rc}</returncode>\n<output>\n${output}</output>`;
  return `<returncode>${rc}</returncode>\n<warning>\nThe output of your last command was too long.\n</warning><output_head>\n${
    output.slice(0, 5000)
  }\n</output_head>\n<elided_chars>\n${
    output.length - 10000
  } characters elided\n</elided_chars>\n<output_tail>\n${output.slice(-5000)}\n</output_tail>`;
}

/**
 * Writes the workspace and a trajectory of ~5 MB. `dense`: short messages, many actions (the
 * hard case); otherwise a realistic mix where mini's stored raw responses and long thoughts make
 * up most of the size (about 10× fewer actions).
 */
function generate(dir: string, dense: boolean): { log: string; ws: string; actions: number } {
  const r = rng(7);
  const { ws, files } = workspace(dir, r);
  const paths = [...files.keys()];
  const messages: unknown[] = [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "<pr_description>Add a feature.</pr_description>" },
  ];
  let size = 0;
  let actions = 0;
  let written = 0;
  while (size < TARGET_BYTES) {
    const { p, lines, n, a, b, kind } = pick(r, files, paths, { min: 10, spread: 60, kinds: 8 });
    let command: string;
    let output: string;
    const num = (i: number) => `${String(i).padStart(6)}\t${lines[i - 1]}`;
    const range = (x: number, y: number) => {
      const out: number[] = [];
      for (let i = x; i <= Math.min(y, n); i++) out.push(i);
      return out;
    };
    switch (kind) {
      case 0:
        command = `cd /testbed && nl -ba ${p} | sed -n '${a},${b}p'`;
        output = range(a, b).map(num).join("\n") + "\n";
        break;
      case 1:
        command = `sed -n '${a},${b}p' ${p}`;
        output = range(a, b).map((i) => lines[i - 1]).join("\n") + "\n";
        break;
      case 2:
        command = `cat ${p}`;
        output = lines.join("\n") + "\n";
        break;
      case 3: {
        const f = Math.floor(a / 10);
        command = `grep -n -C 2 "def func_${f}(" ${p}`;
        const hit = lines.findIndex((l) => l.startsWith(`def func_${f}(`)) + 1;
        output = hit
          ? range(Math.max(1, hit - 2), hit + 2).map((i) =>
            `${i}${i === hit ? ":" : "-"}${lines[i - 1]}`
          )
            .join("\n") + "\n"
          : "";
        break;
      }
      case 4: {
        const f = Math.floor(r() * 5);
        command = `grep -rn "def func_${f}(" pkg | head -20`;
        const out = defHits(files, f);
        output = out.slice(0, 20).join("\n") + (out.length ? "\n" : "");
        break;
      }
      case 5:
        command = `head -n ${b - a} ${p}`;
        output = range(1, b - a).map((i) => lines[i - 1]).join("\n") + "\n";
        break;
      case 6: {
        const path = `pkg/new_${written++}.py`;
        const body = ["def new_feature(x):", "    return x + 1"];
        command = `cat <<'EOF' > ${path}\n${body.join("\n")}\nEOF`;
        output = "";
        files.set(path, body);
        break;
      }
      default:
        command = `cd /testbed && python -c "import pkg; print(pkg)" && git status`;
        output = "<module 'pkg'>\nOn branch main\n";
    }
    const thought = dense ? "" : " because".repeat(400);
    const content = `THOUGHT: step ${actions}${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
    const msg = dense ? { role: "assistant", content } : {
      role: "assistant",
      content,
      extra: {
        // mini stores the provider's raw response: in real logs it is most of the size
        response: {
          id: `resp-${actions}`,
          choices: [{
            message: { role: "assistant", content, reasoning_content: "thinking ".repeat(1200) },
          }],
          usage: { prompt_tokens: 12000 + actions * 900, completion_tokens: 400 },
        },
      },
    };
    const obs = { role: "user", content: observation(output, output === "" && kind === 3 ? 1 : 0) };
    messages.push(msg, obs);
    size += JSON.stringify(msg).length + JSON.stringify(obs).length;
    actions++;
  }
  const traj = {
    info: {
      model_stats: { instance_cost: 1.5, api_calls: actions },
      config: { environment: { cwd: "/testbed" } },
    },
    messages,
    trajectory_format: "mini-swe-agent-1",
  };
  const log = `${dir}/bench.traj.json`;
  Deno.writeTextFileSync(log, JSON.stringify(traj));
  return { log, ws, actions };
}

/**
 * The workspace of {@link generate} and a Claude Code 2.1 session of ~50 MB over it, rendered by
 * the simulator's Claude Code generator (lib/simulate/sessions.ts `renderClaude`) with what real
 * 2.x sessions add around each call: a thinking block, a PostToolUse hook's `progress` line, a
 * `file-history-snapshot` line every 25 calls. The actions are drawn here: ranged and whole-file
 * reads (some through `Bash`), recursive greps, globs, writes and runs.
 */
function generateClaude(dir: string): { log: string; ws: string; actions: number } {
  const r = rng(11);
  const { ws, files } = workspace(dir, r);
  const paths = [...files.keys()];
  const header = new Map(paths.map((p) => [p, 2]));
  const sim: SimWorkspace = { pkg: "pkg", files, extras: [], header };
  const views = ["sed", "nl", "cat", "head"] as const;
  let written = 0;
  const draw = (): Action => {
    const { p, n, a, b, kind } = pick(r, files, paths, { min: 20, spread: 120, kinds: 10 });
    if (kind <= 2) return { kind: "view", path: p, a, b, how: views[kind] };
    if (kind === 3) return { kind: "view", path: p, a: 1, b: n, how: "cat" };
    if (kind <= 5) {
      const f = Math.floor(r() * 5);
      return {
        kind: "grep",
        pattern: `def func_${f}(`,
        path: "pkg",
        recursive: true,
        after: 0,
        before: 0,
      };
    }
    if (kind === 6) return { kind: "list", path: "pkg", how: "glob" };
    if (kind === 7) {
      const text = "def new_feature(x):\n    return x + 1\n";
      const path = `pkg/new_${written++}.py`;
      return { kind: "write", path, text };
    }
    return { kind: "run", command: "python -c 'import pkg'", output: "" };
  };
  const render = (actions: Action[]) =>
    renderClaude(new Rng(11), sim, actions, {
      prompt: "Add a feature.",
      model: "claude-opus-4-7",
      submitted: true,
      cost: 1.5,
      start: Date.UTC(2026, 3, 26),
      seconds: 3600,
      version: "2.1.112",
      repo: "project",
    }, { thinking: "Considering the next step. ".repeat(20), hooks: true, snapshotEvery: 25 });
  // grow the action list until the session is ~50 MB (its size per action is measured, not assumed)
  const actions: Action[] = [];
  for (let size = 0; size < CLAUDE_BYTES;) {
    const more = size ? Math.ceil(actions.length * (CLAUDE_BYTES / size - 1)) + 10 : 2000;
    for (let i = 0; i < more; i++) actions.push(draw());
    size = render(actions).log.length;
  }
  const session = render(actions);
  const log = `${dir}/session.jsonl`;
  Deno.writeTextFileSync(log, session.log);
  for (const [name, text] of session.subagents) {
    Deno.mkdirSync(`${dir}/subagents`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/subagents/${name}`, text);
  }
  return { log, ws, actions: actions.length };
}

async function main() {
  for (const kind of ["dense", "realistic", "claude-code"] as const) {
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-bench-logs-" });
    try {
      await measure(dir, kind);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
}

async function measure(dir: string, kind: "dense" | "realistic" | "claude-code") {
  const { log, ws, actions } = kind === "claude-code"
    ? generateClaude(dir)
    : generate(dir, kind === "dense");
  const bytes = Deno.statSync(log).size;
  console.log(
    `${kind === "claude-code" ? "Claude Code 2.1 session" : `${kind} mini-SWE-agent trajectory`}: ${
      (bytes / 1024 / 1024).toFixed(2)
    } MB, ${actions} actions, 60-file workspace`,
  );
  // 1. whole process, as a user or a scoring worker would run it; CPU time from bash `times`
  // (the machine may be shared: CPU time is the figure that does not depend on the load)
  const cli = new URL("../cli.ts", import.meta.url).pathname;
  const runs: { wall: number; cpu: number }[] = [];
  let summary = "";
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const script = `${q(Deno.execPath())} run -A ${q(cli)} reads ${q(log)} --root ${
      q(ws)
    } --compact > ${q(`${dir}/out.json`)} || exit 3; times`;
    const out = await new Deno.Command("bash", {
      args: ["-c", script],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    const wall = performance.now() - t0;
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
    // `times` prints shell then children user/sys times: "0m1.135s 0m0.150s"
    const child = new TextDecoder().decode(out.stdout).trim().split("\n").pop()!;
    const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) =>
      Number(m[1]) * 60 + Number(m[2])
    );
    runs.push({ wall, cpu: (secs[0] + secs[1]) * 1000 });
    const r = JSON.parse(Deno.readTextFileSync(`${dir}/out.json`));
    summary = `files ${r.files}, lines ${r.lines}, coverage ${
      r.coverage.toFixed(3)
    }, ${r.events.length} events`;
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `whole process (reads --root): median CPU ${med(runs.map((r) => r.cpu)).toFixed(0)} ms, wall ${
      med(runs.map((r) => r.wall)).toFixed(0)
    } ms (load average ${Deno.loadavg()[0].toFixed(1)}) — ${summary}`,
  );

  // 2. in process (tree-sitter initialised once)
  await bashParser();
  const text = Deno.readTextFileSync(log);
  const fileMap = new Map<string, string>();
  for (const e of walk(ws)) fileMap.set(e, Deno.readTextFileSync(`${ws}/${e}`));
  const files = (p: string) => fileMap.get(p);
  await parseLog(text, { file: log, files });
  for (
    const [label, opts] of [["with workspace", { file: log, files }], ["without workspace", {
      file: log,
    }]] as const
  ) {
    const ts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await parseLog(text, opts);
      ts.push(performance.now() - t0);
    }
    ts.sort((a, b) => a - b);
    console.log(
      `parseLog in process, ${label}: median ${ts[1].toFixed(0)} ms (${
        (actions / ts[1] * 1000).toFixed(0)
      } actions/s)`,
    );
  }
}

function* walk(root: string, base = ""): Generator<string> {
  for (const e of Deno.readDirSync(base ? `${root}/${base}` : root)) {
    const p = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory) yield* walk(root, p);
    else yield p;
  }
}

if (import.meta.main) await main();
