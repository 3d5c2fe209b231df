/**
 * Reading a git repository without touching it and without trusting it: revisions are resolved
 * with `git rev-parse`, trees listed with `git ls-tree`, file contents read with `git cat-file
 * --batch`; the working-tree side is read from disk (`git ls-files` names the files). Nothing
 * writes to the repository, its working tree or its index, and git runs hardened (lib/util/git.ts:
 * no configuration of the repository can make it run a program).
 *
 * Names are the repository's, so they are checked before use ({@link pathProblem}): a path that
 * is absolute, has an empty, `.`, `..` or `.git` component, a control character, a backslash, or
 * is not UTF-8 is **rejected** — listed as a problem, never analysed, never a file name (nothing
 * from git is written to disk at all: blobs are analysed in memory). Files larger than
 * `MAX_SOURCE_BYTES` of lib/python are rejected before their content is read. In the working
 * tree, a file whose directory is reached through a symbolic link is rejected too (it may lead
 * outside the repository).
 *
 * Every failure is an {@link AuditError} with a one-line message naming the repository or
 * revision.
 *
 * @example
 * ```ts
 * import { gitBlobId, pathProblem } from "./git.ts";
 * // the id git gives the same bytes (`printf 'hi\n' | git hash-object --stdin`)
 * console.assert(gitBlobId(new TextEncoder().encode("hi\n")) === "45b983be36b73c0788dc9cbcb76cbb80fc7bb057");
 * console.assert(pathProblem("pkg/mod.py") === null);
 * console.assert(pathProblem("pkg/../../etc/x.py") !== null && pathProblem(".GIT/hooks/x.py") !== null);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { GitError, ownershipMessage, runGit } from "../util/mod.ts";
import { MAX_SOURCE_BYTES, tooLargeMessage } from "../python/mod.ts";

/** A problem with the audit's input (repository, revision): one line, shown as is. */
export class AuditError extends Error {
  override name = "AuditError";
}

/** One `.py` file of a side: repository-relative path and git blob id of its content. */
export interface TreeFile {
  path: string;
  oid: string;
}

/**
 * A `.py` entry of a side that is not analysed, and why (a name the audit does not use, too
 * large). `oid` is "" when unknown (a working-tree file that was not read).
 */
export interface RejectedFile extends TreeFile {
  reason: string;
}

/** The `.py` files of a side, the entries rejected, and (working tree) the contents read. */
export interface SideListing {
  files: TreeFile[];
  rejected: RejectedFile[];
  /** Contents by blob id, for the working tree (read while listing). */
  contents?: Map<string, Uint8Array>;
}

/** The git blob id of some bytes (as `git hash-object`). */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

const decoder = new TextDecoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Runs hardened git in `repo` (lib/util/git.ts); returns stdout bytes, or an {@link AuditError}. */
export async function git(
  repo: string,
  args: string[],
  input?: Uint8Array,
): Promise<Uint8Array> {
  try {
    return await runGit(repo, args, { input });
  } catch (e) {
    if (e instanceof GitError) {
      throw new AuditError(e.refusedOwnership ? ownershipMessage(repo, e) : e.message);
    }
    throw e;
  }
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
const WINDOWS_INVALID = /[<>:"|?*]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * Why a repository path is not used as a name, or null when it is fine: empty or absolute, an
 * empty, `.` or `..` component, a component that is `.git` as any file system may spell it (case,
 * trailing dots and spaces, the 8.3 short name `git~1`), a control character, a backslash, and on
 * Windows a character or device name Windows does not allow.
 */
export function pathProblem(path: string): string | null {
  if (path === "") return "empty path";
  if (path.startsWith("/")) return "absolute path";
  if (path.includes("\0")) return "NUL character in the path";
  if (CONTROL.test(path)) return "control character in the path";
  if (path.includes("\\")) return "backslash in the path (a directory separator on Windows)";
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..") {
      return `'${part || "(empty)"}' component in the path`;
    }
    // as HFS+ (ignorable code points) and NTFS (trailing dots and spaces, `::$DATA` streams) see it
    const bare = part.replace(HFS_IGNORED, "").toLowerCase().replace(/:.*$/, "")
      .replace(/[. ]+$/, "");
    if (bare === ".git" || /^git~[0-9]+$/.test(bare)) return "'.git' component in the path";
    if (Deno.build.os === "windows" && (WINDOWS_INVALID.test(part) || WINDOWS_DEVICE.test(part))) {
      return "name not valid on Windows";
    }
  }
  return null;
}

/** A path decoded from git's bytes, with the problem of its name (null when none). */
function decodePath(bytes: Uint8Array): { path: string; problem: string | null } {
  let path: string;
  try {
    path = strictUtf8.decode(bytes);
  } catch {
    return { path: decoder.decode(bytes), problem: "file name is not valid UTF-8" };
  }
  return { path, problem: pathProblem(path) };
}

function byPath(a: TreeFile, b: TreeFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Splits NUL-terminated records of git's `-z` output (bytes: names need not be UTF-8). */
function records(out: Uint8Array): Uint8Array[] {
  const recs: Uint8Array[] = [];
  let start = 0;
  for (let i = out.indexOf(0); i >= 0; i = out.indexOf(0, start)) {
    if (i > start) recs.push(out.subarray(start, i));
    start = i + 1;
  }
  if (start < out.length) recs.push(out.subarray(start));
  return recs;
}

/** The top directory of the repository containing `dir`, or an {@link AuditError}. */
export async function repoRoot(dir: string): Promise<string> {
  // what cannot be stat'ed is no directory: the error below names it
  const stat = await Deno.stat(dir).catch(() => null);
  if (!stat?.isDirectory) throw new AuditError(`${dir}: no such directory`);
  try {
    const top = decoder.decode(await git(dir, ["rev-parse", "--show-toplevel"])).trim();
    if (!top) throw new AuditError(`${dir}: not a git repository (or a bare one)`);
    return top;
  } catch (e) {
    if (e instanceof AuditError && /not a git repository/i.test(e.message)) {
      throw new AuditError(`${dir}: not a git repository`);
    }
    throw e;
  }
}

/** Whether the repository is a shallow clone. */
export async function isShallow(repo: string): Promise<boolean> {
  return decoder.decode(await git(repo, ["rev-parse", "--is-shallow-repository"])).trim() ===
    "true";
}

/**
 * The commit id of a revision. `A...B` means the merge base of A and B (as in `git diff A...B`).
 * An unknown revision is an {@link AuditError}; in a shallow clone the message says so.
 */
export async function resolveRevision(repo: string, rev: string): Promise<string> {
  const three = rev.indexOf("...");
  if (three >= 0) {
    const a = await resolveRevision(repo, rev.slice(0, three) || "HEAD");
    const b = await resolveRevision(repo, rev.slice(three + 3) || "HEAD");
    try {
      return decoder.decode(await git(repo, ["merge-base", a, b])).trim();
    } catch {
      const hint = (await isShallow(repo))
        ? " (shallow clone: fetch more history, e.g. `git fetch --unshallow`)"
        : "";
      throw new AuditError(`${rev}: no merge base${hint}`);
    }
  }
  if (rev.startsWith("-")) throw new AuditError(`${rev}: not a revision`);
  try {
    const out = await git(repo, [
      "rev-parse",
      "--verify",
      "--quiet",
      "--end-of-options",
      `${rev}^{commit}`,
    ]);
    return decoder.decode(out).trim();
  } catch {
    // only for the hint: no hint when git cannot say
    const hint = (await isShallow(repo).catch(() => false))
      ? " (this is a shallow clone missing it: fetch more history, e.g. `git fetch --unshallow` or `--deepen=N`)"
      : "";
    throw new AuditError(`${rev}: unknown revision in ${repo}${hint}`);
  }
}

/** The parent commits of a commit (empty for a root commit). */
export async function parents(repo: string, commit: string): Promise<string[]> {
  const line = decoder.decode(await git(repo, ["rev-list", "--parents", "-n", "1", commit])).trim();
  return line.split(/\s+/).slice(1);
}

/** Whether a path is a Python source the audit reads. */
export function isPython(path: string): boolean {
  return path.endsWith(".py");
}

/**
 * The `.py` blobs of a commit's tree (symbolic links and submodules skipped), sorted by path, and
 * the entries whose names are rejected ({@link pathProblem}).
 */
export async function listTree(repo: string, commit: string): Promise<SideListing> {
  const out = await git(repo, ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit]);
  const files: TreeFile[] = [];
  const rejected: RejectedFile[] = [];
  for (const rec of records(out)) {
    const tab = rec.indexOf(9);
    if (tab < 0) continue;
    const [mode, type, oid] = decoder.decode(rec.subarray(0, tab)).split(" ");
    if (type !== "blob" || mode === "120000") continue;
    const { path, problem } = decodePath(rec.subarray(tab + 1));
    if (!isPython(path)) continue;
    if (problem) rejected.push({ path, oid, reason: `${problem}: not analysed` });
    else files.push({ path, oid });
  }
  return { files: files.sort(byPath), rejected: rejected.sort(byPath) };
}

/**
 * The `.py` files of the working tree as they are on disk (tracked and untracked, ignored files
 * left out, deleted ones absent), with their contents. Symbolic links are skipped; a file reached
 * through a symbolic link to a directory, a rejected name and a file too large are rejected.
 */
export async function listWorktree(repo: string): Promise<SideListing> {
  const out = await git(repo, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  const files: TreeFile[] = [];
  const rejected: RejectedFile[] = [];
  const contents = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  // each directory's state, checked once from the top: a real directory, or a symbolic link
  // (which may lead outside the repository) on the way, or missing (deleted)
  const dirs = new Map<string, "dir" | "link" | "missing">([["", "dir"]]);
  const dirState = async (dir: string): Promise<"dir" | "link" | "missing"> => {
    let state = dirs.get(dir);
    if (state === undefined) {
      const slash = dir.lastIndexOf("/");
      state = await dirState(slash < 0 ? "" : dir.slice(0, slash));
      if (state === "dir") {
        // what cannot be lstat'ed counts as missing
        const st = await Deno.lstat(`${repo}/${dir}`).catch(() => null);
        state = st?.isSymlink ? "link" : st?.isDirectory ? "dir" : "missing";
      }
      dirs.set(dir, state);
    }
    return state;
  };
  for (const rec of records(out)) {
    const { path, problem } = decodePath(rec);
    if (!isPython(path) || seen.has(path)) continue;
    seen.add(path);
    if (problem) {
      rejected.push({ path, oid: "", reason: `${problem}: not analysed` });
      continue;
    }
    const slash = path.lastIndexOf("/");
    const state = await dirState(slash < 0 ? "" : path.slice(0, slash));
    if (state === "link") {
      rejected.push({
        path,
        oid: "",
        reason: "a directory on its path is a symbolic link (it may lead outside the " +
          "repository): not read",
      });
    }
    if (state !== "dir") continue;
    const abs = `${repo}/${path}`;
    // a path gone or unreadable since git listed it is no file
    const st = await Deno.lstat(abs).catch(() => null);
    if (!st?.isFile) continue;
    if (st.size > MAX_SOURCE_BYTES) {
      rejected.push({ path, oid: "", reason: tooLargeMessage(st.size) });
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(abs);
    } catch (e) {
      // listed by git but unreadable now: listed as rejected with the reason, never dropped
      rejected.push({ path, oid: "", reason: `unreadable (${(e as Error).message})` });
      continue;
    }
    const oid = gitBlobId(bytes);
    files.push({ path, oid });
    contents.set(oid, bytes);
  }
  return { files: files.sort(byPath), rejected: rejected.sort(byPath), contents };
}

/**
 * Reads blobs by id with `git cat-file`: sizes first (`--batch-check`), then the contents of those
 * within `MAX_SOURCE_BYTES` (`--batch`). Missing blobs are absent from both maps; `tooLarge` has
 * the size of each blob past the limit, whose content is never read.
 */
export async function readBlobs(
  repo: string,
  oids: string[],
): Promise<{ blobs: Map<string, Uint8Array>; tooLarge: Map<string, number> }> {
  const unique = [...new Set(oids)];
  const blobs = new Map<string, Uint8Array>();
  const tooLarge = new Map<string, number>();
  if (unique.length === 0) return { blobs, tooLarge };
  const encoder = new TextEncoder();
  const sizes = decoder.decode(
    await git(repo, ["cat-file", "--batch-check"], encoder.encode(unique.join("\n") + "\n")),
  );
  const wanted: string[] = [];
  for (const line of sizes.split("\n")) {
    const [oid, type, size] = line.split(" ");
    if (type !== "blob") continue;
    if (Number(size) > MAX_SOURCE_BYTES) tooLarge.set(oid, Number(size));
    else wanted.push(oid);
  }
  if (wanted.length === 0) return { blobs, tooLarge };
  const out = await git(repo, ["cat-file", "--batch"], encoder.encode(wanted.join("\n") + "\n"));
  let pos = 0;
  while (pos < out.length) {
    let nl = out.indexOf(10, pos);
    if (nl < 0) nl = out.length;
    const header = decoder.decode(out.subarray(pos, nl)).split(" ");
    pos = nl + 1;
    if (header[1] === "missing" || header.length < 3) continue;
    const size = Number(header[2]);
    blobs.set(header[0], out.subarray(pos, pos + size));
    pos += size + 1;
  }
  return { blobs, tooLarge };
}

/** First-parent commits of `rev`, newest first, at most `n`. */
export async function firstParentLog(repo: string, rev: string, n: number): Promise<string[]> {
  const out = decoder.decode(
    await git(repo, ["rev-list", "--first-parent", `--max-count=${n}`, rev]),
  );
  return out.split("\n").filter(Boolean);
}

/** Short metadata of a commit: subject, author date (ISO). */
export async function commitInfo(
  repo: string,
  commit: string,
): Promise<{ subject: string; date: string }> {
  const out = decoder.decode(
    await git(repo, [
      "show",
      "-s",
      "--no-show-signature",
      "--no-textconv",
      "--no-ext-diff",
      "--format=%cI%x00%s",
      "--end-of-options",
      commit,
    ]),
  );
  const [date, subject] = out.trim().split("\0");
  return { subject: subject ?? "", date: date ?? "" };
}
