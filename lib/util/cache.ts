/**
 * A content-hash cache on disk: values are stored as JSON under a key derived from the SHA-256
 * of their inputs, so unchanged inputs are never recomputed and changed ones never reused.
 *
 * The directory is `$REPOREUSE_CACHE_DIR`, else `$XDG_CACHE_HOME/reporeuse`, else
 * `~/.cache/reporeuse`. Bump a namespace's `version` when the cached value's shape changes.
 *
 * A cache never costs a result: entries are written atomically ({@link writeFileAtomic}); an
 * entry that is not valid JSON, or fails the reader's shape check, counts as missing (and is
 * recomputed and overwritten); a cache that cannot be written (read-only, full, not a directory)
 * is reported once on stderr ({@link cacheFailed}) and the work goes on without it.
 *
 * @example
 * ```ts
 * import { Cache, sha256 } from "./cache.ts";
 * const cache = new Cache("example", 1, await Deno.makeTempDir());
 * const key = await sha256("def f(): pass");
 * await cache.set(key, { defs: 1 });
 * console.assert((await cache.get<{ defs: number }>(key))?.defs === 1);
 * // an entry of the wrong shape is a miss
 * const isText = (v: unknown): v is string => typeof v === "string";
 * console.assert((await cache.get(key, isText)) === undefined);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { writeFileAtomic } from "./fs.ts";

export { writeFileAtomic };

/** Hex SHA-256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Default root directory of the cache. */
export function cacheRoot(): string {
  const env = (name: string) => Deno.env.get(name);
  const explicit = env("REPOREUSE_CACHE_DIR");
  if (explicit) return explicit;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/reporeuse`;
  return `${env("HOME") ?? "/tmp"}/.cache/reporeuse`;
}

/** Cache roots that failed a write in this process (each is reported once, then not written). */
const failedRoots = new Set<string>();

/**
 * Reports a failed cache write under `root` once per process (on stderr) and returns false;
 * afterwards {@link cacheWritable} answers false for that root, so the work goes on without
 * writing there.
 */
export function cacheFailed(root: string, error: unknown): false {
  if (!failedRoots.has(root)) {
    failedRoots.add(root);
    const why = error instanceof Error ? error.message : String(error);
    console.error(`warning: cache ${root} cannot be written (${why}); continuing without it`);
  }
  return false;
}

/** Whether writes under `root` are still attempted (no write there failed in this process). */
export function cacheWritable(root: string): boolean {
  return !failedRoots.has(root);
}

/** A shape check of a cached value (e.g. `(v): v is Row => …`). */
export type Valid<T> = (value: unknown) => value is T;

/** A namespace of the content-hash cache. */
export class Cache {
  readonly root: string;
  readonly dir: string;

  constructor(namespace: string, version: number, root: string = cacheRoot()) {
    this.root = root;
    this.dir = `${root}/${namespace}-v${version}`;
  }

  #path(key: string): string {
    return `${this.dir}/${key.slice(0, 2)}/${key}.json`;
  }

  /**
   * The cached value for a key, or undefined: a missing or unreadable entry, one that is not
   * JSON, and one that fails `valid` all count as missing (and are overwritten by the next set).
   */
  async get<T>(key: string, valid?: Valid<T>): Promise<T | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(await Deno.readTextFile(this.#path(key)));
    } catch {
      return undefined;
    }
    if (valid && !valid(value)) return undefined;
    return value as T;
  }

  /**
   * Stores a value atomically (temporary file, then rename). Never throws: a failed write is
   * reported once per cache root ({@link cacheFailed}) and later writes there are skipped.
   * Returns whether the value was stored.
   */
  async set(key: string, value: unknown): Promise<boolean> {
    if (!cacheWritable(this.root)) return false;
    try {
      await writeFileAtomic(this.#path(key), JSON.stringify(value));
      return true;
    } catch (e) {
      return cacheFailed(this.root, e);
    }
  }
}
