/**
 * A content-hash cache on disk: values are stored as JSON under a key derived from the SHA-256
 * of their inputs, so unchanged inputs are never recomputed and changed ones never reused.
 *
 * **Where.** {@link cacheRoot}: `$REPOREUSE_CACHE_DIR`, else `$XDG_CACHE_HOME/reporeuse` (an
 * absolute value only, as the XDG spec says), else `$HOME/.cache/reporeuse`, else the home
 * directory of the user's account (`/etc/passwd`) + `/.cache/reporeuse`, else a per-user
 * directory `$TMPDIR/reporeuse-cache-<uid>` (default `/tmp`). Bump a namespace's `version` when
 * the cached value's shape changes.
 *
 * **Nobody else's entries.** A cache is trusted with results (and the native parser's library),
 * so its root must be a directory no other user can write ({@link cacheDirProblem}): created
 * mode 0700 when missing (an existing one of ours is tightened to 0700), owned by the current
 * user, not writable by group or others, and every directory above it owned by the user or root
 * and not writable by others (unless sticky, like `/tmp`). A root that fails is not used: one
 * line on stderr names it and the fix, and the run keeps its cache in a private temporary
 * directory instead (removed at exit), so no result is lost.
 *
 * **Entries bound to their key.** Every {@link Cache} entry carries an HMAC-SHA-256 of its
 * namespace, key and JSON text under a random secret kept in the root (`cache-key`, mode 0600):
 * an entry edited by hand, copied under another key or from another cache directory fails the
 * check and counts as missing (it is recomputed and overwritten).
 *
 * A cache never costs a result: entries are written atomically ({@link writeFileAtomic}); an
 * entry that is not a regular file (a FIFO would block the read, a link lead elsewhere), fails its
 * check, is not valid JSON, or fails the reader's shape check counts as missing (and is
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
 * // so is an entry edited on disk
 * const file = cache.entryPath(key);
 * await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace('"defs":1', '"defs":2'));
 * console.assert((await cache.get(key)) === undefined);
 * ```
 * @module
 */
import { createHash, createHmac } from "node:crypto";
import { homedir } from "node:os";
import { readRegular, writeFileAtomic } from "./fs.ts";

export { writeFileAtomic };

/** Hex SHA-256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** What {@link configuredCacheRoot} reads (defaults: this process's environment and account). */
export interface CacheRootInputs {
  env?: (name: string) => string | undefined;
  /** The account's home directory ("" when unknown). */
  home?: string;
  uid?: number;
}

/**
 * The cache root as configured, before any check: `$REPOREUSE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/reporeuse` (absolute values only), else `$HOME/.cache/reporeuse`, else the
 * account's home directory + `/.cache/reporeuse`, else `$TMPDIR/reporeuse-cache-<uid>` (a
 * per-user name, checked like any other root: never a directory shared by all users).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configuredCacheRoot } from "./cache.ts";
 * const env = (vars: Record<string, string>) => (name: string) => vars[name];
 * assert.equal(configuredCacheRoot({ env: env({ HOME: "/home/ann" }) }), "/home/ann/.cache/reporeuse");
 * assert.equal(configuredCacheRoot({ env: env({ XDG_CACHE_HOME: "rel", HOME: "/h" }) }), "/h/.cache/reporeuse");
 * // no HOME, no account home: a per-user name, not /tmp/.cache shared by everyone
 * assert.equal(configuredCacheRoot({ env: env({}), home: "", uid: 1000 }), "/tmp/reporeuse-cache-1000");
 * ```
 */
export function configuredCacheRoot(inputs: CacheRootInputs = {}): string {
  const env = inputs.env ?? ((name: string) => Deno.env.get(name));
  const explicit = env("REPOREUSE_CACHE_DIR");
  if (explicit) return explicit.startsWith("/") ? explicit : `${Deno.cwd()}/${explicit}`;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg?.startsWith("/")) return `${trimSlash(xdg)}/reporeuse`;
  const home = env("HOME");
  if (home?.startsWith("/")) return `${trimSlash(home)}/.cache/reporeuse`;
  const account = inputs.home ?? accountHome();
  if (account.startsWith("/")) return `${trimSlash(account)}/.cache/reporeuse`;
  const tmp = env("TMPDIR");
  const uid = inputs.uid ?? whoAmI()?.uid ?? 0;
  return `${tmp?.startsWith("/") ? trimSlash(tmp) : "/tmp"}/reporeuse-cache-${uid}`;
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

/** The account's home directory from the user database ("" when unknown). */
function accountHome(): string {
  try {
    return homedir();
  } catch {
    // no home in the user database (a container's uid): the caller falls back
    return "";
  }
}

/** Why a directory cannot serve as a cache root (see {@link cacheDirProblem}). */
export interface CacheDirProblem {
  /**
   * `unsafe`: someone else could write there (never used); `unusable`: it cannot be made or is
   * not a directory (the cache's writes fail and are reported as such).
   */
  kind: "unsafe" | "unusable";
  /** One line naming the directory, what is wrong and the fix. */
  message: string;
}

const checked = new Map<string, CacheDirProblem | null>();

/**
 * Checks (once per process) that `dir` is safe as a cache root, creating it mode 0700 when
 * missing: it must be a directory owned by the current user and writable by no one else (an
 * existing one readable by others is tightened to 0700), and every directory above it, on the
 * path as given and on its real path, must belong to the user or root and not be writable by
 * others (a sticky directory such as `/tmp` is fine: nobody can rename what we own there).
 * Returns null when it is, else the problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheDirProblem } from "./cache.ts";
 * const dir = await Deno.makeTempDir();
 * assert.equal(cacheDirProblem(`${dir}/cache`), null);
 * assert.equal(Deno.statSync(`${dir}/cache`).mode! & 0o777, 0o700);
 * Deno.mkdirSync(`${dir}/open`);
 * Deno.chmodSync(`${dir}/open`, 0o777);
 * assert.equal(cacheDirProblem(`${dir}/open`)?.kind, "unsafe");
 * ```
 */
export function cacheDirProblem(dir: string): CacheDirProblem | null {
  if (checked.has(dir)) return checked.get(dir)!;
  const problem = checkDir(dir);
  checked.set(dir, problem);
  return problem;
}

let me: { uid: number; gid: number } | null | undefined;

/**
 * This process's user and group: `Deno.uid()`/`Deno.gid()`, or — without `--allow-sys` — the
 * owner of a directory it makes and removes at once; null when neither can be had.
 */
function whoAmI(): { uid: number; gid: number } | null {
  if (me !== undefined) return me;
  me = null;
  try {
    const uid = Deno.uid(), gid = Deno.gid();
    if (uid !== null && gid !== null) me = { uid, gid };
  } catch {
    try {
      const probe = Deno.makeTempDirSync({ prefix: "reporeuse-whoami-" });
      try {
        const s = Deno.statSync(probe);
        if (s.uid !== null && s.gid !== null) me = { uid: s.uid, gid: s.gid };
      } finally {
        Deno.removeSync(probe);
      }
    } catch {
      // no way to tell
    }
  }
  return me;
}

function checkDir(dir: string): CacheDirProblem | null {
  if (Deno.build.os === "windows") return null; // no POSIX owners and modes to check
  const who = whoAmI();
  if (who === null) {
    return { kind: "unsafe", message: `cache directory ${dir}: cannot tell who owns it` };
  }
  const uid = who.uid;
  const fix = "set REPOREUSE_CACHE_DIR to a directory of your own";
  const unsafe = (what: string, how: string): CacheDirProblem => ({
    kind: "unsafe",
    message: `cache directory ${dir} is not safe: ${what}; not used — fix: ${how}`,
  });
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return { kind: "unusable", message: `cache ${dir} cannot be created (${firstLine(e)})` };
  }
  let real: string;
  let info: Deno.FileInfo;
  try {
    real = Deno.realPathSync(dir);
    info = Deno.statSync(real);
  } catch (e) {
    return { kind: "unusable", message: `cache ${dir} cannot be read (${firstLine(e)})` };
  }
  if (!info.isDirectory) {
    return { kind: "unusable", message: `cache ${dir} is not a directory` };
  }
  const mode = (info.mode ?? 0) & 0o7777;
  if (info.uid !== uid) {
    return unsafe(`it belongs to uid ${info.uid}, not to you (uid ${uid})`, fix);
  }
  if (mode & 0o022) {
    return unsafe(
      `it is writable by ${mode & 0o002 ? "others" : "its group"} (mode ${octal(mode)})`,
      `check what is in it, then chmod 700 ${real}; or ${fix}`,
    );
  }
  for (const p of [...ancestors(dir), ...ancestors(real)]) {
    let s: Deno.FileInfo;
    try {
      s = Deno.lstatSync(p);
    } catch {
      continue; // the real path's own ancestors are checked on their own
    }
    const problem = ancestorProblem(p, s, who);
    if (problem) return unsafe(problem, fix);
  }
  if (mode & 0o077) {
    try {
      Deno.chmodSync(real, 0o700); // readable by others: ours, so made private
    } catch {
      // a read-only file system: nobody can write there either
    }
  }
  return null;
}

/**
 * Why another user could replace what lies below the directory `p` (its `lstat`), or null: it
 * must be this user's or root's, and writable by no one else unless sticky (as /tmp is) — its
 * group may write when the group is this user's. A link is judged by its owner only (its target
 * lies on the real path, checked on its own).
 */
function ancestorProblem(
  p: string,
  s: Deno.FileInfo,
  who: { uid: number; gid: number },
): string | null {
  const m = (s.mode ?? 0) & 0o7777;
  if (s.uid !== who.uid && s.uid !== 0) {
    return `${p} above it belongs to uid ${s.uid}, who can replace it`;
  }
  if (s.isSymlink) return null;
  const sticky = (m & 0o1000) !== 0;
  if (!sticky && ((m & 0o002) || ((m & 0o020) && s.gid !== who.gid))) {
    return `${p} above it is writable by others (mode ${octal(m)})`;
  }
  return null;
}

/**
 * Why `path` (a file or directory of ours below the cache root `root`) could be changed by
 * another user, or null when it cannot. Every directory from it up to `/` is checked by its real
 * path: up to `root` each must be this user's and writable by no one else; above it, as
 * {@link cacheDirProblem} checks a cache directory's ancestors — and below a sticky directory
 * others can write (as /tmp), the entry must be this user's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeableByOthers } from "./cache.ts";
 * const root = await Deno.makeTempDir();
 * Deno.chmodSync(root, 0o700);
 * Deno.writeTextFileSync(`${root}/f`, "x");
 * Deno.chmodSync(`${root}/f`, 0o600);
 * assert.equal(changeableByOthers(`${root}/f`, root), null);
 * Deno.chmodSync(`${root}/f`, 0o666);
 * assert.match(changeableByOthers(`${root}/f`, root) ?? "", /is writable by others/);
 * ```
 */
export function changeableByOthers(path: string, root: string): string | null {
  if (Deno.build.os === "windows") return null; // no POSIX owners and modes to check
  const who = whoAmI();
  if (who === null) return `${path} cannot be checked: cannot tell who you are`;
  let real: string, realRoot: string;
  try {
    real = Deno.realPathSync(path);
    realRoot = Deno.realPathSync(root);
  } catch (e) {
    return `${path} cannot be checked: ${e}`;
  }
  const parts = real.split("/").filter(Boolean);
  let below: Deno.FileInfo | null = null;
  for (let i = parts.length; i >= 0; i--) {
    const p = "/" + parts.slice(0, i).join("/");
    const st = Deno.lstatSync(p);
    const mode = (st.mode ?? 0) & 0o7777;
    if (p === realRoot || p.startsWith(realRoot + "/")) {
      if (st.uid !== who.uid) return `${p} is not owned by you (owner uid ${st.uid})`;
      if (mode & 0o022) return `${p} is writable by others (mode ${octal(mode)})`;
    } else {
      const problem = ancestorProblem(p, st, who);
      if (problem) return problem;
      if (mode & 0o022 && below && below.uid !== who.uid) {
        return `${p} is writable by others and what is below it is not yours`;
      }
    }
    below = st;
  }
  return null;
}

function octal(mode: number): string {
  return `0${mode.toString(8)}`;
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/** The directories above an absolute path, nearest first (`/a/b/c` → `/a/b`, `/a`, `/`). */
function ancestors(path: string): string[] {
  const abs = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const parts = abs.split("/").filter((p) => p && p !== ".");
  const out: string[] = [];
  for (let i = parts.length - 1; i >= 0; i--) out.push(`/${parts.slice(0, i).join("/")}`);
  return out;
}

/** Configured roots already settled in this process → the root to use. */
const settled = new Map<string, string>();
let privateRoot: string | undefined;

/**
 * The cache root, checked ({@link cacheDirProblem}): `dir` when given (an explicit `cacheDir`
 * option), else the configured directory ({@link configuredCacheRoot}), when it is safe —
 * created 0700, owned by the current user, writable by nobody else. When someone else could
 * write there, it is not used: a line on stderr names it and the fix, and this process gets a
 * private temporary directory instead (mode 0700, removed at exit), so results are computed as
 * without a cache. A root that cannot be created is returned as is (its writes fail and are
 * reported once, {@link cacheFailed}). Anything that loads code or trusts results from the cache
 * takes its root from here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheRoot } from "./cache.ts";
 * const mine = `${await Deno.makeTempDir()}/cache`;
 * assert.equal(cacheRoot(mine), mine);
 * assert.equal(Deno.statSync(mine).mode! & 0o777, 0o700);
 * ```
 */
export function cacheRoot(dir: string = configuredCacheRoot()): string {
  const known = settled.get(dir);
  if (known !== undefined) return known;
  const problem = cacheDirProblem(dir);
  let root = dir;
  if (problem?.kind === "unsafe") {
    console.error(`warning: ${problem.message} (this run uses a private temporary cache)`);
    root = privateCacheRoot();
  }
  settled.set(dir, root);
  return root;
}

/** A fresh directory only this process knows (mode 0700), removed when the process exits. */
function privateCacheRoot(): string {
  if (privateRoot) return privateRoot;
  const dir = Deno.makeTempDirSync({ prefix: "reporeuse-cache-" });
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone
    }
  });
  checked.set(dir, null);
  privateRoot = dir;
  return dir;
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

/** Roots refused as unsafe in this process (each reported once). */
const refusedRoots = new Set<string>();

/**
 * Whether entries under `root` may be read and written: false (said once on stderr) when
 * someone else could write there ({@link cacheDirProblem}). A root that cannot be created is
 * usable in this sense: reading it finds nothing, and its failed writes are reported.
 */
export function cacheUsable(root: string): boolean {
  const problem = cacheDirProblem(root);
  if (problem?.kind !== "unsafe") return true;
  if (!refusedRoots.has(root)) {
    refusedRoots.add(root);
    console.error(`warning: ${problem.message} (continuing without a cache)`);
  }
  return false;
}

/** Secrets of the roots in use (root → key bytes, or why none can be had). */
const secrets = new Map<string, Uint8Array | Error>();

/** Name of the file holding a root's entry-signing secret. */
export const CACHE_KEY_FILE = "cache-key";

/**
 * The random secret that signs the entries of `root` (`<root>/cache-key`, 64 hex digits, mode
 * 0600, owned by the user; made on first use, replaced when it is not such a file), or the error
 * that kept it from being made (an unwritable root: then nothing can be read or written there).
 */
function rootSecret(root: string): Uint8Array | Error {
  if (secrets.has(root)) return secrets.get(root)!;
  const path = `${root}/${CACHE_KEY_FILE}`;
  const read = (): Uint8Array | null => {
    try {
      const s = Deno.lstatSync(path);
      const uid = whoAmI()?.uid ?? null;
      if (!s.isFile || (uid !== null && s.uid !== uid) || ((s.mode ?? 0) & 0o077)) return null;
      const text = Deno.readTextFileSync(path).trim();
      return /^[0-9a-f]{64}$/.test(text) ? new TextEncoder().encode(text) : null;
    } catch {
      // a missing, foreign or unreadable key file is no key: a new one is made
      return null;
    }
  };
  let secret: Uint8Array | Error | null = read();
  if (!secret) {
    // made under a temporary name, then linked (first writer wins) or renamed over a bad one
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
      Deno.writeTextFileSync(tmp, hex + "\n", { createNew: true, mode: 0o600 });
      try {
        Deno.linkSync(tmp, path);
      } catch {
        if (!read()) Deno.renameSync(tmp, path);
      }
    } catch (e) {
      secret = e instanceof Error ? e : new Error(String(e)); // an unwritable root
    } finally {
      try {
        Deno.removeSync(tmp);
      } catch { /* renamed or never made */ }
    }
    secret = read() ?? secret ?? new Error(`${path} cannot be made`);
  }
  secrets.set(root, secret);
  return secret;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A shape check of a cached value (e.g. `(v): v is Row => …`). */
export type Valid<T> = (value: unknown) => value is T;

/** A namespace of the content-hash cache. */
export class Cache {
  readonly root: string;
  readonly dir: string;
  readonly #name: string;

  constructor(namespace: string, version: number, root: string = cacheRoot()) {
    this.root = root;
    this.#name = `${namespace}-v${version}`;
    this.dir = `${root}/${this.#name}`;
  }

  /** The file holding a key's entry. */
  entryPath(key: string): string {
    return `${this.dir}/${key.slice(0, 2)}/${key}.json`;
  }

  /** The signature of an entry's JSON text (or its UTF-8 bytes) under this cache's secret. */
  #sign(secret: Uint8Array, key: string, json: string | Uint8Array): string {
    return createHmac("sha256", secret).update(`${this.#name}\n${key}\n`).update(json).digest(
      "hex",
    );
  }

  /**
   * The cached value for a key, or undefined: a missing or unreadable entry, one whose
   * signature does not match (edited, or copied from another key or cache), one that is not
   * JSON, and one that fails `valid` all count as missing (and are overwritten by the next set).
   */
  async get<T>(key: string, valid?: Valid<T>): Promise<T | undefined> {
    if (!cacheUsable(this.root)) return undefined;
    // a missing or unreadable entry is a miss (the value is computed again), and so is anything
    // but a regular file: a FIFO planted there would block the read, a link lead elsewhere
    const bytes = await readRegular(this.entryPath(key));
    if (!bytes) return undefined;
    const secret = rootSecret(this.root);
    // `<64 hex digits of the signature>\n<JSON>`: the bytes are checked as read, then decoded
    if (secret instanceof Error || bytes.length < 65 || bytes[64] !== 10) return undefined;
    const body = bytes.subarray(65);
    if (decoder.decode(bytes.subarray(0, 64)) !== this.#sign(secret, key, body)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(body));
    } catch {
      // a damaged entry is a miss (and is overwritten by the next set)
      return undefined;
    }
    if (valid && !valid(value)) return undefined;
    return value as T;
  }

  /**
   * Stores a value atomically (temporary file, then rename), signed. Never throws: a failed
   * write is reported once per cache root ({@link cacheFailed}) and later writes there are
   * skipped. Returns whether the value was stored.
   */
  set(key: string, value: unknown): Promise<boolean> {
    if (!cacheWritable(this.root) || !cacheUsable(this.root)) return Promise.resolve(false);
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch (e) {
      return Promise.resolve(cacheFailed(this.root, e));
    }
    return this.setJson(key, json);
  }

  /**
   * {@link set} for a value already serialised (`json` must be `JSON.stringify` of it): a caller
   * that has the JSON of the parts of a value joins them instead of serialising it again.
   */
  async setJson(key: string, json: string): Promise<boolean> {
    if (!cacheWritable(this.root) || !cacheUsable(this.root)) return false;
    try {
      const secret = rootSecret(this.root);
      if (secret instanceof Error) throw secret;
      // `<64 hex digits of the signature>\n<JSON>`, the JSON encoded once for both
      const body = encoder.encode(json);
      const bytes = new Uint8Array(65 + body.length);
      encoder.encodeInto(this.#sign(secret, key, body), bytes);
      bytes[64] = 10;
      bytes.set(body, 65);
      await writeFileAtomic(this.entryPath(key), bytes);
      return true;
    } catch (e) {
      return cacheFailed(this.root, e);
    }
  }
}
