/**
 * Reading a git repository without touching it: revisions are resolved with `git rev-parse`, trees
 * listed with `git ls-tree`, file contents read with `git cat-file --batch`; the working-tree side
 * is read from disk (`git ls-files` names the files). Nothing writes to the repository, its
 * working tree or its index (`GIT_OPTIONAL_LOCKS=0` keeps even `git status`-like refreshes off).
 *
 * Every failure is an {@link AuditError} with a one-line message naming the repository or
 * revision.
 *
 * @example
 * ```ts
 * import { gitBlobId } from "./git.ts";
 * // the id git gives the same bytes (`printf 'hi\n' | git hash-object --stdin`)
 * console.assert(gitBlobId(new TextEncoder().encode("hi\n")) === "45b983be36b73c0788dc9cbcb76cbb80fc7bb057");
 * ```
 * @module
 */
import { createHash } from "node:crypto";

/** A problem with the audit's input (repository, revision): one line, shown as is. */
export class AuditError extends Error {
  override name = "AuditError";
}

/** One `.py` file of a side: repository-relative path and git blob id of its content. */
export interface TreeFile {
  path: string;
  oid: string;
}

/** The git blob id of some bytes (as `git hash-object`). */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

const decoder = new TextDecoder();

/** Runs git in `repo`; returns stdout bytes, or throws an {@link AuditError} with git's message. */
export async function git(
  repo: string,
  args: string[],
  input?: Uint8Array,
): Promise<Uint8Array> {
  let child;
  try {
    child = new Deno.Command("git", {
      args: ["-C", repo, "-c", "core.quotepath=off", ...args],
      stdin: input ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" },
    }).spawn();
  } catch (e) {
    throw new AuditError(`cannot run git: ${(e as Error).message}`);
  }
  if (input) {
    const w = child.stdin.getWriter();
    // written concurrently with reading stdout, so large batches never deadlock
    w.write(input).then(() => w.close()).catch(() => {});
  }
  const out = await child.output();
  if (!out.success) {
    const msg = decoder.decode(out.stderr).trim().split("\n").filter((l) => l.trim()).pop() ??
      `exit ${out.code}`;
    throw new AuditError(`git ${args[0]}: ${msg.replace(/^(fatal|error): /, "")}`);
  }
  return out.stdout;
}

/** The top directory of the repository containing `dir`, or an {@link AuditError}. */
export async function repoRoot(dir: string): Promise<string> {
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

/** The `.py` blobs of a commit's tree (symbolic links and submodules skipped), sorted by path. */
export async function listTree(repo: string, commit: string): Promise<TreeFile[]> {
  const out = decoder.decode(await git(repo, ["ls-tree", "-r", "-z", "--full-tree", commit]));
  const files: TreeFile[] = [];
  for (const rec of out.split("\0")) {
    if (!rec) continue;
    const tab = rec.indexOf("\t");
    const [mode, type, oid] = rec.slice(0, tab).split(" ");
    const path = rec.slice(tab + 1);
    if (type !== "blob" || mode === "120000" || !isPython(path)) continue;
    files.push({ path, oid });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The `.py` files of the working tree as they are on disk (tracked and untracked, ignored files
 * left out, deleted ones absent), with their contents. Symbolic links are skipped.
 */
export async function listWorktree(
  repo: string,
): Promise<{ files: TreeFile[]; contents: Map<string, Uint8Array> }> {
  const out = decoder.decode(
    await git(repo, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]),
  );
  const paths = [...new Set(out.split("\0").filter((p) => p && isPython(p)))].sort();
  const files: TreeFile[] = [];
  const contents = new Map<string, Uint8Array>();
  for (const path of paths) {
    const abs = `${repo}/${path}`;
    const st = await Deno.lstat(abs).catch(() => null);
    if (!st?.isFile) continue;
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(abs);
    } catch {
      continue;
    }
    const oid = gitBlobId(bytes);
    files.push({ path, oid });
    contents.set(oid, bytes);
  }
  return { files, contents };
}

/** Reads blobs by id with one `git cat-file --batch`. Missing ones are absent from the map. */
export async function readBlobs(repo: string, oids: string[]): Promise<Map<string, Uint8Array>> {
  const unique = [...new Set(oids)];
  const map = new Map<string, Uint8Array>();
  if (unique.length === 0) return map;
  const out = await git(
    repo,
    ["cat-file", "--batch"],
    new TextEncoder().encode(unique.join("\n") + "\n"),
  );
  let pos = 0;
  while (pos < out.length) {
    let nl = pos;
    while (nl < out.length && out[nl] !== 10) nl++;
    const header = decoder.decode(out.subarray(pos, nl)).split(" ");
    pos = nl + 1;
    if (header[1] === "missing" || header.length < 3) continue;
    const size = Number(header[2]);
    map.set(header[0], out.slice(pos, pos + size));
    pos += size + 1;
  }
  return map;
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
  const out = decoder.decode(await git(repo, ["show", "-s", "--format=%cI%x00%s", commit]));
  const [date, subject] = out.trim().split("\0");
  return { subject: subject ?? "", date: date ?? "" };
}
