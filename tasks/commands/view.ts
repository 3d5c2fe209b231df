/**
 * `deno task reporeuse view <scored-dir | corpus-dir | run-log | audit.json> --out <site-dir>` —
 * a static site of what an agent read, reused and rebuilt (lib/report/view). Only wiring: the
 * argument's kind → `viewCorpus` / `viewLog` / `viewAudit` → one line saying what was written.
 *
 * @module
 */
import { parseOptions, workerCount } from "./_args.ts";
import { type Format, FORMATS, LogFormatError } from "../../lib/logs/mod.ts";
import { LayoutError } from "../../lib/layout/mod.ts";
import { readBounded } from "../../lib/util/mod.ts";

/** One-line summary. */
export const summary =
  "a static site: each turn's code with what the agent saw, reused and rebuilt";

/** Full help text. */
export const help = `Usage:
  deno task reporeuse view <corpus-dir> --out <site-dir> [--no-cache] [--workers N]
  deno task reporeuse view <scored-dir> [--corpus <corpus-dir>] --out <site-dir>
  deno task reporeuse view <run-log> [--root <workspace-dir>] [--cwd <path>] [--format NAME] --out <site-dir>
  deno task reporeuse view <audit.json> [--repo <repo-dir>] --out <site-dir>

Writes a static site that opens from disk (open <site-dir>/index.html; no server, no network):

  corpus or scored directory — an index of configurations and a sortable, filterable table of
    every turn's metrics; a page per configuration with a strip of turns per chain; a page per
    turn: the workspace tree W_{t-1} with each file's share of lines seen, the code with the lines
    shown to the model marked by the events that showed them, targets framed by outcome (reused,
    read but not reused, never read, re-implemented), the events in order, the submission beside
    the reference solution, and each re-implementation as F beside G with the 80 % rule's
    arithmetic. A corpus is scored first (cached: instant when unchanged); a scored directory
    (score --out) is shown as scored, with its code when --corpus names its corpus.
  run log — one log (any format \`reads\` takes: mini-SWE-agent, SWE-agent, OpenCode, Claude Code
    and Codex sessions, OpenHands, Gemini CLI, Aider) read against its workspace (--root).
  audit.json — the findings of \`audit --format json\`, each F beside G with its evidence, at
    anchors #finding-<F>--<G> a pull-request comment can link to (code read from --repo, default
    the report's repository).

Options:
  --out <dir>       the site directory (required; written all or nothing; other files in it kept)
  --corpus <dir>    with a scored directory: the corpus it was scored from (for the code)
  --root <dir>      with a log: the workspace as it was when the turn began
  --cwd <path>      with a log: the harness's working directory (default: what the log says)
  --format NAME     with a log: read as this format (one of ${FORMATS.join(", ")})
  --repo <dir>      with an audit report: the repository
  --no-cache        score a corpus without the cache
  --workers <n>     worker threads (default: number of cores)
  -h, --help        this text

Exit codes: 0 written, 1 unusable input or output, 2 usage error.`;

type Kind = "corpus" | "scored" | "audit" | "log";

/** What the argument is: a scored directory, a corpus, an audit report or a run log. */
async function kindOf(path: string): Promise<Kind> {
  const st = await Deno.stat(path);
  if (st.isDirectory) {
    const has = async (name: string) =>
      // what cannot be stat'ed is absent
      (await Deno.stat(`${path}/${name}`).catch(() => null)) !== null;
    if (await has("turns.parquet") || await has("turns.csv")) return "scored";
    if (await has("tasks") || await has("runs")) return "corpus";
    return "log"; // a session directory (OpenHands, Claude Code, Codex)
  }
  if (path.endsWith(".json") && st.size < 64 * 2 ** 20) {
    try {
      const v = JSON.parse(new TextDecoder().decode(readBounded(path, 64 * 2 ** 20)));
      if (v && typeof v === "object" && Array.isArray(v.findings) && "base" in v && "head" in v) {
        return "audit";
      }
    } catch {
      // not JSON: a log of another shape
    }
  }
  return "log";
}

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const p = "reporeuse view";
  const parsed = parseOptions(p, {
    args,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      corpus: { type: "string" },
      root: { type: "string" },
      cwd: { type: "string" },
      format: { type: "string" },
      repo: { type: "string" },
      "no-cache": { type: "boolean" },
      workers: { type: "string" },
    },
  }, " (see --help)");
  if (!parsed) return 2;
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(
      `${p}: expected exactly one <corpus-dir | scored-dir | run-log | audit.json> (see --help)`,
    );
    return 2;
  }
  if (!v.out) {
    console.error(`${p}: --out <site-dir> is required (see --help)`);
    return 2;
  }
  let workers: number | undefined;
  if (v.workers !== undefined) {
    workers = workerCount(p, v.workers);
    if (workers === undefined) {
      console.error(`${p}: --workers wants a whole number ≥ 0, got '${v.workers}'`);
      return 2;
    }
  }
  if (v.format !== undefined && !(FORMATS as readonly string[]).includes(v.format)) {
    console.error(`${p}: --format ${v.format}: one of ${FORMATS.join(", ")}`);
    return 2;
  }
  const input = positionals[0];
  let kind: Kind;
  try {
    kind = await kindOf(input);
  } catch (e) {
    console.error(
      `${p}: ${input}: ${
        e instanceof Deno.errors.NotFound ? "no such file or directory" : (e as Error).message
      }`,
    );
    return 1;
  }
  for (
    const [opt, dir] of [["--root", v.root], ["--corpus", v.corpus], ["--repo", v.repo]] as const
  ) {
    // what cannot be stat'ed is no directory: the error below names it
    if (dir !== undefined && !(await Deno.stat(dir).catch(() => null))?.isDirectory) {
      console.error(`${p}: ${opt} ${dir}: not a directory`);
      return 2;
    }
  }
  const misplaced =
    (kind === "log" ? [] : [["--root", v.root], ["--cwd", v.cwd], ["--format", v.format]])
      .concat(kind === "scored" ? [] : [["--corpus", v.corpus]])
      .concat(kind === "audit" ? [] : [["--repo", v.repo]])
      .filter(([, x]) => x !== undefined);
  if (misplaced.length) {
    console.error(
      `${p}: ${misplaced.map(([o]) => o).join(", ")} do(es) not apply to ${
        kind === "log" ? "a run log" : `a ${kind}`
      } (see --help)`,
    );
    return 2;
  }
  const view = await import("../../lib/report/view/mod.ts");
  try {
    const t0 = performance.now();
    const s = kind === "corpus"
      ? await view.viewCorpus({
        corpus: input,
        out: v.out,
        cache: !v["no-cache"],
        workers,
        progress: Deno.stderr.isTerminal(),
      })
      : kind === "scored"
      ? await view.viewCorpus({
        scored: input,
        corpus: v.corpus,
        out: v.out,
        workers,
        progress: Deno.stderr.isTerminal(),
      })
      : kind === "audit"
      ? await view.viewAudit({ report: input, repo: v.repo, out: v.out })
      : await view.viewLog({
        log: input,
        root: v.root,
        cwd: v.cwd,
        format: v.format as Format | undefined,
        out: v.out,
        workers,
      });
    const mb = (s.bytes / 2 ** 20).toFixed(1);
    console.error(
      `view: ${s.pages} page(s), ${s.files} stored file(s), ${mb} MB in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s → ${v.out}/index.html`,
    );
    console.log(`${v.out.replace(/\/+$/, "")}/index.html`);
    return 0;
  } catch (e) {
    if (e instanceof LogFormatError || e instanceof LayoutError) {
      console.error(`${p}: ${e.message}`);
      return 1;
    }
    if (e instanceof Error && !(e instanceof TypeError) && !(e instanceof RangeError)) {
      console.error(`${p}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
