/** The generated README section: real example output, spliced only between the markers. */
import assert from "node:assert/strict";
import { writeFixture } from "./fixtures/query/fixture.ts";
import {
  END,
  EXAMPLES,
  openScored,
  renderSection,
  replaceSection,
  shellQuote,
  START,
} from "../lib/query/mod.ts";

Deno.test("renderSection: five README examples with their output on the data", async () => {
  const q = await openScored(await writeFixture());
  const md = renderSection(q, "the fixture");
  const shown = EXAMPLES.filter((e) => e.readme);
  assert.equal(shown.length, 5);
  for (const e of shown) assert.ok(md.includes(`**${e.question}**`), e.id);
  assert.equal(md.match(/```text\n/g)?.length, 5);
  // The grep example's output, as computed by hand in query_views_test.ts.
  assert.ok(md.includes(
    [
      "harness         model         memory  chain  turn  target",
      "--------------  ------------  ------  -----  ----  --------------",
      "OpenCode        Qwen3.7-plus  none    c1        1  pkg.util.norm",
      "mini-SWE-agent  Qwen3.7-plus  none    c1        1  pkg.core.load",
      "mini-SWE-agent  Qwen3.7-plus  none    c1        1  pkg.util.scale",
      "mini-SWE-agent  Qwen3.7-plus  none    c1        2  pkg.util.norm",
    ].join("\n"),
  ));
  // Commands are one shell line each.
  assert.ok(
    md.includes(
      `FROM missed_targets WHERE kind = 'repo' GROUP BY model, class ORDER BY model, class"`,
    ),
  );
});

Deno.test("replaceSection: only the text between the markers changes; missing markers throw", () => {
  const readme = `# x\n\nintro\n${START}\nold stuff\n${END}\n\n## after\n`;
  assert.equal(
    replaceSection(readme, "\nnew\n"),
    `# x\n\nintro\n${START}\nnew\n${END}\n\n## after\n`,
  );
  assert.throws(() => replaceSection("# no markers\n", "x"), /needs the markers/);
  assert.throws(() => replaceSection(`${END}\n${START}`, "x"), /in that order/);
});

Deno.test("shellQuote: one shell word that bash gives back unchanged", async () => {
  for (
    const sql of [
      "SELECT * FROM t WHERE a = 'x'\n  AND regexp_like(command, '\\bgrep\\b')",
      `SELECT "odd col", '$HOME' FROM t`,
      "SELECT 'it''s' AS s, '!x' AS b",
    ]
  ) {
    const res = await new Deno.Command("bash", {
      args: ["-c", `printf %s ${shellQuote(sql)}`],
      stdout: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(res.stdout), sql.replace(/\s*\n\s*/g, " "));
  }
});
