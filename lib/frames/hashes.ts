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

/**
 * {@link HashMemo}s of the parts of a corpus (its configurations), each in its own file: a part's
 * memo is read on first use and saved and let go by {@link HashMemos.close} when the part is
 * done, so a long run holds the memos of the parts in flight, not one entry per log of the
 * whole corpus.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HashMemos } from "./hashes.ts";
 * import { sha256 } from "../util/cache.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.log`, "hello");
 * const memos = new HashMemos((part) => `${dir}/memo-${part}.json`);
 * assert.equal(memos.of("c1").hash(`${dir}/a.log`), sha256("hello"));
 * assert.equal(memos.open, 1);
 * await memos.close("c1");
 * assert.equal(memos.open, 0);
 * assert.ok((await Deno.readTextFile(`${dir}/memo-c1.json`)).includes(sha256("hello")));
 * ```
 */
export class HashMemos {
  readonly #pathOf: ((part: string) => string) | undefined;
  readonly #memos = new Map<string, HashMemo>();

  /** `pathOf`: the file of a part's memo (none: in-memory memos, never saved). */
  constructor(pathOf?: (part: string) => string) {
    this.#pathOf = pathOf;
  }

  /** The memo of `part`, read from its file on first use. */
  of(part: string): HashMemo {
    let memo = this.#memos.get(part);
    if (!memo) this.#memos.set(part, memo = new HashMemo(this.#pathOf?.(part)));
    return memo;
  }

  /** Number of memos held. */
  get open(): number {
    return this.#memos.size;
  }

  /** Saves `part`'s memo when it changed and lets it go (a later `of` reads it again). */
  async close(part: string): Promise<void> {
    const memo = this.#memos.get(part);
    this.#memos.delete(part);
    await memo?.save();
  }

  /** Saves and lets go every memo held. */
  async closeAll(): Promise<void> {
    for (const part of [...this.#memos.keys()]) await this.close(part);
  }
}
