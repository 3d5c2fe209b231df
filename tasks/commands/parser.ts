/**
 * `deno task reporeuse parser [--require] [--no-build]` — says which Python parser the code model
 * uses and why, building the native parser first if it is missing (lib/python/parser_choice.ts).
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { describeParser } from "../../lib/python/mod.ts";

/** One-line summary. */
export const summary = "say which Python parser runs and why (builds the native one once)";

/** Full help text. */
export const help = `Usage: deno task reporeuse parser [--require] [--no-build]

The code model parses Python with tree-sitter. Its wasm build always works; a native build of the
same runtime and grammar, compiled once by this machine's C compiler (cc, gcc or clang) into the
cache root ($REPOREUSE_CACHE_DIR, default ~/.cache/reporeuse), parses about 2x faster. It runs in
a parse server process of its own, so a crash there costs one file, which the wasm build then
parses. Results are identical: files with syntax errors are always parsed by the wasm build, and
the native one must parse a self-check source exactly as the wasm one before it is used. Nothing
is loaded that is not the build recorded in its manifest (SHA-256 digests), in directories only
you can write. \`deno task setup\` runs this command when a C compiler is there (it installs
none); package analyses of more than 8 MB of source build the parser on demand.
REPOREUSE_PARSER=wasm turns the native parser off.

Prints "native parser: <where> (<how it was built>)" or "wasm parser: <why>", and on a machine
without a C compiler one more line saying how to get the native parser.

Options:
  --require    exit 1 when the native parser cannot be built or used (default: exit 0)
  --no-build   do not build it; only say what runs now
`;

/** Runs the command. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse parser", {
    args,
    options: { require: { type: "boolean" }, "no-build": { type: "boolean" } },
  });
  if (!parsed) return 2;
  const d = await describeParser({ build: !parsed.values["no-build"] });
  console.log(`${d.parser} parser: ${d.why}`);
  if (d.hint) console.log(d.hint);
  return d.parser === "native" || !parsed.values.require ? 0 : 1;
}
