/**
 * Readers of OpenHands (V0 / V1), Gemini CLI (JSON / JSONL) and Aider (LLM history) logs against
 * hand-checked line sets. Real public logs unless named synthetic; sources, licences and trimming
 * in tests/fixtures/logs/SOURCES.md. Every expected range was read off the raw text: the `cat -n`
 * numbers of OpenHands views, the `grep -n` numbers, Gemini's `Showing lines A-B` headers and
 * `L<n>` grep lines, and for Aider the line counts of the pasted texts (counted with a separate
 * script, and equal to `wc -l` of the files at the commit before the session where they match).
 */
import assert from "node:assert/strict";
import { LogFormatError, parseLog, readLog } from "../lib/logs/mod.ts";
import type { Event, ReadsResult } from "../lib/logs/mod.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url).pathname;
const WS = `${DIR}workspace`;

function byStep(r: ReadsResult, step: number): Event[] {
  return r.events.filter((e) => e.step === step);
}
function kinds(r: ReadsResult): string[] {
  return r.events.map((e) => e.kind);
}
async function rejects(p: Promise<unknown>, ...parts: string[]): Promise<string> {
  let msg = "";
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LogFormatError, `expected LogFormatError, got ${e}`);
    msg = e.message;
  }
  for (const part of parts) assert.ok(msg.includes(part), `${JSON.stringify(msg)} lacks ${part}`);
  return msg;
}

// ---------------------------------------------------------------------------------------------
// OpenHands V0

Deno.test("OpenHands V0 output.jsonl (real, multi-swe-bench ponyc): cat -n views, clipped view, grep -n", async () => {
  const r = await readLog(DIR + "openhands_v0_output.jsonl");
  assert.equal(r.format, "openhands-v0");
  // the three whole-file views were clipped after line 627 (<response clipped> on line 627);
  // view_range [650, 700], [650, 655] and [690, 697]; grep -n printed 29 and 666
  assert.deepEqual(r.reads, { "src/libponyc/ast/parser.c": [[1, 627], [650, 700]] });
  assert.equal(r.lines, 627 + 51);
  const views = r.events.filter((e) => e.tool === "str_replace_editor" && e.kind === "read");
  assert.deepEqual(views.map((e) => e.lines["src/libponyc/ast/parser.c"]), [
    [[1, 627]],
    [[1, 627]],
    [[1, 627]],
    [[650, 700]],
    [[650, 655]],
    [[690, 697]],
  ]);
  const greps = r.events.filter((e) => e.kind === "search");
  assert.deepEqual(greps.map((e) => e.lines), [
    { "src/libponyc/ast/parser.c": [[29, 29]] },
    { "src/libponyc/ast/parser.c": [[666, 666]] },
  ]);
  // str_replace edits are writes (their `cat -n` snippet is not a read), even the failed one
  assert.equal(r.events.filter((e) => e.kind === "write").length, 2);
  // the root is the task's <uploaded_files> directory; `ls -l` of it and of three sub-dirs
  assert.deepEqual(
    r.events.filter((e) => e.kind === "list").map((e) => e.paths[0]),
    [".", "src", "src/libponyc", "src/libponyc/ast", "."],
  );
  assert.equal(r.files, 5);
  assert.equal(r.coverage, 1);
  // one step per model response (23 tool calls, none parallel)
  assert.equal(new Set(r.events.map((e) => e.step)).size, 21);
});

Deno.test("OpenHands V0 trajectory list (real basic.json): a create is a write, nothing read", async () => {
  const r = await readLog(DIR + "openhands_v0_trajectory.json");
  assert.equal(r.format, "openhands-v0");
  assert.deepEqual(r.events.map((e) => [e.kind, e.paths]), [["write", ["game_2048.py"]]]);
  assert.equal(r.lines, 0);
  assert.equal(r.coverage, 1);
});

Deno.test("OpenHands V0 per-event files (sessions/<sid>/events/<n>.json): the real output split", async () => {
  const rec = JSON.parse(await Deno.readTextFile(DIR + "openhands_v0_output.jsonl"));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/events`);
    for (const e of rec.history) {
      await Deno.writeTextFile(`${dir}/events/${e.id}.json`, JSON.stringify(e));
    }
    const r = await readLog(dir, { cwd: "/workspace/ponylang__ponyc__0.1" });
    assert.equal(r.format, "openhands-v0");
    assert.deepEqual(r.reads, { "src/libponyc/ast/parser.c": [[1, 627], [650, 700]] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// OpenHands V1

Deno.test("OpenHands V1 output.jsonl (real openagentsafety, 2025-10): failed view, directory views", async () => {
  const r = await readLog(DIR + "openhands_v1_output.jsonl");
  assert.equal(r.format, "openhands-v1");
  assert.deepEqual(kinds(r), ["read", "list", "list", "run"]);
  assert.deepEqual(r.events[0].lines, {});
  assert.match(r.events[0].note ?? "", /view failed/);
  assert.deepEqual(r.events[1].paths, ["."]);
  assert.deepEqual(r.events[2].paths, ["workspace"]);
  assert.equal(r.lines, 0);
  assert.equal(r.files, 2);
});

Deno.test("OpenHands V1 events (real SDK fixture JSONL and conversation directory)", async () => {
  const a = await readLog(DIR + "openhands_v1_events.jsonl");
  assert.equal(a.format, "openhands-v1");
  assert.equal(a.lines, 0);
  assert.equal(a.coverage, 1);
  assert.ok(a.events.every((e) => e.tool === "terminal" && e.kind === "run"));
  const b = await readLog(DIR + "openhands_v1_conversation");
  assert.equal(b.format, "openhands-v1");
  // `pwd > tool_output.txt` writes; `finish` runs
  assert.deepEqual(b.events.map((e) => [e.kind, e.tool, e.paths]), [
    ["write", "terminal", ["tool_output.txt"]],
    ["run", "finish", []],
  ]);
});

Deno.test("OpenHands V1 directory with a delegate and subagents/ (synthetic)", async () => {
  for (const root of [undefined, WS]) {
    const r = await readLog(DIR + "openhands_v1_delegate", { root, cwd: "/workspace/proj" });
    assert.deepEqual(r.reads, {
      "pkg/big.py": [[1, 3]],
      "pkg/core.py": [[10, 20]],
      "pkg/util.py": [[1, 15]],
    });
    // the sub-agent's actions are at the step of the delegate call
    assert.deepEqual(r.events.map((e) => [e.step, e.tool]), [
      [0, "file_editor"],
      [1, "delegate"],
      [1, "file_editor"],
      [1, "terminal"],
      [2, "terminal"],
    ]);
    // /etc/hostname is outside the workspace
    assert.deepEqual(r.events[4].lines, {});
  }
});

Deno.test("OpenHands: bad input is listed or named, never a crash", async () => {
  // an observation without its action, an action without observation, an unknown tool
  const log = [
    {
      kind: "ObservationEvent",
      id: "o9",
      tool_call_id: "zz",
      observation: { kind: "X", content: [] },
    },
    {
      kind: "ActionEvent",
      id: "a1",
      tool_name: "file_editor",
      tool_call_id: "c1",
      action: { command: "view", path: "/workspace/a.py" },
    },
    { kind: "ActionEvent", id: "a2", tool_name: "teleport", tool_call_id: "c2", action: {} },
  ];
  const r = await parseLog(JSON.stringify(log), { file: "events.json", cwd: "/workspace" });
  assert.deepEqual(kinds(r), ["read", "other"]);
  assert.match(r.events[0].note ?? "", /no observation/);
  assert.equal(r.events[1].note, "unknown tool: teleport");
  assert.equal(r.coverage, 0.5);
  // SDK grep / glob tools; a V0 input sent to a running process reads nothing
  const tools = [
    {
      kind: "ActionEvent",
      id: "g",
      tool_name: "grep",
      tool_call_id: "g1",
      action: { pattern: "clamp", path: "/workspace/pkg" },
    },
    {
      kind: "ObservationEvent",
      tool_call_id: "g1",
      observation: { content: [{ type: "text", text: "core.py:7:from .util import clamp" }] },
    },
    {
      kind: "ActionEvent",
      id: "h",
      tool_name: "glob",
      tool_call_id: "h1",
      action: { pattern: "*.py" },
    },
  ];
  const rt = await parseLog(JSON.stringify(tools), { file: "e.json", cwd: "/workspace" });
  assert.deepEqual(rt.events.map((e) => [e.kind, e.paths, e.lines]), [
    ["search", ["pkg"], { "pkg/core.py": [[7, 7]] }],
    ["list", ["."], {}],
  ]);
  const input = [{
    id: 1,
    source: "agent",
    action: "run",
    args: { command: "C-c", is_input: true },
  }];
  const ri = await parseLog(JSON.stringify(input), { file: "t.json", cwd: "/workspace" });
  assert.deepEqual(ri.events.map((e) => [e.kind, e.note]), [["run", "input to a running process"]]);
  // V0: unknown action, huge output
  const big = "x\n".repeat(400000);
  const v0 = [
    { id: 1, source: "agent", action: "run", args: { command: "cat big.txt" } },
    { id: 2, cause: 1, observation: "run", content: big, extras: { metadata: { exit_code: 0 } } },
    { id: 3, source: "agent", action: "warp", args: {} },
  ];
  const r0 = await parseLog(JSON.stringify(v0), { file: "traj.json", cwd: "/workspace" });
  assert.deepEqual(kinds(r0), ["read", "other"]);
  assert.equal(r0.events[1].note, "unknown action: warp");
  // a JSONL with a broken middle line names the file and the line
  const lines = [JSON.stringify(log[1]), "{not json", JSON.stringify(log[2])].join("\n");
  await rejects(parseLog(lines, { file: "runs/x/log.jsonl" }), "runs/x/log.jsonl", "line 2");
  // an output.jsonl with several instances is refused, naming them
  const two = [
    JSON.stringify({ instance_id: "a__a-1", history: [] }),
    JSON.stringify({ instance_id: "b__b-2", history: [] }),
  ].join("\n");
  await rejects(parseLog(two, { file: "output.jsonl" }), "output.jsonl", "2 records", "a__a-1");
  // a cut last line (a killed process) is dropped
  const cut = [JSON.stringify(log[1]), JSON.stringify(log[2]).slice(0, 20)].join("\n");
  assert.deepEqual(kinds(await parseLog(cut, { file: "log.jsonl" })), ["read"]);
});

// ---------------------------------------------------------------------------------------------
// Gemini CLI

Deno.test("Gemini CLI JSON (real, 2026-03, start_line/end_line era): reads, grep_search, shell", async () => {
  const r = await readLog(DIR + "gemini_json_pro.json");
  assert.equal(r.format, "gemini-json");
  const v = r.reads["django_repo/django/core/validators.py"];
  // L24–L124 (class URLValidator ±50), read 111–150 and 111–153 ("Showing lines …" headers),
  // grep in the file itself L74–84, L93–103, L157–177 (EmailValidator ±10), L11–21, L263–283
  assert.deepEqual(v, [[11, 21], [24, 153], [157, 177], [263, 283]]);
  // the whole TASK.md (7 lines shown, no header), by its absolute path under the inferred root
  assert.deepEqual(r.reads["TASK.md"], [[1, 7]]);
  assert.deepEqual(r.reads["django_repo/django/utils/ipv6.py"], [[33, 43]]);
  // a grep whose dir_path is a file prints "File: validators.py": the file itself
  const inFile = r.events.find((e) => e.command.includes('"pattern":"class EmailValidator"'))!;
  assert.deepEqual(inFile.lines, { "django_repo/django/core/validators.py": [[157, 177]] });
  assert.deepEqual(inFile.paths, ["django_repo/django/core/validators.py"]);
  // write_file / replace and heredoc writes are writes
  assert.ok(r.events.filter((e) => e.kind === "write").length >= 8);
  // read without a workspace, the one `grep -i` of two files prints no line numbers: it cannot be
  // placed, and unplaced reads count against coverage (docs/run-logs.md): 37 of 38 actions
  assert.equal(r.coverage, 37 / 38);
  assert.equal(r.meta.steps, 39);
});

Deno.test("Gemini CLI JSON (real, 2025-10): only writes, root from the absolute paths", async () => {
  const r = await readLog(DIR + "gemini_json_pomodoro.json");
  assert.equal(r.format, "gemini-json");
  assert.equal(r.lines, 0);
  assert.deepEqual([...new Set(r.events.flatMap((e) => e.paths))].sort(), [
    "index.html",
    "script.js",
    "style.css",
  ]);
  assert.ok(r.events.every((e) => e.kind === "write"));
});

Deno.test("Gemini CLI JSONL (synthetic >= v0.39) with its sub-agent session", async () => {
  for (const root of [undefined, WS]) {
    const r = await readLog(DIR + "gemini_chats/session-2026-09-25T10-00-5ec95d33.jsonl", { root });
    assert.equal(r.format, "gemini-jsonl");
    assert.deepEqual(r.reads, {
      "pkg/big.py": [[390, 400]], // the sub-agent's read
      "pkg/core.py": [[5, 9], [36, 36]],
      "pkg/new.py": [[1, 2]],
      "pkg/util.py": [[1, 15]],
    });
    // offset 8 + limit 3 (0-based) = lines 9–11; search_file_content L9 in pkg/util.py
    assert.deepEqual(byStep(r, 1).map((e) => e.lines), [
      { "pkg/util.py": [[9, 11]] },
      { "pkg/util.py": [[9, 9]] },
    ]);
    // old shell result format: grep -n printed 7 and 36
    assert.deepEqual(byStep(r, 2)[0].lines, { "pkg/core.py": [[7, 7], [36, 36]] });
    // /etc/passwd never credited; a failed read reads nothing; the rewound message is gone
    assert.ok(!JSON.stringify(r.reads).includes("passwd"));
    assert.ok(!r.events.some((e) => e.command.includes('"start_line":30')));
    // the sub-agent's read sits at the step of the agent call
    const agent = r.events.find((e) => e.tool === "invoke_agent")!;
    const sub = r.events.find((e) => e.paths.includes("pkg/big.py"))!;
    assert.equal(sub.step, agent.step);
    // unknown tool: listed, counted in coverage (13 of 14 actions interpreted)
    assert.equal(r.events.at(-1)!.note, "unknown tool: frobnicate");
    assert.equal(r.coverage, 13 / 14);
    // the functionResponse copy in a user message is not a second read
    assert.equal(r.events.filter((e) => e.paths.includes("pkg/core.py")).length, 2);
  }
});

Deno.test("Gemini CLI: bad input named, never a crash", async () => {
  const head = { sessionId: "s", projectHash: "h", startTime: "t", lastUpdated: "t" };
  const bad = [JSON.stringify(head), "{oops", JSON.stringify({ id: "g", type: "gemini" })];
  await rejects(parseLog(bad.join("\n"), { file: "chats/s.jsonl" }), "chats/s.jsonl", "line 2");
  // a tool result without its call, a call without a result, a truncated last line
  const msgs = [
    JSON.stringify(head),
    JSON.stringify({
      id: "g1",
      type: "gemini",
      content: "",
      toolCalls: [{ id: "x", name: "read_file", args: { file_path: "/p/a.py" } }],
    }),
    JSON.stringify({ id: "u", type: "user", content: [{ functionResponse: { id: "y" } }] }),
    '{"id": "g2", "type": "gem',
  ];
  const r = await parseLog(msgs.join("\n"), { file: "s.jsonl", cwd: "/p" });
  assert.deepEqual(r.events.map((e) => [e.kind, e.lines]), [["read", {}]]);
  assert.match(r.events[0].note ?? "", /failed|nothing read/);
  // a call whose result only came back as a user functionResponse: read from there, once
  const sentBack = [
    JSON.stringify(head),
    JSON.stringify({
      id: "g1",
      type: "gemini",
      toolCalls: [{ id: "x", name: "read_file", args: { file_path: "/p/a.py" } }],
    }),
    JSON.stringify({
      id: "u",
      type: "user",
      content: [{ functionResponse: { id: "x", response: { output: "a\nb\n" } } }],
    }),
  ];
  const r2 = await parseLog(sentBack.join("\n"), { file: "s.jsonl", cwd: "/p" });
  assert.deepEqual(r2.reads, { "a.py": [[1, 2]] });
  // a $set checkpoint replaces the message list; $patch lines are metadata edits
  const checkpoint = [
    sentBack[0],
    sentBack[1],
    sentBack[2],
    JSON.stringify({ $set: { messages: [{ id: "g9", type: "gemini", content: "" }] } }),
    JSON.stringify({ $patch: { summary: "s" } }),
  ];
  const r3 = await parseLog(checkpoint.join("\n"), { file: "s.jsonl", cwd: "/p" });
  assert.deepEqual([r3.events.length, r3.meta.steps], [0, 1]);
});

Deno.test("Gemini CLI: a failed shell call shows its output only when it exited (Exit Code)", async () => {
  const head = { sessionId: "s", projectHash: "h", startTime: "t", lastUpdated: "t" };
  const shell = (id: string, command: string, output: string, status: string) =>
    JSON.stringify({
      id,
      type: "gemini",
      content: "",
      toolCalls: [{
        id,
        name: "run_shell_command",
        args: { command },
        status,
        result: [{ functionResponse: { id, response: { output } } }],
      }],
    });
  const log = [
    JSON.stringify(head),
    // grep found lines 1 and 2 and then the pipeline failed: exit 1, the lines were shown
    shell("g1", "grep -n x a.py && false", "Output: 1:x = 1\n2:x = 2\nExit Code: 1", "error"),
    // cancelled before it ran: no exit code, nothing shown
    shell("g2", "cat b.py", "Command was cancelled by the user.", "cancelled"),
  ].join("\n");
  const files: Record<string, string> = { "a.py": "x = 1\nx = 2\ny = 3\n", "b.py": "z\n" };
  const r = await parseLog(log, { file: "s.jsonl", cwd: "/p", files: (p) => files[p] });
  assert.deepEqual(r.reads, { "a.py": [[1, 2]] });
  assert.deepEqual(r.events.map((e) => [e.step, e.kind, e.paths]), [
    [0, "search", ["a.py"]],
    [0, "run", []],
    [1, "read", ["b.py"]],
  ]);
});

// ---------------------------------------------------------------------------------------------
// Aider

Deno.test("Aider LLM history (real friendly_names): pasted files whole, repo map, /run", async () => {
  for (const root of [undefined, `${DIR}aider_ws`]) {
    const r = await readLog(DIR + "aider_friendly_names.llm.history", { root });
    assert.equal(r.format, "aider-llm-history");
    // request 0: README.md (21 lines) and pyproject.toml (61) pasted whole — the files at
    // commit 0ff8153 have exactly these line counts
    assert.deepEqual(byStep(r, 0).filter((e) => e.kind === "read").map((e) => e.lines), [
      { "README.md": [[1, 21]] },
      { "pyproject.toml": [[1, 61]] },
    ]);
    // request 1: new versions (74 and 120 lines) and src/friendly_names/__init__.py (59)
    assert.deepEqual(byStep(r, 1).filter((e) => e.kind === "read").map((e) => e.lines), [
      { "README.md": [[1, 74]] },
      { "pyproject.toml": [[1, 120]] },
      { "src/friendly_names/__init__.py": [[1, 59]] },
    ]);
    // request 2: the repo map shows `def generate(…)`: line 24 of the text pasted before
    const map = byStep(r, 2).find((e) => e.tool === "repo-map" && e.kind === "read")!;
    assert.deepEqual(map.lines, { "src/friendly_names/__init__.py": [[24, 24]] });
    // repeated pastes of the same text are one action; the bare-name map is a listing of "."
    assert.equal(r.events.filter((e) => e.tool === "repo-map" && e.kind === "list").length, 3);
    // /run outputs go through the shell analysis (hatch: runs, nothing read)
    assert.ok(r.events.some((e) => e.tool === "run" && e.command === "hatch run lint:fmt"));
    assert.deepEqual(r.reads, {
      "README.md": [[1, 97]],
      "pyproject.toml": [[1, 120]],
      "src/friendly_names/__init__.py": [[1, 59]],
    });
    assert.equal(r.coverage, 1);
  }
});

Deno.test("Aider chat history (real .aider.chat.history.md) is refused, saying why", async () => {
  await rejects(
    readLog(DIR + "aider_0latency.chat.history.md"),
    "aider_0latency.chat.history.md",
    "holds no file text",
    "--llm-history-file",
  );
});

Deno.test("Aider: pasted file outside the repo, unclosed fence, /run with file output", async () => {
  const text = [
    "TO LLM 2026-01-01T00:00:00",
    "-------",
    "USER Here are some READ ONLY files, provided for your reference.",
    "USER Do not edit these files!",
    "USER ",
    "USER /etc/hosts",
    "USER ```",
    "USER 127.0.0.1 localhost",
    "USER ```",
    "USER ",
    "USER pkg/util.py",
    "USER ```",
    "USER never closed",
    "-------",
    "USER I ran this command:",
    "USER ",
    "USER head -n 3 pkg/core.py",
    "USER ",
    "USER And got this output:",
    "USER ",
    'USER """Core data structures of the toy package."""',
    "USER from __future__ import annotations",
    "USER ", // line 3 of core.py is empty
    "USER ", // the template's own final newline
    "LLM RESPONSE 2026-01-01T00:00:05",
    "ASSISTANT ok",
  ].join("\n");
  const r = await parseLog(text, { file: ".aider.llm.history", files: undefined });
  assert.deepEqual(r.events.map((e) => [e.kind, e.lines]), [
    ["read", {}],
    ["read", { "pkg/core.py": [[1, 3]] }],
  ]);
  assert.match(r.events[0].note ?? "", /outside the workspace/);
});
