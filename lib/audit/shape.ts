/**
 * The shape of every function of a file, for matching moved code and for the structural clone
 * signal: one tree-sitter parse gives, per `def`,
 *
 * - `hash`: a hash of its tokens with comments, its docstring and its own name left out — equal
 *   hashes mean the same code (a moved or renamed function, a re-indented one);
 * - `features`: a normalised-AST feature vector — every node's type with identifiers abstracted to
 *   `I` and literals to `L`, counted as (node, its children) shapes and (parent, node) edges — so
 *   that two functions built alike compare as alike whatever their names, helpers and constants;
 * - `size`: number of named nodes counted.
 *
 * {@link similarity} is the weighted Jaccard index of two feature vectors (Σ min / Σ max), in
 * [0, 1]; 1 means the same normalised tree shapes.
 *
 * @example
 * ```ts
 * import { fileShapes, similarity } from "./shape.ts";
 * const a = await fileShapes("def f(xs):\n    total = 0\n    for x in xs:\n        total += x * 2\n    return total\n");
 * const b = await fileShapes("def g(items):\n    acc = 1\n    for it in items:\n        acc += it * 3  # other names\n    return acc\n");
 * console.assert(similarity(a[0].features, b[0].features) === 1);
 * console.assert(a[0].hash !== b[0].hash);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { type Parser, parserFor } from "../util/treesitter.ts";

/** Version of the shape extraction; part of every cache key. */
export const SHAPE_VERSION = 1;

/** Shape of one `def` (see module doc). `line` is the 1-based line of its `def` keyword. */
export interface DefShape {
  line: number;
  name: string;
  hash: string;
  size: number;
  /** Sorted pairs flattened: [feature, count, feature, count, …] (features are 32-bit hashes). */
  features: number[];
}

const LITERALS = new Set([
  "string",
  "concatenated_string",
  "integer",
  "float",
  "true",
  "false",
  "none",
  "ellipsis",
]);
const OPERATOR = /^([-+*/%@&|^~<>=!]+|and|or|not|in|is)$/;

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Frame {
  depth: number;
  name: string;
  line: number;
  tokens: string[];
  counts: Map<number, number>;
  size: number;
  /** [start, end) byte range of the docstring statement, or null. */
  doc: [number, number] | null;
  nameStart: number;
}

let parserPromise: Promise<Parser> | undefined;

/** The shapes of every function of a Python source (in source order); [] when it cannot parse. */
export async function fileShapes(source: string): Promise<DefShape[]> {
  parserPromise ??= parserFor("python");
  const parser = await parserPromise;
  const tree = parser.parse(source);
  if (!tree) return [];
  try {
    return walk(tree.walk());
  } finally {
    tree.delete();
  }
}

function label(type: string, named: boolean): string | null {
  if (!named) return OPERATOR.test(type) ? type : null;
  if (type === "identifier") return "I";
  if (LITERALS.has(type)) return "L";
  if (type === "comment") return null;
  return type;
}

// deno-lint-ignore no-explicit-any
function walk(c: any): DefShape[] {
  const out: DefShape[] = [];
  const frames: Frame[] = [];
  // per depth: the node's label and its children's labels
  const labels: (string | null)[] = [];
  const kids: string[][] = [];
  let depth = 0;
  const emit = (key: string) => {
    const h = fnv(key);
    for (const f of frames) if (depth > f.depth) f.counts.set(h, (f.counts.get(h) ?? 0) + 1);
  };
  const enter = () => {
    const type: string = c.nodeType;
    const named: boolean = c.nodeIsNamed;
    const lab = label(type, named);
    labels[depth] = lab;
    kids[depth] = [];
    if (lab !== null && depth > 0) {
      const parent = labels[depth - 1];
      kids[depth - 1]?.push(lab);
      if (named) {
        emit(`${parent}>${lab}`);
        for (const f of frames) if (depth > f.depth) f.size++;
      }
    }
    if (type === "function_definition") {
      const node = c.currentNode;
      const nameNode = node.childForFieldName("name");
      const body = node.childForFieldName("body");
      let doc: [number, number] | null = null;
      const first = body?.firstNamedChild;
      if (
        first?.type === "expression_statement" && first.namedChildCount === 1 &&
        (first.firstNamedChild!.type === "string" ||
          first.firstNamedChild!.type === "concatenated_string")
      ) doc = [first.startIndex, first.endIndex];
      frames.push({
        depth,
        name: nameNode?.text ?? "",
        line: c.startPosition.row + 1,
        tokens: [],
        counts: new Map(),
        size: 0,
        doc,
        nameStart: nameNode?.startIndex ?? -1,
      });
    }
  };
  const leaf = () => {
    if (c.nodeType === "comment") return;
    const start: number = c.startIndex;
    const text: string = c.nodeText;
    for (const f of frames) {
      if (depth <= f.depth) continue;
      if (start === f.nameStart) continue;
      if (f.doc && start >= f.doc[0] && start < f.doc[1]) continue;
      f.tokens.push(text);
    }
  };
  const leave = () => {
    const lab = labels[depth];
    if (lab !== null && c.nodeIsNamed && depth > 0) {
      emit(`${lab}(${kids[depth].join(",")})`);
    }
    const top = frames[frames.length - 1];
    if (top && top.depth === depth && c.nodeType === "function_definition") {
      frames.pop();
      const features = [...top.counts].sort((a, b) => a[0] - b[0]).flat();
      out.push({
        line: top.line,
        name: top.name,
        hash: createHash("sha1").update(top.tokens.join("\u0001")).digest("hex").slice(0, 20),
        size: top.size,
        features,
      });
    }
  };
  // iterative pre/post-order walk; strings are one token (their parts are not descended)
  enter();
  for (;;) {
    const opaque = LITERALS.has(c.nodeType) && c.nodeType !== "none";
    if (!opaque && c.gotoFirstChild()) {
      depth++;
      enter();
      continue;
    }
    leaf();
    for (;;) {
      leave();
      if (c.gotoNextSibling()) {
        enter();
        break;
      }
      if (!c.gotoParent()) {
        c.delete();
        return out.sort((a, b) => a.line - b.line);
      }
      depth--;
    }
  }
}

/** Weighted Jaccard similarity (Σ min / Σ max) of two feature vectors of {@link DefShape}. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  let i = 0, j = 0, min = 0, max = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      const x = a[i + 1], y = b[j + 1];
      min += x < y ? x : y;
      max += x < y ? y : x;
      i += 2;
      j += 2;
    } else if (a[i] < b[j]) {
      max += a[i + 1];
      i += 2;
    } else {
      max += b[j + 1];
      j += 2;
    }
  }
  for (; i < a.length; i += 2) max += a[i + 1];
  for (; j < b.length; j += 2) max += b[j + 1];
  return max === 0 ? 0 : min / max;
}

/** Total count of a feature vector (an upper bound: similarity ≤ min total / max total). */
export function featureTotal(a: readonly number[]): number {
  let n = 0;
  for (let i = 1; i < a.length; i += 2) n += a[i];
  return n;
}
