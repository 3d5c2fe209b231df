/**
 * Reading a corpus in the run-log layout (`docs/run-logs.md`) and listing its problems.
 *
 * {@link readCorpus} never stops at the first problem: it returns everything usable plus every
 * problem, each with the path at fault. Every run turn found (a `turn<N>` directory, or a turn the
 * chain declares under a chain directory the configuration has) is listed in `corpus.runs`; the
 * problems that prevent scoring it are in its `blocked` list, so that turns found = turns scored +
 * turns with errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCorpus } from "./read.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/tasks/c1`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/tasks/c1/chain.json`, "{ not json");
 * const { corpus, problems } = await readCorpus(dir);
 * assert(corpus.chains.length === 0);
 * assert(problems.some((p) => p.path === "tasks/c1/chain.json" && p.message === "missing chain.json") === false);
 * assert(problems.some((p) => p.path === "tasks/c1/chain.json" && p.message.startsWith("invalid JSON")));
 * ```
 * @module
 */
import { basename, isAbsolute, join, normalize, relative, resolve } from "node:path";
import { isObject, LayoutError, parseJson, parseTests } from "./results.ts";
import type {
  ChainSpec,
  ConfigSpec,
  Corpus,
  FunctionSpec,
  Memory,
  Problem,
  RepoSpec,
  RunTurn,
  TurnSpec,
} from "./types.ts";

/** Memory values allowed in config.json. */
export const MEMORIES: readonly Memory[] = ["none", "interface", "source"];

/** Log file names of a run turn, in order of preference. */
export const LOG_NAMES = ["log.json", "log.jsonl", "log.traj", "log.traj.json"];

/** A run turn found, with the problems that keep it from being scored (`blocked`). */
export type FoundTurn = RunTurn;

/** What {@link readCorpus} returns. */
export interface ReadResult {
  corpus: Corpus;
  /** Every problem found, in a deterministic order (with `defer`: all but those inside the deferred directories). */
  problems: Problem[];
  /** With {@link ReadOptions.defer}: the selected (configuration, chain) directories, in directory order. */
  deferred?: DeferredRuns[];
}

async function stat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch {
    // what cannot be stat'ed is absent
    return undefined;
  }
}

/** An entry of a corpus directory, symbolic links resolved (see {@link entriesOf}). */
export interface Entry {
  name: string;
  path: string;
  /** What the entry is (a link's target when it is followed). */
  kind: "file" | "dir" | "other";
  /** True when the entry is a symbolic link (followed: its target stays inside the corpus). */
  link: boolean;
}

/** A symbolic link not followed: broken, or pointing out of the corpus. */
export interface LinkProblem {
  name: string;
  path: string;
  message: string;
}

/**
 * The path of entry `name` (a plain directory entry name, no separator) of directory `dir`.
 * `node:path`'s `join` builds its result piece by piece, and V8 keeps such a string as a tree
 * of about 600 bytes until it is first used; a corpus holds four of these per run turn (log,
 * submission, results, meta) for the whole scoring pass — 90 MB at 37,500 turns. Appending the
 * name to the already normalised `dir` keeps one small node that shares `dir`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryPath } from "./read.ts";
 * assert.equal(entryPath("/corpus/runs/a/c1/turn1", "log.json"), "/corpus/runs/a/c1/turn1/log.json");
 * assert.equal(entryPath("/", "corpus"), "/corpus");
 * ```
 */
export function entryPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/**
 * The entries of a directory of the corpus, sorted by name. A symbolic link is followed only when
 * its real target lies inside the corpus (`realRoot`); a broken link or one leading out of the
 * corpus is returned in `links`, never followed. The directory is listed synchronously: a corpus
 * is read one directory after another, and each async listing handed off to another thread and
 * back, which at 37,500 run turns cost about twice the CPU of the listings themselves.
 */
export async function entriesOf(
  path: string,
  realRoot: string,
): Promise<{ entries: Entry[]; links: LinkProblem[] }> {
  const raw: Deno.DirEntry[] = [];
  for (const e of Deno.readDirSync(path)) raw.push(e);
  raw.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: Entry[] = [];
  const links: LinkProblem[] = [];
  for (const e of raw) {
    const p = entryPath(path, e.name);
    if (!e.isSymlink) {
      entries.push({ name: e.name, path: p, kind: kindOfInfo(e), link: false });
      continue;
    }
    const problem = await linkProblem(p, realRoot);
    if (problem) {
      links.push({ name: e.name, path: p, message: problem });
      continue;
    }
    const info = await stat(p);
    entries.push({ name: e.name, path: p, kind: info ? kindOfInfo(info) : "other", link: true });
  }
  return { entries, links };
}

function kindOfInfo(i: { isFile: boolean; isDirectory: boolean }): Entry["kind"] {
  return i.isFile ? "file" : i.isDirectory ? "dir" : "other";
}

/** True when `real` is `root` or lies under it (both real paths). */
function within(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * Why the link at `path` is not followed (broken, or its real target is out of the corpus), or
 * undefined when `path` is no link or a link that stays inside `realRoot`.
 */
export async function linkProblem(path: string, realRoot: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    // what cannot be lstat'ed is no link
    return undefined;
  }
  if (!info.isSymlink) return undefined;
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch {
    const to = await Deno.readLink(path).catch(() => "?");
    return `broken symbolic link (to ${to})`;
  }
  if (!within(real, realRoot)) {
    return `symbolic link out of the corpus (to ${real}): not followed`;
  }
  return undefined;
}

/** Turn directories: `turn<N>`, N ≥ 1 without leading zeros. */
const TURN_DIR = /^turn([1-9]\d*)$/;
/** Names that look like a turn directory but are not one (`turn0`, `turn01`). */
const TURN_LIKE = /^turn\d+$/;

/** Files a turn directory may hold besides the layout's own: what `reporeuse run` writes. */
export const RUN_EXTRAS: readonly string[] = ["prompt.md", "agent-stdout.txt", "agent-stderr.txt"];

/** Options of {@link readCorpus}. */
export interface ReadOptions {
  /**
   * Which (configuration, chain) directories of `runs/` to read (all when absent). The others are
   * not opened: none of their run turns is listed, nor any problem inside them — a shard of a
   * large corpus reads its own part, not every turn directory of the corpus. Everything else
   * (tasks, configurations, their own entries) is read as always.
   */
  select?: (config: string, chain: string) => boolean;
  /**
   * Leave the run turns of each selected (configuration, chain) directory unread: `corpus.runs`
   * is empty and `deferred` holds one {@link DeferredRuns} per directory, whose `read()` lists
   * its turns and their problems when they are needed — a scorer then holds the turns of the
   * groups in flight, not an index of the whole corpus. Each problem is reported once, either in
   * `problems` or by one `read()`.
   */
  defer?: boolean;
}

/** The run turns of one (configuration, chain) directory, read on demand ({@link ReadOptions.defer}). */
export interface DeferredRuns {
  config: string;
  chain: string;
  /** Turns expected: those the chain declares (a directory of an unknown chain: 0). */
  declared: number;
  /**
   * Its run turns, sorted by turn, each with its blocking problems (as a whole read gives them),
   * and every problem found inside the directory. Reads the disk each time it is called.
   */
  read(): Promise<{ runs: FoundTurn[]; problems: Problem[] }>;
}

/**
 * Reads a corpus directory. Throws a {@link LayoutError} only when the directory is unusable as a
 * whole (missing, not a directory, or holding neither `tasks/` nor `runs/`).
 */
export async function readCorpus(dir: string, opts: ReadOptions = {}): Promise<ReadResult> {
  const root = resolve(dir);
  const info = await stat(root);
  if (!info) throw new LayoutError(dir, "corpus directory does not exist");
  if (!info.isDirectory) throw new LayoutError(dir, "not a directory");
  const realRoot = await Deno.realPath(root);
  const rel = (p: string) => {
    const r = relative(root, p);
    return r.startsWith("..") || isAbsolute(r) ? p : r;
  };
  const problems: Problem[] = [];
  const add = (p: Problem) => {
    problems.push(p);
    return p;
  };
  /** A top-level directory of the layout, unless it is a link out of the corpus (reported). */
  const topDir = async (name: string) => {
    const path = join(root, name);
    const bad = await linkProblem(path, realRoot);
    if (bad) {
      add({ path: name, message: bad });
      return false;
    }
    return (await stat(path))?.isDirectory ?? false;
  };
  const hasTasks = await topDir("tasks");
  const hasRuns = await topDir("runs");
  if (!hasTasks && !hasRuns) {
    if (problems.length) {
      throw new LayoutError(
        dir,
        problems.map((p) => `${p.path}: ${p.message}`).join("; "),
      );
    }
    throw new LayoutError(dir, "not a corpus: neither tasks/ nor runs/ is a directory");
  }
  /** Entries of a corpus directory; links not followed are reported with `keys`. */
  const list = async (
    path: string,
    keys: Omit<Problem, "path" | "message"> = {},
    to: (p: Problem) => Problem = add,
  ) => {
    const { entries, links } = await entriesOf(path, realRoot);
    for (const l of links) to({ path: rel(l.path), message: l.message, ...keys });
    return entries;
  };

  // corpus.json (optional)
  const corpusJson = join(root, "corpus.json");
  if (await stat(corpusJson)) {
    try {
      const data = parseJson(await Deno.readTextFile(corpusJson), rel(corpusJson));
      if (!isObject(data)) add({ path: rel(corpusJson), message: "expected a JSON object" });
      else if (data.layout !== undefined && data.layout !== 1) {
        add({
          path: rel(corpusJson),
          message: `unsupported layout ${JSON.stringify(data.layout)}`,
        });
      }
    } catch (e) {
      add({ path: rel(corpusJson), message: messageOf(e) });
    }
  }
  if (!hasTasks) add({ path: "tasks", message: "missing tasks/ directory" });
  if (!hasRuns) add({ path: "runs", message: "missing runs/ directory" });

  // tasks
  const chains: ChainSpec[] = [];
  /** chain id → problems blocking all its turns; chain id → turn → problems blocking that turn. */
  const chainBlock = new Map<string, Problem[]>();
  const turnBlock = new Map<string, Map<number, Problem[]>>();
  const chainTurns = new Map<string, number>();
  if (hasTasks) {
    for (const e of await list(join(root, "tasks"))) {
      const cdir = e.path;
      if (e.kind !== "dir") {
        add({ path: rel(cdir), message: "unexpected file in tasks/ (chains are directories)" });
        continue;
      }
      const r = await readChain(cdir, e.name, rel, realRoot);
      problems.push(...r.problems);
      if (r.blocking.length) chainBlock.set(e.name, r.blocking);
      if (r.turnBlocking.size) turnBlock.set(e.name, r.turnBlocking);
      if (r.chain) {
        chains.push(r.chain);
        chainTurns.set(e.name, r.chain.turns.length);
      } else {
        chainTurns.set(e.name, r.declaredTurns ?? 0);
      }
    }
  }

  /**
   * The run turns of one (configuration, chain) directory, each with the problems that block it;
   * every problem found goes to `add`.
   */
  const chainRuns = async (
    config: string,
    chain: string,
    rdir: string,
    add: (p: Problem) => Problem,
  ): Promise<FoundTurn[]> => {
    const found: FoundTurn[] = [];
    const known = chainTurns.has(chain);
    const unknown: Problem[] = known ? [] : [add({
      path: rel(rdir),
      message: `no task chain "${chain}" (expected tasks/${chain}/chain.json)`,
      chain,
      config,
    })];
    const declared = chainTurns.get(chain) ?? 0;
    const dirs = new Map<number, string>();
    for (const t of await list(rdir, { chain, config }, add)) {
      const m = TURN_DIR.exec(t.name);
      if (t.kind !== "dir" || !m) {
        add({
          path: rel(t.path),
          message: TURN_LIKE.test(t.name)
            ? `not a turn directory: turns are numbered from 1, without leading zeros (turn1, turn2, …)`
            : "unexpected entry (turn directories are named turn<N>)",
          chain,
          config,
        });
        continue;
      }
      dirs.set(Number(m[1]), t.path);
    }
    const numbers = new Set<number>(dirs.keys());
    for (let n = 1; n <= declared; n++) numbers.add(n);
    for (const n of [...numbers].sort((a, b) => a - b)) {
      const tdir = dirs.get(n) ?? join(rdir, `turn${n}`);
      const run: FoundTurn = {
        config,
        chain,
        turn: n,
        dir: tdir,
        blocked: [...unknown, ...(chainBlock.get(chain) ?? [])],
      };
      run.blocked.push(...(turnBlock.get(chain)?.get(n) ?? []));
      if (known && !chainBlock.has(chain) && n > declared) {
        run.blocked.push(add({
          path: rel(tdir),
          message: `turn ${n} is not declared in tasks/${chain}/chain.json (${declared} turns)`,
          chain,
          turn: n,
          config,
        }));
      }
      if (!dirs.has(n)) {
        run.blocked.push(add({
          path: rel(tdir),
          message: "missing turn directory",
          chain,
          turn: n,
          config,
        }));
      } else {
        const r = await readRunFiles(run, rel, realRoot);
        run.blocked.push(...r.blocking.map(add));
        r.other.forEach(add);
      }
      found.push(run);
    }
    return found;
  };

  // runs
  const deferred: DeferredRuns[] = [];
  const configs: ConfigSpec[] = [];
  const runs: FoundTurn[] = [];
  /** configuration id → the problem blocking all its turns (bad config.json, duplicate keys). */
  const configBlock = new Map<string, Problem>();
  /** run turns per configuration, blocked once every configuration is read. */
  const runsOf = new Map<string, FoundTurn[]>();
  if (hasRuns) {
    for (const e of await list(join(root, "runs"))) {
      const kdir = e.path;
      if (e.kind !== "dir") {
        add({
          path: rel(kdir),
          message: "unexpected file in runs/ (configurations are directories)",
        });
        continue;
      }
      const entries = await list(kdir, { config: e.name });
      const { config, problem } = await readConfig(kdir, e.name, rel, realRoot);
      if (problem) {
        add(problem);
        configBlock.set(e.name, problem);
      }
      if (config) configs.push(config);
      const found: FoundTurn[] = [];
      runsOf.set(e.name, found);
      const chainDirs = new Set<string>();
      for (const c of entries) {
        if (c.kind !== "dir") {
          if (c.name !== "config.json") {
            add({ path: rel(c.path), message: "unexpected file", config: e.name });
          }
          continue;
        }
        chainDirs.add(c.name);
        if (opts.select && !opts.select(e.name, c.name)) continue;
        const config = e.name, chain = c.name, rdir = c.path;
        if (opts.defer) {
          deferred.push({
            config,
            chain,
            declared: chainTurns.get(chain) ?? 0,
            read: async () => {
              const own: Problem[] = [];
              const runs = await chainRuns(config, chain, rdir, (p) => (own.push(p), p));
              const block = configBlock.get(config);
              if (block) { for (const run of runs) run.blocked.unshift(block); }
              return { runs, problems: own };
            },
          });
          continue;
        }
        found.push(...await chainRuns(config, chain, rdir, add));
      }
      for (const chain of chainTurns.keys()) {
        if (!chainDirs.has(chain)) {
          add({
            path: rel(join(kdir, chain)),
            message: "configuration has no runs of this chain",
            chain,
            config: e.name,
          });
        }
      }
    }
  }
  // two configuration directories with the same keys would merge into one set of rows
  const byKeys = new Map<string, ConfigSpec[]>();
  for (const c of configs) {
    const k = JSON.stringify([c.harness, c.model, c.memory]);
    byKeys.set(k, [...(byKeys.get(k) ?? []), c]);
  }
  for (const same of byKeys.values()) {
    if (same.length < 2) continue;
    const names = same.map((c) => rel(join(c.dir, "config.json")));
    for (const c of same) {
      const problem = add({
        path: rel(join(c.dir, "config.json")),
        message: `duplicate configuration: ${names.join(" and ")} have the same harness, model ` +
          `and memory (${JSON.stringify(c.harness)}, ${JSON.stringify(c.model)}, ` +
          `${JSON.stringify(c.memory)}); keep one directory per configuration`,
        config: c.id,
      });
      configBlock.set(c.id, problem);
    }
  }
  for (const [id, found] of runsOf) {
    const block = configBlock.get(id);
    for (const run of found) {
      if (block) run.blocked.unshift(block);
      runs.push(run);
    }
  }
  return {
    corpus: { dir: root, chains, configs, runs },
    problems,
    ...(opts.defer ? { deferred } : {}),
  };
}

/** The message of an error without its `path: ` prefix. */
export function messageOf(e: unknown): string {
  if (e instanceof LayoutError) return e.message.slice(e.path.length + 2);
  return e instanceof Error ? e.message : String(e);
}

/** A JSON object file, or what is wrong with it ("missing <name>", invalid JSON, not an object). */
async function readJsonObject(
  path: string,
  shown: string,
  realRoot: string,
): Promise<Record<string, unknown> | string> {
  const link = await linkProblem(path, realRoot);
  if (link) return link;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return `missing ${basename(path)}`;
  }
  let data: unknown;
  try {
    data = parseJson(text, shown);
  } catch (e) {
    return messageOf(e);
  }
  return isObject(data) ? data : "expected a JSON object";
}

async function readConfig(
  kdir: string,
  id: string,
  rel: (p: string) => string,
  realRoot: string,
): Promise<{ config?: ConfigSpec; problem?: Problem }> {
  const path = join(kdir, "config.json");
  const fail = (message: string) => ({ problem: { path: rel(path), message, config: id } });
  const data = await readJsonObject(path, rel(path), realRoot);
  if (typeof data === "string") return fail(data);
  // every field's problem, not only the first
  const wrong: string[] = [];
  for (const key of ["harness", "model"]) {
    if (typeof data[key] !== "string" || data[key] === "") {
      wrong.push(`"${key}" must be a non-empty string`);
    }
  }
  if (!MEMORIES.includes(data.memory as Memory)) {
    wrong.push(
      `"memory" must be one of ${MEMORIES.map((m) => `"${m}"`).join(", ")}, got ${
        JSON.stringify(data.memory)
      }`,
    );
  }
  if (data.cwd !== undefined && typeof data.cwd !== "string") wrong.push(`"cwd" must be a string`);
  if (wrong.length) return fail(wrong.join("; "));
  const config: ConfigSpec = {
    id,
    dir: kdir,
    harness: data.harness as string,
    model: data.model as string,
    memory: data.memory as Memory,
  };
  if (typeof data.cwd === "string") config.cwd = data.cwd;
  return { config };
}

interface ChainRead {
  chain?: ChainSpec;
  declaredTurns?: number;
  problems: Problem[];
  blocking: Problem[];
  turnBlocking: Map<number, Problem[]>;
}

function safeRelPath(p: string): boolean {
  if (p === "" || isAbsolute(p) || p.includes("\\")) return false;
  const n = normalize(p);
  return !n.startsWith("..") && n === p;
}

async function readChain(
  cdir: string,
  name: string,
  rel: (p: string) => string,
  realRoot: string,
): Promise<ChainRead> {
  const out: ChainRead = { problems: [], blocking: [], turnBlocking: new Map() };
  const path = join(cdir, "chain.json");
  const block = (message: string, p = path) => {
    const problem = { path: rel(p), message, chain: name };
    out.problems.push(problem);
    out.blocking.push(problem);
    return out;
  };
  const data = await readJsonObject(path, rel(path), realRoot);
  if (typeof data === "string") return block(data);
  if (Array.isArray(data.turns)) out.declaredTurns = data.turns.length;
  if (data.chain !== undefined && data.chain !== name) {
    return block(`"chain" is ${JSON.stringify(data.chain)} but the directory is "${name}"`);
  }
  const repo = data.repo;
  if (!isObject(repo)) return block(`"repo" must be an object`);
  for (const key of ["name", "workspace", "package"]) {
    if (typeof repo[key] !== "string" || repo[key] === "") {
      return block(`"repo.${key}" must be a non-empty string`);
    }
  }
  for (const key of ["version", "commit"]) {
    if (repo[key] !== undefined && typeof repo[key] !== "string") {
      return block(`"repo.${key}" must be a string`);
    }
  }
  const workspace = resolve(cdir, repo.workspace as string);
  const pkg = repo.package as string;
  if (!(await stat(workspace))?.isDirectory) {
    return block(`repo.workspace ${JSON.stringify(repo.workspace)}: not a directory`, workspace);
  }
  if (!safeRelPath(pkg) || !(await stat(join(workspace, pkg)))?.isDirectory) {
    return block(
      `repo.package ${JSON.stringify(pkg)}: not a directory inside the workspace`,
      join(workspace, pkg),
    );
  }
  const repoSpec: RepoSpec = { name: repo.name as string, workspace, package: pkg };
  if (typeof repo.version === "string") repoSpec.version = repo.version;
  if (typeof repo.commit === "string") repoSpec.commit = repo.commit;
  if (!Array.isArray(data.turns) || data.turns.length === 0) {
    return block(`"turns" must be a non-empty array`);
  }
  const turns: TurnSpec[] = [];
  const paths = new Set<string>();
  for (const [i, t] of data.turns.entries()) {
    const where = `turns[${i}]`;
    if (!isObject(t)) return block(`${where} must be an object`);
    if (t.turn !== i + 1) {
      return block(`${where}.turn must be ${i + 1} (turns are numbered from 1 in order)`);
    }
    if (typeof t.module !== "string" || !/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/.test(t.module)) {
      return block(`${where}.module must be a dotted Python module name`);
    }
    if (typeof t.path !== "string" || !t.path.endsWith(".py") || !safeRelPath(t.path)) {
      return block(
        `${where}.path must be a relative posix path to a .py file inside the workspace`,
      );
    }
    if (paths.has(t.path)) return block(`${where}.path ${t.path} is used by an earlier turn`);
    paths.add(t.path);
    if (!Array.isArray(t.functions)) return block(`${where}.functions must be an array`);
    const functions: FunctionSpec[] = [];
    for (const [j, f] of t.functions.entries()) {
      if (!isObject(f) || typeof f.name !== "string" || f.name === "") {
        return block(`${where}.functions[${j}] must be an object with a non-empty "name"`);
      }
      const spec: FunctionSpec = { name: f.name };
      for (const k of ["signature", "returns", "behaviour"] as const) {
        if (typeof f[k] === "string") spec[k] = f[k] as string;
      }
      functions.push(spec);
    }
    const tdir = join(cdir, `turn${i + 1}`);
    turns.push({
      turn: i + 1,
      module: t.module,
      path: t.path,
      functions,
      dir: tdir,
      solution: join(tdir, "solution.py"),
      tests: join(tdir, "tests.json"),
      requirement: join(tdir, "requirement.md"),
      cases: [],
    });
  }
  for (const t of turns) {
    const turnProblems: Problem[] = [];
    const blockTurn = (p: string, message: string) => {
      const problem = { path: rel(p), message, chain: name, turn: t.turn };
      out.problems.push(problem);
      turnProblems.push(problem);
    };
    const links = await Promise.all(
      [t.dir, t.solution, t.tests].map((p) => linkProblem(p, realRoot)),
    );
    if (links[0]) blockTurn(t.dir, links[0]);
    else if (!(await stat(t.dir))?.isDirectory) blockTurn(t.dir, "missing turn directory");
    else {
      if (links[1]) blockTurn(t.solution, links[1]);
      else if (!(await stat(t.solution))?.isFile) {
        blockTurn(t.solution, "missing reference solution");
      }
      if (links[2]) blockTurn(t.tests, links[2]);
      else {
        try {
          const cases = parseTests(await Deno.readTextFile(t.tests), rel(t.tests));
          t.cases = cases.map((c) => c.id);
        } catch (e) {
          blockTurn(t.tests, e instanceof LayoutError ? messageOf(e) : "missing tests.json");
        }
      }
      if (!(await stat(t.requirement))?.isFile) {
        // not needed for scoring: reported, blocks nothing
        out.problems.push({
          path: rel(t.requirement),
          message: "missing requirement text",
          chain: name,
          turn: t.turn,
        });
      }
    }
    if (turnProblems.length) out.turnBlocking.set(t.turn, turnProblems);
  }
  out.chain = { chain: name, dir: cdir, repo: repoSpec, turns };
  return out;
}

/** What {@link readRunFiles} found wrong: problems that block the turn, and the others. */
interface RunFilesRead {
  blocking: Problem[];
  other: Problem[];
}

/** Sets the files of a run turn found in its directory; every entry is used or reported. */
async function readRunFiles(
  run: FoundTurn,
  rel: (p: string) => string,
  realRoot: string,
): Promise<RunFilesRead> {
  const out: RunFilesRead = { blocking: [], other: [] };
  const keys = { chain: run.chain, turn: run.turn, config: run.config };
  const problem = (p: string, message: string) =>
    out.blocking.push({ path: rel(p), message, ...keys });
  /** Does not block the turn: no turn number, so the turn is not counted as one with errors. */
  const stray = (p: string, message: string) =>
    out.other.push({ path: rel(p), message, chain: run.chain, config: run.config });
  const { entries, links } = await entriesOf(run.dir, realRoot);
  const names = new Set<string>();
  let subagents: string | undefined;
  for (const e of entries) {
    if (e.kind === "file") names.add(e.name);
    // sub-agent transcripts / rollouts of the session (Claude Code, Codex CLI)
    else if (e.kind === "dir" && e.name === "subagents") subagents = e.path;
    else {
      stray(e.path, `unexpected ${e.kind === "dir" ? "directory" : "entry"} in a turn directory`);
    }
  }
  // a link that is not followed blocks the turn when it stands for one of the layout's files
  const layoutName = (n: string) =>
    n.startsWith("log.") || n === "submission.py" || n === "results.xml" ||
    n === "results.json" || n === "meta.json";
  for (const l of links) {
    if (layoutName(l.name)) problem(l.path, l.message);
    else stray(l.path, l.message);
  }
  const used = new Set<string>();
  const logs = LOG_NAMES.filter((n) => names.has(n));
  if (logs.length === 0) {
    const other = [...names].filter((n) => n.startsWith("log.")).sort();
    if (other.length) {
      run.log = entryPath(run.dir, other[0]);
      used.add(other[0]);
    } else if (!links.some((l) => l.name.startsWith("log."))) {
      const candidates = [...names].filter((n) =>
        !n.startsWith("results.") && n !== "meta.json" && /\.(json|jsonl|traj)$/.test(n)
      );
      problem(
        entryPath(run.dir, "log.json"),
        `missing log (one of ${LOG_NAMES.join(", ")})` +
          (candidates.length
            ? `; ${candidates.join(", ")} ${
              candidates.length === 1 ? "is" : "are"
            } not a log name of the layout: rename the log`
            : ""),
      );
      for (const c of candidates) used.add(c); // named in the message above
    }
  } else if (logs.length > 1) {
    problem(run.dir, `several logs (${logs.join(", ")}); keep one`);
    for (const n of logs) used.add(n);
  } else {
    run.log = entryPath(run.dir, logs[0]);
    used.add(logs[0]);
  }
  if (subagents) {
    const found: string[] = [];
    const sub = await entriesOf(subagents, realRoot); // links out of the corpus are not followed
    for (const e of sub.entries) {
      if (e.kind === "file" && e.name.endsWith(".jsonl")) found.push(e.path);
      else stray(e.path, "not a sub-agent session file (*.jsonl)");
    }
    for (const l of sub.links) stray(l.path, l.message);
    if (found.length) run.companions = found.sort();
  }
  if (names.has("submission.py")) {
    run.submission = entryPath(run.dir, "submission.py");
    used.add("submission.py");
  }
  const results = ["results.xml", "results.json"].filter((n) => names.has(n));
  for (const n of results) used.add(n);
  if (results.length > 1) problem(run.dir, "both results.xml and results.json; keep one");
  else if (results.length === 1) run.results = entryPath(run.dir, results[0]);
  else if (run.submission) {
    problem(
      entryPath(run.dir, "results.json"),
      "missing test results (results.xml or results.json)",
    );
  }
  if (names.has("meta.json")) {
    run.meta = entryPath(run.dir, "meta.json");
    used.add("meta.json");
  }
  for (const n of [...names].sort()) {
    if (used.has(n) || RUN_EXTRAS.includes(n)) continue;
    stray(
      entryPath(run.dir, n),
      n.startsWith("log.")
        ? `unexpected file: ${rel(run.log ?? run.dir)} is the log of this turn`
        : "unexpected file in a turn directory (not part of the layout; see docs/run-logs.md)",
    );
  }
  return out;
}
