/**
 * The native Python parser at run time: tree-sitter's C runtime and the same tree-sitter-python
 * grammar as the wasm parser, compiled once on this machine (lib/python/native_build.ts), run in a
 * parse server process of its own (`native/server.c`) and called through a small client library
 * loaded with Deno's FFI (`native/client.c`). It parses about 2x faster than the wasm build and
 * hands the whole tree over flat through shared memory, which {@link FlatNode} reads with the part
 * of web-tree-sitter's `Node` API the summariser uses — no call into the parser per node.
 *
 * Why a process of its own: no tree-sitter code runs in this process, so a crash in native code
 * (a bug, a hostile input, memory running out: the server's memory is limited) or a hang (past a
 * timeout the server is killed) costs only that file, which the caller parses with the wasm
 * parser (lib/python/parser_choice.ts); the next parse starts a new server. The client checks
 * every tree before it is read (indexes in range, sibling chains going forward).
 *
 * Nothing is loaded or run that was not verified first: the client library and the server are
 * those whose SHA-256 digests were recorded when they were built, in a directory only this user
 * can write ({@link verifyNativeParser}).
 *
 * The results are those of the wasm parser, which stays the reference:
 * - a tree with a syntax error is never used: the file is parsed again by the wasm parser, so
 *   error recovery (where runtime versions may differ) is always the reference's;
 * - every loaded parser first parses a self-check source and must give the wasm parser's tree
 *   node for node (types, positions, fields, flags), else it is not used;
 * - `tests/python_native_test.ts` compares trees, summaries and whole graphs of real packages
 *   made both ways.
 *
 * @example
 * ```ts
 * import { buildNativeParser } from "./native_build.ts";
 * import { loadNativeParser } from "./native.ts";
 * import { pythonParser } from "./direct.ts";
 * const built = await buildNativeParser();
 * if ("files" in built) {
 *   const { language } = await pythonParser();
 *   const loaded = loadNativeParser(built.files, language);
 *   if ("parser" in loaded) {
 *     const root = loaded.parser.parse("def f(x):\n    return x\n")!;
 *     console.assert(root.namedChildren[0].childForFieldName("name")?.text === "f");
 *     loaded.parser.close();
 *   }
 * }
 * ```
 * @module
 */
import { type NativeFiles, verifyNativeParser } from "./native_build.ts";

/** Words per node in the flat tree (see native/flat.c). */
const W = 10;
const NAMED = 1 << 16, MISSING = 2 << 16, HAS_ERROR = 4 << 16;
const ERROR_TYPE = 65535;

/** The tree of one parsed source, flat (see native/flat.c). */
class FlatTree {
  constructor(
    readonly w: Int32Array,
    readonly count: number,
    readonly source: string,
    readonly names: readonly string[],
    readonly fieldIds: ReadonlyMap<string, number>,
  ) {}
}

/**
 * A syntax node of a flat tree: the part of web-tree-sitter's `Node` API the summariser uses,
 * with the same results. `id` is the node's preorder index (unique within its tree). Like
 * `Node`s, these are small views made on each access (compare them by `id`), so they die young.
 */
export class FlatNode {
  constructor(private readonly t: FlatTree, readonly id: number) {}

  private word(k: number): number {
    return this.t.w[this.id * W + k];
  }
  get type(): string {
    const s = this.word(0) & 0xffff;
    return s === ERROR_TYPE ? "ERROR" : this.t.names[s] || "ERROR";
  }
  get isNamed(): boolean {
    return (this.word(0) & NAMED) !== 0;
  }
  get isMissing(): boolean {
    return (this.word(0) & MISSING) !== 0;
  }
  get hasError(): boolean {
    return (this.word(0) & HAS_ERROR) !== 0;
  }
  get startIndex(): number {
    return this.word(1);
  }
  get endIndex(): number {
    return this.word(2);
  }
  get text(): string {
    return this.t.source.slice(this.word(1), this.word(2));
  }
  get startPosition(): { row: number; column: number } {
    return { row: this.word(3), column: this.word(4) };
  }
  get endPosition(): { row: number; column: number } {
    return { row: this.word(5), column: this.word(6) };
  }
  get parent(): FlatNode | null {
    const p = this.word(7);
    return p < 0 ? null : new FlatNode(this.t, p);
  }
  /** Index of the first child, or -1. */
  private first(): number {
    const f = this.id + 1;
    return f < this.t.count && this.t.w[f * W + 7] === this.id ? f : -1;
  }
  get children(): FlatNode[] {
    const out: FlatNode[] = [];
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) out.push(new FlatNode(this.t, c));
    return out;
  }
  get childCount(): number {
    let n = 0;
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) n++;
    return n;
  }
  child(i: number): FlatNode | null {
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) {
      if (i-- === 0) return new FlatNode(this.t, c);
    }
    return null;
  }
  get namedChildren(): FlatNode[] {
    const out: FlatNode[] = [];
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) {
      if (w[c * W] & NAMED) out.push(new FlatNode(this.t, c));
    }
    return out;
  }
  get namedChildCount(): number {
    let n = 0;
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) if (w[c * W] & NAMED) n++;
    return n;
  }
  namedChild(i: number): FlatNode | null {
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) {
      if (w[c * W] & NAMED && i-- === 0) return new FlatNode(this.t, c);
    }
    return null;
  }
  /** The first child in field `name`, or null (as `ts_node_child_by_field_id`). */
  childForFieldName(name: string): FlatNode | null {
    const id = this.t.fieldIds.get(name);
    if (id === undefined) return null;
    const w = this.t.w;
    for (let c = this.first(); c >= 0; c = w[c * W + 8]) {
      if (w[c * W + 9] === id) return new FlatNode(this.t, c);
    }
    return null;
  }
}

/** The client library's functions (native/client.c). */
const SYMBOLS = {
  rrc_new: { parameters: ["buffer", "u64"], result: "pointer" },
  rrc_delete: { parameters: ["pointer"], result: "void" },
  rrc_memory: { parameters: ["pointer"], result: "pointer" },
  rrc_pid: { parameters: ["pointer"], result: "i32" },
  rrc_status: { parameters: ["pointer"], result: "i32" },
  rrc_parse: { parameters: ["pointer", "u32", "u32", "u32"], result: "i32" },
} as const;

/** The shared memory's layout (native/shm.h). */
const SOURCE_AT = 64, NODES_AT = 256 * 2 ** 20, SHM_BYTES = 4 * 2 ** 30;

/** Why a parse gave no tree, by the client's result code (native/flat.h, native/client.c). */
const FAILURES: Record<number, string> = {
  [-1]: "tree-sitter gave no tree",
  [-2]: "the source or its tree is too large for the shared memory",
  [-3]: "the parse server ran out of memory",
  [-4]: "the parse server crashed",
  [-5]: "the parse server took too long and was killed",
  [-6]: "the parse server's tree was malformed",
  [-7]: "the parse server cannot be started",
};

/** A failure that may say something about the native parser, not about the file's source. */
export const CRASHES = new Set([-3, -4, -5, -6, -7]);

/** Options of {@link loadNativeParser}. */
export interface NativeOptions {
  /** The parse server's memory limit in bytes (default 4 GiB, as a wasm32 parser has). */
  memory?: number;
}

/** A loaded native parser (one per thread, with a parse server of its own). */
export interface NativeParser {
  /**
   * The root of `source`'s tree, or null when the native parser gives none (then use the wasm
   * parser; {@link NativeParser.failure} says why). The nodes read the shared memory: they are
   * valid until the next parse.
   */
  parse(source: string): FlatNode | null;
  /** Why the last parse gave no tree (code, and words), or null when it gave one. */
  failure(): { code: number; why: string } | null;
  /** The parse server's process id (0 when none runs). */
  pid(): number;
  /** Stops the parse server and unloads nothing (the library stays loaded in this process). */
  close(): void;
}

/** Type and field names of the grammar, by id, as the wasm `Language` has them. */
export interface GrammarNames {
  types: readonly string[];
  fields: readonly (string | null)[];
}

/** The signal or exit code of a wait status, in words. */
function status(s: number): string {
  const signal = s & 0x7f;
  if (signal === 0) return `exit code ${(s >> 8) & 0xff}`;
  const names: Record<number, string> = { 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 7: "SIGBUS" };
  return `signal ${names[signal] ?? signal}`;
}

/**
 * Loads the native parser built into `files` (see lib/python/native_build.ts) after verifying
 * it ({@link verifyNativeParser}): its client library into this process and a parse server of its
 * own. Returns why not when it is refused or cannot be loaded here.
 */
export function loadNativeParser(
  files: NativeFiles,
  names: GrammarNames,
  opts: NativeOptions = {},
): { parser: NativeParser } | { error: string } {
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return { error: "Deno's --allow-ffi is not granted" };
  }
  const refused = verifyNativeParser(files);
  if (refused) return { error: refused };
  let lib: Deno.DynamicLibrary<typeof SYMBOLS>;
  try {
    lib = Deno.dlopen(files.client, SYMBOLS);
  } catch (e) {
    return { error: `cannot load ${files.client}: ${e}` };
  }
  const memory = BigInt(opts.memory ?? 4 * 2 ** 30);
  const client = lib.symbols.rrc_new(new TextEncoder().encode(`${files.server}\0`), memory);
  if (client === null) return { error: `cannot start the parse server ${files.server}` };
  const base = lib.symbols.rrc_memory(client)!;
  const shared = Deno.UnsafePointerView.getArrayBuffer(base, SHM_BYTES);
  const bytes = new Uint8Array(shared, SOURCE_AT, NODES_AT - SOURCE_AT);
  const units = new Uint16Array(shared, SOURCE_AT, (NODES_AT - SOURCE_AT) / 2);
  const nodes = new Int32Array(shared, NODES_AT);
  const fieldIds = new Map<string, number>();
  names.fields.forEach((f, i) => f && !fieldIds.has(f) && fieldIds.set(f, i));
  const encoder = new TextEncoder();
  let failed: { code: number; why: string } | null = null;
  let open = true;
  return {
    parser: {
      parse(source: string): FlatNode | null {
        const n = source.length;
        let count: number;
        // a hang is cut short: 60 s of the server's CPU time, and 10 s more per million units
        const timeout = 60_000 + Math.ceil(n / 100);
        if (!open) count = -7;
        else if (2 * n > units.byteLength) count = -2;
        else {
          const { read, written } = encoder.encodeInto(source, bytes);
          if (read === n && written === n) {
            // ASCII (nearly every Python file): its UTF-8 bytes are its UTF-16 code units
            count = lib.symbols.rrc_parse(client, n, 1, timeout);
          } else {
            for (let i = 0; i < n; i++) units[i] = source.charCodeAt(i);
            count = lib.symbols.rrc_parse(client, n, 2, timeout);
          }
        }
        if (count <= 0) {
          const why = FAILURES[count] ?? `result ${count}`;
          failed = {
            code: count,
            why: count === -4 ? `${why} (${status(lib.symbols.rrc_status(client))})` : why,
          };
          return null;
        }
        failed = null;
        return new FlatNode(new FlatTree(nodes, count, source, names.types, fieldIds), 0);
      },
      failure: () => failed,
      pid: () => (open ? lib.symbols.rrc_pid(client) : 0),
      close() {
        if (open) lib.symbols.rrc_delete(client);
        open = false;
      },
    },
  };
}
