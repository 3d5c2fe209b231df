/**
 * Fingerprints of the toolkit's own code, for caches whose entries a code change must invalidate
 * (the scorer's per-turn cache, the simulated corpus and its scores): the SHA-256 over the sorted
 * paths and contents of every file under some folders of `lib/`.
 *
 * Every file counts except documentation (`*.md`) and hidden files: TypeScript, the native
 * parser's C sources and its training input, and any data file a module reads. (The two hashes
 * this replaces named the extensions they hashed, `.ts` with `.scm` or with `.json`, so a kind of
 * file neither named could change results without changing the key.)
 *
 * @example
 * ```ts
 * import { sourceHash } from "./source_hash.ts";
 * const a = await sourceHash(["metrics"]);
 * console.assert(/^[0-9a-f]{64}$/.test(a));
 * console.assert(a === await sourceHash(["metrics"]) && a !== await sourceHash(["util"]));
 * ```
 * @module
 */
import { sha256 } from "./cache.ts";

/** The `lib/` folder this module lives in. */
const LIB = new URL("../", import.meta.url);

/** Whether a file under `lib/` is part of the code fingerprinted by {@link sourceHash}. */
export function isSourceFile(name: string): boolean {
  return !name.startsWith(".") && !name.endsWith(".md");
}

const memo = new Map<string, Promise<string>>();

/**
 * SHA-256 of the code under `lib/<area>/` for each area, in the order given: `area/relative/path`
 * and the SHA-256 of its bytes for each file ({@link isSourceFile}), sorted within an area; an
 * absent area counts as empty. Memoised for the process (the code does not change while it runs).
 */
export function sourceHash(areas: readonly string[]): Promise<string> {
  const key = areas.join("\0");
  let hash = memo.get(key);
  if (!hash) memo.set(key, hash = hashAreas(areas));
  return hash;
}

async function hashAreas(areas: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const area of areas) {
    const files: string[] = [];
    const walk = async (rel: string) => {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(new URL(rel, LIB)));
      } catch (e) {
        // an area that is not there (a trimmed install) counts as empty; anything else is an error
        if (e instanceof Deno.errors.NotFound) return;
        throw e;
      }
      for (const e of entries) {
        if (e.isDirectory && !e.name.startsWith(".")) await walk(`${rel}${e.name}/`);
        else if (e.isFile && isSourceFile(e.name)) files.push(`${rel}${e.name}`);
      }
    };
    await walk(`${area}/`);
    for (const f of files.sort()) parts.push(f, sha256(await Deno.readFile(new URL(f, LIB))));
  }
  return sha256(parts.join("\n"));
}
