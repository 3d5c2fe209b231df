/**
 * Running the audit on a git repository: {@link auditReport} (plain objects, what the CLI
 * formats), {@link audit} (Polars frames) and {@link auditHistory} (the last N commits, one
 * audit each against its first parent).
 *
 * @module
 */
import pl from "nodejs-polars";
import { toFrame } from "../frames/mod.ts";
import { writeDirAtomic, writeFileAtomic } from "../util/mod.ts";
import { type ChangeAudit, type ChangeOptions } from "./change.ts";
import { AuditError, commitInfo, git, parents, repoRoot, resolveRevision } from "./git.ts";
import { loadSide, type Side, type SideOptions } from "./side.ts";
import {
  type AuditOptions,
  type AuditReport,
  auditReport,
  auditSides,
  emptySide,
} from "./report.ts";

export { type AuditOptions, type AuditReport, auditReport, auditSides, emptySide };

/** The audit's frames (schemas in {@link CHANGED_SCHEMA}, {@link FINDINGS_SCHEMA}, {@link PROBLEMS_SCHEMA}). */
export interface AuditFrames {
  changed: pl.DataFrame;
  findings: pl.DataFrame;
  problems: pl.DataFrame;
}

/** Columns of the changed-functions frame. */
export const CHANGED_SCHEMA = {
  commit: "str",
  id: "str",
  file: "str",
  line: "i32",
  end: "i32",
  status: "str",
  from_id: "str",
  reused: "str[]",
  n_reused: "i32",
  context: "str",
} as const;

/**
 * Columns of the findings frame: one row per pair (F, G) — each finding's best pair
 * (`primary`, `rank` 0) and its alternatives (rank 1, 2, …).
 */
export const FINDINGS_SCHEMA = {
  commit: "str",
  kind: "str",
  primary: "bool",
  rank: "i32",
  function: "str",
  file: "str",
  line: "i32",
  target: "str",
  target_file: "str",
  target_line: "i32",
  overlap: "f64",
  weighted_overlap: "f64",
  similarity: "f64",
  confidence: "f64",
  context: "str",
  within: "bool",
  notes: "str[]",
  shared: "str[]",
  missing: "str[]",
  /** A copied block (kind `block`): its first and last line in F and in G, tokens matched. */
  block_line: "i32",
  block_end: "i32",
  block_target_line: "i32",
  block_target_end: "i32",
  block_tokens: "i32",
} as const;

/** Columns of the problems frame (files listed, never fatal). */
export const PROBLEMS_SCHEMA = {
  commit: "str",
  side: "str",
  file: "str",
  line: "i32",
  message: "str",
} as const;

/** Rows of the three frames of one audit, tagged with `commit` (the head commit, or `WORKTREE`). */
export function auditRows(r: ChangeAudit, commit: string) {
  return {
    changed: r.changed.map((c) => ({
      commit,
      id: c.id,
      file: c.file,
      line: c.line,
      end: c.end,
      status: c.status,
      from_id: c.from?.id ?? null,
      reused: c.reused,
      n_reused: c.reused.length,
    })),
    findings: r.findings.flatMap((f) =>
      [f, ...f.alternatives].map((p, rank) => ({
        commit,
        kind: p.kind,
        primary: rank === 0,
        rank,
        function: p.function.id,
        file: p.function.file,
        line: p.function.line,
        target: p.target.id,
        target_file: p.target.file,
        target_line: p.target.line,
        overlap: p.overlap,
        weighted_overlap: p.weightedOverlap,
        similarity: p.similarity,
        confidence: p.confidence,
        context: p.context,
        within: p.within,
        notes: p.notes,
        shared: p.shared,
        missing: p.missing,
        block_line: p.block?.lines[0] ?? null,
        block_end: p.block?.lines[1] ?? null,
        block_target_line: p.block?.targetLines[0] ?? null,
        block_target_end: p.block?.targetLines[1] ?? null,
        block_tokens: p.block?.tokens ?? null,
      }))
    ),
    problems: r.problems.map((p) => ({ commit, ...p })),
  };
}

function frames(rows: ReturnType<typeof auditRows>): AuditFrames {
  return {
    changed: toFrame(rows.changed, CHANGED_SCHEMA, []),
    findings: toFrame(rows.findings, FINDINGS_SCHEMA, []),
    problems: toFrame(rows.problems, PROBLEMS_SCHEMA, []),
  };
}

/**
 * The audit of a change as Polars frames: `changed` (functions added, modified or moved, with
 * what they reuse), `findings` (re-implementations, clones, candidates) and `problems`.
 *
 * @example
 * ```ts ignore
 * import { audit } from "./run.ts";
 * const { findings } = await audit({ repo: ".", base: "HEAD~1", head: "HEAD" });
 * console.log(findings.filter(findings.getColumn("kind").eq("reimplementation")));
 * ```
 */
export async function audit(opts: AuditOptions): Promise<AuditFrames & { report: AuditReport }> {
  const report = await auditReport(opts);
  return { ...frames(auditRows(report, report.head.commit ?? "WORKTREE")), report };
}

/** Options of {@link auditHistory}. */
export interface HistoryOptions extends ChangeOptions, SideOptions {
  /** At most this many commits (the newest of the range); default: all of the range. */
  commits?: number;
  /** Where the history ends (default `HEAD`). */
  rev?: string;
  /**
   * A range `A..B`: the first-parent commits of B that are not commits of A (`git rev-list
   * --first-parent A..B`); B defaults to HEAD. Without it, the first-parent history of `rev`.
   */
  range?: string;
  /** Called after each commit (progress), with what it found. */
  onCommit?: (done: number, total: number, commit: string, audit: ChangeAudit) => void;
}

/** The first-parent commits an {@link auditHistory} visits, oldest first. */
export async function historyCommits(root: string, opts: HistoryOptions): Promise<string[]> {
  if (opts.commits !== undefined && (!Number.isInteger(opts.commits) || opts.commits < 1)) {
    throw new AuditError(`commits: expected a positive integer, got ${opts.commits}`);
  }
  const max = opts.commits === undefined ? [] : [`--max-count=${opts.commits}`];
  let args: string[];
  if (opts.range !== undefined) {
    const at = opts.range.indexOf("..");
    if (at < 0 || opts.range.includes("...")) {
      throw new AuditError(`${opts.range}: expected a range A..B`);
    }
    const a = opts.range.slice(0, at), b = opts.range.slice(at + 2) || "HEAD";
    const from = a ? await resolveRevision(root, a) : null;
    const to = await resolveRevision(root, b);
    args = ["rev-list", "--first-parent", ...max, to, ...(from ? [`^${from}`] : [])];
  } else {
    args = ["rev-list", "--first-parent", ...max, await resolveRevision(root, opts.rev ?? "HEAD")];
  }
  const out = new TextDecoder().decode(await git(root, args));
  return out.split("\n").filter(Boolean).reverse();
}

/** The frames of a history run, plus one row per commit (`commits`). */
export interface HistoryFrames extends AuditFrames {
  commits: pl.DataFrame;
}

/**
 * Audits each first-parent commit of a range ({@link HistoryOptions}: `range` A..B, or the
 * history of `rev`, at most the last `commits`) against its first parent (a root commit against
 * the empty tree), oldest first. Each tree's index is cached, so a commit's base is the previous one's
 * head. The `commits` frame has per commit: order, date, subject, files and functions changed,
 * findings per kind, and `seconds` spent.
 */
export async function auditHistory(
  repo: string,
  opts: HistoryOptions = {},
): Promise<HistoryFrames> {
  const root = await repoRoot(repo);
  const list = await historyCommits(root, opts);
  const all = { changed: [], findings: [], problems: [] } as ReturnType<typeof auditRows>;
  const commitRows: Record<string, unknown>[] = [];
  let prev: { commit: string; side: Side } | null = null;
  for (const [i, commit] of list.entries()) {
    const t0 = performance.now();
    const [parent] = await parents(root, commit);
    const base = parent === undefined
      ? emptySide()
      : prev?.commit === parent
      ? prev.side
      : await loadSide(root, parent, opts);
    const sides = await auditSides(root, base, await loadSide(root, commit, opts), opts);
    const { audit: r, head } = sides;
    const rows = auditRows(r, commit);
    all.changed.push(...rows.changed);
    all.findings.push(...rows.findings);
    all.problems.push(...rows.problems);
    const info = await commitInfo(root, commit);
    const count = (k: string) => r.findings.filter((f) => f.kind === k).length;
    commitRows.push({
      order: i + 1,
      commit,
      date: info.date,
      subject: info.subject,
      files: r.files.length,
      added: r.changed.filter((c) => c.status === "added").length,
      modified: r.changed.filter((c) => c.status === "modified").length,
      moved: r.changed.filter((c) => c.status === "moved").length,
      reused: r.changed.reduce((n, c) => n + c.reused.length, 0),
      reimplementations: count("reimplementation"),
      clones: count("clone"),
      blocks: count("block"),
      candidates: count("candidate"),
      within: r.findings.filter((f) => f.within).length,
      problems: r.problems.length,
      seconds: (performance.now() - t0) / 1000,
    });
    prev = { commit, side: head };
    opts.onCommit?.(i + 1, list.length, commit, r);
  }
  return {
    ...frames(all),
    commits: toFrame(commitRows, COMMITS_SCHEMA, []),
  };
}

/** Columns of the per-commit frame of {@link auditHistory}. */
export const COMMITS_SCHEMA = {
  order: "i32",
  commit: "str",
  date: "str",
  subject: "str",
  files: "i32",
  added: "i32",
  modified: "i32",
  moved: "i32",
  reused: "i32",
  reimplementations: "i32",
  clones: "i32",
  blocks: "i32",
  candidates: "i32",
  within: "i32",
  problems: "i32",
  seconds: "f64",
} as const;

/** A history run as plain JSON (rows of each frame), e.g. to keep a snapshot under data/. */
export interface HistoryJson {
  /** Where the rows come from (repository, range, tool version). */
  provenance: string;
  commits: Record<string, unknown>[];
  changed: Record<string, unknown>[];
  findings: Record<string, unknown>[];
  problems: Record<string, unknown>[];
}

/** The rows of a history run's frames, with a provenance line. */
export function historyToJson(h: HistoryFrames, provenance: string): HistoryJson {
  return {
    provenance,
    commits: h.commits.toRecords(),
    changed: h.changed.toRecords(),
    findings: h.findings.toRecords(),
    problems: h.problems.toRecords(),
  };
}

/**
 * The frames of a {@link HistoryJson} snapshot (typed per the schemas). A snapshot recorded before
 * confidences (report version 1: one row per finding, a `score`) reads with `confidence` = its
 * score, every row `primary`, in the project's `code`, not `within` a change.
 */
export function historyFromJson(j: HistoryJson): HistoryFrames {
  const findings = j.findings.map((f) =>
    "confidence" in f ? f : {
      ...f,
      confidence: f.score ?? null,
      primary: true,
      rank: 0,
      context: "code",
      within: false,
      notes: [],
    }
  );
  return {
    commits: toFrame(j.commits, COMMITS_SCHEMA, []),
    changed: toFrame(j.changed, CHANGED_SCHEMA, []),
    findings: toFrame(findings, FINDINGS_SCHEMA, []),
    problems: toFrame(j.problems, PROBLEMS_SCHEMA, []),
  };
}

/** Output formats of a history run. */
export const HISTORY_FORMATS = ["json", "csv", "parquet"] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

/** The frames of a history run, by file name stem. */
const HISTORY_FRAMES = ["commits", "changed", "findings", "problems"] as const;

/**
 * Writes a history run: `json` one file (`historyToJson`, with `provenance`); `csv` or `parquet`
 * a directory of `commits`, `changed`, `findings` and `problems` files (in CSV a list column is
 * one cell, its items joined by `;`). All or nothing (lib/util/fs.ts).
 */
export async function writeHistory(
  h: HistoryFrames,
  format: HistoryFormat,
  out: string,
  provenance: string,
): Promise<void> {
  if (format === "json") {
    await writeFileAtomic(out, JSON.stringify(historyToJson(h, provenance)) + "\n");
    return;
  }
  await writeDirAtomic(out, async (dir) => {
    for (const name of HISTORY_FRAMES) {
      const df = h[name];
      if (format === "parquet") df.writeParquet(`${dir}/${name}.parquet`);
      else {
        const lists = df.columns.filter((c) => df.getColumn(c).dtype.variant === "List");
        let flat = lists.length
          ? df.withColumns(...lists.map((c) => pl.col(c).lst.join(";").alias(c)))
          : df;
        // a cell a spreadsheet would run as a formula (commit subjects, ids come from the
        // repository) starts with a quote instead
        const texts = flat.columns.filter((c) => flat.getColumn(c).dtype.variant === "String");
        if (texts.length) {
          flat = flat.withColumns(
            ...texts.map((c) =>
              pl.when(pl.col(c).str.contains("^[=+\\-@\\t\\r]"))
                .then(pl.concatString([pl.lit("'"), pl.col(c)], ""))
                .otherwise(pl.col(c)).alias(c)
            ),
          );
        }
        flat.writeCSV(`${dir}/${name}.csv`);
      }
    }
    await Deno.writeTextFile(`${dir}/provenance.txt`, provenance + "\n");
  });
}
