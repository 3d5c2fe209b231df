/**
 * `lib/python/direct.ts` gives the same nodes as web-tree-sitter's public `Node` API (type,
 * offsets, positions, errors, children, every field), and the summariser gives the same summary
 * through either, on every fixture file (including the ones that do not parse).
 */
import assert from "node:assert/strict";
import { parserFor } from "../lib/util/treesitter.ts";
import { pythonParser, rootOf } from "../lib/python/direct.ts";
import { summarizeWith } from "../lib/python/summary.ts";
import { assertSameTree, fixtureTexts } from "./python_fixtures.ts";

const dir = new URL("./fixtures/python/", import.meta.url).pathname;
const texts = await fixtureTexts("python");

Deno.test("direct: fixtures exist", () => assert.ok(texts.size >= 20, `${texts.size} files`));

Deno.test("direct: every node equals web-tree-sitter's Node", async () => {
  const reference = await parserFor("python");
  const fp = await pythonParser();
  assert.ok(fp.wasm, "the wasm module's node functions are available");
  const fields = fp.language.fields.filter((f): f is string => !!f);
  let nodes = 0;
  for (const [file, text] of texts) {
    const a = reference.parse(text)!;
    const b = fp.parser.parse(text)!;
    try {
      nodes += assertSameTree(a.rootNode, rootOf(b, text, fp), fields, file);
    } finally {
      a.delete();
      b.delete();
    }
  }
  assert.ok(nodes > 2000, `${nodes} nodes compared`);
});

Deno.test("direct: summaries equal through the public Node API", async () => {
  const fp = await pythonParser();
  const viaNode = { ...fp, wasm: null };
  for (const [file, text] of texts) {
    const rel = file.slice(dir.length);
    assert.deepEqual(
      summarizeWith(fp, text, rel, "pkg.m"),
      summarizeWith(viaNode, text, rel, "pkg.m"),
      rel,
    );
  }
});
