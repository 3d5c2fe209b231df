/**
 * Which Python parser runs, and why: tree-sitter's wasm build (always there, the reference) or
 * the native build of the same runtime and grammar (lib/python/native.ts, about 2x faster),
 * decided here and nowhere else.
 *
 * - Per package analysis ({@link nativeForPackage}): the native parser when it is built and
 *   verified, built first when there is more than {@link NATIVE_BUILD_BYTES} of source to parse;
 *   never with `native: "off"` or `REPOREUSE_PARSER=wasm`, without a C compiler, or without
 *   `--allow-ffi`.
 * - Per thread ({@link useNativeSummaries}): a native parser is used only after it parsed a
 *   self-check source exactly as the wasm parser does (node for node, every field the summariser
 *   reads).
 * - Per file ({@link nativeTree}): the native tree when it has no syntax error, else the wasm
 *   parser does the file (error recovery stays the reference's); a file whose native parse
 *   crashed, ran out of memory or timed out is parsed by the wasm parser too (said once on
 *   stderr), and after {@link CRASH_LIMIT} such failures the thread stops using the native parser.
 * - For people ({@link describeParser}, `deno task reporeuse parser`): which one runs and why.
 *
 * @example
 * ```ts
 * import { describeParser } from "./parser_choice.ts";
 * const d = await describeParser({ build: false });
 * console.assert(d.parser === "native" || d.parser === "wasm");
 * console.assert(d.why.length > 0);
 * ```
 * @module
 */
import { type PythonParser, pythonParser, rootOf, treeDifference } from "./direct.ts";
import { CRASHES, type FlatNode, loadNativeParser, type NativeOptions } from "./native.ts";
import {
  buildNativeParser,
  NATIVE_HINT,
  type NativeFiles,
  nativeParserFiles,
} from "./native_build.ts";

/** Source to parse (UTF-16 code units) from which building the native parser pays off. */
export const NATIVE_BUILD_BYTES = 8_000_000;

/** Native parses that failed in one thread (crash, memory, timeout) before it stops using it. */
export const CRASH_LIMIT = 3;

/**
 * Every field name the summariser reads with `childForFieldName` (tests/python_native_test.ts
 * checks the list against visitor.ts): the native parser's self-check compares these.
 */
export const SUMMARY_FIELDS = [
  "alias",
  "arguments",
  "attribute",
  "body",
  "function",
  "key",
  "left",
  "module_name",
  "name",
  "object",
  "parameters",
  "return_type",
  "right",
  "superclasses",
  "type",
  "value",
] as const;

/** Source the native parser must parse exactly as the wasm parser before it is used. */
const SELF_CHECK = [
  "import os, sys as system\nfrom .a import (b, c as d)\n",
  "@dec(1)\nclass C(Base, metaclass=M):\n    '''doc \u00e9\u{1F600}'''\n    x: int = 3\n",
  "    async def f(self, a, /, b=2, *args, c, **kw) -> 'C':\n",
  "        async with g() as (h, i):\n            return [j async for j in h if j]\n",
  "def gen(x):\n    yield from {k: v for k, v in x.items()}\n",
  "match p:\n    case [1, *rest] | {'k': _} if rest:\n        pass\n    case C(a=1):\n        pass\n",
  "s = f\"{a!r:>{w}} \\n\" + rb'x' # comment \u00fc \u{1F600}\n",
  "y = (lambda q=1: q)(z := 2) if not a else b[1:2, ...]\n",
  "try:\n    raise E from None\nexcept* (E, F) as e:\n    del e\nfinally:\n    global g\n",
  "while x:\n    x -= 1; continue\nelse:\n    print(*x, sep='')\n",
].join("");

/**
 * Loads the native parser built into `files` into `fp` if it is verified and parses the
 * self-check source exactly as the wasm parser does; returns null when it is used, else why not
 * (`fp` then stays on the wasm parser).
 */
export function useNativeSummaries(
  fp: PythonParser,
  files: NativeFiles,
  opts?: NativeOptions,
): string | null {
  const loaded = loadNativeParser(files, fp.language, opts);
  if ("error" in loaded) return loaded.error;
  const native = loaded.parser;
  const root = native.parse(SELF_CHECK);
  const tree = fp.parser.parse(SELF_CHECK);
  let why: string | null = null;
  if (!root || !tree) {
    why = `the self-check source gave no tree: ${native.failure()?.why ?? "wasm parser"}`;
  } else {
    // the fields the summariser reads: a field the reference finds below a hidden aliased child
    // (`alternative` of a `match_statement`) is not a direct child in the flat tree
    const diff = treeDifference(root, rootOf(tree, SELF_CHECK, fp), SUMMARY_FIELDS);
    if (diff) why = `the native parser differs from the wasm parser: ${diff}`;
  }
  tree?.delete();
  if (why) {
    native.close();
    return why;
  }
  fp.native?.close();
  fp.native = native;
  crashes.set(fp, 0);
  return null;
}

const crashes = new WeakMap<PythonParser, number>();

/**
 * The native parser's tree of `source` when `fp` has one in use and the tree has no syntax
 * error; null when the wasm parser is to do the file (`file` names it in a warning when the
 * native parse failed for a reason other than the source's).
 */
export function nativeTree(fp: PythonParser, source: string, file: string): FlatNode | null {
  const native = fp.native;
  if (!native) return null;
  const root = native.parse(source);
  if (root) return root.hasError ? null : root;
  const failure = native.failure();
  if (failure && CRASHES.has(failure.code)) {
    const n = (crashes.get(fp) ?? 0) + 1;
    crashes.set(fp, n);
    console.error(
      `warning: ${file}: ${failure.why}; parsed with the wasm parser instead${
        n >= CRASH_LIMIT ? ` (the native parser is off for this thread after ${n} failures)` : ""
      }`,
    );
    if (n >= CRASH_LIMIT) {
      native.close();
      fp.native = null;
    }
  }
  return null;
}

/** The native parser's files when it is built and not turned off, else undefined (no build). */
export function builtNativeParser(mode: "auto" | "off" = "auto"): NativeFiles | undefined {
  if (mode === "off") return undefined;
  const built = nativeParserFiles();
  return "files" in built ? built.files : undefined;
}

/**
 * The native parser's files for a package analysis with `todo` to parse, or undefined for the
 * wasm parser: built first when there is more than {@link NATIVE_BUILD_BYTES} of source.
 */
export async function nativeForPackage(
  todo: { source: string }[],
  mode: "auto" | "off" = "auto",
): Promise<NativeFiles | undefined> {
  if (mode === "off" || todo.length === 0) return undefined;
  const size = todo.reduce((a, t) => a + t.source.length, 0);
  if (size < NATIVE_BUILD_BYTES) return builtNativeParser(mode);
  const found = await buildNativeParser();
  if ("files" in found) return found.files;
  if (/no C compiler/.test(found.error) && !noted) {
    noted = true;
    console.error(`note: the wasm parser parses this (${found.error}); ${NATIVE_HINT}`);
  }
  return undefined;
}

/** Whether the note that the native parser would help was given in this process. */
let noted = false;

/** Which parser runs here, and why (see {@link describeParser}). */
export interface ParserDescription {
  parser: "native" | "wasm";
  /** Why: where the native parser is and how it was built, or why it is not used. */
  why: string;
  /** For the wasm parser: how to get the native one, when that would help. */
  hint?: string;
  files?: NativeFiles;
}

/**
 * Which parser the code model uses on this machine, and why — building the native parser first
 * unless `build` is false. Loads it into this thread's parser as a package analysis would.
 */
export async function describeParser(
  opts: { build?: boolean } = {},
): Promise<ParserDescription> {
  const t0 = performance.now();
  const built = opts.build === false ? nativeParserFiles() : await buildNativeParser();
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if ("error" in built) {
    const noCompiler = /no C compiler/.test(built.error);
    return {
      parser: "wasm",
      why: built.error,
      hint: noCompiler || built.error === "not built yet" ? NATIVE_HINT : undefined,
    };
  }
  const refused = useNativeSummaries(await pythonParser(), built.files);
  if (refused) return { parser: "wasm", why: `the native parser is not used: ${refused}` };
  const how = built.built
    ? `built now in ${seconds} s, ${
      built.profiled === true ? "profile-guided" : `not profile-guided: ${built.profiled}`
    }`
    : "built before";
  return {
    parser: "native",
    why: `${built.files.dir} (${how}; digests verified, self-check passed)`,
    files: built.files,
  };
}
