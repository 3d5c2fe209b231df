/**
 * Option parsing shared by the CLI commands and tasks: `node:util` parseArgs whose usage error is
 * printed as `<prefix>: <message><suffix>` on stderr instead of thrown (the caller then exits 2).
 *
 * ```ts
 * import { parseOptions } from "./_args.ts";
 * const ok = parseOptions("demo", { args: ["--out", "x"], options: { out: { type: "string" } } });
 * console.assert(ok?.values.out === "x");
 * ```
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The parsed options, or undefined after printing the usage error. */
export function parseOptions<T extends ParseArgsConfig>(
  prefix: string,
  config: T,
  suffix = "",
): ReturnType<typeof parseArgs<T>> | undefined {
  try {
    return parseArgs(config);
  } catch (e) {
    console.error(`${prefix}: ${e instanceof Error ? e.message : e}${suffix}`);
    return undefined;
  }
}
