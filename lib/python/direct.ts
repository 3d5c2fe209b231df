/**
 * Fast syntax-node access for phase-1 extraction.
 *
 * Walking a web-tree-sitter tree through its public `Node` API marshals every node through the
 * module's transfer buffer with generic `getValue`/`setValue` calls and builds a JS object with
 * getters per node; on sympy that overhead costs about half of what extraction costs. {@link
 * DirectNode} offers the same subset of the `Node` API the summariser uses, backed by the same
 * C functions of the web-tree-sitter wasm module (`ts_node_named_children_wasm`,
 * `ts_node_symbol_wasm`, `ts_node_child_by_field_id_wasm`, …), so results are the same node for
 * node, but it writes and reads the transfer buffer through the wasm memory's `Int32Array`
 * directly, caches a node's type, children and end, and slices text from the JS source string.
 *
 * Those functions belong to the module object that `Parser.init(moduleOptions)` fills in. The ESM
 * instance of web-tree-sitter may have been initialised by other code already, so this module
 * loads its own instance of the same pinned package (its CommonJS build, a separate module
 * record with its own wasm memory) and its own Python language. If that module lacks the expected
 * functions (another web-tree-sitter version), callers fall back to the public `Node` API.
 *
 * @example
 * ```ts
 * import { withRoot } from "./direct.ts";
 * const [type, name, end] = await withRoot("def f(x):\n    return x\n", (root) => {
 *   const def = root.namedChildren[0]!;
 *   return [def.type, def.childForFieldName("name")?.text, def.endPosition];
 * });
 * console.assert(type === "function_definition" && name === "f");
 * console.assert(end.row === 1 && end.column === 12); // ends after `return x` (0-based row)
 * ```
 * @module
 */
import { createRequire } from "node:module";
import type * as WTS from "web-tree-sitter";
import { nodeModulesDir } from "../util/mod.ts";
import type { FlatNode, NativeParser } from "./native.ts";

/**
 * The node functions of the web-tree-sitter wasm module (lib/binding.c): each takes the tree's
 * address and reads its node from the transfer buffer (id, start index, row, column, alias).
 */
interface WasmModule {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_end_point_wasm(tree: number): void;
  _ts_node_children_wasm(tree: number): void;
  _ts_node_named_children_wasm(tree: number): void;
  _ts_node_child_by_field_id_wasm(tree: number, field: number): void;
  _ts_node_parent_wasm(tree: number): void;
  _ts_node_has_error_wasm(tree: number): number;
  _ts_node_is_missing_wasm(tree: number): number;
}

const NEEDED: (keyof WasmModule)[] = [
  "_ts_init",
  "_free",
  "_ts_tree_root_node_wasm",
  "_ts_node_symbol_wasm",
  "_ts_node_end_index_wasm",
  "_ts_node_end_point_wasm",
  "_ts_node_children_wasm",
  "_ts_node_named_children_wasm",
  "_ts_node_child_by_field_id_wasm",
  "_ts_node_parent_wasm",
  "_ts_node_has_error_wasm",
  "_ts_node_is_missing_wasm",
];

/** A parser of this module's own web-tree-sitter instance, with its wasm module if usable. */
export interface PythonParser {
  parser: WTS.Parser;
  language: WTS.Language;
  /** The wasm module's functions, or null to use the public `Node` API. */
  wasm: WasmModule | null;
  /** The native parser (lib/python/native.ts) once lib/python/parser_choice.ts loaded it. */
  native: NativeParser | null;
}

let cached: Promise<PythonParser> | undefined;

/** This module's Python parser (one per thread, created on first use). */
export function pythonParser(): Promise<PythonParser> {
  cached ??= (async () => {
    const require = createRequire(import.meta.url);
    const wts = require("web-tree-sitter") as typeof WTS;
    const module: Record<string, unknown> = {};
    await wts.Parser.init(module);
    const path = nodeModulesDir() + "tree-sitter-python/tree-sitter-python.wasm";
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (e) {
      throw new Error(
        `cannot load the python grammar from ${path} (run \`deno install\` first): ${e}`,
      );
    }
    const language = await wts.Language.load(bytes);
    const parser = new wts.Parser();
    parser.setLanguage(language);
    const usable = module.HEAP32 instanceof Int32Array &&
      NEEDED.every((k) => typeof module[k] === "function");
    return {
      parser,
      language,
      wasm: usable ? module as unknown as WasmModule : null,
      native: null,
    };
  })();
  return cached;
}

const ERROR_TYPE = 65535;

/** What the nodes of one parsed source share. */
class Context {
  /** Transfer buffer address / 4. */
  readonly tb: number;
  /** Type name by type id. */
  readonly names: readonly string[];
  readonly fields: readonly (string | null)[];
  constructor(
    readonly m: WasmModule,
    readonly tree: number,
    readonly source: string,
    language: WTS.Language,
  ) {
    this.tb = m._ts_init() >> 2;
    this.names = language.types;
    this.fields = language.fields;
  }

  /** Reads the node at word `at` of the wasm memory (null for a null node). */
  read(h: Int32Array, at: number): DirectNode | null {
    const id = h[at];
    if (id === 0) return null;
    return new DirectNode(this, id, h[at + 1], h[at + 2], h[at + 3], h[at + 4]);
  }

  /** The nodes a `*_children_wasm` call left in the transfer buffer (and frees their buffer). */
  list(): DirectNode[] {
    const m = this.m;
    const h = m.HEAP32;
    const count = h[this.tb];
    const out: DirectNode[] = new Array(count);
    if (count > 0) {
      const buffer = h[this.tb + 1];
      for (let i = 0, at = buffer >> 2; i < count; i++, at += 5) out[i] = this.read(h, at)!;
      m._free(buffer);
    }
    return out;
  }
}

/**
 * A syntax node: the part of web-tree-sitter's `Node` API the summariser uses, with the same
 * results (see the module doc). Positions and indexes are in UTF-16 code units, like `Node`'s.
 */
export class DirectNode {
  private _type?: string;
  private _end?: number;
  private _named?: DirectNode[];
  private _children?: DirectNode[];

  constructor(
    private readonly ctx: Context,
    readonly id: number,
    readonly startIndex: number,
    private readonly row: number,
    private readonly column: number,
    private readonly alias: number,
  ) {}

  /** Puts this node into the transfer buffer (before a node call). */
  private put(): number {
    const c = this.ctx;
    const h = c.m.HEAP32;
    const tb = c.tb;
    h[tb] = this.id;
    h[tb + 1] = this.startIndex;
    h[tb + 2] = this.row;
    h[tb + 3] = this.column;
    h[tb + 4] = this.alias;
    return c.tree;
  }

  get type(): string {
    if (this._type === undefined) {
      const t = this.ctx.m._ts_node_symbol_wasm(this.put());
      this._type = t === ERROR_TYPE ? "ERROR" : this.ctx.names[t] || "ERROR";
    }
    return this._type;
  }
  get endIndex(): number {
    return (this._end ??= this.ctx.m._ts_node_end_index_wasm(this.put()));
  }
  get text(): string {
    return this.ctx.source.slice(this.startIndex, this.endIndex);
  }
  get startPosition(): { row: number; column: number } {
    return { row: this.row, column: this.column };
  }
  get endPosition(): { row: number; column: number } {
    const c = this.ctx;
    c.m._ts_node_end_point_wasm(this.put());
    const h = c.m.HEAP32;
    return { row: h[c.tb] >>> 0, column: h[c.tb + 1] >>> 0 };
  }
  get hasError(): boolean {
    return this.ctx.m._ts_node_has_error_wasm(this.put()) !== 0;
  }
  get isMissing(): boolean {
    return this.ctx.m._ts_node_is_missing_wasm(this.put()) !== 0;
  }
  get parent(): DirectNode | null {
    const c = this.ctx;
    c.m._ts_node_parent_wasm(this.put());
    return c.read(c.m.HEAP32, c.tb);
  }
  get children(): DirectNode[] {
    if (!this._children) {
      this.ctx.m._ts_node_children_wasm(this.put());
      this._children = this.ctx.list();
    }
    return this._children;
  }
  get childCount(): number {
    return this.children.length;
  }
  child(i: number): DirectNode | null {
    return this.children[i] ?? null;
  }
  get namedChildren(): DirectNode[] {
    if (!this._named) {
      this.ctx.m._ts_node_named_children_wasm(this.put());
      this._named = this.ctx.list();
    }
    return this._named;
  }
  get namedChildCount(): number {
    return this.namedChildren.length;
  }
  namedChild(i: number): DirectNode | null {
    return this.namedChildren[i] ?? null;
  }
  /** The child in field `name`, or null (`ts_node_child_by_field_id`). */
  childForFieldName(name: string): DirectNode | null {
    const c = this.ctx;
    const id = c.fields.indexOf(name);
    if (id === -1) return null;
    c.m._ts_node_child_by_field_id_wasm(this.put(), id);
    return c.read(c.m.HEAP32, c.tb);
  }
}

/**
 * The node API the summariser uses: {@link DirectNode}, web-tree-sitter's own `Node`, or a node of
 * the native parser's flat tree.
 */
export type SyntaxNode = DirectNode | WTS.Node | FlatNode;

/**
 * The root of a tree parsed by {@link pythonParser}'s parser: a {@link DirectNode} when the
 * wasm module is usable, else the tree's own root `Node`. Valid until the tree is deleted.
 */
export function rootOf(tree: WTS.Tree, source: string, fp: PythonParser): SyntaxNode {
  if (!fp.wasm) return tree.rootNode;
  const T = (tree as unknown as Record<number, number>)[0];
  const ctx = new Context(fp.wasm, T, source, fp.language);
  fp.wasm._ts_tree_root_node_wasm(T);
  return ctx.read(fp.wasm.HEAP32, ctx.tb)!;
}

/** Parses a source with this module's parser and calls `fn` with its root (tree freed after). */
export async function withRoot<T>(source: string, fn: (root: SyntaxNode) => T): Promise<T> {
  const fp = await pythonParser();
  const tree = fp.parser.parse(source);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    return fn(rootOf(tree, source, fp));
  } finally {
    tree.delete();
  }
}

/**
 * The first difference between two trees of the same source (node for node: type, span,
 * positions, flags, children, and the child of each field in `fields`), or null if none.
 */
export function treeDifference(
  a: SyntaxNode,
  b: SyntaxNode,
  fields: readonly (string | null)[],
): string | null {
  const span = (n: SyntaxNode | null) => n ? `${n.type}@${n.startIndex}-${n.endIndex}` : "null";
  const facts = (n: SyntaxNode) =>
    [
      span(n),
      n.startPosition.row,
      n.startPosition.column,
      n.endPosition.row,
      n.endPosition.column,
      n.isMissing,
      n.hasError,
      n.childCount,
      n.namedChildCount,
      span(n.parent),
    ].join(" ");
  const stack: [SyntaxNode, SyntaxNode][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    const fx = facts(x), fy = facts(y);
    if (fx !== fy) return `${fx} ≠ ${fy}`;
    for (const f of fields) {
      if (!f) continue;
      const cx = span(x.childForFieldName(f)), cy = span(y.childForFieldName(f));
      if (cx !== cy) return `${span(x)} field ${f}: ${cx} ≠ ${cy}`;
    }
    const xs = x.children, ys = y.children;
    for (let i = 0; i < xs.length; i++) stack.push([xs[i]!, ys[i]!]);
  }
  return null;
}
