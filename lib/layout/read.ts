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
  /** Every problem found, in a deterministic order. */
  problems: Problem[];
}

async function stat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch {
    return undefined;
  }
}

async function listDir(path: string): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  for await (const e of Deno.readDir(path)) out.push(e);
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const TURN_DIR = /^turn(\d+)$/;

/**
 * Reads a corpus directory. Throws a {@link LayoutError} only when the directory is unusable as a
 * whole (missing, not a directory, or holding neither `tasks/` nor `runs/`).
 */
export async function readCorpus(dir: string): Promise<ReadResult> {
  const root = resolve(dir);
  const info = await stat(root);
  if (!info) throw new LayoutError(dir, "corpus directory does not exist");
  if (!info.isDirectory) throw new LayoutError(dir, "not a directory");
  const hasTasks = (await stat(join(root, "tasks")))?.isDirectory ?? false;
  const hasRuns = (await stat(join(root, "runs")))?.isDirectory ?? false;
  if (!hasTasks && !hasRuns) {
    throw new LayoutError(dir, "not a corpus: neither tasks/ nor runs/ is a directory");
  }
  const rel = (p: string) => {
    const r = relative(root, p);
    return r.startsWith("..") || isAbsolute(r) ? p : r;
  };
  const problems: Problem[] = [];
  const add = (p: Problem) => {
    problems.push(p);
    return p;
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
    for (const e of await listDir(join(root, "tasks"))) {
      const cdir = join(root, "tasks", e.name);
      if (!e.isDirectory) {
        add({ path: rel(cdir), message: "unexpected file in tasks/ (chains are directories)" });
        continue;
      }
      const r = await readChain(cdir, e.name, rel);
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

  // runs
  const configs: ConfigSpec[] = [];
  const runs: FoundTurn[] = [];
  if (hasRuns) {
    for (const e of await listDir(join(root, "runs"))) {
      const kdir = join(root, "runs", e.name);
      if (!e.isDirectory) {
        add({
          path: rel(kdir),
          message: "unexpected file in runs/ (configurations are directories)",
        });
        continue;
      }
      const { config, problem } = await readConfig(kdir, e.name, rel);
      if (problem) add(problem);
      if (config) configs.push(config);
      const configBlock = problem ? [problem] : [];
      const entries = await listDir(kdir);
      const chainDirs = new Set<string>();
      for (const c of entries) {
        if (!c.isDirectory) {
          if (c.name !== "config.json") {
            add({ path: rel(join(kdir, c.name)), message: "unexpected file", config: e.name });
          }
          continue;
        }
        chainDirs.add(c.name);
        const rdir = join(kdir, c.name);
        const known = chainTurns.has(c.name);
        const unknown: Problem[] = known ? [] : [add({
          path: rel(rdir),
          message: `no task chain "${c.name}" (expected tasks/${c.name}/chain.json)`,
          chain: c.name,
          config: e.name,
        })];
        const declared = chainTurns.get(c.name) ?? 0;
        const found = new Map<number, string>();
        for (const t of await listDir(rdir)) {
          const m = TURN_DIR.exec(t.name);
          if (!t.isDirectory || !m) {
            add({
              path: rel(join(rdir, t.name)),
              message: "unexpected entry (turn directories are named turn<N>)",
              chain: c.name,
              config: e.name,
            });
            continue;
          }
          found.set(Number(m[1]), join(rdir, t.name));
        }
        const numbers = new Set<number>(found.keys());
        for (let n = 1; n <= declared; n++) numbers.add(n);
        for (const n of [...numbers].sort((a, b) => a - b)) {
          const tdir = found.get(n) ?? join(rdir, `turn${n}`);
          const run: FoundTurn = {
            config: e.name,
            chain: c.name,
            turn: n,
            dir: tdir,
            blocked: [...configBlock, ...unknown, ...(chainBlock.get(c.name) ?? [])],
          };
          run.blocked.push(...(turnBlock.get(c.name)?.get(n) ?? []));
          if (known && !chainBlock.has(c.name) && n > declared) {
            run.blocked.push(add({
              path: rel(tdir),
              message:
                `turn ${n} is not declared in tasks/${c.name}/chain.json (${declared} turns)`,
              chain: c.name,
              turn: n,
              config: e.name,
            }));
          }
          if (!found.has(n)) {
            run.blocked.push(add({
              path: rel(tdir),
              message: "missing turn directory",
              chain: c.name,
              turn: n,
              config: e.name,
            }));
          } else {
            run.blocked.push(...(await readRunFiles(run, rel)).map(add));
          }
          runs.push(run);
        }
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
  return { corpus: { dir: root, chains, configs, runs }, problems };
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
): Promise<Record<string, unknown> | string> {
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
): Promise<{ config?: ConfigSpec; problem?: Problem }> {
  const path = join(kdir, "config.json");
  const fail = (message: string) => ({ problem: { path: rel(path), message, config: id } });
  const data = await readJsonObject(path, rel(path));
  if (typeof data === "string") return fail(data);
  for (const key of ["harness", "model"]) {
    if (typeof data[key] !== "string" || data[key] === "") {
      return fail(`"${key}" must be a non-empty string`);
    }
  }
  if (!MEMORIES.includes(data.memory as Memory)) {
    return fail(
      `"memory" must be one of ${MEMORIES.map((m) => `"${m}"`).join(", ")}, got ${
        JSON.stringify(data.memory)
      }`,
    );
  }
  if (data.cwd !== undefined && typeof data.cwd !== "string") return fail(`"cwd" must be a string`);
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
): Promise<ChainRead> {
  const out: ChainRead = { problems: [], blocking: [], turnBlocking: new Map() };
  const path = join(cdir, "chain.json");
  const block = (message: string, p = path) => {
    const problem = { path: rel(p), message, chain: name };
    out.problems.push(problem);
    out.blocking.push(problem);
    return out;
  };
  const data = await readJsonObject(path, rel(path));
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
    if (!(await stat(t.dir))?.isDirectory) blockTurn(t.dir, "missing turn directory");
    else {
      if (!(await stat(t.solution))?.isFile) blockTurn(t.solution, "missing reference solution");
      try {
        const cases = parseTests(await Deno.readTextFile(t.tests), rel(t.tests));
        t.cases = cases.map((c) => c.id);
      } catch (e) {
        blockTurn(t.tests, e instanceof LayoutError ? messageOf(e) : "missing tests.json");
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

async function readRunFiles(run: FoundTurn, rel: (p: string) => string): Promise<Problem[]> {
  const problems: Problem[] = [];
  const problem = (p: string, message: string) =>
    problems.push({ path: rel(p), message, chain: run.chain, turn: run.turn, config: run.config });
  const names = new Set<string>();
  let subagents = false;
  for await (const e of Deno.readDir(run.dir)) {
    if (e.isFile) names.add(e.name);
    else if (e.isDirectory && e.name === "subagents") subagents = true;
  }
  const logs = LOG_NAMES.filter((n) => names.has(n));
  if (logs.length === 0) {
    const other = [...names].filter((n) => n.startsWith("log.")).sort();
    if (other.length) run.log = join(run.dir, other[0]);
    else problem(join(run.dir, "log.json"), `missing log (one of ${LOG_NAMES.join(", ")})`);
  } else if (logs.length > 1) {
    problem(run.dir, `several logs (${logs.join(", ")}); keep one`);
  } else run.log = join(run.dir, logs[0]);
  if (subagents) {
    // sub-agent transcripts / rollouts of the session (Claude Code, Codex CLI)
    const dir = join(run.dir, "subagents");
    const found: string[] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".jsonl")) found.push(join(dir, e.name));
    }
    if (found.length) run.companions = found.sort();
  }
  if (names.has("submission.py")) run.submission = join(run.dir, "submission.py");
  const results = ["results.xml", "results.json"].filter((n) => names.has(n));
  if (results.length > 1) problem(run.dir, "both results.xml and results.json; keep one");
  else if (results.length === 1) run.results = join(run.dir, results[0]);
  else if (run.submission) {
    problem(join(run.dir, "results.json"), "missing test results (results.xml or results.json)");
  }
  if (names.has("meta.json")) run.meta = join(run.dir, "meta.json");
  return problems;
}
