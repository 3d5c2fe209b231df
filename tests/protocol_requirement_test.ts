/**
 * Requirement rendering for the three memory settings (Appendix A.3 / B.2), the delivery
 * instructions, command templates and JUnit parsing.
 */
import assert from "node:assert/strict";
import {
  renderPrompt,
  renderRequirement,
  type SubmittedSource,
  type TurnSpec,
  withMemory,
} from "../lib/protocol/requirement.ts";
import { fillCommand, shellQuote } from "../lib/protocol/runner.ts";
import { parseJunit } from "../lib/protocol/hidden.ts";

const T1: TurnSpec = {
  turn: 1,
  module: "seaborn._core.color_mapping",
  path: "seaborn/_core/color_mapping.py",
  goal: "Map categorical levels to colors.",
  functions: [{
    name: "color_lookup",
    signature: "def color_lookup(data, values=None, order=None)",
    returns: "list[tuple[Any, tuple[float, ...]]]",
    behaviour: "Resolve the categorical levels and return the color of each level.",
  }],
};
const T2: TurnSpec = {
  turn: 2,
  module: "seaborn._core.color_stats",
  path: "seaborn/_core/color_stats.py",
  goal: "Summarise colors per level.",
  functions: [{
    name: "level_summary",
    signature: "def level_summary(data)",
    returns: "dict[str, int]",
    behaviour: "Count rows per level.",
  }],
};

const BODY2 = `Summarise colors per level.

Create the module \`seaborn._core.color_stats\` at \`seaborn/_core/color_stats.py\`, defining the following functions.

### \`level_summary\`

- Signature: \`def level_summary(data)\`
- Returns: dict[str, int]
- Behaviour: Count rows per level.
`;

Deno.test("requirement: none memory has no historical note", () => {
  assert.equal(renderRequirement(T2, "none", [T1]), BODY2);
  // turn 1 never has a note
  assert.ok(!renderRequirement(T1, "interface", []).includes("## Note"));
});

Deno.test("requirement: interface memory lists earlier modules and their functions", () => {
  assert.equal(
    renderRequirement(T2, "interface", [T1]),
    BODY2 + `
## Note

The repository already contains modules you implemented in earlier rounds. You are encouraged to reuse their public interfaces:

### Round 1 – \`seaborn._core.color_mapping\`

- \`color_lookup\`
  - Signature: \`def color_lookup(data, values=None, order=None)\`
  - Returns: list[tuple[Any, tuple[float, ...]]]
  - Behaviour: Resolve the categorical levels and return the color of each level.
`,
  );
});

Deno.test("requirement: source memory embeds the submitted file with UTF-8 length and SHA-256", async () => {
  const source = "# café ☕\ndef color_lookup(data, values=None, order=None):\n    return []\n";
  // independent digests: coreutils over the bytes on disk
  const tmp = await Deno.makeTempFile();
  await Deno.writeTextFile(tmp, source);
  const out = (cmd: string) =>
    new Deno.Command("sh", { args: ["-c", cmd], stdout: "piped" }).output().then((r) =>
      new TextDecoder().decode(r.stdout).trim().split(/\s+/)[0]
    );
  const bytes = await out(`wc -c < ${tmp}`);
  const digest = await out(`sha256sum ${tmp}`);
  await Deno.remove(tmp);
  assert.equal(bytes, "75"); // 72 characters, é and ☕ take 2 and 3 bytes
  const sources: SubmittedSource[] = [{
    turn: 1,
    module: T1.module,
    path: T1.path,
    source,
  }];
  assert.equal(
    renderRequirement(T2, "source", [T1], sources),
    BODY2 + `
## Note

The following exact source files were submitted by this same harness in earlier rounds of this task. Byte lengths delimit source payloads.

### Round 1 – \`seaborn._core.color_mapping\`

- Submit path: \`seaborn/_core/color_mapping.py\`
- UTF-8 bytes: ${bytes}
- SHA-256: \`${digest}\`

<<<CODEFLOW_L5_SELF_SOURCE bytes=${bytes}>>>
${source}<<<END_CODEFLOW_L5_SELF_SOURCE>>>
`,
  );
  // a round without a submission is said so
  const none = renderRequirement(T2, "source", [T1], [{ ...sources[0], source: null }]);
  assert.ok(none.includes("- No file was submitted at this path."));
  assert.ok(!none.includes("CODEFLOW_L5_SELF_SOURCE"));
});

Deno.test("requirement: the delivery instructions of B.2 wrap the requirement", () => {
  const prompt = renderPrompt("REQ\n", {
    workdir: "/testbed",
    submitTo: "pkg/mod.py",
    module: "pkg.mod",
  });
  assert.equal(
    prompt,
    `You are working in the repository checkout at /testbed (your working directory). The package is installed in editable mode, so \`python -c "import …"\` picks up any file you write there. The repository’s own test suite is not available; write and run your own checks if you need to.

# Requirement

REQ

# What you must deliver

A new Python module at exactly \`/testbed/pkg/mod.py\` (importable as \`pkg.mod\`), defining exactly the functions the requirement lists, with those names and signatures. The requirement may mention modules that already exist in the repository – find and reuse them where it makes sense; do not modify existing files.

Write the file, check that it imports and behaves as required, and fix what fails. A round with no file at that path scores zero however much you learned.
`,
  );
});

Deno.test("runner: command templates are filled with shell-quoted values", async () => {
  assert.equal(shellQuote("it's"), `'it'"'"'s'`);
  const cmd = fillCommand("printf %s {submit_path}", { submit_path: "/tmp/a b/it's.py" });
  const r = await new Deno.Command("bash", { args: ["-c", cmd], stdout: "piped" }).output();
  assert.equal(new TextDecoder().decode(r.stdout), "/tmp/a b/it's.py");
  assert.throws(() => fillCommand("run {nope}", { turn: "1" }), /unknown placeholder \{nope\}/);
});

Deno.test("hidden tests: JUnit reports map back to case ids", () => {
  const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="3">
<testcase classname="test_hidden" name="test_case[case_01]" time="0.01" />
<testcase classname="test_hidden" name="test_case[case_02]" time="0.01"><failure message="assert &apos;[1]&apos; == &apos;[2]&apos;&#10;  - [2]">trace</failure></testcase>
<testcase classname="test_hidden" name="test_case[case_03]" time="0.01"><error message="ImportError: x">trace</error></testcase>
</testsuite></testsuites>`;
  const r = parseJunit(xml);
  assert.deepEqual(r.get("case_01"), { id: "case_01", passed: true });
  assert.deepEqual(r.get("case_02"), {
    id: "case_02",
    passed: false,
    message: "assert '[1]' == '[2]'",
  });
  assert.deepEqual(r.get("case_03"), { id: "case_03", passed: false, message: "ImportError: x" });
});

Deno.test("requirement: a written interface requirement is re-rendered for another memory", () => {
  const written = renderRequirement(T2, "interface", [T1]);
  const sources: SubmittedSource[] = [{
    turn: 1,
    module: T1.module,
    path: T1.path,
    source: "x = 1\n",
  }];
  assert.equal(withMemory(written, "none", [T1]), renderRequirement(T2, "none", [T1]));
  assert.equal(
    withMemory(written, "source", [T1], sources),
    renderRequirement(T2, "source", [T1], sources),
  );
  assert.equal(withMemory(written, "interface", [T1]), written);
});
