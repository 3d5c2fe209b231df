/**
 * Scoring a corpus (docs/run-logs.md) into plain rows, per (configuration, chain, turn):
 *
 * - W_{t-1} = W0 + the agent's own submissions of turns < t (never reference solutions);
 * - targets from the reference solution of turn t resolved against W0 + the reference modules of
 *   earlier turns (lib/metrics/targets.ts);
 * - reuse from the submission resolved against W_{t-1}; recall from the turn's log read against
 *   W_{t-1}; tests from tests.json and the results file; re-implementation and dup_chain.
 *
 * W0 is analysed once per package (`analyzePackage` caches it); Python files are summarised and
 * logs parsed in a pool of workers; each turn's rows are cached under the SHA-256 of all its
 * inputs (log, submission, earlier submissions, references, tests, results, meta, W0, scorer
 * code), and each (configuration, chain) under the hash of its turns' keys, so unchanged runs are
 * not re-scored; log hashes are remembered by file identity (hashes.ts) so that a warm run need
 * not re-read the logs. Submitted code is parsed, never executed.
 *
 * @module
 */
import { join, relative } from "node:path";
import {
  type ChainSpec,
  type ConfigSpec,
  type FoundTurn,
  LayoutError,
  loadRunContents,
  type Problem,
  readCorpus,
} from "../layout/mod.ts";
import { messageOf } from "../layout/read.ts";
import { countLines, type ReadsResult } from "../logs/mod.ts";
import { passRate, resolved, reuse_s } from "../metrics/mod.ts";
import { extractTargets, scoreTargets, type Target } from "../metrics/targets.ts";
import { analyzePackage, moduleName, type ModuleSummary, SUMMARY_VERSION } from "../python/mod.ts";
import { summaryKey } from "../python/analyze.ts";
import type { Definition } from "../python/types.ts";
import { Cache, cacheRoot, sha256 } from "../util/cache.ts";
import { HashMemo } from "./hashes.ts";
import { JobPool } from "./jobs.ts";
import { progress } from "../util/progress.ts";
import type { ErrorRow, EventRow, TargetRow, TestRow, TurnRow } from "./schema.ts";

/** Bump when the meaning of scored rows changes (the code hash below catches the rest). */
export const SCORER_VERSION = 1;

/** Options of {@link scoreRows} and `scoreCorpus`. */
export interface ScoreOptions {
  /** Use the content-hash cache (default true). */
  cache?: boolean;
  /** Worker threads for logs and Python summaries (default: navigator.hardwareConcurrency; 0 = inline). */
  workers?: number;
  /**
   * Report progress (default false): `true` → on stderr (a live counter with ETA on a terminal, a
   * line every few seconds or 10% elsewhere; lib/util/progress.ts); a function → called with
   * (done, total) after each scored turn.
   */
  progress?: boolean | ((done: number, total: number) => void);
  /** Cache root (default: lib/util/cache.ts `cacheRoot()`). */
  cacheDir?: string;
}

/** Everything scored, as plain rows. */
export interface ScoredRows {
  turns: TurnRow[];
  targets: TargetRow[];
  events: EventRow[];
  tests: TestRow[];
  errors: ErrorRow[];
  configs: ConfigSpec[];
  /** Run turns found (scored + those with errors). */
  found: number;
}

/** A submission of the agent, carried into the workspace of later turns. */
interface Submitted {
  path: string;
  module: string;
  text: string;
  hash: string;
  summary?: Promise<ModuleSummary>;
}

/** What one turn scores to (cached as a whole). */
interface TurnResult {
  turn: Omit<TurnRow, "dup_chain">;
  targets: TargetRow[];
  events: EventRow[];
  tests: TestRow[];
}

let codeHash: Promise<string> | undefined;

/** SHA-256 of the scorer's own code and of everything it depends on (lib/*), memoised. */
export function scorerCodeHash(): Promise<string> {
  codeHash ??= (async () => {
    const root = new URL("../", import.meta.url).pathname;
    const parts: string[] = [`v${SCORER_VERSION}`];
    for (const area of ["python", "logs", "metrics", "layout", "frames", "util"]) {
      const files: string[] = [];
      const walk = async (dir: string) => {
        try {
          for await (const e of Deno.readDir(dir)) {
            if (e.isDirectory) await walk(join(dir, e.name));
            else if (e.name.endsWith(".ts") || e.name.endsWith(".scm")) {
              files.push(join(dir, e.name));
            }
          }
        } catch { /* area absent */ }
      };
      await walk(join(root, area));
      for (const f of files.sort()) {
        parts.push(f.slice(root.length), sha256(await Deno.readFile(f)));
      }
    }
    return sha256(parts.join("\n"));
  })();
  return codeHash;
}

const SKIP_DIRS = new Set([".git", "__pycache__", "node_modules", ".mypy_cache", ".pytest_cache"]);

/** Content fingerprint of a directory tree (W0): paths and SHA-256 of every file. */
async function treeHash(root: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory) {
        if (!SKIP_DIRS.has(e.name)) await walk(p);
      } else if (e.isFile) parts.push(p.slice(root.length + 1), sha256(await Deno.readFile(p)));
    }
  };
  await walk(root);
  return sha256(parts.join("\n"));
}

function memo<K, V>(f: (k: K) => Promise<V>): (k: K) => Promise<V> {
  const m = new Map<K, Promise<V>>();
  return (k) => {
    let v = m.get(k);
    if (!v) m.set(k, v = f(k));
    return v;
  };
}

function readOptional(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return Deno.readTextFileSync(path); // small files: a sync read avoids the async op overhead
  } catch {
    return undefined;
  }
}

/** Path of a file relative to the package directory (what lib/python calls `file`). */
function packageFile(pkg: string, path: string): string {
  return relative(pkg, path).replaceAll("\\", "/");
}

/** Scores a corpus into plain rows (the frames of `scoreCorpus` are built from these). */
export async function scoreRows(dir: string, opts: ScoreOptions = {}): Promise<ScoredRows> {
  const { corpus, problems } = await readCorpus(dir);
  const rel = (p: string) => {
    const r = relative(corpus.dir, p);
    return r.startsWith("..") ? p : r;
  };
  const useCache = opts.cache ?? true;
  const turnCache = new Cache("scored-turn", SCORER_VERSION, opts.cacheDir);
  // log hashes remembered by file identity (see hashes.ts): a warm run need not re-read the logs
  const logHashes = new HashMemo(
    useCache
      ? `${opts.cacheDir ?? cacheRoot()}/scored-hashes-v1/${sha256(corpus.dir)}.json`
      : undefined,
  );
  const code = await scorerCodeHash();
  const pool = new JobPool(opts.workers ?? navigator.hardwareConcurrency ?? 2);

  const errors: ErrorRow[] = [];
  const attached = new Set<Problem>();
  const errorOf = (run: FoundTurn, p: { path: string; message: string }) =>
    errors.push({
      path: p.path,
      chain: run.chain,
      turn: run.turn,
      config: run.config,
      message: p.message,
    });
  for (const run of corpus.runs) {
    for (const p of run.blocked) {
      attached.add(p);
      errorOf(run, p);
    }
  }
  for (const p of problems) {
    if (attached.has(p)) continue;
    errors.push({
      path: p.path,
      chain: p.chain ?? null,
      turn: p.turn ?? null,
      config: p.config ?? null,
      message: p.message,
    });
  }

  const chains = new Map(corpus.chains.map((c) => [c.chain, c]));
  const configs = new Map(corpus.configs.map((c) => [c.id, c]));

  // --- shared, memoised inputs -------------------------------------------------------------
  const w0Hash = memo((workspace: string) => treeHash(workspace));
  const w0Project = memo((pkgDir: string) =>
    analyzePackage(pkgDir, {
      cache: useCache,
      workers: opts.workers,
      cacheDir: opts.cacheDir,
      name: moduleName(pkgDir.slice(pkgDir.lastIndexOf("/") + 1)),
    })
  );
  // Python summaries, cached by content in lib/python's own summary cache (shared with
  // analyzePackage), so that re-scoring after a change of the scorer does not re-parse; in memory
  // references are memoised for the run, submissions per (configuration, chain) group
  const summaryCache = new Cache("python-summary", SUMMARY_VERSION, opts.cacheDir);
  const encoder = new TextEncoder();
  const writes: Promise<void>[] = [];
  const summaryOf = async (source: string, file: string, module: string) => {
    const key = summaryKey(encoder.encode(source), file, module);
    if (useCache) {
      const hit = await summaryCache.get<ModuleSummary>(key);
      if (hit?.version === SUMMARY_VERSION && hit.module === module) return hit;
    }
    const summary = await pool.run({ type: "summarize", source, file, module });
    // written in the background (awaited before returning); a failed write costs a re-parse
    if (useCache) writes.push(summaryCache.set(key, summary).catch(() => {}));
    return summary;
  };
  const refText = memo((path: string) => Deno.readTextFile(path));
  const refSummary = memo(async (k: string) => {
    const [chainId, t] = k.split("\u0000");
    const chain = chains.get(chainId)!;
    const turn = chain.turns[Number(t) - 1];
    const pkgDir = join(chain.repo.workspace, chain.repo.package);
    return summaryOf(
      await refText(turn.solution),
      packageFile(pkgDir, join(chain.repo.workspace, turn.path)),
      turn.module,
    );
  });
  const turnTargets = memo(async (k: string): Promise<Target[]> => {
    const [chainId, t] = k.split("\u0000");
    const chain = chains.get(chainId)!;
    const n = Number(t);
    const w0 = await w0Project(join(chain.repo.workspace, chain.repo.package));
    const refs = await Promise.all(
      chain.turns.slice(0, n).map((x) => refSummary(`${chainId}\u0000${x.turn}`)),
    );
    const reference = w0.withModules(refs);
    const earlier = chain.turns.slice(0, n - 1).map((x) => x.module);
    return extractTargets(reference, chain.turns[n - 1].module, w0, earlier);
  });

  // --- per (config, chain) groups ----------------------------------------------------------
  const groups = new Map<string, FoundTurn[]>();
  for (const run of corpus.runs) {
    const k = `${run.config}\u0000${run.chain}`;
    const g = groups.get(k);
    if (g) g.push(run);
    else groups.set(k, [run]);
  }
  const results = new Map<FoundTurn, TurnResult>();
  const total = corpus.runs.filter((r) => r.blocked.length === 0).length;
  let done = 0;
  const onProgress = opts.progress;
  const reporter = onProgress === true ? progress(total, "scoring", { unit: "turns" }) : undefined;
  const tick = () => {
    done++;
    reporter?.tick();
    if (typeof onProgress === "function") onProgress(done, total);
  };

  /** A scorable turn with its inputs read and its cache key computed. */
  interface Keyed {
    run: FoundTurn;
    config: ConfigSpec;
    chain: ChainSpec;
    earlier: Submitted[];
    submitted?: Submitted;
    /** The log's bytes when they were read to hash them (else read when scoring). */
    logBytes?: Uint8Array;
    key: string;
  }

  const scoreGroup = async (runs: FoundTurn[]) => {
    runs.sort((a, b) => a.turn - b.turn);
    const config = configs.get(runs[0].config);
    const chain = chains.get(runs[0].chain);
    // phase 1: read every turn's inputs and compute its key (W_{t-1} needs only the files)
    const keyed: Keyed[] = [];
    const earlier: Submitted[] = [];
    for (const run of runs) {
      const text = readOptional(run.submission);
      const turn = chain?.turns[run.turn - 1];
      const submitted: Submitted | undefined = turn && text !== undefined
        ? { path: turn.path, module: turn.module, text, hash: sha256(text) }
        : undefined;
      if (run.blocked.length === 0 && config && chain) {
        try {
          keyed.push(await keyOf(run, config, chain, [...earlier], submitted));
        } catch (e) {
          failed(run, e);
          tick();
        }
      }
      if (submitted) earlier.push(submitted);
    }
    // phase 2: the whole group from one cache entry, else turn by turn
    const groupKey = sha256(`group\n${keyed.map((k) => k.key).join("\n")}`);
    if (useCache && keyed.length) {
      const hit = await turnCache.get<TurnResult[]>(groupKey);
      if (hit?.length === keyed.length) {
        keyed.forEach((k, i) => {
          results.set(k.run, hit[i]);
          tick();
        });
        return;
      }
    }
    let all = true;
    const group: TurnResult[] = [];
    for (const k of keyed) {
      try {
        const r = await scoreTurn(k);
        results.set(k.run, r);
        group.push(r);
      } catch (e) {
        failed(k.run, e);
        all = false;
      }
      tick();
    }
    if (useCache && all && keyed.length > 1) {
      await turnCache.set(groupKey, group);
    }
  };

  const failed = (run: FoundTurn, e: unknown) => {
    const path = e instanceof LayoutError ? e.path : rel(run.log ?? run.dir);
    errorOf(run, { path, message: messageOf(e) });
  };

  const keyOf = async (
    run: FoundTurn,
    config: ConfigSpec,
    chain: ChainSpec,
    earlier: Submitted[],
    submitted: Submitted | undefined,
  ): Promise<Keyed> => {
    const turn = chain.turns[run.turn - 1];
    if (!run.log) throw new LayoutError(rel(run.dir), "missing log");
    const log = logHashes.read(run.log);
    // the raw texts go into the key; they are parsed only when the turn is not in the cache
    const raw = (path: string | undefined) => {
      if (!path) return "";
      try {
        return Deno.readFileSync(path);
      } catch (e) {
        throw new LayoutError(rel(path), `unreadable (${(e as Error).message})`);
      }
    };
    const refs = await Promise.all(chain.turns.slice(0, run.turn).map((x) => refText(x.solution)));
    const key = sha256(JSON.stringify({
      code,
      keys: [config.harness, config.model, config.memory, chain.chain, run.turn],
      cwd: config.cwd ?? null,
      repo: [chain.repo.workspace, chain.repo.package, await w0Hash(chain.repo.workspace)],
      turns: chain.turns.slice(0, run.turn).map((x, i) => [x.module, x.path, sha256(refs[i])]),
      cases: turn.cases,
      earlier: earlier.map((e) => [e.path, e.hash]),
      submission: submitted?.hash ?? null,
      log: [relative(run.dir, run.log), log.digest],
      results: [run.results ? relative(run.dir, run.results) : null, sha256(raw(run.results))],
      meta: sha256(raw(run.meta)),
    }));
    return { run, config, chain, earlier, submitted, logBytes: log.bytes, key };
  };

  const scoreTurn = async (
    { run, config, chain, earlier, submitted, logBytes, key }: Keyed,
  ): Promise<TurnResult> => {
    if (useCache) {
      const hit = await turnCache.get<TurnResult>(key);
      if (hit) return hit;
    }
    const turn = chain.turns[run.turn - 1];
    const keys = {
      harness: config.harness,
      model: config.model,
      memory: config.memory,
      chain: chain.chain,
      turn: run.turn,
    };
    const contents = await loadRunContents(run, turn, rel);
    const pkgDir = join(chain.repo.workspace, chain.repo.package);
    const overlays: Record<string, string> = {};
    for (const e of earlier) overlays[e.path] = e.text;
    const readsP = pool.run({
      type: "log",
      text: new TextDecoder().decode(logBytes ?? Deno.readFileSync(run.log!)),
      file: rel(run.log!),
      cwd: config.cwd,
      workspace: chain.repo.workspace,
      overlays,
    });
    const [w0, targets] = await Promise.all([
      w0Project(pkgDir),
      turnTargets(`${chain.chain}\u0000${run.turn}`),
    ]);
    const summary = (e: Submitted) =>
      e.summary ??= summaryOf(
        e.text,
        packageFile(pkgDir, join(chain.repo.workspace, e.path)),
        e.module,
      );
    const agentModules = await Promise.all(
      [...earlier, ...(submitted ? [submitted] : [])].map(summary),
    );
    const agent = w0.withModules(agentModules);
    let reads: ReadsResult;
    try {
      reads = await readsP;
    } catch (e) {
      throw new LayoutError(rel(run.log!), messageOf(e));
    }
    const scores = scoreTargets(targets, {
      agent,
      w0,
      module: turn.module,
      submitted: submitted !== undefined,
      earlier: new Map(earlier.map((e) => [e.module, e.path])),
      w0Path: (def: Definition) => `${chain.repo.package}/${def.file}`,
      reads: reads.reads,
    });
    const repo = scores.filter((s) => s.kind === "repo");
    const self = scores.filter((s) => s.kind === "self");
    const rate = (xs: typeof scores, f: (s: (typeof scores)[number]) => boolean) =>
      xs.length ? xs.filter(f).length / xs.length : null;
    const passed = contents.cases.filter((c) => c.passed).length;
    const meta = { ...reads.meta, ...contents.meta };
    const turnRow: Omit<TurnRow, "dup_chain"> = {
      ...keys,
      n_repo: repo.length,
      n_self: self.length,
      reuse_repo: reuse_s(
        repo.map((s) => s.id),
        new Set(repo.filter((s) => s.reused).map((s) => s.id)),
      ),
      reuse_self: reuse_s(
        self.map((s) => s.id),
        new Set(self.filter((s) => s.reused).map((s) => s.id)),
      ),
      recall_repo: rate(repo, (s) => s.read),
      recall_self: rate(self, (s) => s.read),
      files: reads.files,
      lines: reads.lines,
      tests: contents.cases.length,
      passed,
      pass_rate: passRate(contents.cases),
      resolved: resolved(contents.cases),
      submitted: submitted !== undefined,
      reimplemented: scores.filter((s) => s.reimplemented).length,
      coverage: reads.coverage,
      cost: meta.cost ?? null,
      steps: meta.steps ?? null,
      seconds: meta.seconds ?? null,
    };
    const result: TurnResult = {
      turn: turnRow,
      targets: scores.map((s) => ({
        ...keys,
        target: s.id,
        kind: s.kind,
        implemented: s.implemented,
        read: s.read,
        reused: s.reused,
        reimplemented: s.reimplemented,
        reimplemented_by: s.reimplemented_by,
        file: s.body?.file ?? null,
        start: s.defStart,
        end: s.body?.end ?? null,
        body_lines: s.body ? s.body.end - s.body.start + 1 : null,
        body_start: s.body?.start ?? null,
        callees: s.callees,
        callee_overlap: s.callee_overlap,
      })),
      events: reads.events.map((ev, idx) => ({
        ...keys,
        idx,
        step: ev.step,
        kind: ev.kind,
        tool: ev.tool,
        command: ev.command,
        paths: ev.paths,
        lines_read: countLines(ev.lines),
        placed: ev.placed,
      })),
      tests: contents.cases.map((c) => ({ ...keys, case: c.id, passed: c.passed })),
    };
    if (useCache) await turnCache.set(key, result);
    return result;
  };

  try {
    const queue = [...groups.values()];
    const lanes = Math.max(4, pool.size * 4);
    await Promise.all(
      Array.from({ length: Math.min(lanes, queue.length) }, async () => {
        for (let g = queue.shift(); g; g = queue.shift()) await scoreGroup(g);
      }),
    );
  } finally {
    pool.close();
    reporter?.done();
  }
  await logHashes.save().catch(() => {}); // a memo that cannot be written only costs re-hashing
  await Promise.all(writes);

  // --- assemble, with dup_chain cumulative per (config, chain) ------------------------------
  const out: ScoredRows = {
    turns: [],
    targets: [],
    events: [],
    tests: [],
    errors,
    configs: corpus.configs,
    found: corpus.runs.length,
  };
  const byKeys = [...groups.values()].map((runs) => {
    const c = configs.get(runs[0].config);
    return { runs, key: c ? [c.harness, c.model, c.memory, runs[0].chain] : [] };
  }).sort((a, b) => {
    for (let i = 0; i < 4; i++) {
      if (a.key[i] !== b.key[i]) return (a.key[i] ?? "") < (b.key[i] ?? "") ? -1 : 1;
    }
    return 0;
  });
  const byId = <T>(f: (x: T) => string) => (a: T, b: T) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0);
  for (const { runs } of byKeys) {
    let dup = false;
    for (const run of [...runs].sort((a, b) => a.turn - b.turn)) {
      const r = results.get(run);
      if (!r) continue;
      dup ||= r.turn.reimplemented > 0;
      out.turns.push({ ...r.turn, dup_chain: dup });
      for (const x of [...r.targets].sort(byId((t) => t.target))) out.targets.push(x);
      for (const x of r.events) out.events.push(x);
      for (const x of [...r.tests].sort(byId((t) => t.case))) out.tests.push(x);
    }
  }
  return out;
}
