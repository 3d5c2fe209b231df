/**
 * `deno task reporeuse parser [--require]` — builds the native Python parser if it is missing and
 * says which parser the code model uses (lib/python/native.ts).
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { buildNativeParser } from "../../lib/python/native.ts";
import { pythonParser } from "../../lib/python/direct.ts";
import { useNativeSummaries } from "../../lib/python/summary.ts";

/** One-line summary. */
export const summary = "build the native Python parser (once) and say which parser is used";

/** Full help text. */
export const help = `Usage: deno task reporeuse parser [--require]

The code model parses Python with tree-sitter. Its wasm build always works; a native build of the
same runtime and grammar, compiled once by this machine's C compiler (cc, gcc or clang) into the
cache root ($REPOREUSE_CACHE_DIR, default ~/.cache/reporeuse), parses about 2x faster and hands
each tree over whole. Results are identical: files with syntax errors are always parsed by the wasm
build, and the native one must parse a self-check source exactly as the wasm one before it is
used. \`deno task setup\` runs this command; package analyses of more than 8 MB of source build the
parser on demand. REPOREUSE_PARSER=wasm turns the native parser off.

Prints the library's path, or why the wasm parser is used.

Options:
  --require   exit 1 when the native parser cannot be built or used (default: exit 0)
`;

/** Runs the command. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse parser", {
    args,
    options: { require: { type: "boolean" } },
  });
  if (!parsed) return 2;
  const t0 = performance.now();
  const built = await buildNativeParser();
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  let why = "error" in built ? built.error : useNativeSummaries(await pythonParser(), built.path);
  if (why === null && "path" in built) {
    console.log(
      `native parser: ${built.path} (${
        built.built
          ? `built in ${seconds} s, ${
            built.profiled === true ? "profile-guided" : `not profile-guided: ${built.profiled}`
          }`
          : "built before"
      })`,
    );
    return 0;
  }
  why ??= "unknown";
  console.log(`wasm parser: the native parser is not used (${why})`);
  return parsed.values.require ? 1 : 0;
}
