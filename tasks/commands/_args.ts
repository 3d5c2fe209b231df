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

/**
 * The single positional argument when it names an existing file or directory (`kind`); otherwise
 * prints `<prefix>: …` (`expected exactly one <placeholder>`, `no such …`, `not a …`) and returns
 * undefined (the caller then exits 2).
 */
export async function onePath(
  prefix: string,
  positionals: readonly string[],
  kind: "file" | "directory",
  placeholder: string,
): Promise<string | undefined> {
  const [path, ...extra] = positionals;
  if (!path || extra.length) {
    console.error(`${prefix}: expected exactly one ${placeholder} (see --help)`);
    return undefined;
  }
  // what cannot be stat'ed is neither file nor directory: the error below names it
  const stat = await Deno.stat(path).catch(() => null);
  if (!(kind === "file" ? stat?.isFile : stat?.isDirectory)) {
    console.error(`${prefix}: ${path}: ${stat ? `not a ${kind}` : `no such ${kind}`}`);
    return undefined;
  }
  return path;
}

/** Most worker threads: twice the cores (each costs ~25 MB and more cannot run at once). */
export function maxWorkers(): number {
  return 2 * (navigator.hardwareConcurrency || 1);
}

/**
 * A `--workers` value as a count, lowered to {@link maxWorkers} with a note on stderr
 * (`<prefix>: …`); undefined when it is not a whole number ≥ 0.
 */
export function workerCount(prefix: string, raw: string): number | undefined {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) return undefined;
  const max = maxWorkers();
  if (n <= max) return n;
  console.error(
    `${prefix}: --workers ${n} is more than this machine can use; using ${max} ` +
      `(twice its ${max / 2} cores)`,
  );
  return max;
}

/**
 * Runs a command's work so that a crash is never mistaken for a result: an exception thrown by
 * `work`, an unhandled promise rejection or an uncaught error event while it runs (a worker's,
 * say) prints `<prefix>: internal error (a bug: please report it): <message>` and the stack on
 * stderr and gives `crashCode` — a code the command documents as "internal error", distinct
 * from those of its findings (e.g. `audit`'s 1, "re-implementation found").
 *
 * ```ts
 * import { guarded } from "./_args.ts";
 * const quiet = console.error;
 * console.error = () => {};
 * const code = await guarded("demo", 3, () => Promise.reject(new RangeError("Invalid string length")));
 * console.error = quiet;
 * console.assert(code === 3);
 * console.assert(await guarded("demo", 3, () => Promise.resolve(1)) === 1);
 * ```
 */
export async function guarded(
  prefix: string,
  crashCode: number,
  work: () => Promise<number>,
): Promise<number> {
  const report = (e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    console.error(
      `${prefix}: internal error (a bug: please report it): ${err.name}: ${err.message}`,
    );
    if (err.stack) console.error(err.stack.split("\n").slice(1).join("\n"));
  };
  const onRejection = (ev: PromiseRejectionEvent) => {
    ev.preventDefault();
    report(ev.reason);
    Deno.exit(crashCode);
  };
  const onError = (ev: ErrorEvent) => {
    ev.preventDefault();
    report(ev.error ?? ev.message);
    Deno.exit(crashCode);
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);
  try {
    return await work();
  } catch (e) {
    report(e);
    return crashCode;
  } finally {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  }
}
