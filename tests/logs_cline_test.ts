// Issue 23 item 4: Cline / Roo Code / Kilo Code api_conversation_history.json. The fixtures in
// tests/fixtures/logs/cline/ are synthetic (make_cline_fixtures.py, see SOURCES.md: the results
// are what the extensions' own code prints for tests/fixtures/logs/workspace); the expected line
// sets below are counted by hand from those results.
import assert from "node:assert/strict";
import { readLog } from "../lib/logs/mod.ts";
import type { Event, ReadsResult } from "../lib/logs/mod.ts";
import { commandObservation, xmlCall } from "../lib/logs/readers/cline.ts";

const DIR = new URL("./fixtures/logs/cline/", import.meta.url).pathname;
const ROOT = new URL("./fixtures/logs/workspace", import.meta.url).pathname;
const read = (name: string, root = true) => readLog(`${DIR}${name}`, root ? { root: ROOT } : {});
const byTool = (r: ReadsResult, tool: string): Event[] => r.events.filter((e) => e.tool === tool);

Deno.test("Cline 3.89 (XML calls): N | labels, windows, commands, writes; only lines shown are credited", async () => {
  const r = await read("cline-3.89-xml.synthetic.json");
  assert.equal(r.format, "cline");
  assert.deepEqual(r.reads, {
    "pkg/big.py": [[100, 110]], // start_line 100, end_line 110
    "pkg/core.py": [[1, 40]], // the whole file, (File has 40 lines total.)
    "pkg/helper2.py": [[1, 2]], // the file written with write_to_file, then read
    // sed -n '5,8p' shows 5–6 (Cline trims the output: blank lines 7–8 are not shown); the
    // read of 1–3 whose line 2 contradicts the file: 1 and 3
    "pkg/util.py": [[1, 1], [3, 3], [5, 6]],
  });
  const search = byTool(r, "search_files")[0];
  assert.deepEqual([search.kind, search.paths, search.placed], ["search", ["pkg"], false]);
  assert.deepEqual(byTool(r, "list_files")[0].paths, ["pkg"]);
  const reads = byTool(r, "read_file");
  assert.match(reads[2].note!, /failed or denied/); // "The user denied this operation."
  assert.deepEqual([reads[3].paths, reads[3].lines], [[], {}]); // /etc/hostname: outside
  assert.equal(reads[5].placed, false);
  assert.equal(r.meta.steps, 11);
  assert.ok(r.coverage < 1);
});

Deno.test("Cline native tool use on Windows: tool_result with the prefix, a text result, PowerShell", async () => {
  const r = await read("cline-native-windows.synthetic.json");
  // Get-Content | Select-Object -Skip 9 -First 5: lines 10–14
  assert.deepEqual(r.reads, { "pkg/core.py": [[10, 14]], "pkg/util.py": [[9, 15]] });
  assert.ok(r.events.every((e) => e.placed));
});

Deno.test("Cline ≤ 3.20: the result in the next text block, the file text without numbers; no prose fences", async () => {
  const r = await read("prose-fence.synthetic.json");
  // the bare text of lines 1–2, and `sed -n 1,2p`
  assert.deepEqual(r.reads, { "pkg/util.py": [[1, 2]] });
  assert.deepEqual(r.events.map((e) => e.tool), ["read_file", "execute_command"]);
  // without the workspace the bare text still counts its lines
  assert.deepEqual((await read("prose-fence.synthetic.json", false)).reads, {
    "pkg/util.py": [[1, 2]],
  });
});

Deno.test("Roo Code XML era: several files per read, # path search results, the Roo command result", async () => {
  const r = await read("roo-xml.synthetic.json");
  assert.deepEqual(r.reads, {
    "pkg/big.py": [[1, 4]], // head -n 4
    "pkg/core.py": [[1, 12], [20, 25]], // line_range 1-12; search lines 20–22 and 23–25
    "pkg/util.py": [[1, 15]],
  });
  const missing = r.events.find((e) => e.paths.includes("pkg/missing.py"))!;
  assert.deepEqual(missing.lines, {});
  assert.equal(r.coverage, 1);
});

Deno.test("Roo Code native: File: p blocks after the truncation notice; a call left unanswered", async () => {
  const r = await read("roo-native.synthetic.json");
  assert.deepEqual(r.reads, { "pkg/big.py": [[200, 204]] });
  assert.match(r.events[2].note!, /no tool result in the log/);
});

Deno.test("Cline XML calls and command results parsed as the extensions write them", () => {
  const c = xmlCall(
    "I'll look.\n<read_file>\n<path> src/a.ts </path>\n<start_line>5</start_line>\n</read_file>\n<list_files>",
  );
  assert.deepEqual(c?.params, { path: "src/a.ts", start_line: "5" });
  const w = xmlCall(
    "<write_to_file>\n<path>a.py</path>\n<content>\nx = '</content>'\ny = 1\n</content>\n</write_to_file>",
  );
  assert.equal(w?.params.content, "x = '</content>'\ny = 1");
  assert.equal(xmlCall("use <read_file> next time"), undefined);
  assert.deepEqual(commandObservation("Command failed with exit code 2.\nOutput:\nboom"), {
    output: "boom\n",
    returncode: 2,
  });
  assert.deepEqual(
    commandObservation(
      "Command executed in terminal within working directory '/w'. Exit code: 0\nOutput:\na\n",
    ),
    { output: "a\n", returncode: 0 },
  );
});

Deno.test("a Cline task directory reads its api_conversation_history.json; ui_messages.json alone is refused", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(`${DIR}roo-xml.synthetic.json`, `${dir}/api_conversation_history.json`);
  const ui =
    new URL("./fixtures/logs/unsupported/cline-ui_messages.synthetic.json", import.meta.url)
      .pathname;
  await Deno.copyFile(ui, `${dir}/ui_messages.json`);
  await Deno.writeTextFile(`${dir}/task_metadata.json`, '{"files_in_context":[]}');
  const r = await readLog(dir, { root: ROOT });
  assert.deepEqual(r.reads, (await read("roo-xml.synthetic.json")).reads);
  await assert.rejects(
    () => readLog(`${dir}/ui_messages.json`),
    /looks like a Cline \/ Roo Code \/ Kilo Code ui_messages.json.*read api_conversation_history.json/s,
  );
});
