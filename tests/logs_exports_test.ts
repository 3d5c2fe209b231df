/**
 * Readers of the formats of issue 23 item 4 part B — Gemini CLI conversation exports
 * (`/chat share` JSON and Markdown, `/chat save` checkpoints), Qwen Code sessions, Claude Code
 * headless output, Cursor CLI stream-json, GitHub Copilot CLI sessions and Goose sessions —
 * against hand-counted line sets. Sources, licences and how the synthetic fixtures were built:
 * tests/fixtures/logs/SOURCES.md ("Issue 23 part B").
 */
import assert from "node:assert/strict";
import { detectFormat, parseLog, readLog } from "../lib/logs/mod.ts";
import type { ReadsResult } from "../lib/logs/mod.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url).pathname;
const WS = `${DIR}workspace`;

function linesByStep(r: ReadsResult): Record<number, Record<string, [number, number][]>[]> {
  const out: Record<number, Record<string, [number, number][]>[]> = {};
  for (const e of r.events) {
    if (!Object.keys(e.lines).length) continue;
    (out[e.step] ??= []).push(e.lines as Record<string, [number, number][]>);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI: /chat share (JSON, Markdown) and /chat save

for (const name of ["share.synthetic.json", "share.synthetic.md"]) {
  Deno.test(`Gemini CLI /chat share (${name.split(".").pop()}): each functionResponse read as the session reader reads it`, async () => {
    for (const root of [undefined, WS]) {
      const r = await readLog(`${DIR}gemini_chat/${name}`, { root });
      assert.equal(r.format, name.endsWith(".md") ? "gemini-chat-md" : "gemini-chat");
      // util.py whole (15 lines; the appended project context is not the file's), big.py
      // `Showing lines 10-14`, grep_search L7 / L5, shell grep -n 7 / 5, new.py after its write
      assert.deepEqual(r.reads, {
        "pkg/big.py": [[10, 14]],
        "pkg/core.py": [[7, 7]],
        "pkg/new.py": [[1, 2]],
        "pkg/util.py": [[1, 15]],
      });
      assert.deepEqual(linesByStep(r), {
        0: [{ "pkg/util.py": [[1, 15]] }, { "pkg/big.py": [[10, 14]] }],
        1: [{ "pkg/core.py": [[7, 7]], "pkg/util.py": [[5, 5]] }],
        2: [{ "pkg/core.py": [[7, 7]], "pkg/util.py": [[5, 5]] }],
        5: [{ "pkg/new.py": [[1, 2]] }],
      });
      // /etc/hosts is outside the workspace, the missing file's read failed: nothing credited
      assert.ok(!JSON.stringify(r.reads).includes("hosts"));
      const failed = r.events.find((e) => e.command.includes("missing.py"))!;
      assert.match(failed.note ?? "", /tool call failed/);
      assert.equal(r.events.filter((e) => e.kind === "write").length, 1);
      assert.equal(r.meta.steps, 7); // model turns, the last one text only
    }
  });
}

Deno.test("Gemini CLI /chat save checkpoint (no call ids, 0-based offset/limit, old environment line)", async () => {
  for (const root of [undefined, WS]) {
    const r = await readLog(`${DIR}gemini_chat/checkpoint-review.synthetic.json`, { root });
    assert.equal(r.format, "gemini-chat");
    // two read_file calls answered in order: core.py 5–9, util.py 9–11 (their headers)
    assert.deepEqual(r.reads, { "pkg/core.py": [[5, 9]], "pkg/util.py": [[9, 11]] });
    assert.deepEqual(r.events.map((e) => e.kind), ["read", "read", "list"]);
    assert.deepEqual(r.events[2].paths, ["pkg"]);
  }
});

Deno.test("Gemini CLI exports: bare Content[] (legacy checkpoint), restore checkpoint, detection", async () => {
  const share = JSON.parse(Deno.readTextFileSync(`${DIR}gemini_chat/share.synthetic.json`));
  // the /restore checkpoint written before an edit: `clientHistory` is the API history
  const restore = JSON.stringify({
    history: [{ type: "user", text: "x" }],
    clientHistory: share,
    toolCall: { name: "replace", args: {} },
    commitHash: "abc",
    filePath: "/work/proj/pkg/util.py",
  });
  const r = await parseLog(restore, { file: "checkpoints/x.json" });
  assert.equal(r.format, "gemini-chat");
  assert.deepEqual(r.reads["pkg/big.py"], [[10, 14]]);
  // a history that is not a Content[] (a UI history) is not claimed
  assert.throws(
    () => detectFormat(JSON.stringify({ history: [{ type: "user", text: "x" }] }), "h.json"),
    /unsupported log format/,
  );
  // a Markdown file that is not an export: not claimed
  assert.throws(() => detectFormat("## USER notes\n\nhello\n", "n.md"), /unsupported log format/);
  // a response whose call is missing (export cut after a compression) is listed, not credited
  const orphan = JSON.stringify([
    {
      role: "user",
      parts: [{ functionResponse: { name: "read_file", response: { output: "x" } } }],
    },
  ]);
  const o = await parseLog(orphan, { file: "o.json" });
  assert.equal(o.lines, 0);
  assert.equal(o.events.length, 1);
});

// ---------------------------------------------------------------------------------------------
// Qwen Code

Deno.test("Qwen Code session: the active branch, 0-based windows, trimmed grep lines, the unchanged stub", async () => {
  const f = `${DIR}qwen_chats/7d1e0c4a-2b3f-4c5d-8e9f-0a1b2c3d4e5f.jsonl`;
  for (const root of [undefined, WS]) {
    const r = await readLog(f, { root });
    assert.equal(r.format, "qwen-jsonl");
    // util.py whole; core.py offset 4 + limit 5 = 5–9 (its header); grep L36 / L5; sed 35–36.
    // The rewound branch's read of big.py is not in the conversation.
    assert.deepEqual(r.reads, {
      "pkg/core.py": [[5, 9], [35, 36]],
      "pkg/util.py": [[1, 15]],
    });
    assert.deepEqual(linesByStep(r), {
      0: [{ "pkg/util.py": [[1, 15]] }],
      1: [{ "pkg/core.py": [[5, 9]] }],
      // line 36 is indented; Qwen printed it trimmed: still credited against the file
      2: [{ "pkg/core.py": [[36, 36]], "pkg/util.py": [[5, 5]] }],
      4: [{ "pkg/core.py": [[35, 36]] }],
    });
    assert.ok(r.events.every((e) => e.placed !== false), JSON.stringify(r.events));
    assert.match(r.events[3].note ?? "", /unchanged since last read/);
    assert.equal(r.meta.steps, 6);
    assert.equal(r.coverage, 1);
  }
  // a trimmed line that is not the file's line is not credited
  const text = Deno.readTextFileSync(f).replace("L36: return [clamp", "L36: return [clampX");
  const bad = await parseLog(text, {
    file: "q.jsonl",
    files: (p) => Deno.readTextFileSync(`${WS}/${p}`),
  });
  assert.deepEqual(bad.reads["pkg/core.py"], [[5, 9], [35, 36]]);
  const grep = bad.events.find((e) => e.tool === "grep_search")!;
  assert.deepEqual(grep.lines, { "pkg/util.py": [[5, 5]] });
});

// ---------------------------------------------------------------------------------------------
// Claude Code headless output

Deno.test("Claude Code --output-format json --verbose: the array of stream messages, sub-agent included", async () => {
  for (const root of [undefined, WS]) {
    const r = await readLog(`${DIR}claude_json/print-json-verbose.synthetic.json`, { root });
    assert.equal(r.format, "claude-json");
    // Read offset 10 limit 5 printed 10–14; grep -n printed 5; the whole util.py (15 lines);
    // the sub-agent's Read of big.py (limit 3); /etc/passwd refused by the harness
    assert.deepEqual(r.reads, {
      "pkg/big.py": [[1, 3]],
      "pkg/core.py": [[10, 14]],
      "pkg/util.py": [[1, 15]],
    });
    assert.ok(!JSON.stringify(r.reads).includes("passwd"));
    assert.equal(r.meta.cost, 0.0125);
    assert.equal(r.meta.seconds, 5.234);
  }
  // without --verbose: the result object only, refused saying what it holds
  const only = Deno.readTextFileSync(`${DIR}unsupported/claude-print-json.synthetic.json`);
  assert.throws(() => detectFormat(only, "out.json"), /final result only .*stream-json/);
  // Qwen Code's Claude-style JSON output is not taken for Claude Code's
  const qwen = Deno.readTextFileSync(`${DIR}unsupported/qwen-output-json.synthetic.json`);
  assert.throws(
    () => detectFormat(qwen, "q.json"),
    /looks like a Qwen Code `--output-format json`/,
  );
});

// ---------------------------------------------------------------------------------------------
// GitHub Copilot CLI

Deno.test("GitHub Copilot CLI events.jsonl: view N. lines, directory listing, bash, grep, sub-agent", async () => {
  const f = `${DIR}copilot/session-state/381474ec-0000-4e9b-8a13-14b602e419dd/events.jsonl`;
  for (const root of [undefined, WS]) {
    const r = await readLog(f, { root });
    assert.equal(r.format, "copilot-events");
    // util.py 1–15 (empty lines printed `3.`), core.py view_range 10–14, grep -n 7 and 36,
    // grep content 5, 9, 14 of util.py, the sub-agent's big.py 1–3, new.py after its create
    assert.deepEqual(r.reads, {
      "pkg/big.py": [[1, 3]],
      "pkg/core.py": [[7, 7], [10, 14], [36, 36]],
      "pkg/new.py": [[1, 2]],
      "pkg/util.py": [[1, 15]],
    });
    assert.deepEqual(linesByStep(r), {
      0: [{ "pkg/util.py": [[1, 15]] }],
      1: [{ "pkg/core.py": [[10, 14]] }],
      2: [{ "pkg/core.py": [[7, 7], [36, 36]] }],
      3: [{ "pkg/util.py": [[5, 5], [9, 9], [14, 14]] }],
      5: [{ "pkg/big.py": [[1, 3]] }], // the sub-agent's view, at its task call's step
      7: [{ "pkg/new.py": [[1, 2]] }],
    });
    const list = r.events.find((e) => e.kind === "list")!;
    assert.deepEqual(list.paths, ["pkg"]);
    assert.ok(!JSON.stringify(r.reads).includes("hosts"));
    assert.match(r.events.find((e) => e.command.includes("missing.py"))!.note ?? "", /failed/);
    assert.equal(r.meta.steps, 8);
    assert.equal(r.coverage, 1);
  }
});

// ---------------------------------------------------------------------------------------------
// Goose

Deno.test("Goose session JSONL: text_editor view shows the whole file, read's 0-based window, shell, audience", async () => {
  for (const root of [undefined, WS]) {
    const r = await readLog(`${DIR}goose/20260501_1.jsonl`, { root });
    assert.equal(r.format, "goose-jsonl");
    // the view asked for lines 5–6 but the model got util.py whole (its assistant resource);
    // sed 3–5; read offset 19 limit 3 = lines 20–22; new.py after its write; /etc/hosts outside
    assert.deepEqual(r.reads, {
      "pkg/core.py": [[3, 5], [20, 22]],
      "pkg/new.py": [[1, 2]],
      "pkg/util.py": [[1, 15]],
    });
    assert.deepEqual(linesByStep(r), {
      0: [{ "pkg/util.py": [[1, 15]] }],
      1: [{ "pkg/core.py": [[3, 5]] }],
      2: [{ "pkg/core.py": [[20, 22]] }],
      5: [{ "pkg/new.py": [[1, 2]] }],
    });
    assert.deepEqual(r.events.filter((e) => e.kind === "list").map((e) => e.paths), [["pkg"]]);
    assert.ok(!JSON.stringify(r.reads).includes("hosts"));
    assert.equal(r.meta.steps, 7);
    assert.equal(r.meta.tokens_in, 1000);
  }
  // the stream-json output of `goose run`: the same messages wrapped in `message` events
  const lines = Deno.readTextFileSync(`${DIR}goose/20260501_1.jsonl`).trim().split("\n").slice(1);
  const stream = lines.map((l) => JSON.stringify({ type: "message", message: JSON.parse(l) }));
  stream.push(JSON.stringify({ type: "complete", total_tokens: 1200 }));
  const s = await parseLog(stream.join("\n"), { file: "goose.out.jsonl" });
  assert.equal(s.format, "goose-jsonl");
  // no working_dir: the root is the common directory of the paths (/work/proj/pkg and /etc
  // have none in common but /), so give it
  const s2 = await parseLog(stream.join("\n"), { file: "goose.out.jsonl", cwd: "/work/proj" });
  assert.deepEqual(s2.reads["pkg/util.py"], [[1, 15]]);
});

// ---------------------------------------------------------------------------------------------
// Cursor CLI

Deno.test("Cursor CLI stream-json: readToolCall content, an offset placed by the file, shell, writes", async () => {
  const f = `${DIR}cursor/stream.synthetic.jsonl`;
  const r = await readLog(f, { root: WS });
  assert.equal(r.format, "cursor-stream-json");
  // util.py whole (15 lines of content); core.py offset 10 limit 5 = lines 10–14, placed by the
  // file; grep -n 7 and 36; new.py after its write; /etc/hosts outside
  assert.deepEqual(r.reads, {
    "pkg/core.py": [[7, 7], [10, 14], [36, 36]],
    "pkg/new.py": [[1, 2]],
    "pkg/util.py": [[1, 15]],
  });
  assert.deepEqual(linesByStep(r), {
    0: [{ "pkg/util.py": [[1, 15]] }],
    1: [{ "pkg/core.py": [[10, 14]] }, { "pkg/core.py": [[7, 7], [36, 36]] }],
    3: [{ "pkg/new.py": [[1, 2]] }],
  });
  assert.match(r.events.find((e) => e.tool === "grepToolCall")!.note ?? "", /not documented/);
  assert.equal(r.meta.seconds, 5.234);
  assert.equal(r.meta.tokens_in, 1000);
  // without the workspace the offset read cannot be placed: not credited, and said so
  const bare = await readLog(f);
  assert.deepEqual(bare.reads["pkg/core.py"], [[7, 7], [36, 36]]);
  const offset = bare.events.find((e) => e.command.includes('"offset":10'))!;
  assert.ok(offset.placed === false && /base is not documented/.test(offset.note ?? ""));
  assert.ok(bare.coverage < 1);
  // --output-format json (the final result only) stays refused, saying why
  const only = JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    result: "x",
    session_id: "s",
  });
  assert.throws(() => detectFormat(only, "out.json"), /final result only/);
});

// ---------------------------------------------------------------------------------------------
// Gemini CLI stream-json

Deno.test("Gemini CLI stream-json: read_file lines from the display text, checked against the file", async () => {
  const f = `${DIR}gemini_stream/stream.synthetic.jsonl`;
  const r = await readLog(f, { root: WS, cwd: "/work/proj" });
  assert.equal(r.format, "gemini-stream-json");
  // display "" = util.py whole (15 lines, counted from the file); "Read lines 10-14 of 400";
  // the shell's output: grep -n 7 and 36; grep_search's summary credits nothing
  assert.deepEqual(r.reads, {
    "pkg/big.py": [[10, 14]],
    "pkg/core.py": [[7, 7], [36, 36]],
    "pkg/util.py": [[1, 15]],
  });
  assert.deepEqual(linesByStep(r), {
    0: [{ "pkg/util.py": [[1, 15]] }, { "pkg/big.py": [[10, 14]] }],
    1: [{ "pkg/core.py": [[7, 7], [36, 36]] }],
  });
  const grep = r.events.find((e) => e.tool === "grep_search")!;
  assert.ok(grep.placed === false && /summary/.test(grep.note ?? ""));
  assert.match(r.events.find((e) => e.command.includes("missing.py"))!.note ?? "", /failed/);
  assert.equal(r.meta.seconds, 4.321);
  assert.equal(r.meta.steps, 4);
  // without the workspace the whole-file read cannot be counted: not credited, and said so
  const bare = await readLog(f, { cwd: "/work/proj" });
  assert.equal(bare.reads["pkg/util.py"], undefined);
  assert.deepEqual(bare.reads["pkg/big.py"], [[10, 14]]);
  assert.match(bare.events[0].note ?? "", /does not say how many lines/);
});
