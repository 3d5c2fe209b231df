/**
 * Scoring a corpus (docs/run-logs.md) into plain rows, per (configuration, chain, turn):
 *
 * - W_{t-1} = W0 + the agent's own submissions of turns < t (never reference solutions);
 * - targets from the reference solution of turn t resolved against W0 + the reference modules of
 *   earlier turns (lib/metrics/targets.ts);
 * - reuse from the submission resolved against W_{t-1}; recall from the turn's log read against
 *   W_{t-1}; tests from tests.json and the results file; re-implementation and dup_chain.
 *
 * The rules themselves live in lib/metrics (`extractTargets`, `scoreTurn`, `dupChain`); this module
 * reads the corpus, groups its turns by (configuration, chain), looks turns up in the cache, runs
 * the expensive jobs in a worker pool and assembles the rows.
 *
 * W0 is analysed once per package (`analyzePackage` caches it); Python files are summarised and
 * logs parsed in a pool of workers; each turn's rows are cached under the SHA-256 of all its
 * inputs (log, submission, earlier submissions, references, tests, results, meta, W0, scorer
 * code), and each (configuration, chain) under the hash of its turns' keys, so unchanged runs are
 * not re-scored; log hashes are remembered by file identity (hashes.ts) so that a warm run need
 * not re-read the logs. Python summaries share lib/python's per-file cache entries (the same
 * files `graph` writes). A cache entry of the wrong shape is scored again; a cache that cannot be
 * written is reported once and scoring goes on without it. Submitted code is parsed, never
 * executed.
 *
 * @module
 */
import { join, relative } from "node:path";
import {
  type ChainSpec,
  type ConfigSpec,
  type Corpus,
  type DeferredRuns,
  type FoundTurn,
  LayoutError,
  loadRunContents,
  messageOf,
  type Problem,
  readCorpus,
} from "../layout/mod.ts";
import { logProblem, MAX_LOG_BYTES, type ReadsResult } from "../logs/mod.ts";
import {
  Cache,
  cacheFailed,
  cacheRoot,
  cacheWritable,
  progress,
  readBounded,
  sha256,
  sourceHash,
} from "../util/mod.ts";
import {
  dupChain,
  type ErrorRow,
  type EventRow,
  extractTargets,
  scoreTurn,
  type Target,
  type TargetRow,
  type TestRow,
  type TurnKeys,
  type TurnResult,
  type TurnRow,
} from "../metrics/mod.ts";
import {
  analyzePackage,
  cachedSummary,
  type Definition,
  moduleName,
  type ModuleSummary,
  type Project,
  storeSummary,
} from "../python/mod.ts";
import { HashMemos } from "./hashes.ts";
import { JobPool } from "./jobs.ts";
import { isTurnResult } from "./valid.ts";

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
  /**
   * Score only shard `index` of `count` (0-based): the (configuration, chain) groups whose
   * {@link shardOf} is `index`, with the error rows about them (rows about no chain go to shard 0).
   * The shards of one count together hold every row of an unsharded run, each once.
   */
  shard?: Shard;
}

/** One of `count` disjoint parts of a corpus (`score --shard index/count`). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The shard of a (configuration directory, chain) among `count`: FNV-1a (32 bits) of the UTF-8 of
 * `config + "\x1f" + chain`, modulo `count` — stable across runs, machines and versions, so a
 * chain's turns (and its C_dup statistics) stay together.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fnv1a32, shardOf } from "./score.ts";
 * assert.equal(fnv1a32(""), 0x811c9dc5); // the published test vectors
 * assert.equal(fnv1a32("a"), 0xe40c292c);
 * assert.equal(fnv1a32("foobar"), 0xbf9cf968);
 * assert.equal(shardOf("k1", "c1", 1), 0);
 * assert.equal(shardOf("k1", "c1", 4), fnv1a32("k1\x1fc1") % 4);
 * ```
 */
export function shardOf(config: string, chain: string, count: number): number {
  return fnv1a32(`${config}\x1f${chain}`) % count;
}

/** FNV-1a, 32 bits, of a string's UTF-8 bytes. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

/** Whether an error row belongs to a shard: by its (configuration, chain); else to shard 0. */
export function errorInShard(e: ErrorRow, shard: Shard | undefined): boolean {
  if (!shard) return true;
  return e.config !== null && e.chain !== null
    ? shardOf(e.config, e.chain, shard.count) === shard.index
    : shard.index === 0;
}

/** The rows of one (configuration, chain), in key order, `dup_chain` set: what is streamed. */
export interface GroupRows {
  turns: TurnRow[];
  targets: TargetRow[];
  events: EventRow[];
  tests: TestRow[];
}

/** What a streamed run returns besides its rows. */
export interface StreamedRun {
  errors: ErrorRow[];
  configs: ConfigSpec[];
  /** Run turns found (scored + those with errors), in the shard when there is one. */
  found: number;
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

/** SHA-256 of the scorer's own code and of everything it depends on (lib/*), memoised. */
export function scorerCodeHash(): Promise<string> {
  return sourceHash(["python", "logs", "metrics", "layout", "frames", "util"]);
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
    // a memory file gone or unreadable is absent; the turn is scored without it
    return undefined;
  }
}

/** Path of a file relative to the package directory (what lib/python calls `file`). */
function packageFile(pkg: string, path: string): string {
  return relative(pkg, path).replaceAll("\\", "/");
}

/**
 * One scoring pass over a corpus (its run turns are `FoundTurn`s): the corpus, the caches, the
 * worker pool and the memoised shared inputs.
 */
interface Scoring {
  corpus: Corpus;
  chains: Map<string, ChainSpec>;
  configs: Map<string, ConfigSpec>;
  /** Corpus-relative path for messages. */
  rel: (p: string) => string;
  useCache: boolean;
  cacheDir: string;
  turnCache: Cache;
  /** Log hashes remembered per configuration (hashes.ts), each let go when its groups are done. */
  logHashes: HashMemos;
  /** Groups not yet done per configuration: at 0, its log-hash memo is saved and let go. */
  groupsLeft: Map<string, number>;
  /** Problems of the corpus that a run turn read so far carries (its error rows name the turn). */
  attached: Set<Problem>;
  /** Run turns read so far. */
  found: number;
  code: string;
  pool: JobPool;
  errors: ErrorRow[];
  /** Background cache writes not yet settled (each leaves when done), awaited before returning. */
  writes: Set<Promise<unknown>>;
  w0Hash: (workspace: string) => Promise<string>;
  w0Project: (pkgDir: string) => Promise<Project>;
  summaryOf: (source: string, file: string, module: string) => Promise<ModuleSummary>;
  refText: (path: string) => Promise<string>;
  /** SHA-256 of a reference solution's text (a chain's keys hash every earlier one again). */
  refHash: (path: string) => Promise<string>;
  /** Targets of (chain, turn), keyed `chain \0 turn`. */
  turnTargets: (k: string) => Promise<Target[]>;
  /** Summary of the reference solution of (chain, turn), keyed `chain \0 turn`. */
  refSummary: (k: string) => Promise<ModuleSummary>;
  /** Counts a turn done (progress); `end()` ends the progress line. */
  tick: (() => void) & { end(): void };
}

/** A scorable turn with its inputs read and its cache key computed. */
interface Keyed {
  run: FoundTurn;
  config: ConfigSpec;
  chain: ChainSpec;
  keys: TurnKeys;
  earlier: Submitted[];
  submitted?: Submitted;
  /** The log's bytes when they were read to hash them (else read when scoring). */
  logBytes?: Uint8Array;
  key: string;
}

/** Scores a corpus into plain rows (the frames of `scoreCorpus` are built from these). */
export async function scoreRows(dir: string, opts: ScoreOptions = {}): Promise<ScoredRows> {
  const out: ScoredRows = {
    turns: [],
    targets: [],
    events: [],
    tests: [],
    errors: [],
    configs: [],
    found: 0,
  };
  const done = await scoreStream(dir, opts, (g) => {
    for (const k of ["turns", "targets", "events", "tests"] as const) {
      for (const r of g[k]) (out[k] as unknown[]).push(r);
    }
  });
  return { ...out, errors: done.errors, configs: done.configs, found: done.found };
}

/**
 * Scores a corpus (or one shard of it) and hands each (configuration, chain)'s rows to `emit` as
 * soon as every group before it in key order (harness, model, memory, chain) is done: the rows
 * arrive sorted, and no more than a few groups per worker wait in memory, whatever the size of
 * the corpus. Returns the error rows and configurations once every group was emitted.
 */
export async function scoreStream(
  dir: string,
  opts: ScoreOptions,
  emit: (rows: GroupRows) => void,
): Promise<StreamedRun> {
  const { corpus, groups, problems } = await indexCorpus(dir, opts.shard);
  const scoring = await startScoring(corpus, groups, opts);
  try {
    const lanes = Math.max(4, scoring.pool.size * 4);
    // each group leaves the list when its scoring starts (its turns are read then, not before)
    await inOrder(taken(groups), lanes, 2 * lanes, (g) => scoreGroupThenRelease(scoring, g), emit);
  } finally {
    scoring.pool.close();
    scoring.tick.end();
  }
  // a memo that cannot be written only costs re-hashing
  await scoring.logHashes.closeAll().catch((e) => cacheFailed(scoring.cacheDir, e));
  await Promise.all(scoring.writes);
  // the corpus's own problems, each once: those no run turn carries are rows of their own
  for (const p of problems) if (!scoring.attached.has(p)) scoring.errors.push(problemRow(p));
  return {
    errors: scoring.errors.filter((e) => errorInShard(e, opts.shard)),
    configs: corpus.configs,
    found: scoring.found,
  };
}

/**
 * The corpus at `dir` as a scoring pass holds it: its chains and configurations, the shard's
 * (configuration, chain) directories in key order — their run turns unread until each group's
 * scoring starts (lib/layout `defer`), so no index of the corpus's turns is held — and the
 * problems found outside those directories.
 */
async function indexCorpus(
  dir: string,
  shard: ScoreOptions["shard"],
): Promise<{ corpus: Corpus; groups: (DeferredRuns | undefined)[]; problems: Problem[] }> {
  // a shard opens only its own (configuration, chain) directories: at 37,500 turns, listing
  // every turn directory cost each process about 12 CPU s (docs/scale.md, fourth session)
  const select = shard &&
    ((config: string, chain: string) => shardOf(config, chain, shard.count) === shard.index);
  const { corpus, problems, deferred } = await readCorpus(dir, { select, defer: true });
  return { corpus, groups: sortedGroups(corpus.configs, deferred ?? []), problems };
}

/** The items of `list` in order, each slot emptied as it is handed out (the list is used up). */
function* taken<T>(list: (T | undefined)[]): Generator<T> {
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as T;
    list[i] = undefined;
    yield item;
  }
}

/**
 * Runs `work` over `items` with at most `lanes` at once, and calls `emit` with the results in
 * the items' order, each as soon as those before it are done; an item starts only while fewer
 * than `window` results wait for an earlier one (so memory stays bounded when one is slow).
 * `items` is read lazily, one item as each starts: a generator can hand them out and let each
 * go once taken.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inOrder } from "./score.ts";
 * const seen: number[] = [];
 * const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
 * await inOrder([30, 0, 10, 0], 3, 2, async (ms) => (await wait(ms), ms), (x) => seen.push(x));
 * assert.deepEqual(seen, [30, 0, 10, 0]);
 * ```
 */
export async function inOrder<T, R>(
  items: Iterable<T>,
  lanes: number,
  window: number,
  work: (item: T) => Promise<R>,
  emit: (result: R) => void,
): Promise<void> {
  const source = items[Symbol.iterator]();
  const done = new Map<number, R>();
  let next = 0, emitted = 0, exhausted = false;
  let wake: (() => void)[] = [];
  const lane = async () => {
    for (;;) {
      while (!exhausted && next - emitted >= window) {
        await new Promise<void>((r) => wake.push(r));
      }
      if (exhausted) return;
      const item = source.next();
      if (item.done) {
        exhausted = true;
        for (const f of wake.splice(0)) f();
        return;
      }
      const i = next++;
      done.set(i, await work(item.value));
      // synchronous: results leave in order, one lane at a time
      while (done.has(emitted)) {
        const r = done.get(emitted)!;
        done.delete(emitted++);
        emit(r);
      }
      const w = wake;
      wake = [];
      for (const f of w) f();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
}

/**
 * Progress of a run, `tick()` per turn and `end()` once: `true` → on stderr through
 * lib/util/progress.ts; a function → called with (done, total).
 */
function turnProgress(
  total: number,
  show: ScoreOptions["progress"],
): (() => void) & { end: () => void } {
  let done = 0;
  const reporter = show === true ? progress(total, "scoring", { unit: "turns" }) : undefined;
  const tick = () => {
    done++;
    reporter?.tick();
    if (typeof show === "function") show(done, total);
  };
  return Object.assign(tick, { end: () => reporter?.done() });
}

/** The shared state of one scoring pass (over `groups`, the run turns to score), with W0, summaries and targets memoised. */
async function startScoring(
  corpus: Corpus,
  groups: readonly (DeferredRuns | undefined)[],
  opts: ScoreOptions,
): Promise<Scoring> {
  const useCache = opts.cache ?? true;
  const cacheDir = cacheRoot(opts.cacheDir);
  const pool = new JobPool(opts.workers ?? navigator.hardwareConcurrency ?? 2);
  let total = 0;
  const groupsLeft = new Map<string, number>();
  for (const g of groups) {
    if (!g) continue;
    total += g.declared; // the turns expected (a turn found besides is counted, not shown)
    groupsLeft.set(g.config, (groupsLeft.get(g.config) ?? 0) + 1);
  }
  const scoring: Scoring = {
    corpus,
    chains: new Map(corpus.chains.map((c) => [c.chain, c])),
    configs: new Map(corpus.configs.map((c) => [c.id, c])),
    rel: (p) => {
      const r = relative(corpus.dir, p);
      return r.startsWith("..") ? p : r;
    },
    useCache,
    cacheDir,
    turnCache: new Cache("scored-turn", SCORER_VERSION, cacheDir),
    // log hashes remembered by file identity (see hashes.ts), one memo per configuration: a warm
    // scoring need not read logs again, and a run holds only the memos of its groups in flight
    logHashes: new HashMemos(
      useCache
        ? (config) => `${cacheDir}/scored-hashes-v2/${sha256(`${corpus.dir}\u0000${config}`)}.json`
        : undefined,
    ),
    groupsLeft,
    attached: new Set(),
    found: 0,
    code: await scorerCodeHash(),
    pool,
    errors: [],
    writes: new Set(),
    w0Hash: memo((workspace: string) => treeHash(workspace)),
    w0Project: memo((pkgDir: string) =>
      analyzePackage(pkgDir, {
        cache: useCache,
        workers: opts.workers,
        cacheDir: opts.cacheDir,
        name: moduleName(pkgDir.slice(pkgDir.lastIndexOf("/") + 1)),
      })
    ),
    summaryOf: () => Promise.reject(new Error("not ready")),
    refText: memo((path: string) => Deno.readTextFile(path)),
    refHash: () => Promise.reject(new Error("not ready")),
    turnTargets: () => Promise.reject(new Error("not ready")),
    refSummary: () => Promise.reject(new Error("not ready")),
    tick: turnProgress(total, opts.progress),
  };
  scoring.summaryOf = (source, file, module) => summaryOf(scoring, source, file, module);
  scoring.refHash = memo(async (path: string) => sha256(await scoring.refText(path)));
  scoring.turnTargets = memo((k: string) => targetsOf(scoring, k));
  scoring.refSummary = memo((k: string) => referenceSummary(scoring, k));
  return scoring;
}

/**
 * A Python file's summary: from lib/python's per-file cache (the entries `graph` and
 * `analyzePackage` read and write), else parsed in the pool and stored there in the background.
 */
async function summaryOf(
  scoring: Scoring,
  source: string,
  file: string,
  module: string,
): Promise<ModuleSummary> {
  if (scoring.useCache) {
    const hit = await cachedSummary(scoring.cacheDir, source, file, module);
    if (hit) return hit;
  }
  const summary = await scoring.pool.run({ type: "summarize", source, file, module });
  // written in the background (awaited before returning); a failed write costs a re-parse
  if (scoring.useCache && cacheWritable(scoring.cacheDir)) {
    const write = storeSummary(scoring.cacheDir, source, file, module, summary).catch((e) =>
      cacheFailed(scoring.cacheDir, e)
    );
    scoring.writes.add(write);
    write.finally(() => scoring.writes.delete(write));
  }
  return summary;
}

/** Summary of the reference solution of turn t of a chain (`chain \0 t`). */
async function referenceSummary(scoring: Scoring, k: string): Promise<ModuleSummary> {
  const [chainId, t] = k.split("\u0000");
  const chain = scoring.chains.get(chainId)!;
  const turn = chain.turns[Number(t) - 1];
  const pkgDir = join(chain.repo.workspace, chain.repo.package);
  return scoring.summaryOf(
    await scoring.refText(turn.solution),
    packageFile(pkgDir, join(chain.repo.workspace, turn.path)),
    turn.module,
  );
}

/** Targets of turn t of a chain (`chain \0 t`): the reference solutions against W0. */
async function targetsOf(scoring: Scoring, k: string): Promise<Target[]> {
  const [chainId, t] = k.split("\u0000");
  const chain = scoring.chains.get(chainId)!;
  const n = Number(t);
  const w0 = await scoring.w0Project(join(chain.repo.workspace, chain.repo.package));
  const refs = await Promise.all(
    chain.turns.slice(0, n).map((x) => scoring.refSummary(`${chainId}\u0000${x.turn}`)),
  );
  const reference = w0.withModules(refs);
  const earlier = chain.turns.slice(0, n - 1).map((x) => x.module);
  return extractTargets(reference, chain.turns[n - 1].module, w0, earlier);
}

/** The error row of a problem that names no run turn of its own. */
function problemRow(p: Problem): ErrorRow {
  return {
    path: p.path,
    chain: p.chain ?? null,
    turn: p.turn ?? null,
    config: p.config ?? null,
    message: p.message,
  };
}

function errorOf(run: FoundTurn, p: { path: string; message: string }): ErrorRow {
  return { path: p.path, chain: run.chain, turn: run.turn, config: run.config, message: p.message };
}

/** A turn that could not be scored, as an error row naming its file. */
function failed(scoring: Scoring, turn: FoundTurn, e: unknown): void {
  const path = e instanceof LayoutError ? e.path : scoring.rel(turn.log ?? turn.dir);
  scoring.errors.push(errorOf(turn, { path, message: messageOf(e) }));
}

/**
 * Reads a (configuration, chain) directory's run turns, records the error rows of its problems
 * (a blocked turn's, each naming the turn, and the directory's others), then {@link scoreGroup};
 * when it was its configuration's last group, the configuration's log-hash memo is saved and let
 * go (a memo that cannot be written only costs re-hashing).
 */
async function scoreGroupThenRelease(scoring: Scoring, group: DeferredRuns): Promise<GroupRows> {
  const config = group.config;
  try {
    const { runs, problems } = await group.read();
    scoring.found += runs.length;
    const mine = new Set<Problem>();
    for (const run of runs) {
      for (const p of run.blocked) {
        scoring.attached.add(p);
        mine.add(p);
        scoring.errors.push(errorOf(run, p));
      }
      if (run.blocked.length) scoring.tick();
    }
    for (const p of problems) if (!mine.has(p)) scoring.errors.push(problemRow(p));
    return runs.length ? await scoreGroup(scoring, runs) : emptyRows();
  } finally {
    const left = (scoring.groupsLeft.get(config) ?? 1) - 1;
    if (left > 0) scoring.groupsLeft.set(config, left);
    else {
      scoring.groupsLeft.delete(config);
      await scoring.logHashes.close(config).catch((e) => cacheFailed(scoring.cacheDir, e));
    }
  }
}

function emptyRows(): GroupRows {
  return { turns: [], targets: [], events: [], tests: [] };
}

/**
 * Scores one (configuration, chain): every turn's key first (W_{t-1} needs only the files), then
 * the whole group from one cache entry, else turn by turn; returns its rows (turns in order,
 * `dup_chain` over them, targets by id, tests by case).
 */
async function scoreGroup(scoring: Scoring, runs: FoundTurn[]): Promise<GroupRows> {
  runs.sort((a, b) => a.turn - b.turn);
  const keyed = await keyGroup(scoring, runs);
  const groupKey = sha256(`group\n${keyed.map((k) => k.key).join("\n")}`);
  if (scoring.useCache && keyed.length) {
    const hit = await scoring.turnCache.get<TurnResult[]>(
      groupKey,
      (v): v is TurnResult[] =>
        Array.isArray(v) && v.length === keyed.length &&
        v.every((r, i) => isTurnResult(r, keyed[i].keys)),
    );
    if (hit) {
      for (const _ of keyed) scoring.tick();
      return groupRows(hit);
    }
  }
  let all = true;
  const group: TurnResult[] = [];
  const jsons: string[] = [];
  for (const k of keyed) {
    try {
      const { result, json } = await cachedTurn(scoring, k);
      group.push(result);
      if (scoring.useCache) jsons.push(json ?? JSON.stringify(result));
    } catch (e) {
      failed(scoring, k.run, e);
      all = false;
    }
    scoring.tick();
  }
  // the group's entry is the JSON of its turns' results, joined (each was serialised once)
  if (scoring.useCache && all && keyed.length > 1) {
    await scoring.turnCache.setJson(groupKey, `[${jsons.join(",")}]`);
  }
  return groupRows(group);
}

/** Reads the inputs of a group's turns and computes their keys; unscorable turns become errors. */
async function keyGroup(scoring: Scoring, runs: FoundTurn[]): Promise<Keyed[]> {
  const config = scoring.configs.get(runs[0].config);
  const chain = scoring.chains.get(runs[0].chain);
  const keyed: Keyed[] = [];
  const earlier: Submitted[] = [];
  for (const turn of runs) {
    const text = readOptional(turn.submission);
    const spec = chain?.turns[turn.turn - 1];
    const submitted: Submitted | undefined = spec && text !== undefined
      ? { path: spec.path, module: spec.module, text, hash: sha256(text) }
      : undefined;
    if (turn.blocked.length === 0 && config && chain) {
      try {
        keyed.push(await keyOf(scoring, turn, config, chain, [...earlier], submitted));
      } catch (e) {
        failed(scoring, turn, e);
        scoring.tick();
      }
    }
    if (submitted) earlier.push(submitted);
  }
  return keyed;
}

/** A turn's cache key: the SHA-256 of all its inputs and of the scorer's code. */
async function keyOf(
  scoring: Scoring,
  turn: FoundTurn,
  config: ConfigSpec,
  chain: ChainSpec,
  earlier: Submitted[],
  submitted: Submitted | undefined,
): Promise<Keyed> {
  const spec = chain.turns[turn.turn - 1];
  if (!turn.log) throw new LayoutError(scoring.rel(turn.dir), "missing log");
  const log = scoring.logHashes.of(turn.config).read(turn.log);
  // the raw texts go into the key; they are parsed only when the turn is not in the cache
  const raw = (path: string | undefined) => {
    if (!path) return "";
    try {
      return Deno.readFileSync(path);
    } catch (e) {
      throw new LayoutError(scoring.rel(path), `unreadable (${(e as Error).message})`);
    }
  };
  const refs = await Promise.all(
    chain.turns.slice(0, turn.turn).map((x) => scoring.refHash(x.solution)),
  );
  const key = sha256(JSON.stringify({
    code: scoring.code,
    keys: [config.harness, config.model, config.memory, chain.chain, turn.turn],
    cwd: config.cwd ?? null,
    repo: [chain.repo.workspace, chain.repo.package, await scoring.w0Hash(chain.repo.workspace)],
    turns: chain.turns.slice(0, turn.turn).map((x, i) => [x.module, x.path, refs[i]]),
    cases: spec.cases,
    earlier: earlier.map((e) => [e.path, e.hash]),
    submission: submitted?.hash ?? null,
    log: [relative(turn.dir, turn.log), log.digest],
    companions: (turn.companions ?? []).map((c) => [relative(turn.dir, c), sha256(raw(c))]),
    results: [turn.results ? relative(turn.dir, turn.results) : null, sha256(raw(turn.results))],
    meta: sha256(raw(turn.meta)),
  }));
  const keys = {
    harness: config.harness,
    model: config.model,
    memory: config.memory,
    chain: chain.chain,
    turn: turn.turn,
  };
  return { run: turn, config, chain, keys, earlier, submitted, logBytes: log.bytes, key };
}

/**
 * A turn's rows from the cache (when a valid entry is there), else scored and stored — with the
 * JSON it was stored as (none for a hit, or without a cache).
 */
async function cachedTurn(
  scoring: Scoring,
  k: Keyed,
): Promise<{ result: TurnResult; json?: string }> {
  if (scoring.useCache) {
    const hit = await scoring.turnCache.get(k.key, (v): v is TurnResult => isTurnResult(v, k.keys));
    if (hit) return { result: hit };
  }
  const result = await scoreOne(scoring, k);
  if (!scoring.useCache) return { result };
  const json = JSON.stringify(result);
  await scoring.turnCache.setJson(k.key, json);
  return { result, json };
}

/** Scores one turn: its log read in the pool, the code models of W_{t-1}, then `scoreTurn`. */
async function scoreOne(scoring: Scoring, k: Keyed): Promise<TurnResult> {
  const { config, chain, earlier, submitted } = k;
  const log = k.run.log!;
  const spec = chain.turns[k.run.turn - 1];
  const contents = await loadRunContents(k.run, spec, scoring.rel);
  const pkgDir = join(chain.repo.workspace, chain.repo.package);
  const overlays: Record<string, string> = {};
  for (const e of earlier) overlays[e.path] = e.text;
  const bytes = k.logBytes ?? Deno.readFileSync(log);
  k.logBytes = undefined; // moved to the worker below: a later use reads the file again
  const readsP = scoring.pool.run({
    type: "log",
    text: bytes,
    file: scoring.rel(log),
    cwd: config.cwd,
    workspace: chain.repo.workspace,
    overlays,
    companions: (k.run.companions ?? []).map((c) => ({
      file: scoring.rel(c),
      text: new TextDecoder().decode(readBounded(c, MAX_LOG_BYTES)),
    })),
  });
  readsP.catch(() => {}); // handled below: a log failing fast must not be an unhandled rejection
  const [w0, targets] = await Promise.all([
    scoring.w0Project(pkgDir),
    scoring.turnTargets(`${chain.chain}\u0000${k.run.turn}`),
  ]);
  const summary = (e: Submitted) =>
    e.summary ??= scoring.summaryOf(
      e.text,
      packageFile(pkgDir, join(chain.repo.workspace, e.path)),
      e.module,
    );
  const agentModules = await Promise.all(
    [...earlier, ...(submitted ? [submitted] : [])].map(summary),
  );
  let reads: ReadsResult;
  try {
    reads = await readsP;
  } catch (e) {
    const m = messageOf(e), at = `${scoring.rel(log)}: `; // the row's path names the log already
    throw new LayoutError(scoring.rel(log), m.startsWith(at) ? m.slice(at.length) : m);
  }
  const unusable = logProblem(reads, config.harness); // wrong harness or cwd: numbers all wrong
  if (unusable) throw new LayoutError(scoring.rel(log), unusable);
  return scoreTurn({
    keys: k.keys,
    targets,
    model: {
      agent: w0.withModules(agentModules),
      w0,
      module: spec.module,
      submitted: submitted !== undefined,
      earlier: new Map(earlier.map((e) => [e.module, e.path])),
      w0Path: (def: Definition) => `${chain.repo.package}/${def.file}`,
    },
    reads,
    cases: contents.cases,
    meta: { ...reads.meta, ...contents.meta },
  });
}

const byId = <T>(f: (x: T) => string) => (a: T, b: T) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0);

/** The rows of a group's scored turns (in turn order): `dup_chain` ({@link dupChain}) over them. */
function groupRows(scored: readonly TurnResult[]): GroupRows {
  const out: GroupRows = { turns: [], targets: [], events: [], tests: [] };
  const dup = dupChain(scored.map((r) => r.turn.reimplemented));
  scored.forEach((r, i) => {
    out.turns.push({ ...r.turn, dup_chain: dup[i] });
    for (const x of [...r.targets].sort(byId((t) => t.target))) out.targets.push(x);
    for (const x of r.events) out.events.push(x);
    for (const x of [...r.tests].sort(byId((t) => t.case))) out.tests.push(x);
  });
  return out;
}

/**
 * The groups of scorable configurations, sorted by configuration keys (harness, model, memory)
 * and chain: the order of the rows. Groups of an unknown configuration yield no rows (their turns
 * are errors) and go last.
 */
function sortedGroups<G extends { config: string; chain: string }>(
  configs: readonly ConfigSpec[],
  groups: readonly G[],
): G[] {
  const byId = new Map(configs.map((c) => [c.id, c]));
  const keyed = groups.map((g) => {
    const c = byId.get(g.config);
    return { g, key: c ? [c.harness, c.model, c.memory, g.chain] : [] };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < 4; i++) {
      if (a.key[i] !== b.key[i]) return (a.key[i] ?? "\uffff") < (b.key[i] ?? "\uffff") ? -1 : 1;
    }
    return 0;
  });
  return keyed.map((k) => k.g);
}
