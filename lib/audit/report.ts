/**
 * {@link auditReport}: the audit of one change of a git repository as plain objects (what the CLI
 * formats; no Polars here, so the command starts fast).
 *
 * @module
 */
import { auditChange, type ChangeAudit, type ChangeOptions } from "./change.ts";
import { repoRoot, resolveRevision } from "./git.ts";
import { loadSide, type Side, type SideOptions, TokensLost } from "./side.ts";

/** Options of {@link auditReport} / {@link audit}. */
export interface AuditOptions extends ChangeOptions, SideOptions {
  /** A directory inside the repository. */
  repo: string;
  /** Base revision (default `HEAD`); `A...B` is the merge base of A and B (head then B). */
  base?: string;
  /** Head revision; default the working tree (uncommitted changes included). */
  head?: string;
}

/** An audit with its revisions. */
export interface AuditReport extends ChangeAudit {
  repo: string;
  base: { rev: string; commit: string | null };
  /** `commit` null for the working tree. */
  head: { rev: string; commit: string | null };
}

/** The empty side (the base of a root commit). */
export function emptySide(): Side {
  return { rev: "EMPTY", files: [], modules: {}, defs: [], ids: [], errors: [] };
}

/** Audits a change of a repository (see lib/audit/mod.ts); input problems are `AuditError`s (lib/audit/git.ts). */
export async function auditReport(opts: AuditOptions): Promise<AuditReport> {
  const repo = await repoRoot(opts.repo);
  let baseRev = opts.base ?? "HEAD";
  let headRev = opts.head;
  if (headRev === undefined && baseRev.includes("...")) {
    headRev = baseRev.slice(baseRev.indexOf("...") + 3) || "HEAD";
  }
  const baseCommit = await resolveRevision(repo, baseRev);
  const headCommit = headRev === undefined ? null : await resolveRevision(repo, headRev);
  if (opts.base === undefined) baseRev = "HEAD";
  const [base, head] = await Promise.all([
    loadSide(repo, baseCommit, opts),
    loadSide(repo, headCommit, opts),
  ]);
  const { audit } = await auditSides(repo, base, head, opts);
  return {
    repo,
    base: { rev: baseRev, commit: baseCommit },
    head: { rev: headRev ?? "working tree", commit: headCommit },
    ...audit,
  };
}

/**
 * {@link auditChange} of two sides of `repo`, so that a failing cache never costs a result: when
 * a cached side's tokens part turns out not to be the one its signed entry names as it is read
 * (removed, replaced, cut short since the side was read: {@link TokensLost}), that side is built
 * again without its cached index (`rebuild`) and the change audited again, as with no cache. A
 * side built in this process holds its tokens, so each side is rebuilt at most once. Returns the
 * audit and the sides it ran on (a history passes the head on as the next base). A working tree
 * rebuilt is read again from disk.
 */
export async function auditSides(
  repo: string,
  base: Side,
  head: Side,
  opts: ChangeOptions & SideOptions = {},
): Promise<{ audit: ChangeAudit; base: Side; head: Side }> {
  for (;;) {
    try {
      return { audit: auditChange(base, head, opts), base, head };
    } catch (e) {
      if (!(e instanceof TokensLost) || (e.side !== base && e.side !== head)) throw e;
      const again = await loadSide(repo, e.side.rev === "WORKTREE" ? null : e.side.rev, {
        ...opts,
        rebuild: true,
      });
      if (e.side === base) base = again;
      if (e.side === head) head = again;
    }
  }
}
