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
