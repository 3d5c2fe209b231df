/**
 * `run --agent <preset>`: each preset runs its harness's non-interactive command line and copies
 * the session log(s) the harness wrote into the turn directory. The harnesses are stub
 * executables on PATH (no network, no model): each checks the flags it was given, writes the
 * submission, and writes its session log in the harness's real format at the harness's real
 * location under $HOME — next to decoys (an older session, another project's session) that must
 * not be picked.
 */
import assert from "node:assert/strict";
import { runProtocol } from "../lib/protocol/runner.ts";
import { AGENT_PRESETS, agentPreset, claudeProjectDir } from "../lib/protocol/presets.ts";
import { readLog } from "../lib/logs/mod.ts";

const PY = "/usr/bin/python3";

/** Python stubs: argv checks, the submission, the session log in the real format and place. */
const STUBS: Record<string, string> = {
  common: `
import json, os, sys, shutil, time, uuid, hashlib
def argv_log(name):
    with open(os.path.join(os.environ["STUB_OUT"], name + ".argv.json"), "w") as f:
        json.dump(sys.argv[1:], f)
def submit():
    src = os.path.join(os.environ["STUB_CORPUS"], "tasks", os.environ["REPOREUSE_CHAIN"],
                       "turn" + os.environ["REPOREUSE_TURN"], "solution.py")
    shutil.copy(src, os.environ["REPOREUSE_SUBMIT_PATH"])
WS = os.environ["REPOREUSE_WORKSPACE"]
HOME = os.environ["HOME"]
TARGET = "tinypkg/util.py"
def write_jsonl(path, recs):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for r in recs: f.write(json.dumps(r) + "\\n")
def old(path):
    os.utime(path, (time.time() - 86400, time.time() - 86400))
`,
  claude: `
argv_log("claude"); submit()
a = sys.argv[1:]
assert a[0] == "-p" and "You are working in the repository checkout" in a[1], a[:2]
assert "--session-id" in a and "--output-format" in a
sid = a[a.index("--session-id") + 1]
proj = os.path.join(HOME, ".claude", "projects", WS.replace("/", "-").replace(".", "-"))
line = {"type": "user", "sessionId": sid, "cwd": WS, "version": "2.1.39", "uuid": "u1",
        "message": {"role": "user", "content": "hi"}}
write_jsonl(os.path.join(proj, sid + ".jsonl"), [line])
write_jsonl(os.path.join(proj, sid, "subagents", "agent-a1.jsonl"), [dict(line, isSidechain=True)])
write_jsonl(os.path.join(proj, str(uuid.uuid4()) + ".jsonl"), [line])  # another session
print(json.dumps({"type": "result", "session_id": sid}))
`,
  codex: `
argv_log("codex"); submit()
a = sys.argv[1:]
assert a[0] == "exec" and "--json" in a and a[a.index("-C") + 1] == WS
day = os.path.join(HOME, ".codex", "sessions", "2026", "09", "25")
def rollout(name, meta):
    write_jsonl(os.path.join(day, name), [{"timestamp": "2026-09-25T10:00:00Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-09-25T10:00:01Z", "type": "turn_context", "payload": {"cwd": WS}}])
rollout("rollout-2026-09-25T10-00-00-main.jsonl", {"id": "T1", "cwd": WS, "originator": "codex_exec", "cli_version": "0.142.4"})
rollout("rollout-2026-09-25T10-00-05-sub.jsonl", {"id": "T2", "cwd": WS, "source": {"subagent": {"thread_spawn": {"parent_thread_id": "T1", "depth": 1}}}})
rollout("rollout-2026-09-25T10-00-06-other.jsonl", {"id": "T3", "cwd": "/elsewhere"})
rollout("rollout-2026-09-24T10-00-00-old.jsonl", {"id": "T0", "cwd": WS})
old(os.path.join(day, "rollout-2026-09-24T10-00-00-old.jsonl"))
`,
  gemini: `
argv_log("gemini"); submit()
a = sys.argv[1:]
assert a[0] == "-p" and "--approval-mode" in a and a[a.index("--approval-mode") + 1] == "yolo"
chats = os.path.join(HOME, ".gemini", "tmp", "proj-slug", "chats")
sid = "5ec95d33-0000-4000-8000-000000000001"
text = open(os.path.join(WS, TARGET)).read().split("\\n")
out = ("\\nIMPORTANT: The file content has been truncated.\\nStatus: Showing lines 1-5 of %d total lines.\\n"
       "Action: use start_line: 6.\\n\\n--- FILE CONTENT (truncated) ---\\n" % (len(text) - 1)) + "\\n".join(text[:5])
call = {"id": "r1", "name": "read_file", "args": {"file_path": os.path.join(WS, TARGET), "start_line": 1, "end_line": 5},
        "result": [{"functionResponse": {"id": "r1", "name": "read_file", "response": {"output": out}}}], "status": "success"}
write_jsonl(os.path.join(chats, "session-2026-09-25T10-00-5ec95d33.jsonl"), [
    {"sessionId": sid, "projectHash": hashlib.sha256(WS.encode()).hexdigest(), "startTime": "t", "lastUpdated": "t", "kind": "main", "directories": [WS]},
    {"id": "g1", "type": "gemini", "content": "", "toolCalls": [call]}])
write_jsonl(os.path.join(chats, sid, "sub-1.jsonl"), [
    {"sessionId": "sub-1", "projectHash": "x", "startTime": "t", "lastUpdated": "t", "kind": "subagent"},
    {"id": "s1", "type": "gemini", "content": "", "toolCalls": [dict(call, id="r2")]}])
write_jsonl(os.path.join(HOME, ".gemini", "tmp", "other", "chats", "session-2026-09-20T10-00-aaaaaaaa.jsonl"),
    [{"sessionId": "aaaaaaaa", "projectHash": "y", "startTime": "t", "lastUpdated": "t"}])
old(os.path.join(HOME, ".gemini", "tmp", "other", "chats", "session-2026-09-20T10-00-aaaaaaaa.jsonl"))
print(json.dumps({"response": "done", "stats": {}}))
`,
  qwen: `
argv_log("qwen"); submit()
a = sys.argv[1:]
assert a[0] == "-p" and "--yolo" in a and a[a.index("--output-format") + 1] == "json"
text = open(os.path.join(WS, TARGET)).read().split("\\n")
out = "Showing lines 1-4 of %d total lines.\\n\\n---\\n\\n" % (len(text) - 1) + "\\n".join(text[:4])
def rec(u, p, typ, msg, cwd=WS):
    return {"uuid": u, "parentUuid": p, "sessionId": "q1", "timestamp": "t", "type": typ, "cwd": cwd, "version": "0.24.7", "message": msg}
chats = os.path.join(HOME, ".qwen", "projects", WS.replace("/", "-"), "chats")
write_jsonl(os.path.join(chats, "q1.jsonl"), [
    rec("a1", None, "assistant", {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file", "args": {"file_path": os.path.join(WS, TARGET), "offset": 0, "limit": 4}}}]}),
    rec("t1", "a1", "tool_result", {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": out}}}]})])
write_jsonl(os.path.join(HOME, ".qwen", "projects", "-elsewhere", "chats", "q2.jsonl"),
    [rec("a1", None, "user", {"role": "user", "parts": [{"text": "hi"}]}, cwd="/elsewhere")])
print(json.dumps([{"type": "result", "session_id": "q1"}]))
`,
  copilot: `
argv_log("copilot"); submit()
a = sys.argv[1:]
assert a[0] == "-p" and "--allow-all-tools" in a and "--no-ask-user" in a
text = open(os.path.join(WS, TARGET)).read().split("\\n")
view = "\\n".join("%d. %s" % (i + 1, text[i]) if text[i] else "%d." % (i + 1) for i in range(2))
def session(sid, cwd):
    return [{"type": "session.start", "data": {"sessionId": sid, "producer": "copilot-agent", "context": {"cwd": cwd}}, "id": "e1", "parentId": None},
        {"type": "assistant.message", "data": {"content": "", "toolRequests": [{"toolCallId": "c1", "name": "view", "arguments": {"path": os.path.join(WS, TARGET), "view_range": [1, 2]}}]}, "id": "e2", "parentId": "e1"},
        {"type": "tool.execution_complete", "data": {"toolCallId": "c1", "success": True, "result": {"content": view}}, "id": "e3", "parentId": "e2"}]
state = os.path.join(HOME, ".copilot", "session-state")
write_jsonl(os.path.join(state, "aaaa", "events.jsonl"), session("aaaa", "/elsewhere"))
write_jsonl(os.path.join(state, "bbbb", "events.jsonl"), session("bbbb", WS))
`,
  goose: `
argv_log("goose"); submit()
a = sys.argv[1:]
assert a[0] == "run" and a[1] == "-t" and a[a.index("--output-format") + 1] == "stream-json"
body = open(os.path.join(WS, TARGET)).read()
print("starting session | provider: stub")
print(json.dumps({"type": "message", "message": {"role": "assistant", "created": 1, "content": [{"type": "toolRequest", "id": "r1", "toolCall": {"status": "success", "value": {"name": "developer__text_editor", "arguments": {"command": "view", "path": os.path.join(WS, TARGET)}}}}]}}))
print(json.dumps({"type": "message", "message": {"role": "user", "created": 2, "content": [{"type": "toolResponse", "id": "r1", "toolResult": {"status": "success", "value": [{"type": "resource", "resource": {"uri": "file://x", "text": body}, "annotations": {"audience": ["assistant"]}}]}}]}}))
print(json.dumps({"type": "complete", "total_tokens": 10}))
`,
  cursor: `
argv_log("cursor"); submit()
a = sys.argv[1:]
assert a[0] == "-p" and "--force" in a and a[a.index("--output-format") + 1] == "stream-json"
text = open(os.path.join(WS, TARGET)).read()
print(json.dumps({"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": WS, "session_id": "s", "model": "m", "permissionMode": "default"}))
args = {"path": TARGET}
print(json.dumps({"type": "tool_call", "subtype": "started", "call_id": "t1", "tool_call": {"readToolCall": {"args": args}}, "session_id": "s"}))
print(json.dumps({"type": "tool_call", "subtype": "completed", "call_id": "t1", "tool_call": {"readToolCall": {"args": args, "result": {"success": {"content": text, "isEmpty": False, "exceededLimit": False}}}}, "session_id": "s"}))
print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "duration_ms": 10, "session_id": "s"}))
`,
  opencode: `
a = sys.argv[1:]
if a[0] == "export":
    argv_log("opencode-export")
    print("Exporting session: " + a[1])
    print(json.dumps({"info": {"id": a[1], "directory": WS, "version": "1.2.3"}, "messages": [
        {"info": {"role": "assistant", "id": "m1"}, "parts": [{"type": "tool", "tool": "read",
         "state": {"status": "completed", "input": {"filePath": os.path.join(WS, TARGET), "offset": 1, "limit": 3},
                   "output": "<file>\\n" + "".join("%d: %s\\n" % (i + 1, l) for i, l in enumerate(open(os.path.join(WS, TARGET)).read().split("\\n")[:3])) + "</file>"}}]}]}))
    sys.exit(0)
argv_log("opencode"); submit()
assert a[:3] == ["run", "--format", "json"]
print(json.dumps({"type": "step_start", "timestamp": 1, "sessionID": "ses_abc123", "part": {}}))
`,
  openhands: `
argv_log("openhands"); submit()
a = sys.argv[1:]
assert "--headless" in a and a[a.index("-f") + 1].endswith("prompt.md")
conv = os.path.join(os.environ["OPENHANDS_CONVERSATIONS_DIR"], "c0ffee")
text = open(os.path.join(WS, TARGET)).read().split("\\n")
view = "Here's the result of running \`cat -n\` on %s:\\n" % os.path.join(WS, TARGET) + "".join("%6d\\t%s\\n" % (i, text[i - 1]) for i in range(1, 4))
evs = [
  {"kind": "ActionEvent", "id": "a1", "source": "agent", "tool_name": "file_editor", "tool_call_id": "c1", "llm_response_id": "r1",
   "action": {"kind": "FileEditorAction", "command": "view", "path": os.path.join(WS, TARGET), "view_range": [1, 3]}},
  {"kind": "ObservationEvent", "id": "o1", "source": "environment", "tool_name": "file_editor", "tool_call_id": "c1", "action_id": "a1",
   "observation": {"kind": "FileEditorObservation", "content": [{"type": "text", "text": view}], "is_error": False}}]
for i, e in enumerate(evs):
    p = os.path.join(conv, "events", "event-%05d-%s.json" % (i, e["id"]))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    json.dump(e, open(p, "w"))
json.dump({"id": "c0ffee"}, open(os.path.join(conv, "base_state.json"), "w"))
`,
  aider: `
argv_log("aider"); submit()
a = sys.argv[1:]
assert "--yes-always" in a and "--no-git" in a
hist = a[a.index("--llm-history-file") + 1]
body = open(os.path.join(WS, TARGET)).read().rstrip("\\n").split("\\n")
lines = ["TO LLM 2026-09-25T10:00:00", "-------", "SYSTEM Act as an expert software developer.", "-------",
         "USER I have *added these files to the chat* so you can go ahead and edit them.", "USER ",
         "USER " + TARGET, "USER \`\`\`"] + ["USER " + l for l in body] + ["USER \`\`\`", "LLM RESPONSE 2026-09-25T10:00:05", "ASSISTANT done"]
open(hist, "w").write("\\n".join(lines) + "\\n")
`,
  mini: `
argv_log("mini"); submit()
a = sys.argv[1:]
assert a[0] == "-t" and "--yolo" in a and "--exit-immediately" in a
out = a[a.index("-o") + 1]
fence = "\`" * 3
json.dump({"info": {}, "trajectory_format": "mini-swe-agent-1", "messages": [
    {"role": "assistant", "content": "THOUGHT: look\\n\\n" + fence + "bash\\nhead -n 4 " + TARGET + "\\n" + fence},
    {"role": "user", "content": "<returncode>0</returncode>\\n<output>\\n" + "".join(l + "\\n" for l in open(os.path.join(WS, TARGET)).read().split("\\n")[:4]) + "</output>"}]},
    open(out, "w"))
`,
};

const BIN: Record<string, string> = {
  "claude-code": "claude",
  codex: "codex",
  gemini: "gemini",
  qwen: "qwen",
  copilot: "copilot",
  goose: "goose",
  cursor: "cursor-agent",
  opencode: "opencode",
  openhands: "openhands",
  aider: "aider",
  mini: "mini",
};

/** A one-turn chain on a tiny package (fast to prepare), and the stub harnesses on PATH. */
async function setup(): Promise<{ corpus: string; bin: string; tmp: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "presets-" });
  const corpus = `${tmp}/corpus`;
  const w0 = `${corpus}/repos/tiny`;
  await Deno.mkdir(`${w0}/tinypkg`, { recursive: true });
  await Deno.writeTextFile(`${w0}/tinypkg/__init__.py`, "");
  await Deno.writeTextFile(
    `${w0}/tinypkg/util.py`,
    Array.from({ length: 12 }, (_, i) => `VALUE_${i + 1} = ${i + 1}`).join("\n") + "\n",
  );
  const dir = `${corpus}/tasks/tiny-001`;
  await Deno.mkdir(`${dir}/turn1`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/chain.json`,
    JSON.stringify({
      chain: "tiny-001",
      repo: { name: "tiny", workspace: "../../repos/tiny", package: "tinypkg" },
      turns: [{
        turn: 1,
        module: "tinypkg.added",
        path: "tinypkg/added.py",
        functions: [{
          name: "double",
          signature: "def double(x)",
          returns: "2 * x",
          behaviour: "Double a number.",
        }],
      }],
    }),
  );
  await Deno.writeTextFile(
    `${dir}/turn1/tests.json`,
    JSON.stringify({ cases: [{ id: "c1", call: "double(2)", expected: "4" }] }),
  );
  await Deno.writeTextFile(`${dir}/turn1/solution.py`, "def double(x):\n    return 2 * x\n");
  const bin = `${tmp}/bin`;
  await Deno.mkdir(bin);
  for (const [preset, exe] of Object.entries(BIN)) {
    const key = exe === "claude" ? "claude" : preset;
    await Deno.writeTextFile(
      `${bin}/${exe}`,
      `#!${PY}\n${STUBS.common}\n${STUBS[key]}`,
      { mode: 0o755 },
    );
  }
  return { corpus, bin, tmp };
}

Deno.test("run presets: each harness's command line, its session log copied into the turn", async () => {
  const { corpus, bin, tmp } = await setup();
  try {
    for (const name of AGENT_PRESETS) {
      const home = `${tmp}/home-${name}`;
      const out = `${tmp}/out-${name}`;
      await Deno.mkdir(home);
      await Deno.mkdir(out);
      const work = `${tmp}/work-${name}`;
      const lines: string[] = [];
      const outcomes = await runProtocol({
        corpus,
        config: { harness: agentPreset(name).harness, model: "stub", memory: "none" },
        configName: name,
        preset: agentPreset(name),
        env: {
          PATH: `${bin}:${Deno.env.get("PATH")}`,
          HOME: home,
          STUB_CORPUS: corpus,
          STUB_OUT: out,
        },
        python: PY,
        workRoot: work,
        wallTimeS: 60,
        log: (l) => lines.push(l),
      });
      assert.equal(outcomes[0].submitted, true, `${name}: ${lines.join("\n")}`);
      assert.equal(outcomes[0].exitCode, 0, `${name}: ${lines.join("\n")}`);
      const turn = `${corpus}/runs/${name}/tiny-001/turn1`;
      const ws = `${work}/workspace`;
      const files = [...Deno.readDirSync(turn)].map((e) => e.name).sort();
      const logs = files.filter((f) => f.startsWith("log."));
      assert.equal(logs.length, 1, `${name}: one log in ${files}`);
      const log = `${turn}/${logs[0]}`;
      if (name === "claude-code") {
        const argv = JSON.parse(await Deno.readTextFile(`${out}/claude.argv.json`));
        const sid = argv[argv.indexOf("--session-id") + 1];
        const src = `${home}/.claude/projects/${claudeProjectDir(ws)}/${sid}.jsonl`;
        assert.equal(await Deno.readTextFile(log), await Deno.readTextFile(src));
        assert.ok(
          (await Deno.stat(`${turn}/${sid}/subagents/agent-a1.jsonl`)).isFile,
          "the sub-agent file is copied next to the session",
        );
      } else if (name === "codex") {
        const day = `${home}/.codex/sessions/2026/09/25`;
        assert.equal(
          await Deno.readTextFile(log),
          await Deno.readTextFile(`${day}/rollout-2026-09-25T10-00-00-main.jsonl`),
        );
        assert.deepEqual([...Deno.readDirSync(`${turn}/subagents`)].map((e) => e.name), [
          "rollout-2026-09-25T10-00-05-sub.jsonl",
        ]);
      } else {
        // the copied log reads: the view of tinypkg/util.py the stub logged
        const r = await readLog(log, { cwd: name === "aider" || name === "mini" ? undefined : ws });
        // aider pasted the whole file (its line count, counted here from the file itself)
        const whole = (await Deno.readTextFile(`${ws}/tinypkg/util.py`)).trimEnd().split("\n");
        const expected: Record<string, [number, number][]> = {
          gemini: [[1, 5]],
          qwen: [[1, 4]],
          copilot: [[1, 2]],
          goose: [[1, whole.length]],
          cursor: [[1, whole.length]],
          opencode: [[1, 3]],
          openhands: [[1, 3]],
          aider: [[1, whole.length]],
          mini: [[1, 4]],
        };
        assert.deepEqual(r.reads["tinypkg/util.py"], expected[name], `${name}: ${logs[0]}`);
        if (name === "gemini") {
          // the sub-agent session is bundled with the session: two reads
          assert.equal(r.events.filter((e) => e.kind === "read").length, 2);
        }
      }
      assert.ok(lines.some((l) => l.includes("copied")), `${name}: ${lines.join("\n")}`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("run presets: no session log found is reported, the turn still recorded", async () => {
  const { corpus, bin, tmp } = await setup();
  try {
    // a codex that writes nothing
    await Deno.writeTextFile(
      `${bin}/codex`,
      `#!/bin/sh\ncp "$STUB_SOLUTION" "$REPOREUSE_SUBMIT_PATH"\n`,
      {
        mode: 0o755,
      },
    );
    const lines: string[] = [];
    const outcomes = await runProtocol({
      corpus,
      config: { harness: "codex", model: "stub", memory: "none" },
      configName: "codex-nolog",
      preset: agentPreset("codex"),
      env: {
        PATH: `${bin}:${Deno.env.get("PATH")}`,
        HOME: `${tmp}`,
        STUB_SOLUTION: `${corpus}/tasks/tiny-001/turn1/solution.py`,
      },
      python: PY,
      workRoot: `${tmp}/work`,
      wallTimeS: 60,
      log: (l) => lines.push(l),
    });
    assert.equal(outcomes[0].submitted, true);
    assert.ok(lines.some((l) => l.includes("no codex session log found")), lines.join("\n"));
    const files = [...Deno.readDirSync(`${corpus}/runs/codex-nolog/tiny-001/turn1`)].map((e) =>
      e.name
    );
    assert.ok(files.includes("meta.json") && !files.some((f) => f.startsWith("log.")));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
