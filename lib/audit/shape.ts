/**
 * The shape of every function of a file, for matching moved code and for the structural clone
 * signal: one tree-sitter parse gives, per `def`,
 *
 * - `hash`: a hash of its tokens with comments, line continuations (a backslash ending a line), its
 *   docstring and its own name left out — equal hashes mean the same code (a moved or renamed
 *   function, a re-indented one);
 * - `features`: a normalised-AST feature vector — every node's type with identifiers abstracted to
 *   `I` and literals to `L`, counted as (node, its children) shapes and (parent, node) edges — so
 *   that two functions built alike compare as alike whatever their names, helpers and constants;
 * - `size`: number of named nodes counted;
 * - `tokens` / `lines`: its token sequence normalised as a type-2 clone detector does (jscpd,
 *   PMD's CPD) — every identifier one placeholder and every string or number literal another, keywords,
 *   operators, punctuation and `True`/`False`/`None` as written, attribute names (`x.name`) and
 *   keyword-argument names (`f(name=…)`) kept (they name an API, not a local), a block's start and
 *   end as tokens of their own (Python's indentation), comments, line continuations, its docstring
 *   and its own name left out — as 32-bit codes, with the line of each (lib/audit/block.ts matches
 *   copied blocks on them).
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
import { type Parser, parserFor } from "../util/mod.ts";

/** Version of the shape extraction; part of every cache key. */
export const SHAPE_VERSION = 4;

/** Shape of one `def` (see module doc). `line` is the 1-based line of its `def` keyword. */
export interface DefShape {
  line: number;
  name: string;
  hash: string;
  size: number;
  /** Sorted pairs flattened: [feature, count, feature, count, …] (features are 32-bit hashes). */
  features: number[];
  /** Normalised token codes (see module doc), in source order. */
  tokens: number[];
  /** The 1-based line of each token of `tokens`. */
  lines: number[];
}

/** The code of an identifier (any name but an attribute's or a keyword argument's). */
export const IDENT_TOKEN = 1;
/** The code of a string or number literal. */
export const LITERAL_TOKEN = 2;
/** The codes of the start and end of a block (an indented suite). */
export const BLOCK_START_TOKEN = 3, BLOCK_END_TOKEN = 4;

const tokenCodes = new Map<string, number>();

/** The code of a token kept as written (FNV-1a of its text, above the reserved codes). */
export function tokenCode(text: string): number {
  let c = tokenCodes.get(text);
  if (c === undefined) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    c = (h >>> 0) < 16 ? (h >>> 0) + 16 : h >>> 0;
    if (tokenCodes.size < 100_000) tokenCodes.set(text, c);
  }
  return c;
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

interface Frame {
  depth: number;
  name: string;
  line: number;
  /** Where this def's features, tokens and named-node count start in the shared buffers. */
  feat: number;
  tok: number;
  /** Where this def's normalised tokens start. */
  code: number;
  named: number;
  /** [start, end) index range of the docstring statement, or null. */
  doc: [number, number] | null;
  nameStart: number;
}

// node classes, per grammar symbol id
const SKIP = 0, NAMED = 1, IDENT = 2, LITERAL = 3, OP = 4, COMMENT = 5, DEF = 6;
const I_LABEL = 1 << 20, L_LABEL = (1 << 20) + 1;

/** What the walk needs of the grammar: node classes and the ids that shape the token sequence. */
interface Grammar {
  parser: Parser;
  cls: Uint8Array;
  /** Node type ids of `block` and `keyword_argument`; field ids of `attribute` and `name`. */
  block: Set<number>;
  keywordArgument: Set<number>;
  attributeField: number;
  nameField: number;
}

let prepared: Promise<Grammar> | undefined;

function prepare(): Promise<Grammar> {
  prepared ??= parserFor("python").then((parser) => {
    const lang = parser.language!;
    const cls = new Uint8Array(lang.nodeTypeCount + 1);
    const block = new Set<number>(), keywordArgument = new Set<number>();
    for (let id = 0; id < lang.nodeTypeCount; id++) {
      const type = lang.nodeTypeForId(id);
      if (type === null) continue;
      if (lang.nodeTypeIsNamed(id)) {
        cls[id] = type === "identifier"
          ? IDENT
          : type === "line_continuation"
          ? COMMENT
          : LITERALS.has(type)
          ? LITERAL
          : type === "comment"
          ? COMMENT
          : type === "function_definition"
          ? DEF
          : NAMED;
      } else cls[id] = OPERATOR.test(type) ? OP : SKIP;
      if (type === "block" && lang.nodeTypeIsNamed(id)) block.add(id);
      if (type === "keyword_argument") keywordArgument.add(id);
    }
    return {
      parser,
      cls,
      block,
      keywordArgument,
      attributeField: lang.fieldIdForName("attribute") ?? -1,
      nameField: lang.fieldIdForName("name") ?? -1,
    };
  });
  return prepared;
}

/** The shapes of every function of a Python source (in source order); [] when it cannot parse. */
export async function fileShapes(source: string): Promise<DefShape[]> {
  const g = await prepare();
  const tree = g.parser.parse(source);
  if (!tree) return [];
  try {
    return walk(tree.walk(), g);
  } finally {
    tree.delete();
  }
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// deno-lint-ignore no-explicit-any
function walk(c: any, g: Grammar): DefShape[] {
  const { cls } = g;
  const out: DefShape[] = [];
  const frames: Frame[] = [];
  const feats: number[] = [];
  const toks: string[] = [];
  const tokPos: number[] = [];
  // normalised tokens: code, line and source offset (to leave the name and docstring out)
  const codes: number[] = [];
  const codeLines: number[] = [];
  const codePos: number[] = [];
  const types: number[] = [];
  let named = 0;
  // per depth: the node's label (-1: not counted) and the running hash of its children's labels
  const labels: number[] = [];
  const kids: number[] = [];
  let depth = 0;
  const enter = () => {
    const id: number = c.nodeTypeId;
    const k = cls[id];
    const lab = k === NAMED || k === DEF
      ? id
      : k === IDENT
      ? I_LABEL
      : k === LITERAL
      ? L_LABEL
      : k === OP
      ? id
      : -1;
    labels[depth] = lab;
    types[depth] = id;
    kids[depth] = 17;
    if (g.block.has(id)) {
      codes.push(BLOCK_START_TOKEN);
      codeLines.push(c.startPosition.row + 1);
      codePos.push(-1);
    }
    if (lab >= 0 && depth > 0) {
      kids[depth - 1] = Math.imul(kids[depth - 1], 31) + lab | 0;
      if (k !== OP) {
        feats.push(mix(labels[depth - 1], lab));
        named++;
      }
    }
    if (k === DEF) {
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
        feat: feats.length,
        tok: toks.length,
        code: codes.length,
        named,
        doc,
        nameStart: nameNode?.startIndex ?? -1,
      });
    }
    return k;
  };
  const leave = () => {
    if (g.block.has(c.nodeTypeId)) {
      codes.push(BLOCK_END_TOKEN);
      codeLines.push(c.endPosition.row + 1);
      codePos.push(-1);
    }
    const lab = labels[depth];
    if (lab >= 0 && depth > 0 && cls[c.nodeTypeId] !== OP) {
      feats.push(mix(lab ^ 0x5bd1e995, kids[depth]));
    }
    const top = frames[frames.length - 1];
    if (top && top.depth === depth) {
      frames.pop();
      const counts = new Map<number, number>();
      for (let i = top.feat; i < feats.length; i++) {
        counts.set(feats[i], (counts.get(feats[i]) ?? 0) + 1);
      }
      const features = [...counts].sort((a, b) => a[0] - b[0]).flat();
      const h = createHash("sha1");
      const skip = (at: number) =>
        at === top.nameStart || (top.doc !== null && at >= top.doc[0] && at < top.doc[1]);
      for (let i = top.tok; i < toks.length; i++) {
        if (skip(tokPos[i])) continue;
        h.update(toks[i]).update("\u0001");
      }
      const tokens: number[] = [], lines: number[] = [];
      for (let i = top.code; i < codes.length; i++) {
        if (skip(codePos[i])) continue;
        tokens.push(codes[i]);
        lines.push(codeLines[i]);
      }
      out.push({
        line: top.line,
        name: top.name,
        hash: h.digest("hex").slice(0, 20),
        size: named - top.named,
        features,
        tokens,
        lines,
      });
    }
  };
  // iterative pre/post-order walk; literals are one token (their parts are not descended)
  let k = enter();
  for (;;) {
    if (k !== LITERAL && c.gotoFirstChild()) {
      depth++;
      k = enter();
      continue;
    }
    if (k !== COMMENT) {
      const text: string = c.nodeText;
      tokPos.push(c.startIndex);
      toks.push(text);
      codes.push(
        k === IDENT
          ? (c.currentFieldId === g.attributeField ||
              (c.currentFieldId === g.nameField && depth > 0 &&
                g.keywordArgument.has(types[depth - 1])))
            ? tokenCode(text)
            : IDENT_TOKEN
          : k === LITERAL && text !== "True" && text !== "False" && text !== "None"
          ? LITERAL_TOKEN
          : tokenCode(text),
      );
      codeLines.push(c.startPosition.row + 1);
      codePos.push(c.startIndex);
    }
    for (;;) {
      leave();
      if (c.gotoNextSibling()) {
        k = enter();
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
export function similarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
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
export function featureTotal(a: ArrayLike<number>): number {
  let n = 0;
  for (let i = 1; i < a.length; i += 2) n += a[i];
  return n;
}
