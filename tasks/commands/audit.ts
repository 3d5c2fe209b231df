/**
 * `deno task reporeuse audit <repo-dir> [options]` — the reuse audit of a git change (lib/audit).
 * Only wiring: options → `auditReport` → `formatReport` → exit status.
 * @module
 */
import { guarded, parseOptions } from "./_args.ts";
// the polars-free modules of lib/audit (mod.ts also loads the frames)
import {
  AuditError,
  auditReport,
  BLOCK_MAX_GAP,
  BLOCK_MAX_POSTINGS,
  BLOCK_MIN_LINES,
  BLOCK_MIN_TOKENS,
  BLOCK_MIN_WHOLE_LINES,
  BLOCK_MIN_WHOLE_TOKENS,
  BLOCK_SEED,
  CLONE_MIN_SIZE,
  CLONE_THRESHOLD,
  CONFIDENCE_LEVELS,
  type Context,
  CONTEXTS,
  DEFAULT_FAIL_CONTEXTS,
  DEFAULT_FAIL_ON,
  exitStatus,
  type Format,
  formatReport,
  FORMATS,
  GENERATED_MIN_BYTES,
  isLinkableUrl,
  LIKENESS_MIN,
  MAX_TARGETS,
  parseFailOn,
  SAME_EDIT_FUNCTIONS,
  VOCABULARY_SIBLINGS,
} from "../../lib/audit/mod.ts";
import {
  REIMPLEMENTATION_MIN_CALLEES,
  REIMPLEMENTATION_PERCENT as SHARE,
} from "../../lib/metrics/mod.ts";

/** One-line summary for `reporeuse --help`. */
export const summary = "re-implementations and missed reuse in a git change (CI check)";

/** Full help text. */
export const help =
  `Usage: deno task reporeuse audit <repo-dir> [--base REV] [--head REV] [--format text|json|md|sarif]
          [--fail-on LEVEL] [--fail-contexts LIST] [--include GLOB]... [--exclude GLOB]...
          [--min-callees N] [--max-targets N] [--full-report URL] [--view-url URL]
       deno task reporeuse audit <repo-dir> --history A..B [--commits N] [--format json|csv|parquet]
          [--output PATH] [--include GLOB]... [--exclude GLOB]... [--min-callees N] [--max-targets N]

Audits the Python functions a change adds or modifies (moved or renamed code is matched, not
reported) against the code that already exists, with the RepoReuse paper's rule (§3.3.2). For
each changed function F it reports one finding — its best target G, the others as alternatives:
  re-implements     F does not call G but calls >= ${SHARE} of G's distinct non-builtin callees, G
                    calling >= ${REIMPLEMENTATION_MIN_CALLEES} (--min-callees). Exactly the benchmark's rule (isReimplemented):
                    every pair it holds for is reported, none is dropped by another signal;
  structural clone  G's normalised syntax tree (identifiers and literals abstracted) is
                    >= ${CLONE_THRESHOLD} alike to F's, both of >= ${CLONE_MIN_SIZE} nodes;
  copies a block    lines the change added to F repeat >= ${BLOCK_MIN_TOKENS} tokens of G's body over
                    >= ${BLOCK_MIN_LINES} lines of F, identifiers and literals aside (attribute and
                    keyword names kept; runs at most ${BLOCK_MAX_GAP} tokens apart are one block;
                    the def lines, parameters and annotations, never count), or
                    G's whole body over >= ${BLOCK_MIN_WHOLE_TOKENS} tokens and ${BLOCK_MIN_WHOLE_LINES} lines: a block pasted into
                    a larger function, or a small function copied whole;
  could call        existing functions sharing F's rarer callees, shape and name, ranked;
  reuses            the existing functions F calls (resolved calls, not name matching).
Duplicates made within the change (two new functions of it) are reported as such; not two
functions whose old versions the rule or the shape already joined (twins edited, moved or renamed
together), nor two new ones split alike out of two such functions. Two functions the change
wrote that only the rule joins (less alike in shape than a clone, neither holding a block of the
other, small blocks included) are listed apart, written together: they share an API, not code.

Callees are keys no local name changes: resolved ids of the repository's functions, canonical
names of imported ones (np.asarray is numpy.asarray), '.name' for a method of a value of unknown
type; calls of parameters and locals, methods of builtin strings and containers (.append, .get,
.join, ...) and calls on a call's result (a chain counts once) are not counted.

Gates, all of them:
  targets     G exists before and after the change, is not local to another function, not a
              test (a test* function in test code), not F, F's old version, nor nested in F or
              around it; its callees are those of its version before the change.
  confidence  each pair gets one in [0, 1]: shared callees weighted by rarity in the repository
              (shown beside each callee), shape similarity, the share of F's calls that are G's;
              lowered in test code (x0.6), vendored code (x0.6), generated files (x0.4), and by
              notes: the pair was already so before the change (x0.4), G now calls F (code
              extracted from G, x0.3), the change rewrote G (x0.7), idioms (x0.45 each, so an
              idiom alone stays below the default --fail-on): F is G's sync/async twin; both
              only delegate to one same function, neither branching (no if, loop, with, try);
              the rule holds only by counting one class
              and its methods as several helpers (same-api); F and G are in one module or
              class and the rule holds against G for at least ${VOCABULARY_SIBLINGS} other functions of
              it too: G's helpers are that container's vocabulary (module-vocabulary); the
              rule holds only through calls the change gave F and at least ${
    SAME_EDIT_FUNCTIONS - 1
  } other existing
              functions (same-edit); a clone sharing none of G's helpers (template); a
              re-implementation whose body is under ${
    Math.round(LIKENESS_MIN * 100)
  } % alike to G's token for token (the
              longest common subsequence of the two bodies' tokens, names and literals as one
              code each) and holds no block of G: it shares G's callees, not its code
              (different-code, x0.45). It orders every report; no note removes a finding.
              A copied block: 0.35 + 0.35 x its size (tokens / 150) + 0.2 x the share of G
              copied + 0.1 x the share in one identical run, then context and notes.
  blocks      only tokens the change added to F seed a block (a block F already held is not
              reported; one its old version already shared with G is apart, pre-existing); a
              block the change took out of G (G no longer holds it) is apart as relocated; a
              window of ${BLOCK_SEED} tokens repeated in more than ${BLOCK_MAX_POSTINGS} places is an idiom and seeds nothing.
              Clones and copied blocks never fail the check: only re-implementations do.
  apart       a pair F's old version already formed (the change only re-touched it), and a new
              F holding code moved out of a G that now calls it (extracted), are each listed in
              a section of their own and never fail the check; so do two functions the change
              wrote that only the rule joins (written together: no block, shape under the
              clone threshold).
  contexts    test code (tests?/, testing/, */testsuite/, test_*.py, *_test.py, conftest.py,
              Test* and *TestCase classes, test* functions; a top-level package that only
              test code imports, holding test code, beside the package under test: test
              infrastructure such as urllib3's dummyserver/), examples and documentation
              (examples?/, demos?/, samples?/, docs?/, tutorials?/ at the root, else only
              when no package),
              scripts outside the packages (a directory below the root, not src/, with no
              package on its path: ext/, scripts/, tools/), vendored code (vendor/, _vendor/,
              third_party/, extern/, a package's packages/, a module present twice under
              different roots, a module saying it is "adapted from"/"copied from"/"a backport
              of" another project), generated files (>= ${
    GENERATED_MIN_BYTES / 1048576
  } MiB, *_pb2.py, a generator's statement in the
              first 2 KiB): each in its own section, and not failing the check by default.

The repository is only read (git rev-parse, ls-tree, cat-file; the working tree from disk): its
working tree and index are never touched, nothing of it is written anywhere, and no configuration
of it can make git run a program (hardened git: docs/security.md). File names it cannot use
(absolute, '..', '.git', control characters, not UTF-8), files reached through a symbolic link to
a directory and .py files over 8 MiB are listed as problems, never read. Results are cached by
content hash ($REPOREUSE_CACHE_DIR, else $XDG_CACHE_HOME/reporeuse, else ~/.cache/reporeuse).

Options:
  --base REV          the revision before the change (default HEAD). A...B means the merge base
                      of A and B, and then --head defaults to B (e.g. --base origin/main...HEAD).
  --head REV          the revision after the change (default: the working tree, uncommitted and
                      untracked-but-not-ignored files included).
  --format F          text (default), json, md (a pull-request comment, cut to fit GitHub's
                      65,536-character limit) or sarif (SARIF 2.1.0).
  --fail-on LEVEL     exit 1 when a re-implementation has at least this confidence: a number in
                      [0, 1], or any (${CONFIDENCE_LEVELS.any}), low (${CONFIDENCE_LEVELS.low}), medium (${CONFIDENCE_LEVELS.medium}), high (${CONFIDENCE_LEVELS.high}); none never fails.
                      Default medium (${DEFAULT_FAIL_ON}); 'reimplementation' is the same as the default.
  --fail-contexts L   comma-separated contexts whose findings can fail the check (default
                      ${DEFAULT_FAIL_CONTEXTS.join(",")}; also ${
    CONTEXTS.filter((c) => c !== "code").join(", ")
  }).
  --include GLOB      audit only paths matching (repeatable; ** any directories, * any name part;
                      a pattern without / matches file names at any depth). Applies to targets too.
  --exclude GLOB      never audit nor offer as targets paths matching (repeatable).
  --min-callees N     G must call at least N distinct non-builtin functions (default and minimum
                      ${REIMPLEMENTATION_MIN_CALLEES}, the paper's; raise it to be stricter).
  --max-targets N     alternatives listed per finding (default ${MAX_TARGETS}; 0: all); the rest are counted.
  --full-report URL   where the full report is, named in a Markdown comment that had to be cut.
  --view-url URL      where the viewer's page of this report is published (\`reporeuse view
                      report.json\`, e.g. a CI artifact): each Markdown row links to its finding.
  -h, --help          this text

History (every commit of a range audited against its first parent, oldest first):
  --history A..B      the first-parent commits of B that are not in A (B defaults to HEAD; '..B'
                      or a single revision B: its whole first-parent history).
  --commits N         at most the newest N commits of the range.
  --format F          json (default: one file, rows of each frame), csv or parquet (a directory of
                      commits, changed, findings and problems files; csv joins list cells by ';').
  --output PATH       where to write (json: a file, default stdout; csv/parquet: a directory,
                      required). Written all or nothing.
  Progress goes to stderr. Every tree's index is cached by content, so an interrupted run
  started again redoes only what was not cached.

Exit status:
  0  clean (or --fail-on none)
  1  re-implementation at or above --fail-on in a failing context (only this: a CI gate may rely
     on it)
  2  bad input: not a git repository, one git refuses (another user owns it), an unknown
     revision, a shallow clone missing the base, a bad option — one line on stderr
  3  internal error (a bug: please report it) — never a finding`;

/** Exit codes of `audit`. */
export const EXIT = { clean: 0, found: 1, input: 2, internal: 3 } as const;

/** Runs the command; returns the exit code ({@link EXIT}; a crash is `EXIT.internal`). */
export function run(args: string[]): Promise<number> {
  return guarded("reporeuse audit", EXIT.internal, () => audit(args));
}

async function audit(args: string[]): Promise<number> {
  const p = "reporeuse audit";
  const parsed = parseOptions(p, {
    args,
    allowPositionals: true,
    options: {
      base: { type: "string" },
      head: { type: "string" },
      format: { type: "string", default: "text" },
      "fail-on": { type: "string", default: "medium" },
      "fail-contexts": { type: "string", default: DEFAULT_FAIL_CONTEXTS.join(",") },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      "min-callees": { type: "string", default: String(REIMPLEMENTATION_MIN_CALLEES) },
      "max-targets": { type: "string", default: String(MAX_TARGETS) },
      "full-report": { type: "string" },
      "view-url": { type: "string" },
      history: { type: "string" },
      commits: { type: "string" },
      output: { type: "string" },
    },
  }, " (see --help)");
  if (!parsed) return EXIT.input;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(`${p}: expected exactly one <repo-dir> (see --help)`);
    return EXIT.input;
  }
  if (values.history !== undefined) return await history(p, positionals[0], values);
  const format = values.format as Format;
  if (!FORMATS.includes(format)) {
    console.error(`${p}: --format must be one of ${FORMATS.join(", ")}, got '${values.format}'`);
    return EXIT.input;
  }
  let threshold: number | null;
  try {
    threshold = parseFailOn(values["fail-on"]);
  } catch (e) {
    console.error(`${p}: ${(e as Error).message}`);
    return EXIT.input;
  }
  const contexts = values["fail-contexts"].split(",").map((x) => x.trim()).filter(Boolean);
  const bad = contexts.find((c) => !CONTEXTS.includes(c as Context));
  if (bad !== undefined) {
    console.error(`${p}: --fail-contexts takes ${CONTEXTS.join(", ")}, got '${bad}'`);
    return EXIT.input;
  }
  const min = Number(values["min-callees"]);
  if (!Number.isInteger(min) || min < REIMPLEMENTATION_MIN_CALLEES) {
    console.error(
      `${p}: --min-callees must be an integer >= ${REIMPLEMENTATION_MIN_CALLEES} (the paper's minimum), got '${
        values["min-callees"]
      }'`,
    );
    return EXIT.input;
  }
  const maxTargets = Number(values["max-targets"]);
  if (!Number.isInteger(maxTargets) || maxTargets < 0) {
    console.error(
      `${p}: --max-targets must be a non-negative integer, got '${values["max-targets"]}'`,
    );
    return EXIT.input;
  }
  const viewUrl = values["view-url"];
  if (viewUrl !== undefined && !isLinkableUrl(viewUrl)) {
    console.error(`${p}: --view-url takes an http(s) URL, got '${viewUrl}'`);
    return EXIT.input;
  }
  let report;
  try {
    report = await auditReport({
      repo: positionals[0],
      base: values.base,
      head: values.head,
      minCallees: min,
      maxTargets,
      include: values.include,
      exclude: values.exclude,
    });
  } catch (e) {
    if (e instanceof AuditError) {
      console.error(`${p}: ${e.message}`);
      return EXIT.input;
    }
    throw e;
  }
  console.log(
    formatReport(report, format, {
      fullReport: values["full-report"],
      viewUrl,
    }),
  );
  return exitStatus(report, { threshold, contexts: contexts as Context[] });
}

/** `--history`: audits every commit of a range and writes the frames. */
async function history(
  p: string,
  repo: string,
  values: Record<string, string | string[] | boolean | undefined>,
): Promise<number> {
  const { auditHistory, HISTORY_FORMATS, writeHistory } = await import("../../lib/audit/mod.ts");
  type HistoryFormat = (typeof HISTORY_FORMATS)[number];
  for (const o of ["base", "head", "full-report", "view-url"]) {
    if (values[o] !== undefined) {
      console.error(`${p}: --${o} does not apply to --history (see --help)`);
      return EXIT.input;
    }
  }
  const format = (values.format === "text" ? "json" : values.format) as HistoryFormat;
  if (!HISTORY_FORMATS.includes(format)) {
    console.error(
      `${p}: --format must be one of ${
        HISTORY_FORMATS.join(", ")
      } with --history, got '${values.format}'`,
    );
    return EXIT.input;
  }
  const output = values.output as string | undefined;
  if (format !== "json" && output === undefined) {
    console.error(`${p}: --format ${format} writes a directory: give it with --output`);
    return EXIT.input;
  }
  let commits: number | undefined;
  if (values.commits !== undefined) {
    commits = Number(values.commits);
    if (!Number.isInteger(commits) || commits < 1) {
      console.error(`${p}: --commits must be a positive integer, got '${values.commits}'`);
      return EXIT.input;
    }
  }
  const min = Number(values["min-callees"]);
  const maxTargets = Number(values["max-targets"]);
  if (
    !Number.isInteger(min) || min < REIMPLEMENTATION_MIN_CALLEES || !Number.isInteger(maxTargets) ||
    maxTargets < 0
  ) {
    console.error(`${p}: bad --min-callees or --max-targets (see --help)`);
    return EXIT.input;
  }
  const range = String(values.history);
  const t0 = performance.now();
  let last = 0;
  let found = 0;
  let h;
  try {
    h = await auditHistory(repo, {
      range: range.includes("..") ? range : `..${range}`,
      commits,
      minCallees: min,
      maxTargets,
      include: values.include as string[] | undefined,
      exclude: values.exclude as string[] | undefined,
      onCommit(done, total, commit, r) {
        found += r.findings.length;
        const now = performance.now();
        if (now - last >= 1000 || done === total) {
          last = now;
          console.error(
            `${p}: [${done}/${total}] ${commit.slice(0, 12)} — ${found} finding(s) so far, ${
              ((now - t0) / 1000).toFixed(0)
            } s`,
          );
        }
      },
    });
  } catch (e) {
    if (e instanceof AuditError) {
      console.error(`${p}: ${e.message}`);
      return EXIT.input;
    }
    throw e;
  }
  const provenance = `reporeuse audit --history ${range} of ${repo}` +
    (commits ? ` (newest ${commits})` : "") + `, ${new Date().toISOString()}`;
  if (output === undefined) {
    const { historyToJson } = await import("../../lib/audit/mod.ts");
    console.log(JSON.stringify(historyToJson(h, provenance)));
  } else await writeHistory(h, format, output, provenance);
  return EXIT.clean;
}
