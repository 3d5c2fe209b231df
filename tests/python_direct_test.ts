/**
 * `lib/python/direct.ts` gives the same nodes as web-tree-sitter's public `Node` API (type,
 * offsets, positions, errors, children, every field), and the summariser gives the same summary
 * through either, on every fixture file (including the ones that do not parse).
 */
import assert from "node:assert/strict";
import { parserFor } from "../lib/util/treesitter.ts";
import { pythonParser, rootOf, type SyntaxNode } from "../lib/python/direct.ts";
import { summarizeWith } from "../lib/python/summary.ts";
import { fixtureTexts } from "./python_fixtures.ts";

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
    const compare = (x: SyntaxNode, y: SyntaxNode, path: string) => {
      nodes++;
      const where = `${file} ${path}`;
      assert.equal(y.type, x.type, where);
      assert.equal(y.startIndex, x.startIndex, where);
      assert.equal(y.endIndex, x.endIndex, where);
      assert.equal(y.text, x.text, where);
      assert.deepEqual(y.startPosition, x.startPosition, where);
      assert.deepEqual(y.endPosition, x.endPosition, where);
      assert.equal(y.hasError, x.hasError, where);
      assert.equal(y.isMissing, x.isMissing, where);
      assert.equal(y.namedChildCount, x.namedChildCount, where);
      assert.equal(y.childCount, x.childCount, where);
      for (const f of fields) {
        const fx = x.childForFieldName(f);
        const fy = y.childForFieldName(f);
        assert.equal(fy?.startIndex, fx?.startIndex, `${where} field ${f}`);
        assert.equal(fy?.type, fx?.type, `${where} field ${f}`);
      }
      const named = x.namedChildren.map((c) => c!.id);
      assert.deepEqual(
        y.children.map((c) =>
          y.namedChildren.some((n) => n!.startIndex === c!.startIndex && n!.type === c!.type)
        ),
        x.children.map((c) => named.includes(c!.id)),
        where,
      );
      x.children.forEach((c, i) => compare(c!, y.children[i]!, `${path}/${i}`));
      if (x.namedChildCount > 0) assert.equal(y.namedChild(0)!.parent?.startIndex, x.startIndex);
    };
    try {
      compare(a.rootNode, rootOf(b, text, fp), "");
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
