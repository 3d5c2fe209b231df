/**
 * What the Python tests share: the fixture files, read once (`.py` files below the given fixture
 * folders, sorted, as text; binary and non-UTF-8 fixtures are left out, they are not parsed at
 * all), and a node-for-node comparison of two syntax trees that does not use the library's own.
 */
import assert from "node:assert/strict";
import type { SyntaxNode } from "../lib/python/direct.ts";

async function pyFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(d)) {
    const p = `${d}/${e.name}`;
    if (e.isDirectory) out.push(...await pyFiles(p));
    else if (e.name.endsWith(".py")) out.push(p);
  }
  return out.sort();
}

/** Path → text of every UTF-8 `.py` file below `tests/fixtures/<folder>/` for each folder. */
export async function fixtureTexts(...folders: string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const folder of folders) {
    for (const f of await pyFiles(new URL(`./fixtures/${folder}`, import.meta.url).pathname)) {
      try {
        texts.set(f, new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(f)));
      } catch {
        // binary / non-UTF-8 fixtures are not parsed at all
      }
    }
  }
  return texts;
}

/**
 * Asserts that `y`'s tree equals the reference tree `x`, node for node: type, offsets, text,
 * positions, error flags, children (which of them are named), the child of each of `fields`,
 * parents. Returns the number of nodes compared.
 */
export function assertSameTree(
  x: SyntaxNode,
  y: SyntaxNode,
  fields: readonly string[],
  where: string,
): number {
  let nodes = 1;
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
  x.children.forEach((c, i) =>
    nodes += assertSameTree(c!, y.children[i]!, fields, `${where}/${i}`)
  );
  if (x.namedChildCount > 0) assert.equal(y.namedChild(0)!.parent?.startIndex, x.startIndex);
  return nodes;
}
