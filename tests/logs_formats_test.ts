/**
 * Readers of each real log format against hand-checked line sets.
 *
 * Fixtures: tests/fixtures/logs/*.json(l)/.traj, written by make_fixtures.py (real GNU tool
 * output wrapped in the harness templates). The workspace is tests/fixtures/logs/workspace:
 * pkg/core.py (40 lines), pkg/util.py (15), pkg/big.py (400 lines of exactly 60 characters).
 * Every expected range below was worked out by hand from those files and the commands.
 */
import assert from "node:assert/strict";
import { dirSource, parseLog, readLog } from "../lib/logs/mod.ts";
import type { Event, ReadsResult } from "../lib/logs/mod.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url).pathname;
const WS = `${DIR}workspace`;

async function withWs(name: string): Promise<ReadsResult> {
  return await readLog(DIR + name, { root: WS });
}
async function noWs(name: string): Promise<ReadsResult> {
  return await readLog(DIR + name);
}
function byStep(r: ReadsResult, step: number): Event[] {
  return r.events.filter((e) => e.step === step);
}

// big.py: 400 lines × 60 chars = 24,000 chars > 10,000, so mini shows chars [0,5000) and
// [19000,24000): lines 1–84 (line 84 = chars 4980–5039, partly shown) and 317–400 (line 317 =
// chars 18960–19019, partly shown).
const BIG_ELIDED: [number, number][] = [[1, 84], [317, 400]];

Deno.test("mini-SWE-agent v1 with the workspace: every idiom's lines", async () => {
  const r = await withWs("mini_v1.traj.json");
  assert.equal(r.format, "mini-swe-agent-1");
  // step 0: nl -ba | sed -n '10,20p'
  assert.deepEqual(byStep(r, 0).map((e) => [e.kind, e.lines]), [["read", {
    "pkg/core.py": [[10, 20]],
  }]]);
  // step 1: grep -n -A 2 "def helper" → match 9, context 10–11
  assert.deepEqual(byStep(r, 1).map((e) => [e.kind, e.lines]), [["search", {
    "pkg/util.py": [[9, 11]],
  }]]);
  // step 2: sed -n '/^class Config/,/^$/p' → 11 (class Config) … 15 (first empty line)
  assert.deepEqual(byStep(r, 2)[0].lines, { "pkg/core.py": [[11, 15]] });
  // step 3: a format error (two bash blocks): no action
  assert.deepEqual(byStep(r, 3), []);
  // step 4: cat of a missing file: nothing read
  assert.deepEqual(byStep(r, 4).map((e) => [e.kind, e.lines]), [["read", {}]]);
  // step 5: heredoc write — a write, not a read
  assert.deepEqual(byStep(r, 5).map((e) => [e.kind, e.paths, e.lines]), [[
    "write",
    ["pkg/extra.py"],
    {},
  ]]);
  // step 6: sed -i then cat: the edited file (still 15 lines) re-read whole
  assert.deepEqual(byStep(r, 6).map((e) => [e.kind, e.lines]), [
    ["write", {}],
    ["read", { "pkg/util.py": [[1, 15]] }],
  ]);
  // step 7: cat of a 24,000-char file: only the shown head and tail
  assert.deepEqual(byStep(r, 7)[0].lines, { "pkg/big.py": BIG_ELIDED });
  assert.equal(byStep(r, 7)[0].placed, true);
  // step 8: /etc/passwd is outside the workspace: ignored
  assert.deepEqual(byStep(r, 8).map((e) => [e.paths, e.lines]), [[[], {}]]);
  // step 9: grep -rn helper pkg | head -3 → extra.py:2, core.py:7, core.py:22
  assert.deepEqual(byStep(r, 9)[0].lines, {
    "pkg/core.py": [[7, 7], [22, 22]],
    "pkg/extra.py": [[2, 2]],
  });
  assert.deepEqual(byStep(r, 9)[0].paths, ["pkg"]); // the directory searched
  // step 10: head -n 5; tail -n 3 (core has 40 lines)
  assert.deepEqual(byStep(r, 10).map((e) => e.lines), [{ "pkg/core.py": [[1, 5]] }, {
    "pkg/core.py": [[38, 40]],
  }]);
  // step 11: ls pkg: a listing of the directory (Files, not Lines)
  const ls = byStep(r, 11)[0];
  assert.deepEqual([ls.kind, ls.paths, ls.lines], ["list", ["pkg"], {}]);
  assert.deepEqual(ls.lines, {});
  // step 12: the file created earlier in the turn
  assert.deepEqual(byStep(r, 12)[0].lines, { "pkg/extra.py": [[1, 2]] });
  // step 13: a for loop is not interpreted
  assert.equal(byStep(r, 13)[0].kind, "other");
  // step 14: the submit action (echo && git add && git diff) got no observation
  assert.deepEqual(byStep(r, 14).map((e) => e.kind), ["run", "run", "run"]);

  assert.deepEqual(r.reads, {
    "pkg/big.py": BIG_ELIDED,
    "pkg/core.py": [[1, 5], [7, 7], [10, 20], [22, 22], [38, 40]],
    "pkg/extra.py": [[1, 2]],
    "pkg/util.py": [[1, 15]],
  });
  assert.equal(r.lines, 168 + 21 + 2 + 15);
  // Files: the four files viewed + the directory pkg (listed by ls, searched by grep -r)
  assert.equal(r.files, 5);
  assert.equal(r.coverage, 13 / 14);
  assert.deepEqual(r.meta, { cost: 0.2305, steps: 15 });
});

Deno.test("mini-SWE-agent v1 without the workspace: numbers and counts from the output", async () => {
  const r = await noWs("mini_v1.traj.json");
  assert.deepEqual(byStep(r, 0)[0].lines, { "pkg/core.py": [[10, 20]] });
  assert.deepEqual(byStep(r, 1)[0].lines, { "pkg/util.py": [[9, 11]] });
  // a regex range cannot be placed without the file
  assert.deepEqual([byStep(r, 2)[0].lines, byStep(r, 2)[0].placed], [{}, false]);
  // cat after sed -i: 15 output lines from line 1
  assert.deepEqual(byStep(r, 6)[1].lines, { "pkg/util.py": [[1, 15]] });
  // the head of the cut output is placed; the tail is not (file length unknown)
  assert.deepEqual([byStep(r, 7)[0].lines, byStep(r, 7)[0].placed], [
    { "pkg/big.py": [[1, 84]] },
    false,
  ]);
  assert.deepEqual(byStep(r, 9)[0].lines, {
    "pkg/core.py": [[7, 7], [22, 22]],
    "pkg/extra.py": [[2, 2]],
  });
  // head's window is known from the command; tail's is not
  assert.deepEqual(byStep(r, 10).map((e) => [e.lines, e.placed]), [[
    { "pkg/core.py": [[1, 5]] },
    true,
  ], [{}, false]]);
  // the heredoc content is known, so the later cat is simulated
  assert.deepEqual(byStep(r, 12)[0].lines, { "pkg/extra.py": [[1, 2]] });
});

Deno.test("mini-SWE-agent v2 (tool calls, several actions per step, raw_output)", async () => {
  const r = await withWs("mini_v2.traj.json");
  assert.equal(r.format, "mini-swe-agent-1.1");
  assert.deepEqual(byStep(r, 0).map((e) => e.lines), [{ "pkg/core.py": [[5, 8]] }, {
    "pkg/util.py": [[2, 2]],
  }]);
  assert.deepEqual(byStep(r, 1)[0].lines, { "pkg/core.py": [[30, 33]] });
  assert.deepEqual(byStep(r, 2)[0].lines, { "pkg/big.py": BIG_ELIDED });
  // print(open(f).read()) shows the whole file
  assert.deepEqual(byStep(r, 3)[0].lines, { "pkg/util.py": [[1, 15]] });
  assert.deepEqual(byStep(r, 4)[0].lines, { "pkg/core.py": [[1, 3]] });
  // grep -n -C 1 "def mean": 27 ± 1
  assert.deepEqual(byStep(r, 5)[0].lines, { "pkg/core.py": [[26, 28]] });
  // cd && grep -n && sed -n: each segment separately
  assert.deepEqual(byStep(r, 6).map((e) => e.lines), [{ "pkg/core.py": [[32, 32]] }, {
    "pkg/core.py": [[33, 34]],
  }]);
  assert.deepEqual(byStep(r, 7).map((e) => e.kind), ["run", "run", "run"]);
  assert.deepEqual(r.reads, {
    "pkg/big.py": BIG_ELIDED,
    // 1–3 (cat | head), 5–8 (sed), 26–28 (grep -C1), 30–33 (awk) ∪ 32–34 (grep && sed)
    "pkg/core.py": [[1, 3], [5, 8], [26, 28], [30, 34]],
    "pkg/util.py": [[1, 15]],
  });
  assert.equal(r.lines, 168 + 15 + 15);
  assert.equal(r.files, 3);
  assert.equal(r.coverage, 1);
  assert.deepEqual(r.meta, { cost: 0.0407, steps: 8, seconds: 25 });
});

Deno.test("mini-SWE-agent v2 without the workspace: raw_output places the elided tail", async () => {
  const r = await noWs("mini_v2.traj.json");
  assert.deepEqual(byStep(r, 0).map((e) => e.lines), [{ "pkg/core.py": [[5, 8]] }, {
    "pkg/util.py": [[2, 2]],
  }]);
  assert.deepEqual(byStep(r, 1)[0].lines, { "pkg/core.py": [[30, 33]] });
  assert.deepEqual([byStep(r, 2)[0].lines, byStep(r, 2)[0].placed], [
    { "pkg/big.py": BIG_ELIDED },
    true,
  ]);
  // 16 output lines = 15 file lines + print's newline
  assert.deepEqual(byStep(r, 3)[0].lines, { "pkg/util.py": [[1, 15]] });
  assert.deepEqual(byStep(r, 4)[0].lines, { "pkg/core.py": [[1, 3]] });
  assert.deepEqual(byStep(r, 5)[0].lines, { "pkg/core.py": [[26, 28]] });
});

Deno.test("mini-SWE-agent v2 text-based (mswea_bash_command blocks, user observations)", async () => {
  const r = await withWs("mini_v2_text.traj.json");
  assert.equal(r.format, "mini-swe-agent-1.1");
  // head -n 4; tail -n +12 of a 15-line file
  assert.deepEqual(r.reads, { "pkg/util.py": [[1, 4], [12, 15]] });
  assert.equal(r.lines, 8);
});

Deno.test("OpenCode export before 1.2: 0-based offsets, 00001| output, @file, sub-agent", async () => {
  const r = await withWs("opencode_old.json");
  assert.equal(r.format, "opencode-export");
  const reads = r.events.filter((e) => e.tool === "read");
  // @file mention: the synthetic read of the whole util.py (step 0, before the first answer)
  assert.deepEqual([reads[0].step, reads[0].lines], [0, { "pkg/util.py": [[1, 15]] }]);
  // offset 10 (lines skipped), limit 5 → 11–15
  assert.deepEqual(reads[1].lines, { "pkg/core.py": [[11, 15]] });
  // the sub-agent's read: offset 30, limit 3 → 31–33, at the step of the task call (3)
  assert.deepEqual([reads[2].step, reads[2].lines], [3, { "pkg/core.py": [[31, 33]] }]);
  // written then read in the same turn
  assert.deepEqual(reads[3].lines, { "pkg/scaled.py": [[1, 3]] });
  // failed read, and a read outside the workspace: nothing
  assert.deepEqual([reads[4].lines, reads[5].lines, reads[5].paths], [{}, {}, []]);
  const grep = r.events.find((e) => e.tool === "grep")!;
  assert.deepEqual(grep.lines, { "pkg/util.py": [[5, 5], [9, 9]] });
  assert.deepEqual(grep.paths, ["pkg"]); // the directory searched
  const glob = r.events.find((e) => e.tool === "glob")!;
  assert.deepEqual([glob.kind, glob.paths], ["list", ["."]]); // no path: the session directory
  assert.deepEqual(r.reads, {
    "pkg/core.py": [[11, 15], [31, 33]],
    "pkg/scaled.py": [[1, 3]],
    "pkg/util.py": [[1, 15]],
  });
  assert.equal(r.lines, 26);
  // util, core, scaled (viewed), pkg (searched), . (listed)
  assert.equal(r.files, 5);
  assert.equal(r.coverage, 1);
  assert.equal(r.meta.steps, 8);
  assert.ok(Math.abs(r.meta.cost! - 0.08) < 1e-9);
});

Deno.test("OpenCode export 1.2.5: 1-based offsets, N: output, edit then bash, no-number fallback", async () => {
  const r = await withWs("opencode_new.json");
  const ev = r.events;
  // offset 10, limit 5 → 10–14 (1-based)
  assert.deepEqual(ev[0].lines, { "pkg/core.py": [[10, 14]] });
  // offset 395, limit 220 → 395–400 (end of file)
  assert.deepEqual(ev[1].lines, { "pkg/big.py": [[395, 400]] });
  assert.deepEqual([ev[2].kind, ev[2].paths], ["write", ["pkg/util.py"]]);
  // grep after the edit finds the new text on line 11
  assert.deepEqual([ev[3].tool, ev[3].lines], ["bash", { "pkg/util.py": [[11, 11]] }]);
  // output without line numbers (plugin): the input window 20–22
  assert.deepEqual(ev[4].lines, { "pkg/core.py": [[20, 22]] });
  // bash with workdir pkg/
  assert.deepEqual(ev[5].lines, { "pkg/core.py": [[1, 2]] });
  // a directory read is a listing
  assert.deepEqual([ev[6].kind, ev[6].paths], ["list", ["pkg"]]);
  assert.equal(ev[7].kind, "run");
  assert.equal(r.lines, 10 + 6 + 1);
  assert.equal(r.files, 4); // core, big, util + the listed directory pkg
});

Deno.test("opencode run --format json (JSONL): session directory from the read title", async () => {
  const r = await withWs("opencode_run.jsonl");
  assert.equal(r.format, "opencode-jsonl");
  assert.deepEqual(r.events.map((e) => [e.step, e.tool, e.lines]), [
    [0, "read", { "pkg/util.py": [[2, 3]] }],
    [1, "bash", { "pkg/util.py": [[5, 6]] }],
  ]);
  assert.deepEqual(r.meta, { steps: 2, cost: 0.005, seconds: 0.6 });
});

Deno.test("SWE-agent .traj: view_range, open/scroll windows, search_file", async () => {
  const r = await withWs("swe_agent.traj");
  assert.equal(r.format, "swe-agent");
  assert.deepEqual(r.reads, {
    "pkg/big.py": [[100, 297]],
    "pkg/core.py": [[17, 25]],
    "pkg/util.py": [[1, 2], [9, 9]],
  });
  assert.deepEqual(r.events.map((e) => e.kind), [
    "read",
    "read",
    "read",
    "search",
    "list",
    "read",
    "run",
  ]);
  assert.equal(r.lines, 9 + 198 + 3);
  assert.equal(r.files, 4); // core, big, util + find_file's directory (the root, ".")
  assert.deepEqual(r.meta, { steps: 7, cost: 0.12, seconds: 1.75 });
});

Deno.test("parseLog with a FileSource equals readLog with --root", async () => {
  const text = await Deno.readTextFile(DIR + "mini_v1.traj.json");
  const a = await parseLog(text, { file: "mini_v1.traj.json", files: dirSource(WS) });
  const b = await withWs("mini_v1.traj.json");
  assert.deepEqual(a.reads, b.reads);
  assert.equal(a.coverage, b.coverage);
});

Deno.test("mini variants: Responses-API objects, the plain Observation template, bare message lists", async () => {
  const files = dirSource(WS);
  const fence = "`".repeat(3);
  // Responses-API models: the assistant message is the response object, observations are
  // function_call_output items (models/utils/actions_toolcall_response.py)
  const responses = {
    info: { model_stats: { instance_cost: 0.01, api_calls: 1 } },
    trajectory_format: "mini-swe-agent-1.1",
    messages: [
      { role: "system", content: "s" },
      {
        object: "response",
        output: [{
          type: "function_call",
          name: "bash",
          arguments: '{"command": "head -n 2 pkg/util.py"}',
          call_id: "fc_1",
        }],
        extra: { actions: [{ command: "head -n 2 pkg/util.py", tool_call_id: "fc_1" }] },
      },
      {
        type: "function_call_output",
        call_id: "fc_1",
        output:
          '<returncode>0</returncode>\n<output>\n"""Small helpers."""\nimport math\n</output>',
        extra: { returncode: 0 },
      },
    ],
  };
  const a = await parseLog(JSON.stringify(responses), { file: "resp.json", files });
  assert.deepEqual(a.reads, { "pkg/util.py": [[1, 2]] });
  // early v1: no trajectory_format, the default "Observation: …" template
  const early = {
    info: { exit_status: "Submitted", model_stats: { instance_cost: 0, api_calls: 1 } },
    messages: [
      { role: "assistant", content: `Look.\n\n${fence}bash\nsed -n '2,3p' pkg/core.py\n${fence}` },
      { role: "user", content: "Observation: from __future__ import annotations\n\n" },
    ],
  };
  const b = await parseLog(JSON.stringify(early), { file: "early.json", files, cwd: "/testbed" });
  assert.equal(b.format, "mini-swe-agent-1");
  assert.deepEqual(b.reads, { "pkg/core.py": [[2, 3]] });
  // a bare message list (the repo's tests/test_data files)
  const bare = early.messages;
  const c = await parseLog(JSON.stringify(bare), { file: "bare.json", files });
  assert.deepEqual(c.reads, { "pkg/core.py": [[2, 3]] });
  // a timeout notice instead of an observation: nothing read
  const timeout = {
    ...early,
    messages: [early.messages[0], {
      role: "user",
      content:
        "The last command <command>sed -n '2,3p' pkg/core.py</command> timed out and has been killed.",
    }],
  };
  const d = await parseLog(JSON.stringify(timeout), { file: "t.json", files });
  assert.deepEqual(d.reads, {});
});

Deno.test("OpenCode reads that showed no file text credit nothing", async () => {
  const part = (output: string) => ({
    type: "tool",
    tool: "read",
    state: {
      status: "completed",
      input: { filePath: "/home/user/proj/pkg/core.py", offset: 1, limit: 50 },
      output,
    },
  });
  const exp = {
    info: { id: "ses_img", directory: "/home/user/proj", version: "1.2.5" },
    messages: [{
      info: { role: "assistant" },
      parts: [
        part("Image read successfully"),
        part(
          "<path>/home/user/proj/pkg/core.py</path>\n<type>file</type>\n<content>\n\n(End of file - total 0 lines)\n</content>",
        ),
      ],
    }],
  };
  const r = await parseLog(JSON.stringify(exp), { file: "img.json", files: dirSource(WS) });
  assert.deepEqual(r.reads, {});
});

Deno.test("OpenCode: a parent and its sub-agent exported one after the other (concatenated JSON)", async () => {
  const exports = JSON.parse(await Deno.readTextFile(DIR + "opencode_old.json"));
  const text = exports.map((e: unknown) => JSON.stringify(e, null, 2)).join("\n");
  const r = await parseLog(text, { file: "two-exports.json", files: dirSource(WS) });
  assert.equal(r.format, "opencode-export");
  assert.deepEqual(r.reads["pkg/core.py"], [[11, 15], [31, 33]]);
  assert.equal(r.lines, 26);
});
