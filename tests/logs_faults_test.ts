/**
 * Regression tests of issue 11 ("silent wrong numbers", log side): CRLF line endings, output that
 * does not match the file, a wrong `cwd`, a log of one harness labelled as another. Expected
 * values are worked out by hand from the fixture's minipkg (stats.py has 29 lines) and from the
 * sample's logs read with LF line endings.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as logs from "../lib/logs/mod.ts";
import { dirSource, LogFormatError, parseLog } from "../lib/logs/mod.ts";
import { scoreRows } from "../lib/frames/mod.ts";
import { run as validate } from "../tasks/commands/validate.ts";
import { copyCorpus, FIXTURE } from "./score_helpers.ts";

/** The problems `validate --json` prints for a corpus. */
async function validateJson(dir: string): Promise<{ path: string; message: string }[]> {
  const out: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = () => {};
  try {
    await validate([dir, "--json"]);
  } finally {
    console.log = log;
    console.error = error;
  }
  return JSON.parse(out.join("\n"));
}

const FENCE = "`".repeat(3);
const MINIPKG = dirSource(join(FIXTURE, "repos/minipkg"));
const SAMPLE = new URL("../data/sample/", import.meta.url).pathname;
const SEABORN = dirSource(join(SAMPLE, "repos/seaborn"));

/** A mini-SWE-agent v1 log of (command, output) steps. */
function miniLog(steps: [string, string][]): string {
  const messages: unknown[] = [{ role: "system", content: "sys" }, { role: "user", content: "go" }];
  for (const [cmd, out] of steps) {
    messages.push({ role: "assistant", content: `THOUGHT: x\n\n${FENCE}bash\n${cmd}\n${FENCE}` });
    messages.push({
      role: "user",
      content: `<returncode>0</returncode>\n<output>\n${out}</output>`,
    });
  }
  return JSON.stringify({ info: {}, messages, trajectory_format: "mini-swe-agent-1" });
}

/** Every string of a JSON value with `\n` turned into `\r\n`. */
function crlf(v: unknown): unknown {
  if (typeof v === "string") return v.replaceAll("\n", "\r\n");
  if (Array.isArray(v)) return v.map(crlf);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, crlf(x)]));
  }
  return v;
}

Deno.test("issue 11.4: CRLF line endings in a log's messages read like LF", async () => {
  const logs = [
    "runs/mini-SWE-agent__GPT-5.6-Terra__interface/seaborn-001/turn1/log.traj",
    "runs/OpenCode__DeepSeek-v4.1-flash__interface/seaborn-001/turn1/log.json",
  ];
  for (const log of logs) {
    const text = await Deno.readTextFile(join(SAMPLE, log));
    const lf = await parseLog(text, { file: log, files: SEABORN, cwd: "/testbed" });
    assert.ok(lf.lines > 0 && lf.events.length > 0, log);
    const data = JSON.parse(text);
    // the whole log with CRLF line endings inside its messages (as a Windows harness writes them)
    const dos = JSON.stringify(crlf(data));
    assert.ok(dos.includes("\\r\\n"));
    const r = await parseLog(dos, { file: log, files: SEABORN, cwd: "/testbed" });
    assert.deepEqual(
      [r.events.length, r.lines, r.files, r.coverage, r.reads],
      [lf.events.length, lf.lines, lf.files, lf.coverage, lf.reads],
      log,
    );
  }
});

Deno.test("issue 11.5: output longer than the file never credits lines past its end; flagged", async () => {
  const long = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const r = await parseLog(miniLog([["cat minipkg/stats.py", long]]), {
    file: "log.json",
    files: MINIPKG,
  });
  // issue 22.8: an output that contradicts the file credits none of its lines
  assert.deepEqual(r.reads, {});
  assert.equal(r.lines, 0);
  const ev = r.events.find((e) => e.kind === "read")!;
  assert.equal(ev.placed, false);
  assert.match(ev.note ?? "", /do not match minipkg\/stats\.py \(29 lines\)/);
  assert.equal(r.coverage, 0); // the only action is not fully placed
  // numbered output past the end (`cat -n`): the file's 29 lines, then 11 more — flagged
  const statsText = await Deno.readTextFile(join(FIXTURE, "repos/minipkg/minipkg/stats.py"));
  const statsLines = statsText.replace(/\n$/, "").split("\n");
  const numbered = Array.from(
    { length: 40 },
    (_, i) => `${String(i + 1).padStart(6)}\t${statsLines[i] ?? "x"}`,
  ).join("\n") + "\n";
  const n = await parseLog(miniLog([["cat -n minipkg/stats.py", numbered]]), {
    file: "log.json",
    files: MINIPKG,
  });
  assert.deepEqual(n.reads, { "minipkg/stats.py": [[1, 29]] });
  assert.equal(n.events[0].placed, false);
  assert.ok(n.coverage < 1);
  // a matching output is untouched
  const stats = await Deno.readTextFile(join(FIXTURE, "repos/minipkg/minipkg/stats.py"));
  const ok = await parseLog(miniLog([["cat minipkg/stats.py", stats]]), {
    file: "log.json",
    files: MINIPKG,
  });
  assert.deepEqual([ok.lines, ok.coverage, ok.events[0].placed], [29, 1, true]);
});

Deno.test("issue 11.6: unplaced reads count against coverage", async () => {
  // no workspace and no line numbers in the output: the matched line cannot be placed
  const r = await parseLog(miniLog([["grep x a.py", "x = 1\n"], ["echo hi", "hi\n"]]), {
    file: "log.json",
  });
  assert.equal(r.events[0].placed, false);
  assert.equal(r.coverage, 0.5);
});

Deno.test("issue 11.6: every path outside the workspace: a wrong cwd is named, with the likely one", async () => {
  const stats = await Deno.readTextFile(join(FIXTURE, "repos/minipkg/minipkg/stats.py"));
  const log = miniLog([
    ["ls /workspace/minipkg", "__init__.py\ncore.py\nstats.py\n"],
    ["cat /workspace/minipkg/stats.py", stats],
    ["cat /etc/hostname", "box\n"],
  ]);
  const r = await parseLog(log, { file: "log.json", files: MINIPKG, cwd: "/testbed" });
  assert.equal(r.lines, 0);
  assert.ok(r.problems?.some((p) => p.includes("/testbed") && p.includes("/workspace")));
  // with the right cwd: read, no problem
  const ok = await parseLog(log, { file: "log.json", files: MINIPKG, cwd: "/workspace" });
  assert.equal(ok.lines, 29);
  assert.equal(ok.problems, undefined);
  // a log that reads only outside files but names none of the workspace's is not flagged
  const other = await parseLog(miniLog([["cat /etc/hostname", "box\n"]]), {
    file: "log.json",
    files: MINIPKG,
    cwd: "/testbed",
  });
  assert.equal(other.problems, undefined);

  // score: the turn is not scored with zeros, it is named in errors with the likely cwd
  const dir = await copyCorpus();
  const path = join(dir, "runs/k1/c2/turn1/log.traj.json");
  const text = (await Deno.readTextFile(path))
    .replace("cat minipkg/stats.py", "cat /workspace/minipkg/stats.py")
    .replace("> minipkg/alpha.py", "> /workspace/minipkg/alpha.py");
  await Deno.writeTextFile(path, text);
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.deepEqual(rows.turns.map((t) => `${t.chain}/${t.turn}`), ["c1/1", "c1/2", "c1/3", "c2/2"]);
  const e = rows.errors.find((x) => x.chain === "c2" && x.turn === 1);
  assert.ok(e && e.config === "k1" && /cwd/.test(e.message) && e.message.includes("/workspace"));
  assert.equal(e.path, "runs/k1/c2/turn1/log.traj.json");
  // validate says so too
  const problems = await validateJson(dir);
  assert.deepEqual(problems.map((p) => p.path), ["runs/k1/c2/turn1/log.traj.json"]);
  assert.match(problems[0].message, /wrong cwd.*"cwd": "\/workspace"/);
});

Deno.test("issue 11.7: a log of one harness labelled as another is refused or named", async () => {
  // an OpenCode export with a mini-SWE-agent label: read as mini, it had 0 events, coverage 1
  const text = await Deno.readTextFile(
    join(SAMPLE, "runs/OpenCode__DeepSeek-v4.1-flash__interface/seaborn-001/turn1/log.json"),
  );
  const labelled = JSON.stringify({ ...JSON.parse(text), trajectory_format: "mini-swe-agent-1" });
  await assert.rejects(
    () => parseLog(labelled, { file: "runs/x/log.json", files: SEABORN }),
    (e: unknown) =>
      e instanceof LogFormatError && e.message.startsWith("runs/x/log.json: ") &&
      /mini-swe-agent-1/.test(e.message) && /OpenCode/i.test(e.message),
  );
  // the configuration's harness against the log's format
  assert.match(
    logs.harnessMismatch("OpenCode", "mini-swe-agent-1") ?? "",
    /OpenCode.*mini-swe-agent/,
  );
  assert.equal(logs.harnessMismatch("mini-SWE-agent", "mini-swe-agent-1.1"), undefined);
  assert.equal(logs.harnessMismatch("SWE-agent", "swe-agent"), undefined);
  assert.match(logs.harnessMismatch("SWE-agent", "opencode-jsonl") ?? "", /SWE-agent/);
  assert.equal(logs.harnessMismatch("my-own-harness", "opencode-export"), undefined);

  // score: mini logs under a configuration that says OpenCode are not scored as OpenCode
  const dir = await copyCorpus();
  await Deno.writeTextFile(
    join(dir, "runs/k1/config.json"),
    `{ "harness": "OpenCode", "model": "Model A", "memory": "interface", "cwd": "/testbed" }`,
  );
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.equal(rows.turns.length, 0);
  assert.equal(new Set(rows.errors.map((e) => `${e.chain}/${e.turn}`)).size, 5);
  assert.ok(
    rows.errors.every((e) => /OpenCode/.test(e.message) && /mini-swe-agent/.test(e.message)),
  );
  const problems = await validateJson(dir);
  assert.equal(problems.length, 5);
  assert.ok(problems.every((p) => /says "OpenCode" but this is a mini-swe-agent/.test(p.message)));
});

Deno.test("a log refused at once by a worker is an error row, not a crash of score", async () => {
  // the worker rejects before W0 is analysed: that rejection used to be unhandled and end the run
  const dir = await copyCorpus();
  await Deno.writeTextFile(join(dir, "runs/k1/c1/turn1/log.traj.json"), `{"hello": 1}`);
  const rows = await scoreRows(dir, { workers: 1, cache: false });
  assert.equal(rows.turns.length, 4);
  const e = rows.errors.filter((x) => x.turn !== null);
  assert.deepEqual(e.map((x) => `${x.chain}/${x.turn} ${x.path}`), [
    "c1/1 runs/k1/c1/turn1/log.traj.json",
  ]);
  assert.match(e[0].message, /^unsupported log format: looks like/); // the path is in its own column
});

Deno.test("docs/run-logs.md rules: a line cut at the edge of a cut output is viewed; `.` is a File", async () => {
  // 400 lines of 60 characters: mini shows characters 0..5000 and the last 5,000, cutting lines
  // 84 (5000 / 60 = 83.3) and 317 (starts at 18,960, tail from 19,000) through the middle
  const line = (i: number) => `# ${String(i).padStart(4, "0")} ${"x".repeat(52)}`;
  const text = Array.from({ length: 400 }, (_, i) => line(i + 1)).join("\n") + "\n";
  const files = (p: string) =>
    p === "big.py" ? text : p === "pkg/a.py" ? "def mean():\n    pass\n" : undefined;
  const cut =
    `<returncode>0</returncode>\n<output_head>\n${text.slice(0, 5000)}\n</output_head>\n` +
    `<elided_chars>\n${text.length - 10000} characters elided\n</elided_chars>\n` +
    `<output_tail>\n${text.slice(-5000)}\n</output_tail>`;
  const log = (steps: [string, string][]) =>
    JSON.stringify({
      info: {},
      trajectory_format: "mini-swe-agent-1",
      messages: steps.flatMap(([c, o]) => [
        { role: "assistant", content: `${FENCE}bash\n${c}\n${FENCE}` },
        { role: "user", content: o },
      ]),
    });
  const r = await parseLog(log([["cat big.py", cut]]), { file: "l", files });
  assert.deepEqual(r.reads, { "big.py": [[1, 84], [317, 400]] });
  assert.equal(r.lines, 168);
  // without the workspace the tail cannot be placed: the head only, and coverage says so
  const blind = await parseLog(log([["cat big.py", cut]]), { file: "l" });
  assert.deepEqual([blind.reads, blind.coverage], [{ "big.py": [[1, 84]] }, 0]);
  // Files: the operands, directories included; the root is "."
  const ok = (o: string) => `<returncode>0</returncode>\n<output>\n${o}</output>`;
  const ls = await parseLog(log([["ls", ok("big.py\npkg\n")], ["ls pkg", ok("a.py\n")]]), {
    file: "l",
    files,
  });
  assert.deepEqual([ls.files, ls.events.map((e) => e.paths)], [2, [["."], ["pkg"]]]);
  const grep = await parseLog(log([["grep -rn 'def mean' .", ok("./pkg/a.py:1:def mean():\n")]]), {
    file: "l",
    files,
  });
  assert.deepEqual([grep.files, grep.reads, grep.lines], [1, { "pkg/a.py": [[1, 1]] }, 1]);
});
