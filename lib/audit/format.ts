/**
 * The audit report in four formats: terminal text, JSON, Markdown (a pull-request comment) and
 * SARIF 2.1.0 (code-scanning upload), plus the exit status of `--fail-on`.
 *
 * Names in a report are the repository's (file names, module and function ids, branch names) and
 * so are hostile: the text report shows control characters as escapes (`visible`), the Markdown
 * puts every such string in a code span (`mdCode`) or escaped text (`mdText`), so no line break,
 * heading, link, image, HTML, mention or table cell comes out of a name; SARIF URIs are
 * percent-encoded segment by segment (`uriPath`) and embedded-link brackets in messages escaped.
 *
 * @module
 */
import type { Finding } from "./change.ts";
import type { AuditReport } from "./report.ts";
import { mdCode, mdText, uriPath, visible } from "../util/text.ts";

/** Output formats of the `audit` command. */
export const FORMATS = ["text", "json", "md", "sarif"] as const;
export type Format = (typeof FORMATS)[number];

/** Version of the JSON report shape. */
export const REPORT_VERSION = 1;

const TITLE: Record<Finding["kind"], string> = {
  reimplementation: "re-implements",
  clone: "structural clone of",
  candidate: "could call",
};

function pct(x: number | null): string {
  return x === null ? "–" : `${Math.round(x * 100)}%`;
}

function short(commit: string | null, rev: string): string {
  return commit ? `${visible(rev)} (${commit.slice(0, 12)})` : visible(rev);
}

/** A revision for Markdown: the name as a code span, the commit id shortened. */
function mdRev(commit: string | null, rev: string): string {
  return commit ? `${mdCode(rev)} (${commit.slice(0, 12)})` : mdText(rev);
}

function evidence(f: Finding): string {
  const parts: string[] = [];
  if (f.kind !== "clone" || f.shared.length) {
    parts.push(
      `calls ${f.shared.length}/${f.shared.length + f.missing.length} of its callees (${
        pct(f.overlap)
      })`,
    );
  }
  parts.push(`AST similarity ${f.similarity.toFixed(2)}`);
  return parts.join(", ");
}

function counts(r: AuditReport) {
  const by = (k: Finding["kind"]) => r.findings.filter((f) => f.kind === k).length;
  return {
    reimplementation: by("reimplementation"),
    clone: by("clone"),
    candidate: by("candidate"),
  };
}

/** The readable terminal report. */
export function formatText(r: AuditReport): string {
  const out: string[] = [];
  const reported = r.changed.filter((c) => c.status !== "moved");
  const moved = r.changed.length - reported.length;
  out.push(
    `reporeuse audit ${visible(r.repo)}: ${short(r.base.commit, r.base.rev)} → ${
      short(r.head.commit, r.head.rev)
    }`,
  );
  out.push(
    `${r.files.length} Python file(s) changed; ${reported.length} function(s) added or changed` +
      (moved ? `, ${moved} moved or renamed (not audited)` : ""),
  );
  const c = counts(r);
  out.push(
    `${c.reimplementation} re-implementation(s), ${c.clone} structural clone(s), ${c.candidate} candidate(s)`,
  );
  for (const ch of reported) {
    const fs = r.findings.filter((f) => f.function.id === ch.id);
    out.push("", `${ch.file}:${ch.line} ${ch.id} (${ch.status})`);
    if (ch.reused.length) out.push(`  reuses: ${ch.reused.join(", ")}`);
    for (const f of fs) {
      out.push(`  ${TITLE[f.kind]} ${f.target.id} at ${f.target.file}:${f.target.line}`);
      out.push(`    ${evidence(f)}`);
      if (f.kind === "reimplementation" || f.kind === "candidate") {
        if (f.shared.length) out.push(`    shared: ${f.shared.join(", ")}`);
        if (f.missing.length) out.push(`    not called: ${f.missing.join(", ")}`);
      }
    }
  }
  if (r.problems.length) {
    out.push("", "Files with problems (analysed as far as possible):");
    for (const p of r.problems) {
      out.push(`  ${p.side}: ${p.file}${p.line ? `:${p.line}` : ""}: ${p.message}`);
    }
  }
  // every line once through `visible`: names and messages are the repository's
  return out.map(visible).join("\n");
}

/** The JSON report (`version`, revisions, files, changed functions, findings, problems). */
export function formatJson(r: AuditReport): string {
  return JSON.stringify({ version: REPORT_VERSION, ...r, summary: counts(r) }, null, 2);
}

/** Markdown for a pull-request comment. */
export function formatMarkdown(r: AuditReport): string {
  const c = counts(r);
  const reported = r.changed.filter((x) => x.status !== "moved");
  const out = [
    "### reporeuse audit",
    "",
    `${mdRev(r.base.commit, r.base.rev)} → ${
      mdRev(r.head.commit, r.head.rev)
    }: ${reported.length} function(s) added or changed in ${r.files.length} Python file(s).`,
    "",
    c.reimplementation
      ? `**${c.reimplementation} re-implementation(s)** of existing functions (the new code calls ≥ 80% of what the existing function calls, instead of calling it).`
      : "No re-implementation of existing functions found.",
  ];
  const table = (kind: Finding["kind"], heading: string) => {
    const fs = r.findings.filter((f) => f.kind === kind);
    if (!fs.length) return;
    out.push(
      "",
      `#### ${heading}`,
      "",
      "| New or changed | Existing | Evidence |",
      "|---|---|---|",
    );
    const cell = (s: string) => mdCode(s, { table: true });
    for (const f of fs) {
      out.push(
        `| ${cell(f.function.id)} ${cell(`${f.function.file}:${f.function.line}`)} | ${
          cell(f.target.id)
        } ${cell(`${f.target.file}:${f.target.line}`)} | ${mdText(evidence(f))} |`,
      );
    }
  };
  table("reimplementation", "Re-implementations");
  table("clone", "Structural clones");
  table("candidate", "Existing functions it could call");
  const reuse = reported.filter((x) => x.reused.length);
  if (reuse.length) {
    out.push("", "<details><summary>Reuse of existing functions</summary>", "");
    for (const x of reuse) {
      out.push(`- ${mdCode(x.id)} calls ${x.reused.map((t) => mdCode(t)).join(", ")}`);
    }
    out.push("", "</details>");
  }
  if (r.problems.length) {
    out.push("", "#### Files with problems", "");
    for (const p of r.problems) {
      out.push(
        `- ${p.side}: ${mdCode(p.file)}${p.line ? `:${p.line}` : ""} — ${mdText(p.message)}`,
      );
    }
  }
  return out.join("\n");
}

/** The SARIF rule of each finding kind: id, name, level (of its results too) and descriptions. */
const RULES: Record<
  Finding["kind"],
  { id: string; name: string; level: "warning" | "note"; short: string; full: string }
> = {
  reimplementation: {
    id: "RR001",
    name: "Reimplementation",
    level: "warning",
    short: "New code re-implements an existing function",
    full:
      "A new or changed function does not call an existing function G but calls at least 80% of G's non-builtin callees (G calling at least three): RepoReuse paper, §3.3.2.",
  },
  clone: {
    id: "RR002",
    name: "StructuralClone",
    level: "note",
    short: "New code is a structural clone of an existing function",
    full:
      "The normalised syntax trees (identifiers and literals abstracted) of a new or changed function and an existing one are nearly the same.",
  },
  candidate: {
    id: "RR003",
    name: "ReuseCandidate",
    level: "note",
    short: "An existing function the new code could call",
    full: "An existing function sharing callees, shape and name with a new or changed one.",
  },
};

/**
 * SARIF plain text: `\`, `[` and `]` escaped (a message's `[text](n)` is an embedded link to a
 * related location, so a bracket in a name must not read as one).
 */
function sarifText(s: string): string {
  return s.replace(/[\\[\]]/g, "\\$&");
}

/** SARIF rule ids per finding kind. */
export const SARIF_RULES = {
  reimplementation: RULES.reimplementation.id,
  clone: RULES.clone.id,
  candidate: RULES.candidate.id,
} as const;

/** A SARIF 2.1.0 log with one run of tool `reporeuse`. */
export function formatSarif(r: AuditReport, version = "0.1.0"): string {
  const kinds = Object.keys(RULES) as Finding["kind"][];
  const rules = kinds.map((k) => ({
    id: RULES[k].id,
    name: RULES[k].name,
    shortDescription: { text: RULES[k].short },
    fullDescription: { text: RULES[k].full },
    defaultConfiguration: { level: RULES[k].level },
  }));
  const region = (line: number, end: number) => ({ startLine: line, endLine: Math.max(line, end) });
  const results = r.findings.map((f) => ({
    ruleId: RULES[f.kind].id,
    ruleIndex: kinds.indexOf(f.kind),
    level: RULES[f.kind].level,
    message: {
      text: `${sarifText(f.function.id)} ${TITLE[f.kind]} [${sarifText(f.target.id)}](1) (${
        evidence(f)
      })`,
    },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: uriPath(f.function.file), uriBaseId: "SRCROOT" },
        region: region(f.function.line, f.function.end),
      },
      logicalLocations: [{ fullyQualifiedName: f.function.id, kind: "function" }],
    }],
    relatedLocations: [{
      id: 1,
      physicalLocation: {
        artifactLocation: { uri: uriPath(f.target.file), uriBaseId: "SRCROOT" },
        region: region(f.target.line, f.target.end),
      },
      message: { text: f.target.id },
    }],
    partialFingerprints: { "reporeuse/v1": `${f.kind}:${f.function.id}:${f.target.id}` },
    properties: {
      overlap: f.overlap,
      similarity: f.similarity,
      score: f.score,
      shared: f.shared,
      missing: f.missing,
    },
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "reporeuse",
          version,
          informationUri: "https://github.com/reporeuse/reporeuse",
          rules,
        },
      },
      originalUriBaseIds: { SRCROOT: { uri: `file://${uriPath(r.repo)}/` } },
      versionControlProvenance: r.head.commit || r.base.commit
        ? [{
          repositoryUri: `file://${uriPath(r.repo)}`,
          revisionId: r.head.commit ?? r.base.commit,
        }]
        : undefined,
      invocations: [{
        executionSuccessful: true,
        toolExecutionNotifications: r.problems.map((p) => ({
          level: "warning",
          message: { text: `${p.side}: ${sarifText(p.message)}` },
          locations: [{
            physicalLocation: {
              artifactLocation: { uri: uriPath(p.file), uriBaseId: "SRCROOT" },
              ...(p.line ? { region: { startLine: p.line } } : {}),
            },
          }],
        })),
      }],
      results,
    }],
  };
  return JSON.stringify(log, null, 2);
}

/** The formatter of each output format. */
const FORMATTERS: Record<Format, (r: AuditReport) => string> = {
  text: formatText,
  json: formatJson,
  md: formatMarkdown,
  sarif: (r) => formatSarif(r),
};

/** The report in a format. */
export function formatReport(r: AuditReport, format: Format): string {
  return FORMATTERS[format](r);
}

/** `--fail-on` values. */
export const FAIL_ON = ["reimplementation", "none"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Exit status: 1 when `failOn` is `reimplementation` and there is one, else 0. */
export function exitStatus(r: AuditReport, failOn: FailOn): number {
  return failOn === "reimplementation" && r.findings.some((f) => f.kind === "reimplementation")
    ? 1
    : 0;
}
