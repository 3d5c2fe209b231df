// Issue 23 item 3: PowerShell reads (Codex CLI on Windows runs its shell commands with
// `powershell -Command`; agents wrap commands in `powershell -Command "…"` / `pwsh -c`). The
// outputs below are what PowerShell prints for these files (Get-Content: one line per file line,
// CRLF; -Raw: the text and one more line; Select-String: `path:N:line` with `> `/`  ` under
// -Context); the expected line sets are counted by hand from tests/fixtures/logs/workspace.
import assert from "node:assert/strict";
import { parseLog } from "../lib/logs/mod.ts";
import type { Event, ReadsResult } from "../lib/logs/mod.ts";
import { analyzePowerShell, powershellScript, psTokens } from "../lib/logs/shell/powershell.ts";
import { TurnWorkspace } from "../lib/logs/workspace.ts";

const WS = new URL("./fixtures/logs/workspace/", import.meta.url).pathname;
const read = (p: string) => {
  try {
    return Deno.readTextFileSync(`${WS}${p}`);
  } catch {
    return undefined;
  }
};
const lines = (p: string) => read(p)!.replace(/\n$/, "").split("\n");
const UTIL = lines("pkg/util.py"); // 15 lines
const CORE = lines("pkg/core.py"); // 40 lines
const BIG = lines("pkg/big.py"); // 400 lines
const crlf = (ls: string[]) => ls.map((l) => l + "\r\n").join("");

const ROOT = "C:\\Users\\dev\\proj";
const env = (type: string, payload: unknown) => ({
  timestamp: "2026-07-16T05:01:00Z",
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
const out = (id: string, body: string, code = 0) =>
  env("response_item", {
    type: "function_call_output",
    call_id: id,
    output: `Exit code: ${code}\nWall time: 0.4 seconds\nOutput:\n${body}`,
  });
const jl = (ls: unknown[]) => ls.map((l) => JSON.stringify(l)).join("\n") + "\n";
const sh = (id: string, command: string) => call(id, "shell_command", { command, workdir: ROOT });
/** The Windows PowerShell 5.1 error printed when the profile may not run (stderr, at the end). */
const PROFILE =
  ". : File C:\\Users\\dev\\Documents\\WindowsPowerShell\\profile.ps1 cannot be loaded because running scripts is disabled on this system. For\r\n more information, see about_Execution_Policies at https:/go.microsoft.com/fwlink/?LinkID=135170.\r\nAt line:1 char:3\r\n+ . 'C:\\Users\\dev\\Documents\\WindowsPowerShell\\profile.ps1'\r\n+   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : SecurityError: (:) [], PSSecurityException\r\n    + FullyQualifiedErrorId : UnauthorizedAccess\r\n";

async function session(items: unknown[]): Promise<ReadsResult> {
  return await parseLog(
    jl([
      env("session_meta", {
        id: "w",
        cwd: ROOT,
        cli_version: "0.145.0",
        originator: "codex_cli_rs",
      }),
      env("turn_context", { cwd: ROOT }),
      ...items,
    ]),
    { file: "rollout.jsonl", files: read },
  );
}

const byCommand = (r: ReadsResult, part: string): Event => {
  const e = r.events.find((x) => x.command.includes(part));
  assert.ok(e, `no event for ${part}`);
  return e!;
};

Deno.test("PowerShell tokens and wrappers", () => {
  const t = psTokens(`gc -LiteralPath 'it''s.py',"b.py" 2>$null | select -f 3`);
  assert.deepEqual(t[2].list, ["it's.py", "b.py"]);
  assert.deepEqual(t.filter((w) => w.op).map((w) => w.op), ["2>", "|"]);
  assert.equal(
    powershellScript([
      "C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
      "-Command",
      "gc a",
    ]),
    "gc a",
  );
  assert.equal(
    powershellScript(["pwsh", "-NoProfile", "-c", "Get-Content", "a.py"]),
    "Get-Content a.py",
  );
  // -EncodedCommand: base64 of UTF-16LE
  const enc = btoa(
    String.fromCharCode(
      ...new Uint8Array(new Uint16Array([..."gc a.py"].map((c) => c.charCodeAt(0))).buffer),
    ),
  );
  assert.equal(powershellScript(["powershell", "-EncodedCommand", enc]), "gc a.py");
  assert.equal(powershellScript(["powershell", "-File", "x.ps1"]), undefined);
});

Deno.test("Codex on Windows: Get-Content forms, Select-Object windows, -Raw, aliases", async () => {
  const r = await session([
    sh("c1", "Get-Content pkg\\util.py"),
    out("c1", crlf(UTIL)),
    sh("c2", "Get-Content -Path pkg/core.py -TotalCount 10"),
    out("c2", crlf(CORE.slice(0, 10))),
    sh("c3", "gc pkg\\core.py -Tail 5"),
    out("c3", crlf(CORE.slice(35))),
    sh("c4", "Get-Content pkg\\core.py | Select-Object -Skip 10 -First 5"),
    out("c4", crlf(CORE.slice(10, 15))),
    // -Raw: the text, then one empty line; the profile error follows on stderr
    sh("c5", `Get-Content -Raw -LiteralPath '${ROOT}\\pkg\\util.py'`),
    out("c5", crlf(UTIL) + "\r\n" + PROFILE),
    // 0-based array indexes: lines 100–105
    sh("c6", "(Get-Content pkg\\big.py)[99..104]"),
    out("c6", crlf(BIG.slice(99, 105))),
    // argv form (the `shell` tool): -Head is -TotalCount
    call("c7", "shell", {
      command: ["powershell.exe", "-NoProfile", "-Command", "type pkg\\util.py -Head 3"],
      workdir: ROOT,
    }),
    out("c7", crlf(UTIL.slice(0, 3))),
    sh("c8", "Get-Content pkg/core.py -TotalCount 30 | Select-Object -Last 4"),
    out("c8", crlf(CORE.slice(26, 30))),
    // an abbreviated parameter (-Tot) and a `powershell -Command` wrapper inside the command
    sh("c9", `powershell -NoProfile -Command "Get-Content -Tot 2 pkg\\big.py"`),
    out("c9", crlf(BIG.slice(0, 2))),
  ]);
  assert.deepEqual(r.reads, {
    "pkg/big.py": [[1, 2], [100, 105]],
    "pkg/core.py": [[1, 15], [27, 30], [36, 40]],
    "pkg/util.py": [[1, 15]],
  });
  for (const e of r.events) assert.ok(e.placed, `${e.command}: ${e.note}`);
  assert.equal(r.coverage, 1);
  assert.deepEqual(byCommand(r, "-Raw").lines, { "pkg/util.py": [[1, 15]] });
});

Deno.test("Codex on Windows: only lines really shown are credited", async () => {
  const changed = [...UTIL];
  changed[10] = "    return 42  # not what the file holds";
  const r = await session([
    // output that contradicts the file: line 11 is not credited, the read is unplaced
    sh("c1", "cat pkg\\util.py"),
    out("c1", crlf(changed)),
    // outside the workspace: never credited
    sh("c2", "Get-Content C:\\Windows\\win.ini"),
    out("c2", "; for 16-bit app support\r\n[fonts]\r\n"),
    // a missing file: an error record, nothing read
    sh("c3", "Get-Content pkg\\missing.py"),
    out(
      "c3",
      "Get-Content : Cannot find path 'C:\\Users\\dev\\proj\\pkg\\missing.py' because it does not exist.\r\nAt line:1 char:1\r\n+ Get-Content pkg\\missing.py\r\n+ ~~~~~~~~~~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : ObjectNotFound: (C:\\Users\\dev\\proj\\pkg\\missing.py:String) [Get-Content], ItemNotFoundException\r\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetContentCommand\r\n",
      1,
    ),
    // a construct not simulated: not guessed
    sh("c4", "if (Test-Path pkg\\util.py) { Get-Content pkg\\util.py }"),
    out("c4", crlf(UTIL)),
    // piped Select-String prints matches without numbers: nothing placed
    sh("c5", "Get-Content pkg\\core.py | Select-String 'def '"),
    out("c5", "\r\n    def __init__(self, config: Config):\r\n\r\n"),
  ]);
  assert.deepEqual(r.reads, { "pkg/util.py": [[1, 10], [12, 15]] });
  const cat = byCommand(r, "cat pkg");
  assert.equal(cat.placed, false);
  assert.match(cat.note!, /1 of 15 lines shown do not match pkg\/util.py/);
  const out2 = byCommand(r, "win.ini");
  assert.deepEqual([out2.kind, out2.paths, out2.lines], ["read", [], {}]);
  assert.equal(byCommand(r, "missing.py").lines["pkg/missing.py"], undefined);
  assert.equal(byCommand(r, "if (").kind, "other");
  assert.equal(byCommand(r, "Select-String").placed, false);
  assert.ok(r.coverage < 1);
});

Deno.test("Codex on Windows: Select-String numbers, agent-made numbers, listings and writes", async () => {
  const r = await session([
    // -Context 1: `> ` before each match, two spaces before each context line; blank lines around
    sh("c1", "Select-String -Path pkg\\core.py -Pattern 'def (add|total)' -Context 1"),
    out(
      "c1",
      "\r\n" +
        `  pkg\\core.py:20:${CORE[19]}\r\n> pkg\\core.py:21:${CORE[20]}\r\n  pkg\\core.py:22:${
          CORE[21]
        }\r\n` +
        `  pkg\\core.py:23:${CORE[22]}\r\n> pkg\\core.py:24:${CORE[23]}\r\n  pkg\\core.py:25:${
          CORE[24]
        }\r\n\r\n\r\n`,
    ),
    // files piped from Get-ChildItem: Select-String prints them as files (path:N:line)
    sh("c6", "Get-ChildItem -Recurse -Filter *.py pkg | Select-String -Pattern 'return x'"),
    out("c6", `\r\npkg\\util.py:11:${UTIL[10]}\r\n\r\n\r\n`),
    // sls over an absolute path prints the path relative to the current directory
    sh("c2", `sls -Pattern clamp -Path ${ROOT}\\pkg\\util.py`),
    out("c2", `\r\npkg\\util.py:5:${UTIL[4]}\r\n\r\n\r\n`),
    // numbers the agent printed: checked against the file like any other
    sh("c3", '$i=0; Get-Content pkg\\util.py | ForEach-Object { $i++; "{0,4}: {1}" -f $i, $_ }'),
    out("c3", crlf(UTIL.map((l, k) => `${String(k + 1).padStart(4)}: ${l}`))),
    sh("c4", "Get-ChildItem -Recurse -Force pkg | Select-Object FullName"),
    out("c4", "\r\nFullName\r\n--------\r\nC:\\Users\\dev\\proj\\pkg\\big.py\r\n"),
    // a write, then a read of the written file: its content is unknown, the numbers are credited
    sh("c5", "Set-Content -Path pkg\\new.py -Value 'x = 1'; Get-Content pkg\\new.py"),
    out("c5", "x = 1\r\n"),
  ]);
  assert.deepEqual(r.reads, {
    "pkg/core.py": [[20, 25]],
    "pkg/new.py": [[1, 1]],
    "pkg/util.py": [[1, 15]],
  });
  const list = byCommand(r, "Get-ChildItem -Recurse -Force");
  assert.deepEqual([list.kind, list.paths], ["list", ["pkg"]]);
  assert.ok(r.events.some((e) => e.kind === "write" && e.paths.includes("pkg/new.py")));
  const piped = byCommand(r, "-Filter *.py");
  assert.deepEqual([piped.kind, piped.paths, piped.lines], ["search", ["pkg"], {
    "pkg/util.py": [[11, 11]],
  }]);
  const sls = byCommand(r, "sls -Pattern");
  assert.deepEqual([sls.kind, sls.paths, sls.placed], ["search", ["pkg/util.py"], true]);
});

Deno.test("PowerShell wrapper in a bash tool; Linux sessions stay bash", async () => {
  const ws = new TurnWorkspace(read, "/repo");
  const ev = await (await import("../lib/logs/shell/analyze.ts")).analyzeShell(
    `pwsh -NoProfile -c "Get-Content pkg/util.py -TotalCount 2"`,
    { ws, cwd: "", step: 0 },
    { output: UTIL.slice(0, 2).join("\n") + "\n" },
  );
  assert.deepEqual(ev.map((e) => e.lines), [{ "pkg/util.py": [[1, 2]] }]);
  // `type` on Linux is the bash builtin, not Get-Content: nothing read
  const t = analyzePowerShell("Get-Content pkg/util.py -Tail 2", { ws, cwd: "", step: 0 }, {
    output: UTIL.slice(13).join("\n") + "\n",
  });
  assert.deepEqual(t[0].lines, { "pkg/util.py": [[14, 15]] });
});

// Issue 23 item 4: Codex CLI code mode. The cell shapes follow codex-rs
// `core/src/tools/code_mode/` (header item `Script completed\nWall time N seconds\nOutput:\n`,
// one item per `text()`, `exec_command`'s result printed as its JSON object, `shell_command`'s as
// its text) and a public Windows transcript export of a code-mode session.
const cellCall = (id: string, input: string) =>
  env("response_item", {
    type: "custom_tool_call",
    name: "exec",
    call_id: id,
    input,
    status: "completed",
  });
const cellOut = (id: string, items: string[], status = "Script completed") =>
  env("response_item", {
    type: "custom_tool_call_output",
    call_id: id,
    output: [`${status}\nWall time 0.9 seconds\nOutput:\n`, ...items].map((text) => ({
      type: "input_text",
      text,
    })),
  });

Deno.test("Codex code mode: nested calls credited from what the cell printed", async () => {
  const lin = (items: unknown[]) =>
    parseLog(
      jl([
        env("session_meta", { id: "l", cwd: "/repo", cli_version: "0.150.0" }),
        env("turn_context", { cwd: "/repo" }),
        ...items,
      ]),
      { file: "rollout.jsonl", files: read },
    );
  const exec = (output: string) =>
    JSON.stringify({ chunk_id: "a1", wall_time_seconds: 0.05, exit_code: 0, output });
  const r = await lin([
    // text(r) of exec_command prints its result object as JSON
    cellCall(
      "x1",
      `const r = await tools.exec_command({cmd: "sed -n '5,9p' pkg/core.py", workdir: "/repo"});\ntext(r);`,
    ),
    cellOut("x1", [exec(CORE.slice(4, 9).join("\n") + "\n")]),
    // several calls at once, printed in order between separators
    cellCall(
      "x2",
      `const rs = await Promise.all([\n  tools.exec_command({"cmd":"head -n 3 pkg/util.py"}),\n  tools.exec_command({cmd:\`tail -n 2 pkg/big.py\`}),\n]);\nrs.forEach((r, i) => { text(\`---RESULT \${i + 1}---\`); text(r); });`,
    ),
    cellOut("x2", [
      "---RESULT 1---",
      exec(UTIL.slice(0, 3).join("\n") + "\n"),
      "---RESULT 2---",
      exec(BIG.slice(398).join("\n") + "\n"),
    ]),
    // only part of the result printed (not the result itself): nothing credited, unplaced
    cellCall(
      "x3",
      `const r = await tools.exec_command({cmd: "cat pkg/core.py"});\ntext(r.output.slice(0, 80));`,
    ),
    cellOut("x3", [CORE.join("\n").slice(0, 80)]),
    // a nested apply_patch, then a read of the new file
    cellCall(
      "x4",
      `await tools.apply_patch("*** Begin Patch\\n*** Add File: pkg/added.py\\n+a = 1\\n+b = 2\\n*** End Patch");\nconst r = await tools.exec_command({cmd: "cat pkg/added.py"});\ntext(r);`,
    ),
    cellOut("x4", [exec("a = 1\nb = 2\n")]),
    // arguments that are variables: not guessed
    cellCall(
      "x5",
      `const f = "pkg/util.py";\nconst r = await tools.exec_command({cmd: "cat " + f});\ntext(r);`,
    ),
    cellOut("x5", [exec(UTIL.join("\n") + "\n")]),
    // a cell that yields after its first result; \`wait\` brings the rest
    cellCall(
      "x6",
      `// @exec: {"yield_time_ms": 1000}\nconst a = await tools.exec_command({cmd: "head -n 2 pkg/core.py"}); text(a);\nconst b = await tools.exec_command({cmd: "tail -n 1 pkg/util.py"}); text(b);`,
    ),
    cellOut("x6", [exec(CORE.slice(0, 2).join("\n") + "\n")], "Script running with cell ID 7"),
    call("w6", "wait", { cell_id: "7", yield_time_ms: 5000 }),
    env("response_item", {
      type: "function_call_output",
      call_id: "w6",
      output: ["Script completed\nWall time 2.0 seconds\nOutput:\n", exec(UTIL[14] + "\n")].map((
        text,
      ) => ({
        type: "input_text",
        text,
      })),
    }),
  ]);
  assert.deepEqual(r.reads, {
    "pkg/added.py": [[1, 2]],
    "pkg/big.py": [[399, 400]],
    "pkg/core.py": [[1, 2], [5, 9]],
    "pkg/util.py": [[1, 3], [15, 15]],
  });
  const partial = byCommand(r, "cat pkg/core.py");
  assert.deepEqual([partial.tool, partial.placed, partial.lines], ["exec:exec_command", false, {}]);
  assert.ok(
    r.events.some((e) =>
      e.kind === "write" && e.tool === "exec:apply_patch" && e.paths[0] === "pkg/added.py"
    ),
  );
  assert.equal(byCommand(r, '"cat " + f').kind, "other");
  assert.ok(r.coverage < 1);
});

Deno.test("Codex code mode on Windows: shell_command text results, PowerShell reads, notify", async () => {
  const res = (body: string) => `Exit code: 0\nWall time: 0.7 seconds\nOutput:\n${body}`;
  const r = await session([
    cellCall(
      "w1",
      `const r = await tools.shell_command({"command":"Get-Content -Raw -LiteralPath 'pkg\\\\util.py'","workdir":"${
        ROOT.replaceAll("\\", "\\\\")
      }","timeout_ms":10000}); text(r)\n`,
    ),
    cellOut("w1", [res(crlf(UTIL) + "\r\n" + PROFILE)]),
    // a notify() message while the cell runs, then the cell's output
    cellCall(
      "w2",
      `notify("reading");\nconst r = await tools.shell_command({command:"gc pkg\\\\core.py -TotalCount 4"});\ntext(r);`,
    ),
    env("response_item", { type: "custom_tool_call_output", call_id: "w2", output: "reading" }),
    cellOut("w2", [res(crlf(CORE.slice(0, 4)))]),
  ]);
  assert.deepEqual(r.reads, { "pkg/core.py": [[1, 4]], "pkg/util.py": [[1, 15]] });
  // the newest rollouts' other items are known (not `other` events)
  const newer = await session([
    env("response_item", { type: "additional_tools", role: "developer", tools: [] }),
    env("response_item", { type: "agent_message", author: "a", recipient: "b", content: [] }),
    env("response_item", { type: "context_compaction", encrypted_content: "x" }),
    sh("c1", "gc pkg\\util.py -Head 1"),
    out("c1", crlf(UTIL.slice(0, 1))),
  ]);
  assert.deepEqual(newer.events.map((e) => e.kind), ["read"]);
  for (const e of r.events) {
    assert.ok(e.placed && e.tool === "exec:shell_command", `${e.command}: ${e.note}`);
  }
});

Deno.test("Claude Code on Windows: the PowerShell tool goes through the PowerShell analysis", async () => {
  const line = (type: string, extra: Record<string, unknown>) => ({
    type,
    sessionId: "s1",
    cwd: ROOT,
    version: "2.1.150",
    uuid: crypto.randomUUID(),
    ...extra,
  });
  const r = await parseLog(
    jl([
      line("assistant", {
        message: {
          id: "m1",
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "t1",
            name: "PowerShell",
            input: { command: "Get-Content pkg\\util.py -Tail 3", description: "tail" },
          }],
        },
      }),
      line("user", {
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: UTIL.slice(12).join("\n") }],
        },
      }),
    ]),
    { file: "s.jsonl", files: read },
  );
  assert.deepEqual(r.reads, { "pkg/util.py": [[13, 15]] });
  assert.equal(r.events[0].tool, "PowerShell");
});
