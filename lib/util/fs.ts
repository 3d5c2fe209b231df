/**
 * Small file-system predicates that answer false instead of throwing.
 *
 * ```ts
 * import { exists, isDirectory } from "./fs.ts";
 * console.assert(await exists(import.meta.dirname!) && await isDirectory(import.meta.dirname!));
 * console.assert(!(await exists("/no/such/path")) && !(await isDirectory(import.meta.filename!)));
 * ```
 *
 * @module
 */

/** Whether something exists at `path` (links followed). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a directory (links followed). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The bytes of a regular file of at most `maxBytes`; throws an Error saying why not otherwise
 * (`not a regular file` for a device, FIFO or directory — /dev/zero would never end; `is N MiB,
 * over the M MiB limit`). Reads at most `maxBytes + 1` bytes, so a file growing meanwhile is
 * caught too.
 *
 * ```ts
 * import { readBounded } from "./fs.ts";
 * let said = "";
 * try {
 *   readBounded("/dev/zero", 1024);
 * } catch (e) {
 *   said = (e as Error).message;
 * }
 * console.assert(said === "not a regular file", said);
 * ```
 */
export function readBounded(path: string, maxBytes: number): Uint8Array {
  const mib = (n: number) => `${Math.round(n / 2 ** 20 * 10) / 10} MiB`;
  // stat before opening: opening a FIFO would wait for a writer
  if (!Deno.statSync(path).isFile) throw new Error("not a regular file");
  const file = Deno.openSync(path, { read: true });
  try {
    const info = file.statSync();
    if (!info.isFile) throw new Error("not a regular file");
    if (info.size > maxBytes) {
      throw new Error(`is ${mib(info.size)}, over the ${mib(maxBytes)} limit`);
    }
    const buf = new Uint8Array(Math.min(info.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) throw new Error(`grew over the ${mib(maxBytes)} limit while read`);
      const got = file.readSync(buf.subarray(n));
      if (got === null) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    file.close();
  }
}

/**
 * What stands in the way of writing `files` into the directory `dir` (created when missing), as
 * `<path>: <why>`, or null: `dir` or one of its parents is not a directory, or one of the files
 * is a directory or another non-file. Checked before a long computation, so it fails at once
 * with one line instead of at the end (where a library may only panic).
 *
 * ```ts
 * import { outputProblem } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/a.csv`);
 * console.assert(await outputProblem(dir, ["a.csv"]) === `${dir}/a.csv: a directory is in the way`);
 * console.assert(await outputProblem(`${dir}/new/out`, ["a.csv"]) === null);
 * ```
 */
export async function outputProblem(dir: string, files: readonly string[]): Promise<string | null> {
  const info = await Deno.stat(dir).catch(() => null);
  if (!info) {
    // missing: created later, so the nearest existing ancestor must be a directory
    const parent = dir.replace(/\/+$/, "").replace(/\/[^/]*$/, "") ||
      (dir.startsWith("/") ? "/" : ".");
    if (parent === dir) return null;
    return await outputProblem(parent, []);
  }
  if (!info.isDirectory) return `${dir}: not a directory`;
  for (const f of files) {
    const path = `${dir.replace(/\/+$/, "")}/${f}`;
    const at = await Deno.stat(path).catch(() => null);
    if (at?.isDirectory) return `${path}: a directory is in the way`;
    if (at && !at.isFile) return `${path}: not a regular file`;
  }
  return null;
}
