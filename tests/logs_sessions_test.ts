/**
 * Claude Code and Codex CLI readers against real public session logs (tests/fixtures/logs/
 * claude-code/, codex/; sources, licences and what each shows in SOURCES.md) and synthetic cases
 * no public log shows (marked so). Every expected line set was counted by hand from the
 * tool_result / function_call_output text of the fixture.
 */
import assert from "node:assert/strict";
import { detectFormat, parseLog, readLog } from "../lib/logs/mod.ts";
import type { Event, ReadsResult } from "../lib/logs/mod.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url).pathname;
const WS = `${DIR}workspace`;
const SPOTTER = `${DIR}claude-code/2.1.39-subagents/`;
const SPOTTER_MAIN = `${SPOTTER}8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl`;

const notes = (r: ReadsResult) => r.events.map((e) => e.note ?? "");
const jl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

Deno.test("Claude Code 1.0.108 (real): legacy → prefixes, inline sidechains, failed edit", async () => {
  const r = await readLog(`${DIR}claude-code/1.0.108-sidechain.jsonl`);
  assert.equal(r.format, "claude-code");
  // Read results: package.json `1→`…`29→` where 29 is the empty line after the final newline
  // (read twice, once by each sub-agent), CLAUDE.md 1–97 (last line not empty)
  assert.deepEqual(r.reads, { "CLAUDE.md": [[1, 97]], "todo-app/package.json": [[1, 28]] });
  assert.equal(r.lines, 125);
  // the sidechain Read (isSidechain: true) is credited at the parent's step, not a step of its own
  const reads = r.events.filter((e) => e.tool === "Read");
  assert.deepEqual(reads.map((e) => e.step), [2, 3, 6]);
  assert.equal(r.meta.steps, 10);
  // Edit refused ("File has not been read yet"): a write event that wrote nothing
  const edit = r.events.find((e) => e.tool === "Edit")!;
  assert.equal(edit.kind, "write");
  assert.deepEqual(edit.paths, []);
  // Glob on ~/.claude/commands: outside the workspace, nothing listed
  const glob = r.events.find((e) => e.tool === "Glob")!;
  assert.deepEqual(glob.paths, []);
  assert.match(glob.note ?? "", /outside the workspace/);
  assert.equal(r.coverage, 1);
});

Deno.test("Claude Code 2.1.39 (real): Grep modes, sub-agent file, progress copies never double", async () => {
  const r = await readLog(SPOTTER_MAIN);
  assert.equal(r.format, "claude-code");
  assert.deepEqual(r.reads, {
    // whole-file reads: the last numbered line is the empty one after the final newline
    "lib/spotter/services/session_registry.ex": [[1, 42]],
    "lib/spotter/services/tmux.ex": [[1, 164]],
    "lib/spotter/services/transcript_renderer.ex": [[1, 155]],
    "lib/spotter/transcripts/jsonl_parser.ex": [[1, 181]],
    // Grep content, -C 3 on one file: "319-… 322:… 325-…"
    "lib/spotter_web/live/session_live.ex": [[319, 325]],
    "test/support/data_case.ex": [[1, 37]],
  });
  const greps = r.events.filter((e) => e.tool === "Grep");
  // count (file), count (file), files_with_matches (root), count (dir), content (file)
  assert.deepEqual(greps.map((e) => e.paths), [
    ["test/fixtures/transcripts/subagent.jsonl"],
    ["test/fixtures/transcripts/subagent.jsonl"],
    ["."],
    ["test/fixtures/transcripts"],
    ["lib/spotter_web/live/session_live.ex"],
  ]);
  assert.deepEqual(greps.slice(0, 4).map((e) => e.lines), [{}, {}, {}, {}]);
  // the sub-agent's events come from subagents/agent-a7be2f0.jsonl at the Task call's step
  const task = r.events.find((e) => e.tool === "Task")!;
  const sub = r.events.filter((e) => e.command.includes("lib/spotter/services/tmux.ex"));
  assert.ok(sub.length && sub.every((e) => e.step === task.step));
  // Read of a directory (EISDIR) reads nothing; the Bash call that never ran ("Sibling tool call
  // errored") shows nothing
  assert.ok(notes(r).includes("tool call failed: nothing read (test/support)"));
  const find = r.events.find((e) =>
    e.command.startsWith("find ") && e.command.includes("test/support")
  )!;
  assert.match(find.note ?? "", /no observation/);
  // the session directory reads the same as the session file
  assert.deepEqual((await readLog(SPOTTER)).reads, r.reads);
});

Deno.test("Claude Code 2.1.39 (real): without the sub-agent file its progress copies are read", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(SPOTTER_MAIN, `${dir}/session.jsonl`);
  const r = await readLog(`${dir}/session.jsonl`);
  // the copies cover the sub-agent's whole run (the fixture's sub-agent file is cut at line 37):
  // test_helper.exs `1→ExUnit.start()` `2→` (1 line), hooks_controller_test.exs 1–208 (+ empty
  // 209), session_live.ex 1–50 (limit 50: line 50 is a line of the file)
  assert.deepEqual(r.reads["test/test_helper.exs"], [[1, 1]]);
  assert.deepEqual(r.reads["test/spotter_web/controllers/hooks_controller_test.exs"], [[1, 208]]);
  assert.deepEqual(r.reads["lib/spotter_web/live/session_live.ex"], [[1, 50], [319, 325]]);
  // and each Read of the run is counted once
  const tmux = r.events.filter((e) =>
    e.tool === "Read" && e.paths[0] === "lib/spotter/services/tmux.ex"
  );
  assert.equal(tmux.length, 1);
});

Deno.test("Claude Code 2.1.112 (real): N\\t prefixes, late tool_use line, unchanged stub, past EOF", async () => {
  const r = await readLog(`${DIR}claude-code/2.1.112-compact.jsonl`);
  // cwd of the first line is /Users/linhungfan: paths relative to it
  assert.deepEqual(r.reads, {
    // 355, 49, 11 and 15 numbered lines, the last one empty (the final newline)
    "personal_project/personal-agent/AGENT.md": [[1, 354]],
    "personal_project/personal-agent/FEEDBACK.md": [[1, 48]],
    "personal_project/personal-agent/long-term-memory/_index.md": [[1, 10]],
    "personal_project/personal-agent/short-term-memory/_index.md": [[1, 14]],
    "personal_project/weave/doc.md": [[1, 66]],
    // its tool_use line (31) comes after its result (29)
    "personal_project/weave/feedback.md": [[1, 43]],
    "personal_project/weave/indicator.md": [[1, 125]],
    // files re-attached after the compaction (attachment lines, numLines 219, 40, 7, 14)
    "personal_project/weave/.gitignore": [[1, 14]],
    "personal_project/weave/SUBMISSION.md": [[1, 40]],
    "personal_project/weave/app.py": [[1, 219]],
    "personal_project/weave/requirements.txt": [[1, 7]],
  });
  // the compact_file_reference before them names a file without showing it: no event
  assert.equal(r.events.filter((e) => e.tool === "attachment").length, 4);
  assert.ok(!notes(r).some((n) => n.includes("without its call")));
  const stub = r.events.find((e) =>
    e.tool === "Read" && e.paths[0] === "personal_project/weave/SUBMISSION.md"
  )!;
  assert.deepEqual(stub.lines, {});
  assert.match(stub.note ?? "", /unchanged since last read/);
  // the past-EOF Read is of /private/tmp/…: outside the workspace, never credited
  assert.ok(notes(r).some((n) => n.startsWith("outside the workspace, ignored: /private/tmp/")));
  // another workspace root: only what lies under it
  const w = await readLog(`${DIR}claude-code/2.1.112-compact.jsonl`, {
    cwd: "/Users/linhungfan/personal_project/weave",
  });
  assert.deepEqual(Object.keys(w.reads), [
    ".gitignore",
    "SUBMISSION.md",
    "app.py",
    "doc.md",
    "feedback.md",
    "indicator.md",
    "requirements.txt",
  ]);
});

Deno.test("Codex 0.114.0 (real): exec_command, nl|sed windows, rg -n, interleaved parallel calls", async () => {
  const r = await readLog(`${DIR}codex/0.114.0-exec.jsonl`);
  assert.equal(r.format, "codex");
  assert.deepEqual(r.reads["libs/agno/agno/knowledge/document/base.py"], [[1, 58]]);
  assert.deepEqual(r.reads["libs/agno/agno/knowledge/embedder/base.py"], [[1, 92]]);
  assert.deepEqual(r.reads["libs/agno/agno/knowledge/content.py"], [[1, 74]]);
  assert.deepEqual(r.reads["libs/agno/agno/media.py"], [[1, 340]]);
  // sed -n '1,280p' then '280,760p' (481 numbered lines)
  assert.deepEqual(r.reads["libs/agno/agno/knowledge/knowledge.py"], [[1, 760]]);
  // the first rg -n printed 181 matches in 43 files; its output came after another call's
  const first = r.events[0];
  assert.equal(first.kind, "search");
  assert.equal(Object.keys(first.lines).length, 43);
  assert.equal(
    Object.values(first.lines).flat().reduce((n, [a, b]) => n + b - a + 1, 0),
    181,
  );
  assert.deepEqual(first.lines["libs/agno/agno/knowledge/knowledge.py"], [
    [33, 33],
    [41, 41],
    [72, 72],
    [88, 88],
    [90, 90],
    [158, 158],
    [174, 174],
    [176, 176],
  ]);
  // rg --files over four directories, two missing ("No such file or directory", exit 2): a
  // listing of the two that exist
  const files = r.events.find((e) => e.command.startsWith("rg --files"))!;
  assert.deepEqual([files.kind, files.paths], [
    "list",
    ["libs/agno/agno/knowledge", "libs/agno/agno/vectordb"],
  ]);
  assert.equal(r.coverage, 1);
  const rg = r.events.find((e) => e.command.startsWith('rg -n "class Image'))!;
  assert.deepEqual(rg.lines["libs/agno/agno/media.py"], [[10, 10], [115, 115], [231, 231]]);
  assert.equal(r.meta.steps, 3);
});

Deno.test("Codex 0.128.0 (real): reads outside the workspace are never credited", async () => {
  const r = await readLog(`${DIR}codex/0.128.0-outside.jsonl`);
  assert.deepEqual(r.reads, {});
  // the only workspace operand: \`rg --files -g … \` over the root (a listing, no lines)
  assert.equal(r.files, 1);
  assert.ok(notes(r).some((n) => n.includes("/home/shooman/.agents/skills/apply-grant/SKILL.md")));
  // the session ends after a call whose output never came
  assert.match(r.events[r.events.length - 1].note ?? "", /no tool output/);
});

Deno.test("Codex pre-envelope rollout (synthetic): shell argv, JSON output, failures", async () => {
  const r = await readLog(`${DIR}codex/pre-envelope.synthetic.jsonl`, { root: WS });
  assert.equal(r.format, "codex");
  // cwd /repo from <environment_context>; sed -n '3,6p' pkg/core.py
  assert.deepEqual(r.reads, { "pkg/core.py": [[3, 6]] });
  assert.deepEqual(r.events.map((e) => [e.kind, e.note ?? ""]), [
    ["read", ""],
    ["read", "command failed: nothing read"],
    ["read", "outside the workspace, ignored: /etc/hostname"],
  ]);
});

Deno.test("Codex sub-agent rollouts (synthetic): a directory, or the parent with siblings", async () => {
  const dir = `${DIR}codex/subagents.synthetic`;
  const parent = `${dir}/rollout-2026-05-01T10-00-00-0199aaaa-0000-7000-8000-00000000000a.jsonl`;
  for (const path of [dir, parent]) {
    const r = await readLog(path, { root: WS });
    // parent: nl -ba pkg/core.py | sed -n '1,5p'; child (turn cwd /repo/pkg): sed -n '2,4p' util.py
    assert.deepEqual(r.reads, { "pkg/core.py": [[1, 5]], "pkg/util.py": [[2, 4]] });
    // the child is read at the step of the spawn_agent call that names it
    const spawn = r.events.find((e) => e.tool === "spawn_agent")!;
    assert.equal(r.events.find((e) => e.paths[0] === "pkg/util.py")!.step, spawn.step);
  }
});

Deno.test("detection: Claude Code and Codex logs by content, one line is enough", () => {
  const claude = jl([{ type: "user", sessionId: "s", cwd: "/r", message: { content: "hi" } }]);
  assert.equal(detectFormat(claude, "a.jsonl"), "claude-code");
  assert.equal(detectFormat(claude.trim(), "a.jsonl"), "claude-code");
  const codex = jl([{ timestamp: "t", type: "session_meta", payload: { id: "x", cwd: "/r" } }]);
  assert.equal(detectFormat(codex, "b.jsonl"), "codex");
  assert.equal(detectFormat(jl([{ id: "x", timestamp: "t", instructions: null }]), "c"), "codex");
  // opencode JSONL is not mistaken for either
  const oc = jl([{ type: "step_start", sessionID: "ses_1", part: {} }, {
    type: "text",
    sessionID: "ses_1",
    part: {},
  }]);
  assert.equal(detectFormat(oc, "d.jsonl"), "opencode-jsonl");
});

// ---- synthetic Claude cases (formats from the changelog; not in any copied real file) ----

const line = (type: string, extra: Record<string, unknown>) => ({
  type,
  sessionId: "s1",
  cwd: "/repo",
  version: "2.1.150",
  uuid: crypto.randomUUID(),
  ...extra,
});
const use = (msgId: string, id: string, name: string, input: unknown) =>
  line("assistant", {
    message: { id: msgId, role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  });
const result = (id: string, content: unknown, isError = false) =>
  line("user", {
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }],
    },
  });
const CORE = Deno.readTextFileSync(`${WS}/pkg/core.py`).split("\n");
const BIG = Deno.readTextFileSync(`${WS}/pkg/big.py`).split("\n");
const numbered = (lines: string[], start: number, compact: boolean) =>
  lines.map((t, i) => compact ? `${start + i}\t${t}` : `${String(start + i).padStart(6)}\u2192${t}`)
    .join("\n");

Deno.test("Claude Code (synthetic): persisted preview, PARTIAL view, offset/limit, writes", async () => {
  const log = jl([
    // offset 10, limit 5, compact prefix
    use("m1", "t1", "Read", { file_path: "/repo/pkg/core.py", offset: 10, limit: 5 }),
    result("t1", numbered(CORE.slice(9, 14), 10, true)),
    // a whole-file read cut to a first page with a PARTIAL view notice (2.1.145+)
    use("m2", "t2", "Read", { file_path: "/repo/pkg/big.py" }),
    result(
      "t2",
      numbered(BIG.slice(0, 120), 1, true) +
        "\n\n<system-reminder>PARTIAL view: lines 1-120 of 400. Use offset to read more.</system-reminder>",
    ),
    // a persisted Bash output: only the 2 KB preview was shown (its last line partly)
    use("m3", "t3", "Bash", { command: "cat pkg/big.py" }),
    result(
      "t3",
      "<persisted-output>\nOutput too large (24KB). Full output saved to: /home/u/.claude/projects/p/s1/tool-results/t3.txt\n\nPreview (first 2KB):\n" +
        BIG.join("\n").slice(0, 2048) + "\n...\n</persisted-output>",
    ),
    // Write then Read of the written file: the write is not a read; the read sees the new text
    use("m4", "t4", "Write", { file_path: "/repo/pkg/new.py", content: "a = 1\nb = 2\n" }),
    result("t4", "File created successfully at: /repo/pkg/new.py"),
    use("m5", "t5", "Read", { file_path: "/repo/pkg/new.py" }),
    result("t5", numbered(["a = 1", "b = 2", ""], 1, false)),
    // Grep content with -n over the directory
    use("m6", "t6", "Grep", {
      pattern: "def ",
      path: "/repo/pkg",
      output_mode: "content",
      "-n": true,
    }),
    result(
      "t6",
      "pkg/util.py:9:def helper(x):\n/repo/pkg/core.py:21:    def add(self, value: float) -> None:",
    ),
    // Read outside the workspace
    use("m7", "t7", "Read", { file_path: "/etc/passwd" }),
    result("t7", numbered(["root:x:0:0"], 1, true)),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files: (p) => tryRead(`${WS}/${p}`) });

  assert.deepEqual(r.reads, {
    "pkg/big.py": [[1, 120]],
    "pkg/core.py": [[10, 14], [21, 21]],
    "pkg/new.py": [[1, 2]],
    "pkg/util.py": [[9, 9]],
  });
  const bash = r.events.find((e) => e.tool === "Bash")!;
  // big.py: 400 lines of 60 characters (newline included); 2048 = 34 × 60 + 8: lines 1–35
  assert.deepEqual(bash.lines, { "pkg/big.py": [[1, 35]] });
  const write = r.events.find((e) => e.tool === "Write")!;
  assert.deepEqual([write.kind, write.paths, write.lines], ["write", ["pkg/new.py"], {}]);
  assert.match(r.events.at(-1)!.note ?? "", /outside the workspace/);
});

function tryRead(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

Deno.test("Claude Code (synthetic): 1.0.x Bash middle cut shows head and tail only", async () => {
  const text = BIG.join("\n");
  const head = text.slice(0, 10000), tail = text.slice(-10000);
  const shown = `${head}\n\n... [${text.length - 20000} characters truncated] ...\n\n${tail}`;
  const log = jl([
    use("m1", "t1", "Bash", { command: "cat /repo/pkg/big.py" }),
    result("t1", shown),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files: (p) => tryRead(`${WS}/${p}`) });
  // 400 lines × 60 chars (newline included) = 24,000: the first 10,000 chars are lines 1–167
  // (167 partly: 166 × 60 = 9,960); the last 10,000 start at char 14,000, inside line 234
  assert.deepEqual(r.reads, { "pkg/big.py": [[1, 167], [234, 400]] });
  const small = `${text.slice(0, 600)}\n\n... [${text.length - 1200} characters truncated] ...\n\n${
    text.slice(-600)
  }`;
  const r2 = await parseLog(
    jl([use("m1", "t1", "Bash", { command: "cat pkg/big.py" }), result("t1", small)]),
    {
      file: "s.jsonl",
      files: (p) => tryRead(`${WS}/${p}`),
    },
  );
  // 600 chars = lines 1–10 exactly; the last 600 start at line 391
  assert.deepEqual(r2.reads, { "pkg/big.py": [[1, 10], [391, 400]] });
});

Deno.test("Claude Code (synthetic): stream-json output (claude -p) with cost", async () => {
  const log = jl([
    { type: "system", subtype: "init", cwd: "/repo", session_id: "s", tools: [] },
    {
      type: "assistant",
      session_id: "s",
      parent_tool_use_id: null,
      message: {
        id: "m1",
        content: [{
          type: "tool_use",
          id: "t1",
          name: "Read",
          input: { file_path: "/repo/pkg/util.py", limit: 3 },
        }],
      },
    },
    {
      type: "user",
      session_id: "s",
      parent_tool_use_id: null,
      message: {
        content: [{
          type: "tool_result",
          tool_use_id: "t1",
          content: "     1\u2192a\n     2\u2192b\n     3\u2192c",
        }],
      },
    },
    {
      type: "result",
      subtype: "success",
      total_cost_usd: 0.25,
      duration_ms: 4000,
      session_id: "s",
    },
  ]);
  const r = await parseLog(log, { file: "out.jsonl" });
  assert.equal(r.format, "claude-code");
  assert.deepEqual(r.reads, { "pkg/util.py": [[1, 3]] });
  assert.equal(r.meta.cost, 0.25);
  assert.equal(r.meta.seconds, 4);
});

Deno.test("Claude Code (synthetic bad input): listed, never a crash", async () => {
  const huge = numbered(Array.from({ length: 200000 }, (_, i) => `x${i}`), 1, true);
  const log = [
    JSON.stringify(use("m1", "t1", "Read", { file_path: "/repo/pkg/huge.py" })),
    JSON.stringify(result("t1", huge)),
    JSON.stringify(result("t9", "orphan")), // a result without its call
    JSON.stringify(line("brand-new-record", {})), // unknown record type
    JSON.stringify(use("m2", "t2", "FancyTool", {})), // unknown tool
    JSON.stringify(result("t2", "ok")),
    JSON.stringify(use("m3", "t3", "Read", { file_path: "../../etc/shadow" })),
    JSON.stringify(result("t3", "1\troot")),
    JSON.stringify(use("m4", "t4", "Read", { file_path: "/repo/pkg/util.py" })),
    '{"type":"user","message":{"content":[{"type":"tool_res', // the session was killed mid-line
  ].join("\n");
  const r = await parseLog(log, { file: "runs/x/log.jsonl" });
  assert.deepEqual(r.reads, { "pkg/huge.py": [[1, 200000]] });
  const n = notes(r);
  assert.ok(n.some((x) => x === "runs/x/log.jsonl:3: tool result without its call (t9)"));
  assert.ok(n.some((x) => x === "runs/x/log.jsonl:4: unknown record type: brand-new-record"));
  assert.ok(n.includes("unknown tool: FancyTool"));
  assert.ok(n.some((x) => x.startsWith("outside the workspace, ignored: ../../etc/shadow")));
  assert.ok(n.some((x) => x.startsWith("runs/x/log.jsonl:10: invalid JSON")));
  // the Read whose result was cut off shows nothing
  assert.ok(n.includes("no tool result in the log: nothing shown"));
  // 4 uninterpreted actions of 9
  assert.equal(r.events.filter((e: Event) => e.kind === "other").length, 4);
});

Deno.test("Codex (synthetic): token cut, read_file, apply_patch, bad input", async () => {
  const env = (type: string, payload: unknown) => ({
    timestamp: "2026-05-01T10:00:00Z",
    type,
    payload,
  });
  const call = (id: string, name: string, args: unknown) =>
    env("response_item", {
      type: "function_call",
      name,
      arguments: JSON.stringify(args),
      call_id: id,
    });
  const out = (id: string, output: string) =>
    env("response_item", { type: "function_call_output", call_id: id, output });
  const big = BIG.join("\n");
  const log = jl([
    env("session_meta", { id: "s", cwd: "/repo", cli_version: "0.150.0" }),
    env("turn_context", { cwd: "/repo" }),
    // cut in the middle by the token budget: head and tail shown
    call("c1", "shell_command", { command: "cat pkg/big.py" }),
    out(
      "c1",
      `Exit code: 0\nWall time: 0.1 seconds\nTotal output lines: 400\nOutput:\n${
        big.slice(0, 605)
      }\u20265000 tokens truncated\u2026${big.slice(-611)}`,
    ),
    // the experimental read_file tool
    call("c2", "read_file", { file_path: "/repo/pkg/core.py", offset: 5, limit: 3 }),
    out("c2", `L5: ${CORE[4]}\nL6: ${CORE[5]}\nL7: ${CORE[6]}`),
    // apply_patch (freeform custom tool) then a read of the new file
    env("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      call_id: "c3",
      input: "*** Begin Patch\n*** Add File: pkg/added.py\n+x = 1\n+y = 2\n*** End Patch",
    }),
    env("response_item", {
      type: "custom_tool_call_output",
      call_id: "c3",
      output:
        "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA pkg/added.py\n",
    }),
    call("c4", "exec_command", { cmd: "cat pkg/added.py", workdir: "/repo" }),
    out(
      "c4",
      "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 4\nOutput:\nx = 1\ny = 2\n",
    ),
    // bad input: an output without its call, an unknown record type, an unknown tool
    out("c9", "orphan"),
    env("brand_new", { x: 1 }),
    call("c5", "mystery_tool", {}),
    out("c5", "?"),
  ]) + '{"timestamp":"t","type":"response_item","payload":{"type":"function_ca';
  const r = await parseLog(log, { file: "rollout.jsonl", files: (p) => tryRead(`${WS}/${p}`) });
  // 60-char lines: 605 chars = lines 1–10 and 5 chars of line 11; the last 611 chars start 11
  // chars before the end of line 390
  assert.deepEqual(r.reads, {
    "pkg/added.py": [[1, 2]],
    "pkg/big.py": [[1, 11], [390, 400]],
    "pkg/core.py": [[5, 7]],
  });
  const patch = r.events.find((e) => e.tool === "apply_patch")!;
  assert.deepEqual([patch.kind, patch.paths], ["write", ["pkg/added.py"]]);
  const n = notes(r);
  assert.ok(n.includes("rollout.jsonl:11: tool output without its call (c9)"));
  assert.ok(n.includes("rollout.jsonl:12: unknown record type: brand_new"));
  assert.ok(n.includes("unknown tool: mystery_tool"));
  assert.ok(n.some((x) => x.startsWith("rollout.jsonl:15: invalid JSON")));
});

Deno.test("reads CLI and readLog: a session directory with several sessions is a clear error", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(SPOTTER_MAIN, `${dir}/a.jsonl`);
  await Deno.copyFile(`${DIR}claude-code/1.0.108-sidechain.jsonl`, `${dir}/b.jsonl`);
  await assert.rejects(() => readLog(dir), (e: Error) => {
    assert.match(
      e.message,
      new RegExp(`^${dir}: several sessions in this directory \\(a.jsonl, b.jsonl\\)`),
    );
    return true;
  });
});

Deno.test("score: a Claude Code log with its subagents/ directory in the run-log layout", async () => {
  const { copyCorpus, tempDir } = await import("./score_helpers.ts");
  const { scoreRows } = await import("../lib/frames/mod.ts");
  const corpus = await copyCorpus();
  const turn = `${corpus}/runs/k1/c1/turn1`;
  await Deno.remove(`${turn}/log.traj.json`);
  // the configuration holds mini logs beside this Claude Code log: it names no known harness
  // (a named harness would refuse the other's logs)
  await Deno.writeTextFile(
    `${corpus}/runs/k1/config.json`,
    `{ "harness": "mixed demo", "model": "Model A", "memory": "interface", "cwd": "/testbed" }`,
  );
  const stats = Deno.readTextFileSync(`${corpus}/repos/minipkg/minipkg/stats.py`).split("\n");
  // main session (cwd /testbed, the config's): Read stats.py lines 1–12 and a Task sub-agent
  await Deno.writeTextFile(
    `${turn}/log.jsonl`,
    jl([
      {
        ...use("m1", "t1", "Read", { file_path: "/testbed/minipkg/stats.py", limit: 12 }),
        cwd: "/testbed",
      },
      { ...result("t1", numbered(stats.slice(0, 12), 1, true)), cwd: "/testbed" },
      { ...use("m2", "t2", "Task", { description: "find summary", prompt: "…" }), cwd: "/testbed" },
      {
        ...result("t2", [{ type: "text", text: "summary is at line 21\nagentId: a1" }]),
        cwd: "/testbed",
        toolUseResult: { status: "completed", agentId: "a1" },
      },
    ]),
  );
  // the sub-agent's transcript: grep -n shows the def line (21), not summary's body
  await Deno.mkdir(`${turn}/subagents`);
  await Deno.writeTextFile(
    `${turn}/subagents/agent-a1.jsonl`,
    jl([
      {
        ...use("s1", "u1", "Bash", { command: 'grep -n "def summary" minipkg/stats.py' }),
        cwd: "/testbed",
        isSidechain: true,
        agentId: "a1",
      },
      {
        ...result("u1", "21:def summary(values):"),
        cwd: "/testbed",
        isSidechain: true,
        agentId: "a1",
      },
    ]),
  );
  const cacheDir = await tempDir();
  const rows = await scoreRows(corpus, { workers: 0, cacheDir });
  assert.deepEqual(rows.errors, []);
  const t = rows.turns.find((x) => x.chain === "c1" && x.turn === 1)!;
  // as the mini-SWE-agent log of the fixture: lines 1–12 and 21 of stats.py, mean's body read
  assert.equal(t.lines, 13);
  assert.equal(t.recall_repo, 0.5);
  // without the sub-agent file, line 21 is not seen (and the cache does not hide the change)
  await Deno.remove(`${turn}/subagents`, { recursive: true });
  const again = await scoreRows(corpus, { workers: 0, cacheDir });
  assert.equal(again.turns.find((x) => x.chain === "c1" && x.turn === 1)!.lines, 12);
});

Deno.test("--format: read as a session format, or a clear error naming the file", async () => {
  const f = `${DIR}claude-code/1.0.108-sidechain.jsonl`;
  assert.equal((await readLog(f, { format: "claude-code" })).lines, 125);
  await assert.rejects(() => readLog(f, { format: "swe-agent" }), (e: Error) => {
    assert.equal(e.message, `${f}: not a swe-agent log (it reads as claude-code)`);
    return true;
  });
  // a Codex rollout read as Claude Code: nothing credited, every line listed as uninterpreted
  const r = await readLog(`${DIR}codex/0.114.0-exec.jsonl`, { format: "claude-code" });
  assert.deepEqual(r.reads, {});
  assert.ok(r.coverage < 0.01);
});

Deno.test("Claude Code 2.0.x (synthetic layout): flat agent-<id>.jsonl files of this session", async () => {
  const dir = await Deno.makeTempDir();
  const sid = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7";
  const at = (extra: Record<string, unknown>) => ({ ...extra, sessionId: sid, cwd: "/repo" });
  await Deno.writeTextFile(
    `${dir}/${sid}.jsonl`,
    jl([at(use("m1", "t1", "Task", { prompt: "look" })), at(result("t1", "done"))]),
  );
  await Deno.writeTextFile(
    `${dir}/agent-a1.jsonl`,
    jl([
      at({
        ...use("s1", "u1", "Read", { file_path: "/repo/pkg/util.py", limit: 2 }),
        isSidechain: true,
      }),
      at({ ...result("u1", "1\ta\n2\tb"), isSidechain: true }),
    ]),
  );
  // another session's sub-agent in the same project folder
  await Deno.writeTextFile(
    `${dir}/agent-b2.jsonl`,
    jl([{ ...use("s2", "u2", "Read", { file_path: "/repo/pkg/core.py" }), sessionId: "other" }]),
  );
  const r = await readLog(`${dir}/${sid}.jsonl`);
  assert.deepEqual(r.reads, { "pkg/util.py": [[1, 2]] });
});

Deno.test("Claude Code (synthetic): Grep content without -n placed through the workspace", async () => {
  const log = jl([
    use("m1", "t1", "Grep", { pattern: "def helper", path: "/repo/pkg", output_mode: "content" }),
    result(
      "t1",
      "pkg/util.py:def helper(x):\n\n[Showing results with pagination = limit: 100, offset: 0]",
    ),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files: (p) => tryRead(`${WS}/${p}`) });
  // pkg/util.py line 9 is the only line equal to "def helper(x):"
  assert.deepEqual(r.reads, { "pkg/util.py": [[9, 9]] });
  assert.equal(r.events[0].placed, true);
  // without the workspace the line cannot be placed, and says so
  const n = await parseLog(log, { file: "s.jsonl" });
  assert.deepEqual([n.reads, n.events[0].placed], [{}, false]);
});

Deno.test("Claude Code (synthetic): a Grep with no match searched its operand and showed nothing", async () => {
  const log = jl([
    use("m1", "t1", "Grep", { pattern: "zzz", path: "/repo/pkg/util.py", output_mode: "content" }),
    result("t1", "No matches found"),
  ]);
  const r = await parseLog(log, { file: "s.jsonl" });
  assert.deepEqual([r.events[0].paths, r.events[0].lines, r.events[0].placed], [
    ["pkg/util.py"],
    {},
    true,
  ]);
});
