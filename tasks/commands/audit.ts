/**
 * `deno task reporeuse audit <repo-dir> [--base REV] [--head REV] [--format text|json|md|sarif]
 * [--fail-on reimplementation|none] [--min-callees N]` — the reuse audit of a git change
 * (lib/audit). Only wiring: options → `auditReport` → `formatReport` → exit status.
 * @module
 */
import { guarded, parseOptions } from "./_args.ts";
// the polars-free modules of lib/audit (mod.ts also loads the frames)
import { AuditError } from "../../lib/audit/git.ts";
import { auditReport } from "../../lib/audit/report.ts";
import {
  exitStatus,
  FAIL_ON,
  type FailOn,
  type Format,
  formatReport,
  FORMATS,
} from "../../lib/audit/format.ts";
import { REIMPLEMENTATION_MIN_CALLEES } from "../../lib/metrics/mod.ts";

/** One-line summary for `reporeuse --help`. */
export const summary = "re-implementations and missed reuse in a git change (CI check)";

/** Full help text. */
export const help =
  `Usage: deno task reporeuse audit <repo-dir> [--base REV] [--head REV] [--format text|json|md|sarif]
                                [--fail-on reimplementation|none] [--min-callees N]

Audits the Python functions a change adds or modifies (moved or renamed code is matched, not
reported) against the code that already exists, with the RepoReuse paper's rule (§3.3.2). For
each changed function F it reports:
  reuses            existing functions F calls (resolved calls, not name matching);
  re-implements     an existing function G (present before and after the change) that F does not
                    call although F calls >= 80% of G's non-builtin callees (G calling >= N);
  structural clone  an existing G whose normalised syntax tree (identifiers and literals
                    abstracted) is nearly F's, with the similarity;
  could call        existing functions sharing F's callees, shape and name, ranked.

The repository is only read (git rev-parse, ls-tree, cat-file; the working tree from disk): its
working tree and index are never touched, nothing of it is written anywhere, and no configuration
of it can make git run a program (hardened git: docs/security.md). File names it cannot use
(absolute, '..', '.git', control characters, not UTF-8), files reached through a symbolic link to
a directory and .py files over 8 MiB are listed as problems, never read. Results are cached by
content hash ($REPOREUSE_CACHE_DIR, else $XDG_CACHE_HOME/reporeuse, else ~/.cache/reporeuse).

Options:
  --base REV        the revision before the change (default HEAD). A...B means the merge base of
                    A and B, and then --head defaults to B (e.g. --base origin/main...HEAD).
  --head REV        the revision after the change (default: the working tree, uncommitted and
                    untracked-but-not-ignored files included).
  --format F        text (default), json, md (a pull-request comment) or sarif (SARIF 2.1.0).
  --fail-on WHAT    reimplementation (default): exit 1 when a re-implementation is found;
                    none: exit 0 whatever is found.
  --min-callees N   G must call at least N distinct non-builtin functions (default and minimum
                    ${REIMPLEMENTATION_MIN_CALLEES}, the paper's; raise it to be stricter).
  -h, --help        this text

Exit status:
  0  clean (or --fail-on none)
  1  re-implementation found (only this: a CI gate may rely on it)
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
      "fail-on": { type: "string", default: "reimplementation" },
      "min-callees": { type: "string", default: String(REIMPLEMENTATION_MIN_CALLEES) },
    },
  }, " (see --help)");
  if (!parsed) return EXIT.input;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(`${p}: expected exactly one <repo-dir> (see --help)`);
    return EXIT.input;
  }
  const format = values.format as Format;
  if (!FORMATS.includes(format)) {
    console.error(`${p}: --format must be one of ${FORMATS.join(", ")}, got '${values.format}'`);
    return EXIT.input;
  }
  const failOn = values["fail-on"] as FailOn;
  if (!FAIL_ON.includes(failOn)) {
    console.error(`${p}: --fail-on must be one of ${FAIL_ON.join(", ")}, got '${failOn}'`);
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
  let report;
  try {
    report = await auditReport({
      repo: positionals[0],
      base: values.base,
      head: values.head,
      minCallees: min,
    });
  } catch (e) {
    if (e instanceof AuditError) {
      console.error(`${p}: ${e.message}`);
      return EXIT.input;
    }
    throw e;
  }
  console.log(formatReport(report, format));
  return exitStatus(report, failOn);
}
