/**
 * Bad input: truncated JSON, wrong types, a 100 MB observation, non-UTF-8 bytes, paths outside
 * the workspace, symlinks out of it. A clear error naming the file, or ignored events — never a
 * crash, never a read credited outside the workspace, never a file read from outside it.
 */
import assert from "node:assert/strict";
import { dirSource, LogFormatError, parseLog, readLog } from "../lib/logs/mod.ts";
import { main } from "../tasks/cli.ts";

const FILES: Record<string, string> = { "a.py": "x = 1\ny = 2\n" };

/** A FileSource that records every path it is asked for. */
function spy(): { files: (p: string) => string | undefined; asked: string[] } {
  const asked: string[] = [];
  return { asked, files: (p) => (asked.push(p), FILES[p]) };
}

function mini(actions: [string, string][], extra: Record<string, unknown> = {}): string {
  const messages: unknown[] = [{ role: "system", content: "s" }, { role: "user", content: "task" }];
  for (const [cmd, out] of actions) {
    messages.push({ role: "assistant", content: "```bash\n" + cmd + "\n```" });
    messages.push({
      role: "user",
      content: `<returncode>0</returncode>\n<output>\n${out}</output>`,
    });
  }
  return JSON.stringify({ info: {}, messages, trajectory_format: "mini-swe-agent-1", ...extra });
}

async function rejects(text: string, file: string, what: RegExp) {
  await assert.rejects(parseLog(text, { file }), (e: unknown) => {
    assert.ok(e instanceof LogFormatError, String(e));
    assert.ok(e.message.startsWith(`${file}: `), e.message);
    assert.match(e.message, what);
    return true;
  });
}

Deno.test("truncated JSON, empty files and unknown formats: LogFormatError naming the file", async () => {
  const full = mini([["cat a.py", "x = 1\ny = 2\n"]]);
  await rejects(full.slice(0, full.length / 2), "runs/c/t1/log.json", /invalid JSON/);
  await rejects("", "empty.json", /empty log/);
  await rejects(
    '{"hello": "world"}',
    "odd.json",
    /unsupported log format: looks like a JSON object with keys hello/,
  );
  await rejects(
    "[1, 2, 3]",
    "nums.json",
    /unsupported log format: looks like a JSON array of 3 values/,
  );
  await rejects("not json at all\n", "x.txt", /invalid JSON/);
  await rejects('{"type":"tool_use","part":{}}\n{broken\n{"type":"text"}\n', "run.jsonl", /line 2/);
});

Deno.test("strict JSONL logs: the bad line as an editor numbers it, the reason, a cut last line dropped", async () => {
  // OpenCode stream, OpenHands events, Gemini CLI JSONL: blank lines count in the line number
  const oc = '{"type":"step_start","part":{}}\n\n\n{broken\n{"type":"text","part":{}}\n';
  await rejects(oc, "run.jsonl", /^run\.jsonl: invalid JSON on line 4 of a JSONL stream \(.*JSON/);
  const oh =
    '{"id":1,"source":"agent","action":"run","args":{"command":"ls"}}\n\n{"id":\n{"id":3}\n';
  await rejects(oh, "events.jsonl", /invalid JSON on line 3 of a JSONL log \(/);
  const gem =
    '{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}\n\nnope\n{"x":1}\n';
  await rejects(gem, "session.jsonl", /invalid JSON on line 3 of a JSONL log \(/);
  // a stream cut in its last line (a killed process) is read up to it
  const cut = await parseLog('{"type":"step_start","part":{}}\n{"type":"te', { file: "cut.jsonl" });
  assert.equal(cut.format, "opencode-jsonl");
});

Deno.test("Gemini CLI session with sub-agents: a bad sub-agent line names that file and line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const id = "5ec95d33-d405-4b82-9be5-8080824363b5";
    const head = (sid: string, kind: string) =>
      JSON.stringify({ sessionId: sid, projectHash: "h", startTime: "t", kind });
    await Deno.writeTextFile(
      `${dir}/session-2026-09-25T10-00-5ec95d33.jsonl`,
      head(id, "main") + "\n",
    );
    await Deno.mkdir(`${dir}/${id}`);
    const sub = `${dir}/${id}/agent.jsonl`;
    await Deno.writeTextFile(sub, head("a", "subagent") + "\n\noops\n" + '{"id":"m"}\n');
    await assert.rejects(
      readLog(`${dir}/session-2026-09-25T10-00-5ec95d33.jsonl`),
      (e: unknown) => {
        assert.ok(e instanceof LogFormatError, String(e));
        assert.match(
          e.message,
          new RegExp(`^${sub}: invalid JSON on line 3 of a Gemini CLI session \\(`),
        );
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrong types inside a valid log are ignored, not fatal", async () => {
  const a = await parseLog(
    JSON.stringify({ info: 5, messages: "x", trajectory_format: "mini-swe-agent-1" }),
    {
      file: "a.json",
    },
  );
  assert.deepEqual([a.events, a.coverage, a.lines], [[], 1, 0]);
  const b = await parseLog(
    JSON.stringify({
      info: { model_stats: { instance_cost: "lots" } },
      trajectory_format: "mini-swe-agent-1.1",
      messages: [
        null,
        7,
        {
          role: "assistant",
          content: 42,
          extra: { actions: [{ command: 3 }, null, { command: "cat a.py" }] },
        },
        { role: "tool", content: { weird: true }, extra: { raw_output: 9 } },
        { role: "assistant", extra: { actions: "nope" } },
      ],
    }),
    { file: "b.json", files: (p) => FILES[p] },
  );
  assert.equal(b.format, "mini-swe-agent-1.1");
  assert.equal(b.meta.cost, undefined);
  assert.ok(b.events.every((e) => Object.keys(e.lines).length === 0));
  const c = await parseLog(
    JSON.stringify({
      info: { id: "ses_1", directory: "/w" },
      messages: [{
        info: { role: "assistant" },
        parts: ["x", null, { type: "tool", tool: "read", state: null }],
      }],
    }),
    { file: "c.json" },
  );
  assert.equal(c.format, "opencode-export");
  assert.equal(c.lines, 0);
  const d = await parseLog(
    JSON.stringify({
      trajectory: [null, 1, { action: 5 }, { action: "cat a.py", observation: 7 }],
    }),
    {
      file: "d.traj",
    },
  );
  assert.equal(d.format, "swe-agent");
});

Deno.test("a 100 MB observation is read without trouble", async () => {
  const line = "y".repeat(99) + "\n";
  const huge = line.repeat(1_000_000); // 100,000,000 characters
  const log = JSON.stringify({
    info: {},
    trajectory_format: "mini-swe-agent-1.1",
    messages: [
      {
        role: "assistant",
        content: "",
        extra: { actions: [{ command: "cat big.txt", tool_call_id: "c1" }] },
      },
      {
        role: "tool",
        tool_call_id: "c1",
        content: `<returncode>0</returncode>\n<output_head>\n${
          huge.slice(0, 5000)
        }\n</output_head>\n<elided_chars>\n${
          huge.length - 10000
        } characters elided\n</elided_chars>\n<output_tail>\n${huge.slice(-5000)}\n</output_tail>`,
        extra: { raw_output: huge, returncode: 0 },
      },
    ],
  });
  const files = (p: string) => (p === "big.txt" ? huge : undefined);
  const r = await parseLog(log, { file: "huge.json", files });
  // 5000/100 = 50 lines at each end of 1,000,000
  assert.deepEqual(r.reads, { "big.txt": [[1, 50], [999_951, 1_000_000]] });
  assert.equal(r.lines, 100);
});

Deno.test("non-UTF-8 bytes in a log file are replaced, not fatal", async () => {
  const dir = await Deno.makeTempDir();
  const text = mini([["cat a.py", "x = 1\ny = 2\n"]]).replace("THOUGHT", "");
  const bytes = new TextEncoder().encode(text);
  // put invalid bytes (0xff 0xfe) inside the first message's content string
  const at = text.indexOf('"s"') + 2;
  const bad = new Uint8Array([...bytes.slice(0, at), 0xff, 0xfe, ...bytes.slice(at)]);
  await Deno.writeFile(`${dir}/log.json`, bad);
  await Deno.writeTextFile(`${dir}/a.py`, FILES["a.py"]);
  const r = await readLog(`${dir}/log.json`, { root: dir });
  assert.deepEqual(r.reads, { "a.py": [[1, 2]] });
  // binary garbage: a clear error
  await Deno.writeFile(`${dir}/bin.json`, new Uint8Array([0x00, 0xff, 0x13, 0x37]));
  await assert.rejects(
    readLog(`${dir}/bin.json`),
    (e: unknown) => e instanceof LogFormatError && e.message.includes("bin.json"),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("paths outside the workspace: never credited, never asked for", async () => {
  const { files, asked } = spy();
  const log = mini([
    ["cat /etc/passwd", "root:x:0:0\n"],
    ["cat ../../x", "secret\n"],
    ["cd .. && cat a.py", "other\n"],
    ["cd / && cat etc/hosts", "127.0.0.1\n"],
    ["cat ~/.ssh/id_rsa", "KEY\n"],
    ["sed -n '1,2p' /testbed/../etc/passwd", "root\n"],
    ["cat /testbed/a.py", "x = 1\ny = 2\n"],
    ["grep -rn root /etc", "/etc/passwd:1:root\n"],
    ["ls /", "bin\netc\n"],
  ]);
  const r = await parseLog(log, { file: "out.json", files, cwd: "/testbed" });
  assert.deepEqual(r.reads, { "a.py": [[1, 2]] });
  assert.deepEqual([...new Set(r.events.flatMap((e) => e.paths))], ["a.py"]);
  for (const p of asked) {
    assert.ok(!p.startsWith("/") && !p.split("/").includes("..") && p !== "", `asked for ${p}`);
  }
  // OpenCode and SWE-agent too
  const oc = await parseLog(
    JSON.stringify({
      info: { id: "ses_x", directory: "/w", version: "1.2.5" },
      messages: [{
        info: { role: "assistant" },
        parts: [
          {
            type: "tool",
            tool: "read",
            state: {
              status: "completed",
              input: { filePath: "/etc/shadow" },
              output: "<content>1: root\n</content>",
            },
          },
          {
            type: "tool",
            tool: "read",
            state: {
              status: "completed",
              input: { filePath: "../secret" },
              output: "<content>1: s\n</content>",
            },
          },
          {
            type: "tool",
            tool: "read",
            state: {
              status: "completed",
              input: { filePath: "/w/a.py" },
              output: "<content>1: x = 1\n</content>",
            },
          },
        ],
      }],
    }),
    { file: "oc.json", files },
  );
  assert.deepEqual(oc.reads, { "a.py": [[1, 1]] });
  const swe = await parseLog(
    JSON.stringify({
      trajectory: [{
        action: "str_replace_editor view /etc/passwd",
        observation: "Here's the result of running `cat -n` on /etc/passwd:\n     1\troot\n",
        state: { working_dir: "/testbed" },
      }],
    }),
    { file: "s.traj", files },
  );
  assert.deepEqual(swe.reads, {});
  for (const p of asked) {
    assert.ok(!p.startsWith("/") && !p.split("/").includes(".."), `asked for ${p}`);
  }
});

Deno.test("dirSource never reads outside its root, symlinks included", async () => {
  const outside = await Deno.makeTempDir();
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${outside}/secret.py`, "TOKEN = 1\n");
  await Deno.writeTextFile(`${root}/a.py`, "x = 1\n");
  await Deno.symlink(`${outside}/secret.py`, `${root}/link.py`);
  await Deno.symlink(outside, `${root}/linkdir`);
  await Deno.symlink(`${root}/a.py`, `${root}/inner.py`);
  const src = dirSource(root);
  assert.equal(src("a.py"), "x = 1\n");
  assert.equal(src("inner.py"), "x = 1\n"); // a link that stays inside is fine
  assert.equal(src("link.py"), undefined);
  assert.equal(src("linkdir/secret.py"), undefined);
  assert.equal(src(`../${outside.split("/").pop()}/secret.py`), undefined);
  assert.equal(src(`${outside}/secret.py`), undefined);
  assert.equal(src(""), undefined);
  // through the reader: the symlinked file is not credited
  await Deno.writeTextFile(
    `${root}/log.json`,
    mini([["cat link.py", "TOKEN = 1\n"], ["cat a.py", "x = 1\n"]]),
  );
  const r = await readLog(`${root}/log.json`, { root });
  assert.equal(r.reads["a.py"]?.length, 1);
  assert.ok(!("secret.py" in r.reads));
  await Deno.remove(outside, { recursive: true });
  await Deno.remove(root, { recursive: true });
});

Deno.test("reads CLI: JSON on success, exit 2 with a message on unusable input", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/ok.json`, mini([["head -n 1 a.py", "x = 1\n"]]));
  await Deno.writeTextFile(`${dir}/bad.json`, '{"messages": [');
  await Deno.writeTextFile(`${dir}/a.py`, FILES["a.py"]);
  const log = console.log, err = console.error;
  const outs: string[] = [], errs: string[] = [];
  console.log = (s: string) => outs.push(s);
  console.error = (s: string) => errs.push(s);
  try {
    assert.equal(await main(["reads", `${dir}/ok.json`, "--root", dir]), 0);
    const r = JSON.parse(outs.join("\n"));
    assert.deepEqual(Object.keys(r).slice(0, 6), [
      "format",
      "events",
      "reads",
      "files",
      "lines",
      "coverage",
    ]);
    assert.deepEqual([r.reads, r.files, r.lines, r.coverage], [{ "a.py": [[1, 1]] }, 1, 1, 1]);
    assert.equal(await main(["reads", `${dir}/bad.json`]), 2);
    assert.match(errs.join("\n"), /bad\.json: invalid JSON/);
    assert.equal(await main(["reads", `${dir}/missing.json`]), 2);
    assert.equal(await main(["reads", `${dir}/ok.json`, "--root", `${dir}/nope`]), 2);
    assert.equal(await main(["reads"]), 2);
    assert.equal(await main(["reads", "--bogus", "x"]), 2);
  } finally {
    console.log = log;
    console.error = err;
    await Deno.remove(dir, { recursive: true });
  }
});
