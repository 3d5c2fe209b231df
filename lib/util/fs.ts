/**
 * Small file-system helpers: predicates that answer false instead of throwing, and all-or-nothing
 * writes of a file ({@link writeFileAtomic}) or of a whole directory ({@link writeDirAtomic}).
 *
 * ```ts
 * import { exists, existsSync, isDirectory } from "./fs.ts";
 * console.assert(await exists(import.meta.dirname!) && await isDirectory(import.meta.dirname!));
 * console.assert(!(await exists("/no/such/path")) && !(await isDirectory(import.meta.filename!)));
 * console.assert(existsSync(import.meta.filename!) && !existsSync("/no/such/path"));
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
    // any failure to stat (missing, a dangling link, no permission) is "not there"
    return false;
  }
}

/**
 * {@link exists}, synchronously: for a check made between asynchronous reads, which an
 * asynchronous one would wait behind.
 */
export function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    // as in exists: any failure to stat is "not there"
    return false;
  }
}

/** Whether `path` is a directory (links followed). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    // as in exists: what cannot be stat'ed is no directory
    return false;
  }
}

/** The directory part of `path`. */
function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? (i === 0 ? "/" : ".") : path.slice(0, i);
}

/**
 * Writes a file all or nothing: the data go to a temporary name beside `path`, which is then
 * renamed over it, so a reader sees the old file or the new one, never a part. Parent
 * directories are made. On failure (disk full, no permission, …) the temporary file is removed
 * and the error rethrown; `path` is untouched.
 *
 * ```ts
 * import { writeFileAtomic } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a/b.txt`, "hello");
 * console.assert(await Deno.readTextFile(`${dir}/a/b.txt`) === "hello");
 * console.assert([...Deno.readDirSync(`${dir}/a`)].length === 1); // no temporary file left
 * ```
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(parentOf(path), { recursive: true });
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    if (typeof data === "string") await Deno.writeTextFile(tmp, data);
    else await Deno.writeFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {}); // the write's own failure is what the caller sees
    throw e;
  }
}

/**
 * Removes `path` (recursively, links not followed). A path that is not there is fine; any other
 * failure (no permission, a busy mount) is thrown, so that nothing stale is taken for new.
 *
 * ```ts
 * import { removeIfPresent } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/a/b`, { recursive: true });
 * await removeIfPresent(`${dir}/a`);
 * await removeIfPresent(`${dir}/a`); // gone already: fine
 * console.assert([...Deno.readDirSync(dir)].length === 0);
 * ```
 */
export async function removeIfPresent(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/**
 * {@link writeFileAtomic}, synchronously (for workers, which have nothing else to do meanwhile).
 * `made` remembers the directories already made, to skip their `mkdir`.
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  made?: Set<string>,
): void {
  const dir = parentOf(path);
  if (!made?.has(dir)) {
    Deno.mkdirSync(dir, { recursive: true });
    made?.add(dir);
  }
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    if (typeof data === "string") Deno.writeTextFileSync(tmp, data);
    else Deno.writeFileSync(tmp, data);
    Deno.renameSync(tmp, path);
  } catch (e) {
    try {
      Deno.removeSync(tmp);
    } catch { /* never made */ }
    throw e;
  }
}

/** Names of the hidden siblings {@link writeDirAtomic} uses beside `dest`. */
function siblings(dest: string): { parent: string; prefix: string } {
  const parent = parentOf(dest);
  return { parent, prefix: `.${dest.slice(dest.lastIndexOf("/") + 1)}.` };
}

/** Copies (hard links where possible) `from` to `to`, recursively; links are copied as links. */
async function copyTree(from: string, to: string): Promise<void> {
  const st = await Deno.lstat(from);
  if (st.isSymlink) await Deno.symlink(await Deno.readLink(from), to);
  else if (st.isDirectory) {
    await Deno.mkdir(to);
    for await (const e of Deno.readDir(from)) {
      await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    }
  } else await Deno.link(from, to).catch(() => Deno.copyFile(from, to));
}

/**
 * Carries the entries of the old directory `from` that the new one `to` lacks (directories both
 * have are merged the same way), except those `keep` refuses (`rel`: path relative to the top).
 */
async function carryOver(
  from: string,
  to: string,
  keep: (rel: string) => boolean,
  rel = "",
): Promise<void> {
  for await (const e of Deno.readDir(from)) {
    const r = `${rel}${e.name}`;
    if (!keep(r)) continue;
    // nothing at the destination yet: copied whole
    const there = await Deno.lstat(`${to}/${e.name}`).catch(() => null);
    if (!there) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (there.isDirectory && e.isDirectory) {
      await carryOver(`${from}/${e.name}`, `${to}/${e.name}`, keep, `${r}/`);
    }
  }
}

/**
 * Puts back a directory that {@link writeDirAtomic} was interrupted in replacing (the process died
 * between its two renames: `dest` is missing and its old copy waits beside it). Removes the
 * hidden leftovers of interrupted writes older than an hour. Returns whether it restored `dest`.
 */
export async function recoverDir(dest: string): Promise<boolean> {
  const { parent, prefix } = siblings(dest);
  let restored = false;
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(parent));
  } catch {
    // no parent directory: nothing was ever staged beside dest
    return false;
  }
  const missing = !(await exists(dest));
  for (const e of entries) {
    if (!e.name.startsWith(prefix) || !/\.(old|new)-[0-9a-f-]{36}$/.test(e.name)) continue;
    const path = `${parent}/${e.name}`;
    if (missing && !restored && e.name.includes(".old-")) {
      restored = await Deno.rename(path, dest).then(() => true, () => false);
      continue;
    }
    // gone meanwhile: counted as old, and its removal below finds nothing
    const age = Date.now() - ((await Deno.lstat(path).catch(() => null))?.mtime?.getTime() ?? 0);
    // best effort: an old sibling left behind is tried again next time
    if (age > 3600_000) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
  return restored;
}

/**
 * Writes a whole directory all or nothing: `fill` writes into a new hidden directory beside
 * `dest`, which then replaces `dest` by two renames; a reader sees the old directory or the new
 * one, never a mix. When `fill` fails (disk full, …) its directory is removed and `dest` is
 * untouched. Entries of the old `dest` that `fill` did not write are carried over (hard links),
 * but for those `opts.keep` refuses (e.g. the writer's own outputs of an earlier run).
 * If the process dies between the two renames, `dest` is missing and its old copy is beside it:
 * {@link recoverDir} (called first here) puts it back.
 *
 * ```ts
 * import { writeDirAtomic } from "./fs.ts";
 * const dest = `${await Deno.makeTempDir()}/out`;
 * await writeDirAtomic(dest, (dir) => Deno.writeTextFile(`${dir}/a.txt`, "1"));
 * await writeDirAtomic(dest, async () => { throw new Error("disk full"); }).catch(() => {});
 * console.assert(await Deno.readTextFile(`${dest}/a.txt`) === "1");
 * ```
 */
export async function writeDirAtomic(
  dest: string,
  fill: (dir: string) => Promise<void>,
  opts: { keep?: (rel: string) => boolean } = {},
): Promise<void> {
  await recoverDir(dest);
  // a link (or `.`) is replaced where it leads
  const target = (await exists(dest)) ? await Deno.realPath(dest) : dest;
  if ((await exists(target)) && !(await isDirectory(target))) {
    throw new Error(`${dest}: exists and is not a directory`);
  }
  const { parent, prefix } = siblings(target);
  await Deno.mkdir(parent, { recursive: true });
  const fresh = `${parent}/${prefix}new-${crypto.randomUUID()}`;
  await Deno.mkdir(fresh);
  try {
    await fill(fresh);
    if (await isDirectory(target)) await carryOver(target, fresh, opts.keep ?? (() => true));
  } catch (e) {
    // the failure below is what the caller sees
    await Deno.remove(fresh, { recursive: true }).catch(() => {});
    throw e;
  }
  if (!(await exists(target))) {
    await Deno.rename(fresh, target);
    return;
  }
  const old = `${parent}/${prefix}old-${crypto.randomUUID()}`;
  await Deno.rename(target, old).catch(async (e) => {
    // the failed rename is what the caller sees
    await Deno.remove(fresh, { recursive: true }).catch(() => {});
    throw e;
  });
  try {
    await Deno.rename(fresh, target);
  } catch (e) {
    await Deno.rename(old, target);
    // the failed rename is what the caller sees
    await Deno.remove(fresh, { recursive: true }).catch(() => {});
    throw e;
  }
  // the new tree is in place: an old copy left behind is cleaned up by recoverDir
  await Deno.remove(old, { recursive: true }).catch(() => {});
}

/**
 * Opens `path` for reading only when it is a regular file and not a symbolic link, else null
 * (missing and unreadable too): `lstat` before opening — opening a FIFO would wait for a writer,
 * a link could lead anywhere — and the opened file's own stat must be that file (the same device
 * and inode), so one swapped in between is refused. The caller closes what it gets.
 *
 * ```ts
 * import { openRegular, openRegularSync, readRegular } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a`, "x");
 * await Deno.symlink(`${dir}/a`, `${dir}/link`);
 * const file = await openRegular(`${dir}/a`);
 * console.assert(file !== null);
 * file?.close();
 * console.assert(openRegularSync(`${dir}/link`) === null && openRegularSync(dir) === null);
 * console.assert((await openRegular(`${dir}/missing`)) === null);
 * console.assert((await readRegular(`${dir}/a`))?.length === 1 && (await readRegular(dir)) === null);
 * ```
 */
export async function openRegular(path: string): Promise<Deno.FsFile | null> {
  return (await openRegularStat(path))?.file ?? null;
}

/** {@link openRegular}, with the opened file's own stat (its size, for a whole read). */
async function openRegularStat(
  path: string,
): Promise<{ file: Deno.FsFile; info: Deno.FileInfo } | null> {
  const before = await Deno.lstat(path).catch(() => null); // missing or unreadable: null below
  if (!before?.isFile) return null;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    // gone or unreadable since the lstat: as missing
    return null;
  }
  const after = await file.stat().catch(() => null); // an fd that cannot be stat'ed is refused
  if (after && sameFile(before, after)) return { file, info: after };
  file.close();
  return null;
}

/**
 * The bytes of `path` when it is a regular file and not a link ({@link openRegular}), else null:
 * missing, unreadable, a FIFO, device or link, or cut short while read.
 */
export async function readRegular(path: string): Promise<Uint8Array | null> {
  const opened = await openRegularStat(path);
  if (!opened) return null;
  const { file, info } = opened;
  try {
    const bytes = new Uint8Array(info.size);
    for (let n = 0; n < bytes.length;) {
      const got = await file.read(bytes.subarray(n));
      if (got === null) return null;
      n += got;
    }
    return bytes;
  } catch {
    // unreadable: as missing
    return null;
  } finally {
    file.close();
  }
}

/** {@link openRegular}, synchronously. */
export function openRegularSync(path: string): Deno.FsFile | null {
  let before: Deno.FileInfo;
  let file: Deno.FsFile;
  try {
    before = Deno.lstatSync(path);
    if (!before.isFile) return null;
    file = Deno.openSync(path, { read: true });
  } catch {
    // missing, or gone or unreadable since the lstat
    return null;
  }
  let after: Deno.FileInfo | null = null;
  try {
    after = file.statSync();
  } catch {
    // an fd that cannot be stat'ed is refused below
  }
  if (after && sameFile(before, after)) return file;
  file.close();
  return null;
}

/** Whether two stats are of one regular file (device and inode). */
function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return b.isFile && a.dev === b.dev && a.ino === b.ino;
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
  // missing (or not reachable): made later, so the nearest ancestor is checked
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
    const at = await Deno.stat(path).catch(() => null); // nothing there yet: written later
    if (at?.isDirectory) return `${path}: a directory is in the way`;
    if (at && !at.isFile) return `${path}: not a regular file`;
  }
  return null;
}

/**
 * Whether `name` is one plain path segment, safe to join to a directory as a name of its own:
 * not empty, not `.` or `..`, no `/`, NUL or other control character, at most 255 bytes.
 *
 * ```ts
 * import { isPlainSegment } from "./fs.ts";
 * console.assert(isPlainSegment("claude__opus__none") && isPlainSegment("c-01.v2"));
 * console.assert(!isPlainSegment("../../x") && !isPlainSegment("..") && !isPlainSegment("a/b"));
 * console.assert(!isPlainSegment("") && !isPlainSegment("a\nb"));
 * ```
 */
export function isPlainSegment(name: string): boolean {
  // deno-lint-ignore no-control-regex
  return name !== "" && name !== "." && name !== ".." && !/[/\u0000-\u001f\u007f]/.test(name) &&
    new TextEncoder().encode(name).length <= 255;
}

/**
 * The first component of the absolute path `path` (from `/` down, `path` included) that is a
 * symbolic link or not a directory, or null when every one is a real directory. A real path
 * checked this way again later shows whether anything on it was replaced meanwhile.
 */
export function linkOnPath(path: string): string | null {
  const parts = path.split("/").filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const p = `/${parts.slice(0, i).join("/")}`;
    try {
      const s = Deno.lstatSync(p);
      if (s.isSymlink || !s.isDirectory) return p;
    } catch {
      return p;
    }
  }
  return null;
}

/**
 * Makes `base/rel` a real directory without ever following a link: each component of `rel`
 * (plain segments) is looked at with `lstat`; a missing one is made; a symbolic link, file or
 * anything else in the way is removed — the link itself, never its target — and a directory made
 * in its place, with one line per replacement in `replaced` (`<rel>: a link to <target>, removed`).
 * `base` must be a real directory reached through no link ({@link linkOnPath}), else this
 * throws. Meant for directories a hostile process could have touched, once it is gone.
 *
 * ```ts
 * import { realDirUnder } from "./fs.ts";
 * const base = await Deno.realPath(await Deno.makeTempDir());
 * const outside = await Deno.makeTempDir();
 * await Deno.symlink(outside, `${base}/a`);
 * const replaced: string[] = [];
 * await realDirUnder(base, "a/b", replaced);
 * console.assert(!(await Deno.lstat(`${base}/a`)).isSymlink && [...Deno.readDirSync(outside)].length === 0);
 * console.assert(replaced[0] === `a: a link to ${outside}, removed`);
 * ```
 */
export async function realDirUnder(
  base: string,
  rel: string,
  replaced: string[] = [],
): Promise<string> {
  const link = linkOnPath(base);
  if (link !== null) {
    throw new Error(`${link} is a symbolic link or no directory: nothing is written through it`);
  }
  let dir = base;
  const segments = rel.split("/").filter((s) => s !== "");
  for (const [i, seg] of segments.entries()) {
    if (!isPlainSegment(seg)) throw new Error(`${rel}: not a plain relative path`);
    dir = `${dir}/${seg}`;
    const at = await Deno.lstat(dir).catch(() => null); // nothing there: made below
    if (at?.isDirectory) continue;
    if (at) {
      const what = at.isSymlink
        ? `a link to ${await Deno.readLink(dir).catch(() => "?")}`
        : at.isFile
        ? "a file"
        : "not a directory";
      await Deno.remove(dir, { recursive: true });
      replaced.push(`${segments.slice(0, i + 1).join("/")}: ${what}, removed`);
    }
    await Deno.mkdir(dir);
  }
  return dir;
}

/**
 * Writes a new file at `path`, replacing whatever stood at that name (a file, a directory, or a
 * link — the link itself, never its target): nothing is written through a link planted there.
 * The directory holding it must be one the writer owns ({@link realDirUnder}).
 *
 * ```ts
 * import { writeFresh } from "./fs.ts";
 * const dir = await Deno.makeTempDir(), victim = await Deno.makeTempFile();
 * await Deno.symlink(victim, `${dir}/meta.json`);
 * await writeFresh(`${dir}/meta.json`, "{}");
 * console.assert(Deno.readTextFileSync(victim) === "" && Deno.readTextFileSync(`${dir}/meta.json`) === "{}");
 * ```
 */
export async function writeFresh(path: string, data: string | Uint8Array): Promise<void> {
  // nothing there, or removed: createNew below fails loudly if anything stays
  await Deno.remove(path, { recursive: true }).catch(() => {});
  if (typeof data === "string") await Deno.writeTextFile(path, data, { createNew: true });
  else await Deno.writeFile(path, data, { createNew: true });
}

/** The path of an executable (a path, or a name looked up in `PATH`), or null. */
export function findExecutable(name: string, path: string): string | null {
  const candidates = name.includes("/")
    ? [name]
    : path.split(":").filter(Boolean).map((d) => `${d}/${name}`);
  for (const c of candidates) {
    try {
      const info = Deno.statSync(c);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111)) return c;
    } catch {
      // next candidate
    }
  }
  return null;
}
