/**
 * Content hashes of large input files (run logs), remembered across runs by file identity — the
 * way git's index avoids re-hashing unchanged files. A remembered hash is used only when the
 * file's path, size, inode, modification and change times are all unchanged, and only when the
 * file had not been modified within two seconds before its hash was recorded (a file written
 * during the same instant could change again without its times changing: "racy" entries are
 * re-hashed). Cache keys stay SHA-256 digests of the contents; this only avoids recomputing them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HashMemo } from "./hashes.ts";
 * import { sha256 } from "../util/cache.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.log`, "hello");
 * const memo = new HashMemo(`${dir}/memo.json`);
 * assert.equal(memo.hash(`${dir}/a.log`), sha256("hello"));
 * await memo.save();
 * assert.equal(new HashMemo(`${dir}/memo.json`).hash(`${dir}/a.log`), sha256("hello"));
 * ```
 * @module
 */
import { readBounded, sha256, writeFileAtomic } from "../util/mod.ts";
import { MAX_LOG_BYTES } from "../logs/mod.ts";

/** [size, mtimeMs, ctimeMs, ino, recordedAtMs, sha256] */
type Entry = [number, number, number, number, number, string];

function isEntry(e: unknown): e is Entry {
  return Array.isArray(e) && e.length === 6 && e.slice(0, 5).every((x) => typeof x === "number") &&
    typeof e[5] === "string" && /^[0-9a-f]{64}$/.test(e[5]);
}

/**
 * Modifications closer than this to the recording time make an entry untrusted. Change times
 * may have one-second resolution (Deno's `ctime` does): with a two-second window, any later
 * change of a trusted file shows in its (truncated) change time.
 */
const RACY_MS = 2000;

/** A persistent map from file identity to the SHA-256 of its contents. */
export class HashMemo {
  readonly path: string | undefined;
  #entries: Record<string, Entry> = {};
  #dirty = false;

  readonly #racyMs: number;

  /**
   * `path`: the JSON file holding the memo (none: an in-memory memo that is never saved);
   * `racyMs`: entries recorded within this time of the file's last change are not trusted.
   */
  constructor(path?: string, racyMs = RACY_MS) {
    this.path = path;
    this.#racyMs = racyMs;
    if (!path) return;
    try {
      const data = JSON.parse(Deno.readTextFileSync(path));
      if (data && typeof data === "object" && !Array.isArray(data)) {
        // entries of another shape are dropped (their files are hashed again)
        for (const [file, e] of Object.entries(data)) if (isEntry(e)) this.#entries[file] = e;
      }
    } catch {
      // absent or corrupt: start empty
    }
  }

  /** SHA-256 of a file's bytes (read only when the file is not known unchanged). */
  hash(file: string): string {
    return this.read(file).digest;
  }

  /** SHA-256 of a file, with its bytes when they had to be read. */
  read(file: string): { digest: string; bytes?: Uint8Array } {
    const info = Deno.statSync(file);
    const id: [number, number, number, number] = [
      info.size,
      info.mtime?.getTime() ?? -1,
      info.ctime?.getTime() ?? -1,
      info.ino ?? -1,
    ];
    const e = this.#entries[file];
    if (
      e && e[0] === id[0] && e[1] === id[1] && e[2] === id[2] && e[3] === id[3] && id[1] >= 0 &&
      e[4] - Math.max(e[1], e[2]) > this.#racyMs
    ) {
      return { digest: e[5] };
    }
    const bytes = readBounded(file, MAX_LOG_BYTES); // /dev/zero or a huge file: an error, not a hang
    const digest = sha256(bytes);
    this.#entries[file] = [id[0], id[1], id[2], id[3], Date.now(), digest];
    this.#dirty = true;
    return { digest, bytes };
  }

  /** Writes the memo (atomically) when it changed. */
  async save(): Promise<void> {
    if (!this.path || !this.#dirty) return;
    await writeFileAtomic(this.path, JSON.stringify(this.#entries));
    this.#dirty = false;
  }
}
