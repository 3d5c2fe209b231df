/**
 * Same outputs as another revision (`deno task verify identical --against REV`): REV is checked
 * out in a temporary git worktree; one corpus (simulated with this tree, or given) is scored and
 * reproduced (tables, figures, frames) by both trees — this tree through the library, REV through
 * its own CLI (`tasks/cli.ts score`, `tasks/reproduce.ts --runs`), each with an empty cache — and
 * every output file is compared (lib/verify/compare.ts).
 *
 * @module
 */
import { MANIFEST, scoreCorpus, writeScored } from "../frames/mod.ts";
import { reproduce } from "../report/mod.ts";
import { type Scale, simulateCorpus } from "../simulate/mod.ts";
import { runGit, runGitSync, withScratch } from "../util/mod.ts";
import { compareDirs, type FileComparison, formatFile, sameFile } from "./compare.ts";

/** Options of {@link verifyIdentical}. */
export interface VerifyIdenticalOptions {
  /** The revision to compare with (anything `git rev-parse` takes). */
  against: string;
  /** Seed and scale of the simulated corpus (default 1, "paper"); ignored with `corpus`. */
  seed?: number;
  scale?: Scale;
  /** An existing corpus (docs/run-logs.md layout) to use instead of simulating one. */
  corpus?: string;
  /** Bootstrap replicates and seed of reproduce (default 1000, reproduce's default seed). */
  B?: number;
  bootstrapSeed?: number;
  /** The project's git repository (default: the one holding this file). */
  repo?: string;
  log?: (message: string) => void;
}

/** What {@link verifyIdentical} found. */
export interface IdenticalResult {
  /** The revision as given, and its commit. */
  against: string;
  commit: string;
  /** Labels of the two sides: A = the revision, B = this tree. */
  labels: { a: string; b: string };
  /** What the corpus was (simulated seed/scale, or the directory given). */
  corpus: string;
  /** Every output file (frames/…, report/…), sorted. */
  files: FileComparison[];
  identical: boolean;
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Runs a command to the end; throws with the tail of its stderr when it fails. */
export async function runToEnd(
  what: string,
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; atCleanup?: AtCleanup } = {},
): Promise<string> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    env: { DENO_NO_UPDATE_CHECK: "1", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let done = false;
  opts.atCleanup?.(() => {
    if (!done) child.kill("SIGTERM");
  });
  const out = await child.output();
  done = true;
  if (!out.success) {
    const err = decode(out.stderr).trim().split("\n").slice(-15).join("\n");
    throw new Error(`${what} failed (exit ${out.code}):\n${err}`);
  }
  return decode(out.stdout);
}

/** The project root (holding deno.json) of this file. */
const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** Registers a clean-up step (lib/util/scratch.ts `withScratch`). */
export type AtCleanup = (fn: () => void) => void;

/**
 * Checks `against` out in a new worktree at `tree` (removed at clean-up); returns its commit.
 * `repo` defaults to this project.
 */
export async function checkoutWorktree(
  repo: string | undefined,
  against: string,
  tree: string,
  atCleanup: AtCleanup,
): Promise<string> {
  repo ??= ROOT;
  const commit = decode(
    await runGit(repo, [
      "rev-parse",
      "--verify",
      "--quiet",
      "--end-of-options",
      `${against}^{commit}`,
    ])
      .catch(() => {
        throw new Error(`${against}: not a commit of ${repo}`);
      }),
  ).trim();
  await runGit(repo, ["worktree", "add", "--detach", tree, commit]).catch((e) => {
    throw new Error(`git worktree add failed: ${e.message}`);
  });
  atCleanup(() => {
    runGitSync(repo, ["worktree", "remove", "--force", tree]);
    runGitSync(repo, ["worktree", "prune"]);
  });
  return commit;
}

/** This tree's outputs through the library: `frames/` (scoreCorpus) and `report/` (reproduce). */
async function buildHere(corpus: string, out: string, cacheDir: string, B: number, boot?: number) {
  await writeScored(await scoreCorpus(corpus, { cacheDir }), `${out}/frames`);
  await reproduce({ runs: corpus, out: `${out}/report`, cache: false, B, bootstrapSeed: boot });
}

/** The same outputs from the revision checked out at `tree`, through its own CLI. */
async function buildThere(
  tree: string,
  corpus: string,
  out: string,
  o: {
    cacheDir: string;
    B: number;
    boot?: number;
    atCleanup: AtCleanup;
    step: (m: string) => void;
  },
) {
  const deno = (what: string, args: string[]) =>
    runToEnd(what, Deno.execPath(), ["run", "-A", ...args], {
      cwd: tree,
      env: { REPOREUSE_CACHE_DIR: o.cacheDir },
      atCleanup: o.atCleanup,
    });
  o.step("the revision: scoring");
  await deno("score", ["tasks/cli.ts", "score", corpus, "--out", `${out}/frames`]);
  o.step("the revision: reproducing tables and figures");
  const boot = o.boot === undefined ? [] : ["--boot-seed", `${o.boot}`];
  await deno("reproduce", [
    "tasks/reproduce.ts",
    ...["--runs", corpus, "--out", `${out}/report`, "--no-cache", "--quiet", "--B", `${o.B}`],
    ...boot,
  ]);
}

/**
 * Builds both sides' outputs in a temporary directory (removed afterwards, with the worktree, also
 * on Ctrl-C) and compares them file by file.
 */
export function verifyIdentical(opts: VerifyIdenticalOptions): Promise<IdenticalResult> {
  const log = opts.log ?? (() => {});
  const B = opts.B ?? 1000, boot = opts.bootstrapSeed;
  return withScratch("reporeuse-verify-identical-", async (root, atCleanup) => {
    const t0 = performance.now();
    const step = (m: string) => log(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${m}`);
    const tree = `${root}/rev`;
    step(`checking out ${opts.against} in a temporary worktree`);
    const commit = await checkoutWorktree(opts.repo ?? ROOT, opts.against, tree, atCleanup);
    const installed = runToEnd("deno install in the worktree", Deno.execPath(), ["install"], {
      cwd: tree,
      atCleanup,
    });
    let corpus: string, described: string;
    if (opts.corpus) {
      corpus = described = await Deno.realPath(opts.corpus);
    } else {
      const seed = opts.seed ?? 1, scale = opts.scale ?? "paper";
      corpus = `${root}/corpus`;
      described = `simulated, seed ${seed}, scale ${scale} (this tree's simulator)`;
      step(`simulating the corpus (seed ${seed}, scale ${scale})`);
      await simulateCorpus(corpus, { seed, scale });
    }
    await installed;
    const mine = `${root}/out/this`, theirs = `${root}/out/rev`;
    step("this tree: scoring, reproducing tables and figures");
    await buildHere(corpus, mine, `${root}/cache-this`, B, boot);
    await buildThere(tree, corpus, theirs, {
      cacheDir: `${root}/cache-rev`,
      B,
      boot,
      atCleanup,
      step,
    })
      .catch((e) => {
        throw new Error(`${opts.against}: ${(e as Error).message}`);
      });
    step("comparing");
    // the manifest `score --out` writes names the scorer's code hash and when it ran: it differs
    // between any two revisions by design, and says nothing about the results
    for (const side of [theirs, mine]) {
      await Deno.remove(`${side}/frames/${MANIFEST}`).catch(() => {}); // absent on older sides
    }
    const files = await compareDirs(theirs, mine);
    return {
      against: opts.against,
      commit,
      labels: { a: opts.against, b: "this tree" },
      corpus: described,
      files,
      identical: files.every(sameFile),
    };
  });
}

/** The result as lines: one or more per file, then a summary. */
export function formatComparison(r: IdenticalResult, opts: { maxRows?: number } = {}): string[] {
  const lines = [
    `comparing ${r.labels.a} (${r.commit.slice(0, 12)}) with ${r.labels.b}; corpus: ${r.corpus}`,
  ];
  for (const f of r.files) lines.push(...formatFile(f, r.labels, opts.maxRows));
  const differ = r.files.filter((f) => !sameFile(f)).length;
  lines.push(
    differ
      ? `DIFFERENT: ${differ} of ${r.files.length} files differ`
      : `IDENTICAL: all ${r.files.length} files`,
  );
  return lines;
}
