/**
 * The audit page: each finding of an `audit --format json` report as F (the new or changed
 * function, at the head revision) beside G (the existing one, at the base revision) with its
 * evidence — the callees F shares with G and those it does not, the overlap against the rule's
 * share, the structural similarity — at a stable anchor ({@link findingAnchor}) that a pull
 * request comment can link to.
 *
 * The report is input like any other: its fields are checked before use, and its sources are
 * read from the repository with lib/audit's git readers (never from a path the report names
 * outside the repository).
 *
 * @module
 */
import { dirSource } from "../../logs/mod.ts";
import { findingAnchor, listTree, readBlobs } from "../../audit/mod.ts";
import { REIMPLEMENTATION_MIN_CALLEES, REIMPLEMENTATION_SHARE } from "../../metrics/mod.ts";
import { readBounded } from "../../util/mod.ts";
import { html, jsonBlock } from "./html.ts";
import { page, pct } from "./layout.ts";
import { writeSite, type WrittenSite } from "./site.ts";
import { lineCount } from "./store.ts";

/** A place in the report (`function` or `target` of a finding). */
interface Loc {
  id: string;
  file: string;
  line: number;
  end: number;
}

/** A finding as the page reads it (other fields are shown as they are). */
interface AuditFinding {
  kind: string;
  function: Loc;
  target: Loc;
  overlap: number | null;
  shared: string[];
  missing: string[];
  similarity: number | null;
  score: number | null;
  extra: [string, string][];
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const int = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
const numOrNull = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strings = (
  v: unknown,
) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function loc(v: unknown): Loc | undefined {
  if (!isObj(v)) return undefined;
  const id = str(v.id), file = str(v.file), line = int(v.line), end = int(v.end);
  if (id === undefined || file === undefined || line === undefined) return undefined;
  return { id, file, line, end: end ?? line };
}

/** The findings of a report object; malformed ones are counted, not shown. */
export function readFindings(report: unknown): { findings: AuditFinding[]; malformed: number } {
  const list = isObj(report) && Array.isArray(report.findings) ? report.findings : [];
  const findings: AuditFinding[] = [];
  let malformed = 0;
  for (const f of list) {
    const fn = isObj(f) ? loc(f.function) : undefined, tg = isObj(f) ? loc(f.target) : undefined;
    if (!isObj(f) || !fn || !tg || !str(f.kind)) {
      malformed++;
      continue;
    }
    const known = new Set([
      "kind",
      "function",
      "target",
      "overlap",
      "shared",
      "missing",
      "similarity",
      "score",
    ]);
    const extra: [string, string][] = Object.entries(f).filter(([k]) => !known.has(k))
      .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
    findings.push({
      kind: f.kind as string,
      function: fn,
      target: tg,
      overlap: numOrNull(f.overlap),
      shared: strings(f.shared),
      missing: strings(f.missing),
      similarity: numOrNull(f.similarity),
      score: numOrNull(f.score),
      extra,
    });
  }
  return { findings, malformed };
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** File texts of one side of the change: a commit's blobs, or the working tree (commit null). */
async function sideTexts(repo: string, commit: string | null, paths: string[]) {
  const out = new Map<string, string>();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b).replaceAll("\r\n", "\n");
  if (commit === null) {
    const src = dirSource(repo);
    for (const p of paths) {
      const t = src(p);
      if (t !== undefined) out.set(p, t.replaceAll("\r\n", "\n"));
    }
    return out;
  }
  const tree = await listTree(repo, commit);
  const want = new Set(paths);
  const oids = tree.files.filter((f) => want.has(f.path));
  const { blobs } = await readBlobs(repo, oids.map((f) => f.oid));
  for (const f of oids) {
    const b = blobs.get(f.oid);
    if (b) out.set(f.path, decode(b));
  }
  return out;
}

/** Options of {@link viewAudit}. */
export interface ViewAuditOptions {
  /** The `audit --format json` report file. */
  report: string;
  /** The repository (default: the report's `repo`). */
  repo?: string;
  out: string;
}

/** Writes the audit page of a report (the site's index). */
export async function viewAudit(opts: ViewAuditOptions): Promise<WrittenSite> {
  let report: unknown;
  try {
    report = JSON.parse(new TextDecoder().decode(readBounded(opts.report, 64 * 2 ** 20)));
  } catch (e) {
    throw new Error(
      `${opts.report}: not an audit JSON report (${e instanceof Error ? e.message : e})`,
    );
  }
  if (!isObj(report) || !Array.isArray(report.findings)) {
    throw new Error(`${opts.report}: not an audit JSON report (no "findings" list)`);
  }
  const { findings, malformed } = readFindings(report);
  const side = (k: string) => {
    const v = isObj(report) ? report[k] : undefined;
    const commit = isObj(v) ? str(v.commit) : undefined;
    return {
      rev: (isObj(v) && str(v.rev)) || k,
      commit: commit && COMMIT.test(commit) ? commit : null,
    };
  };
  const base = side("base"), head = side("head");
  const repo = opts.repo ?? str(report.repo);
  const warnings: string[] = [];
  if (malformed) {
    warnings.push(`${malformed} finding(s) of the report are malformed and not shown.`);
  }
  let headTexts = new Map<string, string>(), baseTexts = new Map<string, string>();
  // what cannot be stat'ed is no repository: the page says no code is shown
  const isRepo = repo && (await Deno.stat(repo).catch(() => null))?.isDirectory;
  if (!isRepo) {
    warnings.push(
      `The repository${repo ? ` ${repo}` : ""} is not here: the code is not shown (give --repo).`,
    );
  } else {
    try {
      headTexts = await sideTexts(repo!, head.commit, [
        ...new Set(findings.map((f) => f.function.file)),
      ]);
      if (base.commit) {
        baseTexts = await sideTexts(repo!, base.commit, [
          ...new Set(findings.map((f) => f.target.file)),
        ]);
      } else warnings.push("The report names no base commit: G's code is not shown.");
    } catch (e) {
      warnings.push(
        `The code could not be read from ${repo}: ${e instanceof Error ? e.message : e}`,
      );
    }
  }
  return await writeSite(opts.out, async (site) => {
    const data = [];
    for (const f of findings) {
      const fText = headTexts.get(f.function.file), gText = baseTexts.get(f.target.file);
      data.push({
        f: fText === undefined ? null : {
          h: await site.store.put(f.function.file, fText),
          s: f.function.line,
          e: Math.min(f.function.end, lineCount(fText)),
        },
        g: gText === undefined ? null : {
          h: await site.store.put(f.target.file, gText),
          s: f.target.line,
          e: Math.min(f.target.end, lineCount(gText)),
        },
      });
    }
    const sections = findings.map((f, i) => {
      const n = f.shared.length + f.missing.length;
      return html`
        <section class="finding kind-${f.kind}" id="${findingAnchor(f)}" tabindex="-1">
          <h2><a href="#${findingAnchor(f)}">#${i + 1}</a> <code>${f.function
            .id}</code> ${f.kind === "reimplementation"
            ? "re-implements"
            : f.kind === "clone"
            ? "is a structural clone of"
            : f.kind === "block"
            ? "copies a block of"
            : f.kind === "candidate"
            ? "could call"
            : f.kind} <code>${f.target.id}</code></h2>
          <dl><dt>kind</dt><dd>${f.kind}</dd><dt>F (head)</dt><dd>${f.function.file}:${f.function
            .line}–${f.function.end}</dd><dt>G (base)</dt><dd>${f.target.file}:${f.target.line}–${f
            .target.end}</dd>
        <dt>callees</dt><dd>F calls ${f.shared.length} of G's ${n} non-builtin callees: ${pct(
          f.overlap,
          1,
        )} (the rule: ≥ ${pct(
          REIMPLEMENTATION_SHARE,
        )} of at least ${REIMPLEMENTATION_MIN_CALLEES})</dd>
        ${f.similarity !== null
          ? html`
            <dt>AST similarity</dt>
            <dd>${f.similarity.toFixed(2)}</dd>
          `
          : ""}${f.score !== null
          ? html`
            <dt>score</dt>
            <dd>${f.score.toFixed(2)}</dd>
          `
          : ""}
        ${f.extra.map(([k, v]) =>
          html`
            <dt>${k}</dt>
            <dd>${v}</dd>
          `
        )}</dl>
          <ul class="callees">${f.shared.map((c) =>
            html`<li class="shared">✔ <code>${c}</code> — called by F</li>`
          )}${f.missing.map((c) =>
            html`<li class="missing">✗ <code>${c}</code> — not called</li>`
          )}</ul>
          <div class="pair">
            <figure>
              <figcaption>F: <code>${f.function.id}</code> at ${head.rev}</figcaption>
              <div class="snippet" data-snippet="f" data-i="${i}"></div>
            </figure>
            <figure>
              <figcaption>G: <code>${f.target.id}</code> at ${base.rev}</figcaption>
              <div class="snippet" data-snippet="g" data-i="${i}"></div>
            </figure>
          </div>
        </section>
      `;
    });
    const body = html`
      <h1>reporeuse audit</h1>
      <p
        class="source">${repo ?? "(repository not named)"}: ${base.rev}${base.commit
          ? ` (${base.commit.slice(0, 12)})`
          : ""} → ${head.rev}${head.commit ? ` (${head.commit.slice(0, 12)})` : ""} — ${findings
          .length} finding(s)</p>
      ${warnings.map((w) => html`<p class="banner warn" role="note">⚠ ${w}</p>`)}
      ${findings.length ? sections : html`<p>No findings.</p>`}
      ${jsonBlock("rv-audit", { findings: data })}
    `;
    await site.write(
      "index.html",
      page({
        href: "index.html",
        title: "audit",
        kind: "audit",
        simulated: false,
        crumbs: [["Audit", null]],
        body,
      }),
    );
  });
}
