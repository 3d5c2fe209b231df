/**
 * Issue 22, log items: a read is credited only for a regular file inside the workspace, and only
 * for the lines whose shown text matches the file (item 8; one check, `TurnWorkspace.credit`);
 * a log file that is a FIFO or a device, a log directory over the size limit, Claude `progress`
 * copies that repeat their own Task call, and a log filed under another harness's configuration
 * (item 10). Each case failed on main at 8821749 (credited, hung, crashed or passed silently).
 */
import assert from "node:assert/strict";
import { checkLogText, LogFormatError, parseLog, readLog } from "../lib/logs/mod.ts";

const jl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
const line = (type: string, extra: Record<string, unknown>) => ({
  type,
  sessionId: "s1",
  cwd: "/repo",
  version: "2.1.150",
  uuid: crypto.randomUUID(),
  ...extra,
});
const use = (id: string, name: string, input: unknown) =>
  line("assistant", {
    message: { id: `m-${id}`, role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  });
const result = (id: string, content: unknown) =>
  line("user", {
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  });
/** A Claude Code `Read` result of `lines` from line 1 (`N\ttext`). */
const numbered = (lines: string[]) => lines.map((t, i) => `${i + 1}\t${t}`).join("\n");

const A_PY = "import os\n\n\ndef main():\n    return os.getcwd()\n"; // 5 lines
const files = (p: string) => (p === "pkg/a.py" ? A_PY : undefined);

Deno.test("issue 22.8: a Claude Read of a file the workspace does not hold credits nothing", async () => {
  const passwd = ["root:x:0:0:root:/root:/bin/bash", "daemon:x:1:1::/usr/sbin:/usr/sbin/nologin"];
  const log = jl([
    use("t1", "Read", { file_path: "/repo/pkg/ghost.py" }),
    result("t1", numbered(passwd)),
    // a Windows path taken as a relative name (C:\… is not a workspace file)
    use("t2", "Read", { file_path: "C:\\Users\\x\\proj\\pkg\\a.py" }),
    result("t2", numbered(A_PY.split("\n").slice(0, 5))),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files });
  assert.deepEqual(r.reads, {});
  // the Windows path is an absolute path outside the workspace (issue 23.3), not a file name
  assert.deepEqual(r.events.map((e) => e.paths), [["pkg/ghost.py"], []]);
  assert.match(r.events[1].note ?? "", /outside the workspace, ignored: C:\\Users/);
  assert.deepEqual([r.files, r.lines], [1, 0]);
  assert.equal(r.events[0].placed, false);
  assert.match(r.events[0].note ?? "", /pkg\/ghost\.py is not a regular file in the workspace/);
  assert.equal(r.coverage, 0.5);
});

Deno.test("issue 22.8: a read clipped to a shorter file, or whose text contradicts it, is unplaced", async () => {
  const real = A_PY.replace(/\n$/, "").split("\n");
  const log = jl([
    // 8 lines shown of a 5-line file: the 3 past its end are not credited
    use("t1", "Read", { file_path: "/repo/pkg/a.py" }),
    result("t1", numbered([...real, "x = 1", "y = 2", "z = 3"])),
    // lines 1–5 shown, line 4 contradicts the file
    use("t2", "Read", { file_path: "/repo/pkg/a.py", offset: 1, limit: 5 }),
    result("t2", numbered(real.map((l, i) => (i === 3 ? "def evil():" : l)))),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files });
  const [clipped, contradicted] = r.events;
  assert.deepEqual(clipped.lines, { "pkg/a.py": [[1, 5]] });
  assert.equal(clipped.placed, false);
  assert.match(clipped.note ?? "", /3 of 8 lines shown do not match pkg\/a\.py \(5 lines\)/);
  assert.deepEqual(contradicted.lines, { "pkg/a.py": [[1, 3], [5, 5]] });
  assert.equal(contradicted.placed, false);
  assert.equal(r.coverage, 0);
  // the same reads matching the file are credited and placed
  const ok = await parseLog(
    jl([use("t", "Read", { file_path: "pkg/a.py" }), result("t", numbered(real))]),
    {
      file: "s.jsonl",
      files,
    },
  );
  assert.deepEqual([ok.reads, ok.coverage], [{ "pkg/a.py": [[1, 5]] }, 1]);
});

Deno.test("issue 22.8: a cat whose output contradicts the file credits only the lines that match", async () => {
  const fence = "`".repeat(3);
  const out = "import os\n\n\ndef evil():\n    return os.system('x')\n"; // same count, lines 4–5 differ
  const log = JSON.stringify({
    info: {},
    trajectory_format: "mini-swe-agent-1",
    messages: [
      { role: "assistant", content: `${fence}bash\ncat pkg/a.py\n${fence}` },
      { role: "user", content: `<returncode>0</returncode>\n<output>\n${out}</output>` },
    ],
  });
  const r = await parseLog(log, { file: "t.json", files, cwd: "/testbed" });
  assert.deepEqual(r.reads, { "pkg/a.py": [[1, 3]] });
  assert.equal(r.events[0].placed, false);
  assert.match(r.events[0].note ?? "", /2 of 5 lines shown do not match pkg\/a\.py/);
  assert.equal(r.coverage, 0);
});

Deno.test("issue 22.8: a Gemini read_file of a symlink to /etc/passwd credits nothing", async () => {
  const ws = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${ws}/pkg`);
    await Deno.writeTextFile(`${ws}/pkg/a.py`, A_PY);
    await Deno.symlink("/etc/passwd", `${ws}/pkg/notes.txt`);
    const passwd = "root:x:0:0:root:/root:/bin/bash\n";
    const session = {
      sessionId: "5ec95d33-d405-4b82-9be5-8080824363b5",
      projectHash: "0".repeat(64),
      startTime: "2026-01-01T00:00:00.000Z",
      lastUpdated: "2026-01-01T00:00:10.000Z",
      messages: [
        {
          id: "u1",
          timestamp: "2026-01-01T00:00:00.000Z",
          type: "user",
          content: [{ text: "go" }],
        },
        {
          id: "g1",
          timestamp: "2026-01-01T00:00:05.000Z",
          type: "gemini",
          content: "",
          toolCalls: ["pkg/notes.txt", "pkg/a.py"].map((p, i) => ({
            id: `read_file_${i}`,
            name: "read_file",
            args: { file_path: `/work/proj/${p}` },
            result: [{
              functionResponse: {
                id: `read_file_${i}`,
                name: "read_file",
                response: { output: i === 0 ? passwd : A_PY },
              },
            }],
            status: "success",
          })),
        },
      ],
    };
    const f = `${ws}.session.json`;
    await Deno.writeTextFile(f, JSON.stringify(session));
    const r = await readLog(f, { root: ws, cwd: "/work/proj" });
    assert.deepEqual(r.reads, { "pkg/a.py": [[1, 5]] });
    const link = r.events.find((e) => e.paths.includes("pkg/notes.txt"))!;
    assert.deepEqual([link.lines, link.placed], [{}, false]);
    await Deno.remove(f);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("issue 22.10: a Gemini session path that is a FIFO or /dev/zero is refused at once", async () => {
  // run in a child process: on main the FIFO read waited forever and /dev/zero read gigabytes
  const dir = await Deno.makeTempDir();
  try {
    const id = "5ec95d33-d405-4b82-9be5-8080824363b5";
    await Deno.mkdir(`${dir}/chats/${id}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/chats/${id}/sub.json`, "{}");
    const fifo = `${dir}/chats/session-2026-01-01T00-00-5ec95d33.json`;
    const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(mk.success, "mkfifo");
    await Deno.mkdir(`${dir}/z/chats/${id}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/z/chats/${id}/sub.json`, "{}");
    const zero = `${dir}/z/chats/session-2026-01-01T00-00-5ec95d33.json`;
    await Deno.symlink("/dev/zero", zero);
    const mod = new URL("../lib/logs/mod.ts", import.meta.url).href;
    const script = `
      const { readLog } = await import(${JSON.stringify(mod)});
      const out = [];
      for (const p of Deno.args) {
        try { await readLog(p); out.push("read"); } catch (e) { out.push(String(e.message)); }
      }
      console.log(JSON.stringify(out));`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", script, fifo, zero],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const got = await child.output();
    clearTimeout(timer);
    assert.ok(got.success, `timed out or failed: ${new TextDecoder().decode(got.stderr)}`);
    const msgs: string[] = JSON.parse(new TextDecoder().decode(got.stdout));
    assert.equal(msgs.length, 2);
    assert.match(
      msgs[0],
      /session-2026-01-01T00-00-5ec95d33\.json: cannot read the file: not a regular file/,
    );
    assert.match(msgs[1], /cannot read the file: not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("issue 22.10: an OpenHands event directory over the size limit is refused with one line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/events`);
    const ev = { id: "e0", timestamp: "2026-01-01T00:00:00", source: "user", kind: "MessageEvent" };
    await Deno.writeTextFile(`${dir}/events/event-00000-e0.json`, JSON.stringify(ev));
    // two 150 MiB event files (sparse: no disk used): each within the limit, together over it
    for (const n of [1, 2]) {
      const big = await Deno.open(`${dir}/events/event-0000${n}-e${n}.json`, {
        create: true,
        write: true,
      });
      await big.truncate(150 * 2 ** 20);
      big.close();
    }
    await assert.rejects(() => readLog(dir), (e: Error) => {
      assert.ok(e instanceof LogFormatError, String(e));
      assert.match(
        e.message,
        new RegExp(
          `^${dir}: its files are over the 256 MiB limit of one log \\(300 MiB in 3 files\\)$`,
        ),
      );
      assert.ok(!e.message.includes("\n"));
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("issue 22.10: Claude progress copies that repeat their own Task call are read once", async () => {
  // the parent's progress lines copy the sub-agent's messages; here they repeat the Task call
  // itself (same tool_use id), which replayed the copies into themselves without end
  const task = use("task1", "Task", { description: "look", prompt: "…" });
  const copy = (inner: Record<string, unknown>) =>
    line("progress", {
      parentToolUseID: "task1",
      data: { type: "agent_progress", agentId: "a1", message: inner },
    });
  const log = jl([
    task,
    copy({ type: "assistant", message: (task as Record<string, unknown>).message }),
    copy(use("r1", "Read", { file_path: "/repo/pkg/a.py" })),
    copy(result("r1", numbered(A_PY.replace(/\n$/, "").split("\n")))),
    copy(result("task1", "done")),
    result("task1", "done"),
  ]);
  const r = await parseLog(log, { file: "s.jsonl", files });
  assert.deepEqual(r.reads, { "pkg/a.py": [[1, 5]] });
  assert.equal(r.events.filter((e) => e.tool === "Task").length, 1);
  assert.equal(r.coverage, 1);
});

Deno.test("issue 22.10: a Codex log filed under a claude-code configuration fails validation", async () => {
  const codex = jl([
    { timestamp: "t", type: "session_meta", payload: { id: "x", cwd: "/repo" } },
    {
      timestamp: "t",
      type: "response_item",
      payload: { type: "message", role: "user", content: [] },
    },
  ]);
  await assert.rejects(
    () => checkLogText(codex, { file: "runs/k/c/turn1/log.jsonl", harness: "claude-code", files }),
    /log\.jsonl: the configuration says "claude-code" but this is a codex log \(Codex CLI\)/,
  );
  await checkLogText(codex, { file: "log.jsonl", harness: "codex", files });
});

Deno.test("issue 23.3: Windows paths are absolute: placed inside the workspace, never joined onto the root", async () => {
  const win = (type: string, extra: Record<string, unknown>) => ({
    ...line(type, extra),
    cwd: "C:\\Users\\x\\proj",
  });
  const read = (id: string, path: string) => [
    win("assistant", {
      message: {
        id: `m-${id}`,
        role: "assistant",
        content: [{ type: "tool_use", id, name: "Read", input: { file_path: path } }],
      },
    }),
    win("user", {
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: id,
          content: numbered(A_PY.replace(/\n$/, "").split("\n")),
        }],
      },
    }),
  ];
  const log = jl([
    ...read("t1", "C:\\Users\\x\\proj\\pkg\\a.py"), // backslashes
    ...read("t2", "c:/users/x/PROJ/pkg/a.py"), // lower-case drive, forward slashes, other case
    ...read("t3", "C:\\Users\\x\\proj/pkg\\a.py"), // mixed separators
    ...read("t4", "pkg\\a.py"), // relative, backslash
    ...read("t5", "C:\\Users\\x\\other\\pkg\\a.py"), // outside the workspace
    ...read("t6", "D:\\proj\\pkg\\a.py"), // another drive
  ]);
  const r = await parseLog(log, { file: "win.jsonl", files });
  assert.deepEqual(r.reads, { "pkg/a.py": [[1, 5]] });
  assert.deepEqual(r.events.map((e) => e.paths), [
    ["pkg/a.py"],
    ["pkg/a.py"],
    ["pkg/a.py"],
    ["pkg/a.py"],
    [],
    [],
  ]);
  assert.match(r.events[4].note ?? "", /outside the workspace/);
  // no key is the root joined onto an absolute path
  assert.ok(Object.keys(r.reads).every((k) => !/[A-Za-z]:/.test(k)));
});
