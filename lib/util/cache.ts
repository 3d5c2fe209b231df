/**
 * A content-hash cache on disk: values are stored as JSON under a key derived from the SHA-256
 * of their inputs, so unchanged inputs are never recomputed and changed ones never reused.
 *
 * The directory is `$REPOREUSE_CACHE_DIR`, else `$XDG_CACHE_HOME/reporeuse`, else
 * `~/.cache/reporeuse`. Bump a namespace's `version` when the cached value's shape changes.
 *
 * @example
 * ```ts
 * import { Cache, sha256 } from "./cache.ts";
 * const cache = new Cache("example", 1, await Deno.makeTempDir());
 * const key = await sha256("def f(): pass");
 * await cache.set(key, { defs: 1 });
 * console.assert((await cache.get<{ defs: number }>(key))?.defs === 1);
 * ```
 * @module
 */
import { createHash } from "node:crypto";

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

/** A namespace of the content-hash cache. */
export class Cache {
  readonly dir: string;

  constructor(namespace: string, version: number, root: string = cacheRoot()) {
    this.dir = `${root}/${namespace}-v${version}`;
  }

  #path(key: string): string {
    return `${this.dir}/${key.slice(0, 2)}/${key}.json`;
  }

  /** The cached value for a key, or undefined (a corrupt entry counts as missing). */
  async get<T>(key: string): Promise<T | undefined> {
    try {
      return JSON.parse(await Deno.readTextFile(this.#path(key))) as T;
    } catch {
      return undefined;
    }
  }

  /** Stores a value (atomically: written to a temporary file, then renamed). */
  async set(key: string, value: unknown): Promise<void> {
    const path = this.#path(key);
    const dir = path.slice(0, path.lastIndexOf("/"));
    await Deno.mkdir(dir, { recursive: true });
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(value));
    await Deno.rename(tmp, path);
  }
}
