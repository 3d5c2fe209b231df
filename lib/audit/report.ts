/**
 * {@link auditReport}: the audit of one change of a git repository as plain objects (what the CLI
 * formats; no Polars here, so the command starts fast).
 *
 * @module
 */
import { auditChange, type ChangeAudit, type ChangeOptions } from "./change.ts";
import { repoRoot, resolveRevision } from "./git.ts";
import { loadSide, type Side, type SideOptions } from "./side.ts";

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
  return {
    repo,
    base: { rev: baseRev, commit: baseCommit },
    head: { rev: headRev ?? "working tree", commit: headCommit },
    ...auditChange(base, head, opts),
  };
}
