/**
 * The reader registry (lib/logs/readers/index.ts) and detection that never guesses (issue 23
 * items 1–2): every fixture log is claimed by exactly one reader — its own —, every fixture of a
 * known unsupported format by none (and refused saying what it looks like), docs/harnesses.md
 * equals the registry, and `validate`'s harness check, `run --agent` and `reads --format` come
 * from it.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { bundleLog } from "../lib/logs/bundle.ts";
import { detectFormat, sniff } from "../lib/logs/detect.ts";
import { harnessMismatch, LogFormatError, parseLog } from "../lib/logs/mod.ts";
import { FORMATS, READERS } from "../lib/logs/readers/index.ts";
import { logInput } from "../lib/logs/readers/reader.ts";
import { generatedPart, renderReaders, tableCells } from "../lib/logs/readers/docs.ts";
import { looksLikeUnsupported, UNSUPPORTED } from "../lib/logs/readers/unsupported.ts";
import { AGENT_PRESETS, agentPreset } from "../lib/protocol/presets.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const LOGS = join(ROOT, "tests/fixtures/logs");

/**
 * Every log among the fixtures: the files of tests/fixtures/logs by name, OpenHands conversation
 * directories, and the `log.*` files of the run layouts (score corpus, sample data).
 */
function fixtureLogs(): { path: string; dir: boolean }[] {
  const out: { path: string; dir: boolean }[] = [];
  const walk = (d: string, all: boolean) => {
    const names = [...Deno.readDirSync(d)].sort((a, b) => a.name.localeCompare(b.name));
    if (names.some((e) => e.isDirectory && e.name === "events")) {
      out.push({ path: d, dir: true }); // a conversation directory is one log
      return;
    }
    for (const e of names) {
      const p = join(d, e.name);
      if (e.isDirectory) {
        if (!/(^|_)(ws|workspace|repos|tasks)$/.test(e.name)) walk(p, all);
        continue;
      }
      if (!all && !/^log\./.test(e.name)) continue;
      if (
        /^log\.|\.traj(\.json)?$|\.jsonl?$|\.llm\.history$|\.chat\.history\.md$|^share\..*\.md$/
          .test(
            e.name,
          ) &&
        !/^(config|meta|results|chain|tests|corpus)\.json$|^journal\.jsonl$/.test(e.name) &&
        !/\.meta\.json$|^base_state\.json$/.test(e.name)
      ) out.push({ path: p, dir: false });
    }
  };
  walk(LOGS, true);
  for (const d of ["tests/fixtures", "data/sample"]) {
    for (const e of Deno.readDirSync(join(ROOT, d))) {
      if (e.isDirectory && e.name !== "logs") walk(join(ROOT, d, e.name), false);
    }
  }
  return out;
}

/** The reader a fixture belongs to, from where it lies (independent of the detectors). */
function expectedReader(rel: string): string | undefined {
  if (rel.includes("/unsupported/") || rel.endsWith(".chat.history.md")) return undefined;
  const rules: [RegExp, string][] = [
    [/claude_json\//, "claude-code-json"],
    [/claude-code\//, "claude-code"],
    [/codex\//, "codex"],
    [/gemini_chat\//, "gemini-cli-chat"],
    [/gemini_stream\//, "gemini-cli-stream"],
    [/qwen_chats\//, "qwen-code"],
    [/copilot\//, "copilot-cli"],
    [/goose\//, "goose"],
    [/cursor\//, "cursor-cli"],
    [/gemini/, "gemini-cli"],
    [/opencode|OpenCode|construction\/agents\/opencode/, "opencode"],
    [/openhands/, "openhands"],
    [/aider/, "aider"],
    [/cline\//, "cline"],
    [/swe_agent\.traj$/, "swe-agent"],
    [/mini|score\/corpus|mini-SWE-agent/, "mini-swe-agent"],
  ];
  return rules.find(([re]) => re.test(rel))?.[1];
}

Deno.test("detector cross-test: each fixture log is claimed by exactly one reader, its own", async () => {
  const logs = fixtureLogs();
  assert.ok(logs.length >= 60, `${logs.length} fixture logs`);
  let unsupported = 0;
  for (const { path, dir } of logs) {
    const rel = relative(ROOT, path);
    const text = dir ? (await bundleLog(path))! : await Deno.readTextFile(path);
    const input = logInput(text, rel);
    const claims = READERS.filter((r) => {
      try {
        return r.detect(input) !== undefined;
      } catch {
        return true; // a reader that throws on a log has claimed it (its own markers, bad data)
      }
    }).map((r) => r.name);
    const want = expectedReader(rel);
    if (want === undefined) {
      unsupported++;
      assert.deepEqual(claims, [], `${rel}: claimed by ${claims}`);
      assert.ok(looksLikeUnsupported(input), `${rel}: no "looks like" recogniser`);
      assert.throws(() => sniff(text, rel), (e: Error) => {
        assert.ok(e instanceof LogFormatError);
        assert.match(e.message, new RegExp(`^${rel}: unsupported log format: looks like `));
        assert.match(e.message, /--format NAME/);
        assert.ok(!e.message.includes("\n"), "one line");
        return true;
      });
    } else {
      assert.deepEqual(claims, [want], rel);
      // and no "looks like" recogniser claims a supported log
      assert.equal(looksLikeUnsupported(input)?.looksLike, undefined, rel);
    }
  }
  // every recogniser has its fixture
  assert.ok(unsupported >= UNSUPPORTED.length, `${unsupported} unsupported fixtures`);
  for (const u of UNSUPPORTED) {
    const hit = logs.some(({ path, dir }) =>
      !dir && expectedReader(relative(ROOT, path)) === undefined &&
      looksLikeUnsupported(logInput(Deno.readTextFileSync(path), path)) === u
    );
    assert.ok(hit, `no fixture looks like ${u.looksLike}`);
  }
});

Deno.test("issue 23.1: a Gemini CLI chat export is read as one (was: mini-SWE-agent v1, 0 events, coverage 1)", async () => {
  for (const name of ["share.synthetic.json", "checkpoint-review.synthetic.json"]) {
    const r = await parseLog(Deno.readTextFileSync(join(LOGS, "gemini_chat", name)), {
      file: name,
    });
    assert.equal(r.format, "gemini-chat");
    assert.ok(r.events.length >= 3 && r.lines > 0, name);
  }
});

Deno.test("issue 23.1: a Cline api_conversation_history.json is not a mini-SWE-agent v1 log (was: bash fences read as commands)", async () => {
  const f = join(LOGS, "cline/prose-fence.synthetic.json");
  const r = await parseLog(Deno.readTextFileSync(f), { file: "api_conversation_history.json" });
  assert.equal(r.format, "cline");
  // the fence in the assistant's prose is no command; the read_file call and the command are
  assert.deepEqual(r.events.map((e) => e.tool), ["read_file", "execute_command"]);
});

Deno.test("issue 23.1: valid JSONL of an unknown format says what it looks like, not 'invalid JSON … position N'", () => {
  for (
    const [name, what] of [
      ["claude-managed-agents.synthetic.jsonl", /Claude Managed Agents/],
    ] as const
  ) {
    const text = Deno.readTextFileSync(join(LOGS, "unsupported", name));
    assert.throws(() => detectFormat(text, name), (e: Error) => {
      assert.match(e.message, what);
      assert.doesNotMatch(e.message, /position \d+/);
      return true;
    });
  }
  // JSONL no recogniser knows: its record types
  const odd = '{"type":"ping","n":1}\n{"type":"pong","n":2}\n';
  assert.throws(
    () => detectFormat(odd, "odd.jsonl"),
    /odd\.jsonl: unsupported log format: looks like JSON Lines with record types ping, pong\. Supported: claude-code, /,
  );
  // a cut JSON file is still "invalid JSON"
  assert.throws(() => detectFormat('{"info": {"a":', "cut.json"), /cut\.json: invalid JSON \(/);
});

Deno.test("detection: a log two readers claim is refused, naming both", () => {
  // a mini label on an OpenCode export: the label against the shape
  const text = JSON.stringify({
    info: { id: "ses_1" },
    messages: [],
    trajectory_format: "mini-swe-agent-1",
  });
  assert.throws(
    () => detectFormat(text, "x.json"),
    /labelled mini-swe-agent-1 \(trajectory_format\) but shaped like opencode-export log/,
  );
});

Deno.test("registry: names, formats and presets are unique; every format has one reader", () => {
  const names = READERS.map((r) => r.name);
  assert.equal(new Set(names).size, names.length);
  assert.equal(new Set(FORMATS).size, FORMATS.length);
  assert.equal(new Set(AGENT_PRESETS).size, AGENT_PRESETS.length);
  for (const r of READERS) {
    assert.ok(r.formats.length && r.harnessNames.length && r.files.length, r.name);
    for (const h of r.harnessNames) assert.match(h, /^[a-z0-9]+$/, r.name);
    if (r.run) assert.equal(agentPreset(r.run.name), r.run);
  }
  // `run --agent` presets are exactly the readers' run presets
  assert.deepEqual(
    [...AGENT_PRESETS].sort(),
    READERS.flatMap((r) => (r.run ? [r.run.name] : [])).sort(),
  );
});

Deno.test("issue 22.10: validate's harness check knows every family of the registry", () => {
  // a Codex log filed under a claude-code configuration (was: validated silently)
  assert.match(
    harnessMismatch("claude-code", "codex") ?? "",
    /says "claude-code" but this is a codex log \(Codex CLI\)/,
  );
  for (const r of READERS) {
    for (const other of READERS) {
      const m = harnessMismatch(r.run?.harness ?? r.harness, other.formats[0]);
      // readers of one family (Gemini CLI sessions and exports) do not mismatch each other
      if (r.harness === other.harness) assert.equal(m, undefined, `${r.name} / ${other.name}`);
      else assert.ok(m, `${r.name} / ${other.name}`);
    }
  }
  // names in any case and punctuation; unknown names are never a mismatch
  assert.match(harnessMismatch("Gemini CLI", "openhands-v1") ?? "", /OpenHands/);
  assert.equal(harnessMismatch("my-own-harness", "codex"), undefined);
});

Deno.test("docs/harnesses.md: the readers' table is the registry's", () => {
  const page = Deno.readTextFileSync(join(ROOT, "docs/harnesses.md"));
  const part = generatedPart(page);
  assert.ok(part, "docs/harnesses.md has the generated markers");
  const want = renderReaders(READERS, UNSUPPORTED);
  // deno fmt pads the table and wraps the list: compare cells and words
  assert.deepEqual(tableCells(part!), tableCells(want), "run `deno task harness-docs`");
  const prose = (md: string) =>
    md.split("\n").filter((l) => !l.startsWith("|")).join(" ").replace(/\s+/g, " ").trim();
  assert.equal(prose(part!), prose(want), "run `deno task harness-docs`");
  for (const r of READERS) assert.ok(page.includes(`**${r.harness}**`), r.harness);
});
