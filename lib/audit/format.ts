/**
 * The audit report in four formats — terminal text, JSON, Markdown (a pull-request comment that
 * fits GitHub's 65,536-character limit) and SARIF 2.1.0 (code-scanning upload) — and the exit
 * status of `--fail-on`.
 *
 * Findings are grouped in sections: the project's own code (re-implementations and clones), the
 * duplicates made within the change, reuse candidates, then test, vendored and generated code
 * (lib/audit/context.ts); each finding names its best target, its evidence (callees shared with
 * their weights, the shape similarity, notes) and its confidence, and lists its alternatives.
 *
 * Names in a report are the repository's (file names, module and function ids, branch names) and
 * so are hostile: the text report shows control characters as escapes (`visible`), the Markdown
 * puts every such string in a code span (`mdCode`) or escaped text (`mdText`), so no line break,
 * heading, link, image, HTML, mention or table cell comes out of a name; SARIF URIs are
 * percent-encoded segment by segment (`uriPath`) and embedded-link brackets in messages escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFailOn } from "./format.ts";
 * assert.equal(parseFailOn("none"), null);
 * assert.equal(parseFailOn("high"), 0.7);
 * assert.equal(parseFailOn("0.35"), 0.35);
 * assert.throws(() => parseFailOn("often"));
 * ```
 * @module
 */
import { REIMPLEMENTATION_MIN_CALLEES, REIMPLEMENTATION_PERCENT } from "../metrics/mod.ts";
import { type Finding, type FindingKind, type Pair, preexisting } from "./change.ts";
import { apartNote } from "./evidence.ts";
import { BLOCK_MAX_GAP, BLOCK_MIN_SMALL_TOKENS, BLOCK_MIN_TOKENS, LIKENESS_MIN } from "./block.ts";
import { type Context, CONTEXTS } from "./context.ts";
import type { AuditReport } from "./report.ts";
import { mdCode, mdText, slug, uriPath, visible } from "../util/mod.ts";

/** Output formats of the `audit` command. */
export const FORMATS = ["text", "json", "md", "sarif"] as const;
export type Format = (typeof FORMATS)[number];

/** Version of the JSON report shape. */
export const REPORT_VERSION = 2;

/** Named confidence thresholds of `--fail-on`. */
export const CONFIDENCE_LEVELS = { any: 0, low: 0.3, medium: 0.5, high: 0.7 } as const;

/**
 * Default `--fail-on` threshold: a re-implementation in the project's own code with at least
 * this confidence fails the check (docs/audit.md, "Precision", says how it was chosen).
 */
export const DEFAULT_FAIL_ON = CONFIDENCE_LEVELS.medium;

/** Contexts whose findings fail the check by default (tests, vendored, generated code do not). */
export const DEFAULT_FAIL_CONTEXTS: readonly Context[] = ["code"];

/** GitHub's limit on a comment body, in characters. */
export const GITHUB_COMMENT_LIMIT = 65536;

/**
 * A `--fail-on` value as a confidence threshold: `none` (null: never fail), `any` (every
 * re-implementation), `low`, `medium`, `high`, `reimplementation` (the default, kept for
 * scripts written before confidences), or a number in [0, 1]. Throws on anything else.
 */
export function parseFailOn(value: string): number | null {
  if (value === "none") return null;
  if (value === "reimplementation") return DEFAULT_FAIL_ON;
  if (Object.hasOwn(CONFIDENCE_LEVELS, value)) {
    return CONFIDENCE_LEVELS[value as keyof typeof CONFIDENCE_LEVELS];
  }
  const x = Number(value);
  if (value.trim() !== "" && Number.isFinite(x) && x >= 0 && x <= 1) return x;
  throw new Error(
    `--fail-on must be none, any, low, medium, high or a confidence in [0, 1], got '${value}'`,
  );
}

const TITLE: Record<FindingKind, string> = {
  reimplementation: "re-implements",
  clone: "structural clone of",
  block: "copies a block of",
  candidate: "could call",
};

/** Kinds whose evidence is the code's form, not its callees (callees shown only when shared). */
function byForm(p: Pair): boolean {
  return p.kind === "clone" || p.kind === "block";
}

const CONTEXT_TITLE: Record<Exclude<Context, "code">, string> = {
  test: "Test code",
  example: "Examples and documentation",
  script: "Scripts and tools outside the packages",
  vendored: "Vendored code",
  generated: "Generated code",
};

const NOTE_TEXT: Record<string, string> = {
  preexisting: "already so before the change",
  extracted: "the target now calls this function (code moved out of it)",
  "target-rewritten": "the change rewrote the target",
  relocated:
    "holds the target's old code, and the change rewrote the target into something else (code moved, not copied)",
  "async-twin": "the synchronous/asynchronous twin of the target (an idiom: lower confidence)",
  "same-delegate":
    "both only delegate to the same function, without branching: already their shared helper (an idiom: lower confidence)",
  "same-api":
    "shares one helper's API (a class and its methods), not a piece of behaviour: counted as one helper each, the rule does not hold (lower confidence)",
  "module-vocabulary":
    "shares only what the functions of its module or class call: the rule holds against the target for other functions of that container too (lower confidence)",
  "same-edit":
    "the rule holds only through calls the change gave this function and other existing functions alike: one edit made across functions, not a copy (lower confidence)",
  template:
    "alike in shape only: shares none of the target's helpers (parallel code written to one template: lower confidence)",
  "different-code": `shares the target's callees, not its code: the two bodies are under ${
    Math.round(LIKENESS_MIN * 100)
  } % alike token for token, and no block of the target is in this one (lower confidence)`,
  "written-together":
    "both written by this change and joined only by the callees they share: less alike in shape than a clone, no block of one in the other (functions designed together against one API, not a copy)",
};

/**
 * Sections of a report, in order: a title and the findings in it. The first, `code`, holds what
 * the change introduced in the project's own code; pairs the change only re-touched
 * (`preexisting`: F's old version already did the same), code it moved out of a function that
 * now calls it (`extracted`), code of a function the change rewrote (`relocated`), two functions
 * the change wrote that share only callees (`written-together`) and the test, example, script,
 * vendored and generated contexts each have their own.
 */
export function sections(r: AuditReport): { key: string; title: string; findings: Finding[] }[] {
  const out: { key: string; title: string; findings: Finding[] }[] = [
    { key: "code", title: "Re-implementations and clones", findings: [] },
    { key: "within", title: "Duplicated within the change", findings: [] },
    { key: "candidate", title: "Existing functions it could call", findings: [] },
    { key: "preexisting", title: "Already duplicated before the change", findings: [] },
    {
      key: "extracted",
      title: "Moved out of an existing function (which now calls it)",
      findings: [],
    },
    {
      key: "relocated",
      title: "Moved from an existing function the change rewrote",
      findings: [],
    },
    {
      key: "written-together",
      title: "Written together in the change, sharing only callees",
      findings: [],
    },
    ...CONTEXTS.filter((c) => c !== "code").map((c) => ({
      key: c,
      title: CONTEXT_TITLE[c as Exclude<Context, "code">],
      findings: [] as Finding[],
    })),
  ];
  const at = new Map(out.map((s) => [s.key, s]));
  for (const f of r.findings) {
    const key = f.context !== "code"
      ? f.context
      : apartNote(f) ?? (f.within ? "within" : f.kind === "candidate" ? "candidate" : "code");
    at.get(key)!.findings.push(f);
  }
  return out.filter((s) => s.findings.length);
}

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

function weighted(keys: readonly string[], w: Record<string, number>): string {
  return keys.map((k) => `${k} (${(w[k] ?? 0).toFixed(2)})`).join(", ");
}

/** One line of evidence: callees, weighted overlap, shape, confidence. */
function evidence(p: Pair): string {
  const parts: string[] = [];
  const n = p.shared.length + p.missing.length;
  if (p.block) {
    const b = p.block;
    parts.push(
      `a block of ${b.tokens} tokens, lines ${b.lines[0]}–${b.lines[1]} (the target's ${
        b.targetLines[0]
      }–${b.targetLines[1]})${b.segments > 1 ? ` in ${b.segments} identical runs` : ""}`,
    );
  }
  if (!byForm(p) || p.shared.length) {
    parts.push(
      `calls ${p.shared.length}/${n} of its callees (${pct(p.overlap)}, weighted ${
        pct(p.weightedOverlap)
      })`,
    );
  }
  parts.push(`AST similarity ${p.similarity.toFixed(2)}`);
  parts.push(`confidence ${p.confidence.toFixed(2)}`);
  return parts.join(", ");
}

function notes(p: Pair): string {
  return p.notes.map((n) => NOTE_TEXT[n] ?? n).join("; ");
}

function counts(r: AuditReport) {
  const by = (k: FindingKind) => r.findings.filter((f) => f.kind === k && !apartNote(f)).length;
  const pairs = (k: FindingKind) =>
    r.findings.reduce(
      (n, f) =>
        n + (f.kind === k ? 1 : 0) + f.alternatives.filter((a) => a.kind === k).length +
        f.omitted[k],
      0,
    );
  return {
    reimplementation: by("reimplementation"),
    clone: by("clone"),
    block: by("block"),
    candidate: by("candidate"),
    within: r.findings.filter((f) => f.within && !apartNote(f)).length,
    preexisting: r.findings.filter(preexisting).length,
    extracted: r.findings.filter((f) => apartNote(f) === "extracted").length,
    relocated: r.findings.filter((f) => apartNote(f) === "relocated").length,
    writtenTogether: r.findings.filter((f) => apartNote(f) === "written-together").length,
    pairs: {
      reimplementation: pairs("reimplementation"),
      clone: pairs("clone"),
      block: pairs("block"),
    },
  };
}

function omittedText(f: Finding): string {
  const parts = (Object.entries(f.omitted) as [FindingKind, number][]).filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  return parts.length ? `+ ${parts.join(", ")} more target(s) (--max-targets)` : "";
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
      (moved ? `, ${moved} moved or renamed (not audited)` : "") +
      (r.excluded.length ? `; ${r.excluded.length} file(s) excluded by --include/--exclude` : ""),
  );
  const c = counts(r);
  out.push(
    `${c.reimplementation} re-implementation(s), ${c.clone} structural clone(s), ${c.block} copied block(s), ${c.candidate} candidate(s)` +
      (c.within ? ` (${c.within} within the change)` : "") +
      (c.preexisting ? `; ${c.preexisting} already so before the change` : "") +
      (c.extracted ? `; ${c.extracted} moved out of an existing function` : "") +
      (c.relocated ? `; ${c.relocated} moved from a function the change rewrote` : "") +
      (c.writtenTogether
        ? `; ${c.writtenTogether} written together in the change, sharing only callees`
        : ""),
  );
  for (const s of sections(r)) {
    out.push("", `== ${s.title} ==`);
    for (const f of s.findings) {
      out.push(
        "",
        `${f.function.file}:${f.function.line} ${f.function.id}`,
        `  ${TITLE[f.kind]} ${f.target.id} at ${f.target.file}:${f.target.line}${
          f.within ? " (new in this change too)" : ""
        }`,
        `    ${evidence(f)}`,
      );
      if (!byForm(f) && f.shared.length) {
        out.push(`    shared: ${weighted(f.shared, f.weights)}`);
      }
      if (!byForm(f) && f.missing.length) {
        out.push(`    not called: ${weighted(f.missing, f.weights)}`);
      }
      if (f.notes.length) out.push(`    note: ${notes(f)}`);
      for (const a of f.alternatives) {
        out.push(
          `  also ${TITLE[a.kind]} ${a.target.id} at ${a.target.file}:${a.target.line}: ${
            evidence(a)
          }${a.notes.length ? `; ${notes(a)}` : ""}`,
        );
      }
      const more = omittedText(f);
      if (more) out.push(`  ${more}`);
    }
  }
  const reuse = reported.filter((x) => x.reused.length);
  if (reuse.length) {
    out.push("", "== Reuse of existing functions ==");
    for (const x of reuse) out.push(`${x.file}:${x.line} ${x.id} reuses ${x.reused.join(", ")}`);
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

/**
 * The anchor of a finding on the viewer's audit page (`reporeuse view <report.json>`): `finding-`
 * and a slug of "F--G", so the Markdown comment can link each row to its page.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findingAnchor } from "./format.ts";
 * assert.equal(findingAnchor({ function: { id: "p.new.tidy" }, target: { id: "p.util.clean" } }), "finding-p.new.tidy--p.util.clean");
 * ```
 */
export function findingAnchor(f: { function: { id: string }; target: { id: string } }): string {
  return `finding-${slug(`${f.function.id}--${f.target.id}`)}`;
}

/** A URL the Markdown report may link to: http(s), nothing that would end a link or a cell. */
export function isLinkableUrl(url: string): boolean {
  return /^https?:\/\/[^\s<>()`|\\[\]"]+$/.test(url);
}

/** Options of {@link formatMarkdown}. */
export interface MarkdownOptions {
  /**
   * Where the viewer's audit page of this report is published (`reporeuse view report.json`, a
   * CI artifact): each finding's row links to its anchor there. Must pass {@link isLinkableUrl}.
   */
  viewUrl?: string;
  /** Largest comment, in UTF-16 code units (default {@link GITHUB_COMMENT_LIMIT}). */
  limit?: number;
  /** Where the full report is (a URL or a file name), named when the comment is cut. */
  fullReport?: string;
}

/**
 * Markdown for a pull-request comment: a headline, a table per section (most confident first,
 * alternatives in the same row), reuse and problems in collapsed sections. When the whole does
 * not fit `limit`, the least confident rows are left off and a line says how many and where the
 * full report is.
 */
export function formatMarkdown(r: AuditReport, opts: MarkdownOptions = {}): string {
  const limit = opts.limit ?? GITHUB_COMMENT_LIMIT;
  const c = counts(r);
  const reported = r.changed.filter((x) => x.status !== "moved");
  const head = [
    "### reporeuse audit",
    "",
    `${mdRev(r.base.commit, r.base.rev)} → ${
      mdRev(r.head.commit, r.head.rev)
    }: ${reported.length} function(s) added or changed in ${r.files.length} Python file(s).`,
    "",
    c.reimplementation
      ? `**${c.reimplementation} function(s) re-implement existing code** (they call ≥ ${REIMPLEMENTATION_PERCENT} of what an existing function calls instead of calling it; RepoReuse §3.3.2).`
      : "No re-implementation of existing functions found.",
    ...(c.preexisting
      ? [
        "",
        `${c.preexisting} changed function(s) only re-touch a duplication that existed before the change (listed apart; they do not fail the check).`,
      ]
      : []),
    ...(c.extracted
      ? [
        "",
        `${c.extracted} new function(s) hold code moved out of an existing function that now calls them (listed apart; they do not fail the check).`,
      ]
      : []),
    ...(c.relocated
      ? [
        "",
        `${c.relocated} changed function(s) hold the old code of a function the change rewrote into something else (listed apart; they do not fail the check).`,
      ]
      : []),
    ...(c.writtenTogether
      ? [
        "",
        `${c.writtenTogether} function(s) written by the change share only callees with another it wrote — no copied code, less alike than a clone (listed apart; they do not fail the check).`,
      ]
      : []),
  ];
  const secs = sections(r);
  if (opts.viewUrl !== undefined && !isLinkableUrl(opts.viewUrl)) {
    throw new RangeError(`not a link the report can carry: ${visible(opts.viewUrl)}`);
  }
  const view = opts.viewUrl?.replace(/#.*$/, "");
  const row = (f: Finding) => {
    const cell = (s: string) => mdCode(s, { table: true });
    const also = f.alternatives.map((a) =>
      `${TITLE[a.kind]} ${cell(a.target.id)} (${a.confidence.toFixed(2)})`
    );
    const more = omittedText(f);
    const ev = [
      mdText(evidence(f)),
      !byForm(f) && f.shared.length ? `shared: ${mdText(weighted(f.shared, f.weights))}` : "",
      f.notes.length ? `note: ${mdText(notes(f))}` : "",
      also.length ? `also: ${also.join(", ")}` : "",
      more ? mdText(more) : "",
      view ? `[view F beside G](${view}#${findingAnchor(f)})` : "",
    ].filter(Boolean).join("<br>");
    return `| ${f.confidence.toFixed(2)} | ${TITLE[f.kind]} | ${cell(f.function.id)} ${
      cell(`${f.function.file}:${f.function.line}`)
    } | ${cell(f.target.id)} ${cell(`${f.target.file}:${f.target.line}`)} | ${ev} |`;
  };
  const tail: string[] = [];
  const reuse = reported.filter((x) => x.reused.length);
  if (reuse.length) {
    tail.push("", "<details><summary>Reuse of existing functions</summary>", "");
    for (const x of reuse) {
      tail.push(`- ${mdCode(x.id)} calls ${x.reused.map((t) => mdCode(t)).join(", ")}`);
    }
    tail.push("", "</details>");
  }
  if (r.problems.length) {
    tail.push("", "<details><summary>Files with problems</summary>", "");
    for (const p of r.problems) {
      tail.push(
        `- ${p.side}: ${mdCode(p.file)}${p.line ? `:${p.line}` : ""} — ${mdText(p.message)}`,
      );
    }
    tail.push("", "</details>");
  }
  const render = (rows: number, withTail: boolean) => {
    const out = [...head];
    let left = rows, cut = 0;
    for (const s of secs) {
      const shown = s.findings.slice(0, Math.max(0, left));
      left -= shown.length;
      cut += s.findings.length - shown.length;
      if (!shown.length) continue;
      out.push(
        "",
        `#### ${s.title} (${s.findings.length})`,
        "",
        "| Confidence | Finding | New or changed | Existing | Evidence |",
        "|---:|---|---|---|---|",
        ...shown.map(row),
      );
    }
    if (withTail) out.push(...tail);
    if (cut || !withTail) {
      const where = opts.fullReport
        ? `the full report: ${
          // the operator's URL as a link; anything else (a file name) as code
          isLinkableUrl(opts.fullReport) ? `<${opts.fullReport}>` : mdCode(opts.fullReport)}`
        : "the full report: run `reporeuse audit --format json` (or see the SARIF upload)";
      out.push(
        "",
        `_${cut ? `${cut} less confident finding(s)` : "Some details"}${
          !withTail && cut ? " and the reuse and problem lists" : ""
        } not shown to fit GitHub's comment limit; see ${where}._`,
      );
    }
    return out.join("\n");
  };
  const total = secs.reduce((n, s) => n + s.findings.length, 0);
  let text = render(total, true);
  if (text.length <= limit) return text;
  // keep the most rows that fit (rows are taken in section order, most confident first)
  let lo = 0, hi = total;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (render(mid, false).length <= limit) lo = mid;
    else hi = mid - 1;
  }
  text = render(lo, false);
  return text.length <= limit ? text : text.slice(0, limit);
}

/** The SARIF rule of each finding kind: id, name, level (of its results too) and descriptions. */
const RULES: Record<
  FindingKind,
  { id: string; name: string; level: "warning" | "note"; short: string; full: string }
> = {
  reimplementation: {
    id: "RR001",
    name: "Reimplementation",
    level: "warning",
    short: "New code re-implements an existing function",
    full:
      `A new or changed function does not call an existing function G but calls at least ${REIMPLEMENTATION_PERCENT} of G's non-builtin callees (G calling at least ${REIMPLEMENTATION_MIN_CALLEES}): RepoReuse paper, §3.3.2. The confidence (result rank) weighs the shared callees by rarity, the shape similarity and the context.`,
  },
  clone: {
    id: "RR002",
    name: "StructuralClone",
    level: "note",
    short: "New code is a structural clone of an existing function",
    full:
      "The normalised syntax trees (identifiers and literals abstracted) of a new or changed function and an existing one are nearly the same.",
  },
  block: {
    id: "RR004",
    name: "CopiedBlock",
    level: "note",
    short: "New code copies a block of an existing function",
    full:
      `Lines a change added to a function repeat at least ${BLOCK_MIN_TOKENS} tokens of another function's code, names and literals aside (a type-2 token clone, gaps of at most ${BLOCK_MAX_GAP} tokens allowed between identical runs), or, with a lower confidence, one identical run of at least ${BLOCK_MIN_SMALL_TOKENS} tokens, mostly added, that no other function holds (a small block).`,
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
  block: RULES.block.id,
  candidate: RULES.candidate.id,
} as const;

/** A SARIF 2.1.0 log with one run of tool `reporeuse` (one result per finding). */
export function formatSarif(r: AuditReport, version = "0.1.0"): string {
  const kinds = Object.keys(RULES) as FindingKind[];
  const rules = kinds.map((k) => ({
    id: RULES[k].id,
    name: RULES[k].name,
    shortDescription: { text: RULES[k].short },
    fullDescription: { text: RULES[k].full },
    defaultConfiguration: { level: RULES[k].level },
  }));
  const region = (line: number, end: number) => ({ startLine: line, endLine: Math.max(line, end) });
  // a copied block is located at its lines, on both sides
  const location = (l: Pair["target"], lines?: [number, number]) => ({
    artifactLocation: { uri: uriPath(l.file), uriBaseId: "SRCROOT" },
    region: lines ? region(lines[0], lines[1]) : region(l.line, l.end),
  });
  const results = r.findings.map((f) => ({
    ruleId: RULES[f.kind].id,
    ruleIndex: kinds.indexOf(f.kind),
    level: f.context === "code" ? RULES[f.kind].level : "note",
    rank: Math.round(f.confidence * 1000) / 10,
    message: {
      text: `${sarifText(f.function.id)} ${TITLE[f.kind]} [${sarifText(f.target.id)}](1) (${
        evidence(f)
      })${f.alternatives.length ? `; also ${f.alternatives.length} other target(s)` : ""}`,
    },
    locations: [{
      physicalLocation: location(f.function, f.block?.lines),
      logicalLocations: [{ fullyQualifiedName: f.function.id, kind: "function" }],
    }],
    relatedLocations: [
      {
        id: 1,
        physicalLocation: location(f.target, f.block?.targetLines),
        message: { text: f.target.id },
      },
      ...f.alternatives.map((a, i) => ({
        id: i + 2,
        physicalLocation: location(a.target, a.block?.targetLines),
        message: { text: `${TITLE[a.kind]} ${a.target.id} (confidence ${a.confidence})` },
      })),
    ],
    partialFingerprints: { "reporeuse/v1": `${f.kind}:${f.function.id}:${f.target.id}` },
    properties: {
      confidence: f.confidence,
      context: f.context,
      within: f.within,
      notes: f.notes,
      overlap: f.overlap,
      weightedOverlap: f.weightedOverlap,
      similarity: f.similarity,
      shared: f.shared,
      missing: f.missing,
      weights: f.weights,
      ...(f.block ? { block: f.block } : {}),
      alternatives: f.alternatives.map((a) => ({
        kind: a.kind,
        target: a.target.id,
        confidence: a.confidence,
      })),
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

/** The report in a format (`md` takes {@link MarkdownOptions}). */
export function formatReport(r: AuditReport, format: Format, md: MarkdownOptions = {}): string {
  switch (format) {
    case "text":
      return formatText(r);
    case "json":
      return formatJson(r);
    case "md":
      return formatMarkdown(r, md);
    case "sarif":
      return formatSarif(r);
  }
}

/** What fails the check (`--fail-on`, `--fail-contexts`). */
export interface FailOn {
  /** Confidence threshold (null: never fail). */
  threshold: number | null;
  /** Contexts whose findings count (default {@link DEFAULT_FAIL_CONTEXTS}). */
  contexts?: readonly Context[];
}

/**
 * The re-implementations that fail the check: those at or above the threshold, in the contexts
 * that count, made by the change (a duplicate made within the change counts like any other; a
 * pair already so before the change, `preexisting`, or code moved out of G that G now calls,
 * `extracted`, never fails it).
 */
export function failing(r: AuditReport, failOn: FailOn): Pair[] {
  const threshold = failOn.threshold;
  if (threshold === null) return [];
  const contexts = new Set(failOn.contexts ?? DEFAULT_FAIL_CONTEXTS);
  return r.findings.flatMap((f) => [f, ...f.alternatives]).filter((p) =>
    p.kind === "reimplementation" && p.confidence >= threshold && contexts.has(p.context) &&
    !apartNote(p)
  );
}

/** Exit status: 1 when a re-implementation fails the check ({@link failing}), else 0. */
export function exitStatus(r: AuditReport, failOn: FailOn): number {
  return failing(r, failOn).length ? 1 : 0;
}
