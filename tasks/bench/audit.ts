/**
 * Benchmark of `reporeuse audit` (the reuse audit of a git change) on a large package: Debian's
 * python3-sympy 1.11 copied into a fresh git repository, one commit of sympy, then a commit
 * editing one module (a new function added, one changed). Timed as whole processes
 * (`deno run -A tasks/cli.ts audit …`):
 *
 * - cold: fresh cache directory (every file parsed, both sides resolved and shaped);
 * - warm: the same audit again (goal ≤ 2 s);
 * - history: `auditHistory` over 5 further one-file commits, per commit, in one process whose
 *   cache already holds the first commit (each new tree is resolved once);
 * - generated: a commit adding one generated module of 60,000 small functions (≈ 7.5 MiB, under
 *   the 8 MiB limit above which a file is listed and skipped; each calling two sympy helpers),
 *   audited cold and warm — the size of a generated table that once took 25 minutes (time was
 *   quadratic in a module's functions). The bench fails if the module is not audited whole.
 *
 * Baseline beside it: `git diff --stat` of the same commit (the floor of reading a change).
 * Run with `deno task bench audit` (or `deno run -A tasks/bench/audit.ts [package-dir]`).
 * `REPOREUSE_BENCH_AUDIT_DIR=<dir>` keeps the repository and cache there (removed otherwise).
 * @module
 */
import { auditHistory } from "../../lib/audit/mod.ts";
import { exists, removeIfPresent, runGit } from "../../lib/util/mod.ts";
import { MAX_SOURCE_BYTES } from "../../lib/python/mod.ts";

const pkg = Deno.args[0] ?? "/usr/lib/python3/dist-packages/sympy";
if (!(await exists(pkg))) {
  console.error(`bench audit: ${pkg} missing (install Debian's python3-sympy)`);
  Deno.exit(1);
}
const cli = new URL("../cli.ts", import.meta.url).pathname;
const env = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "b@example.org",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "b@example.org",
};

async function run(cmd: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    env: { ...env, ...extraEnv },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const s = (performance.now() - t0) / 1000;
  if (out.code > 1) throw new Error(`${cmd.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return { s, stdout: new TextDecoder().decode(out.stdout) };
}

/** git through the project's hardened runner (lib/util/git.ts), as the audit runs it. */
async function git(repo: string, ...args: string[]) {
  const t0 = performance.now();
  const stdout = new TextDecoder().decode(await runGit(repo, args, { env }));
  return { s: (performance.now() - t0) / 1000, stdout };
}

const keep = Deno.env.get("REPOREUSE_BENCH_AUDIT_DIR");
const work = keep ?? await Deno.makeTempDir({ prefix: "reporeuse-bench-audit-" });
if (keep) await removeIfPresent(keep);
const repo = `${work}/repo`;
const cacheDir = `${work}/cache`;
try {
  await Deno.mkdir(repo, { recursive: true });
  await git(repo, "init", "-q");
  await run(["cp", "-r", pkg, `${repo}/sympy`], repo);
  await run(["find", ".", "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+"], repo);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "sympy");
  const files = (await git(repo, "ls-files", "sympy/*.py")).stdout.split("\n").filter(
    (f) => f && !f.includes("/tests/"),
  );
  console.log(`sympy in git: ${files.length} non-test .py files (${repo})`);
  const edit = async (i: number) => {
    const f = `${repo}/${files[(i * 97) % files.length]}`;
    const text = await Deno.readTextFile(f);
    await Deno.writeTextFile(
      f,
      text + `\n\ndef _bench_added_${i}(expr, n=2):\n    return [expr for _ in range(n)]\n`,
    );
    await git(repo, "commit", "-q", "-am", `edit ${i}`);
  };
  await edit(0);
  const args = [
    "deno",
    "run",
    "-A",
    cli,
    "audit",
    repo,
    "--base",
    "HEAD~1",
    "--head",
    "HEAD",
    "--format",
    "json",
  ];
  const cold = await run(args, repo, { REPOREUSE_CACHE_DIR: cacheDir });
  const report = JSON.parse(cold.stdout);
  const warm = [];
  for (let i = 0; i < 3; i++) {
    warm.push((await run(args, repo, { REPOREUSE_CACHE_DIR: cacheDir })).s);
  }
  const diff = await git(
    repo,
    "diff",
    "--stat",
    "--no-ext-diff",
    "--no-textconv",
    "HEAD~1",
    "HEAD",
  );
  const best = Math.min(...warm);
  console.log(
    `one commit (${report.changed.length} function(s) changed, ${report.findings.length} finding(s)):`,
  );
  console.log(`  cold  ${cold.s.toFixed(2)} s (fresh cache)`);
  console.log(
    `  warm  ${best.toFixed(2)} s best of 3 (${
      warm.map((x) => x.toFixed(2)).join(", ")
    }) — goal ≤ 2 s: ${best <= 2 ? "met" : "NOT met"}`,
  );
  console.log(`  baseline: git diff --stat ${diff.s.toFixed(2)} s`);
  for (let i = 1; i <= 5; i++) await edit(i);
  Deno.env.set("REPOREUSE_CACHE_DIR", cacheDir);
  const t0 = performance.now();
  const h = await auditHistory(repo, { commits: 6, cacheDir });
  const total = (performance.now() - t0) / 1000;
  const secs = h.commits.getColumn("seconds").toArray() as number[];
  console.log(
    `history of 6 commits in one process: ${total.toFixed(1)} s; per commit ${
      secs.map((x) => x.toFixed(1)).join(", ")
    } s (first: cached tree; others: one new tree each)`,
  );
  // a generated module of 60,000 functions in one commit
  const lines = ["from sympy.core.sympify import sympify\nfrom sympy.printing.str import sstr\n\n"];
  for (let i = 0; i < 60000; i++) {
    const n = String(i).padStart(5, "0");
    lines.push(
      `def h_${n}(req, value):\n    result = sympify(value)\n    sstr(result, order=${i})\n    return {'id': ${i}, 'v': result, 'r': req}\n\n`,
    );
  }
  const table = new TextEncoder().encode(lines.join(""));
  // above the limit the module would be listed and skipped, and nothing measured (as it once was)
  if (table.length > MAX_SOURCE_BYTES) {
    throw new Error(`generated module of ${table.length} bytes is over MAX_SOURCE_BYTES`);
  }
  await Deno.writeFile(`${repo}/sympy/generated_table.py`, table);
  await run(["git", "add", "-A"], repo);
  await run(["git", "commit", "-q", "-m", "generated table"], repo);
  const big = await run(args, repo, { REPOREUSE_CACHE_DIR: cacheDir });
  const bigWarm = await run(args, repo, { REPOREUSE_CACHE_DIR: cacheDir });
  const bigReport = JSON.parse(big.stdout);
  if (bigReport.changed.length < 60000) {
    throw new Error(
      `generated module: ${bigReport.changed.length} changed functions audited, not 60,000`,
    );
  }
  const bigDiff = await run(["git", "diff", "--stat", "HEAD~1", "HEAD"], repo);
  console.log(
    `generated module (60,000 functions, ${bigReport.changed.length} changed, ${bigReport.findings.length} finding(s)): cold ${
      big.s.toFixed(1)
    } s, warm ${bigWarm.s.toFixed(1)} s; baseline git diff --stat ${bigDiff.s.toFixed(2)} s`,
  );
} finally {
  // best effort: the bench's scratch directory
  if (!keep) await Deno.remove(work, { recursive: true }).catch(() => {});
}
