/**
 * Types of a corpus in the run-log layout (`docs/run-logs.md`): tasks (chains of turns on a
 * repository) and runs (per configuration, chain and turn).
 *
 * @module
 */

/** A problem found in a corpus, named by the path it concerns. */
export interface Problem {
  /** Path of the file or directory at fault (as given or found, under the corpus directory). */
  path: string;
  message: string;
  /** Chain id when the problem concerns one chain (or one of its turns). */
  chain?: string;
  /** Turn number when the problem concerns one turn. */
  turn?: number;
  /** Configuration directory name when the problem concerns runs of one configuration. */
  config?: string;
}

/** One function the requirement of a turn asks for. */
export interface FunctionSpec {
  name: string;
  signature?: string;
  returns?: string;
  behaviour?: string;
}

/** One turn of a chain (task side). */
export interface TurnSpec {
  turn: number;
  /** Importable module name of the file to create, e.g. `seaborn._core.color_mapping`. */
  module: string;
  /** Submission path, relative to the workspace root (posix), e.g. `seaborn/_core/color_mapping.py`. */
  path: string;
  functions: FunctionSpec[];
  /** Absolute directory `tasks/<chain>/turn<N>/`. */
  dir: string;
  /** Absolute path of the reference solution. */
  solution: string;
  /** Absolute path of tests.json. */
  tests: string;
  /** Absolute path of requirement.md (may be absent on disk). */
  requirement: string;
  /** Test case ids from tests.json, in order (empty when tests.json is unusable). */
  cases: string[];
}

/** The repository a chain runs on. */
export interface RepoSpec {
  name: string;
  version?: string;
  commit?: string;
  /** Absolute path of W0, the initial workspace root. */
  workspace: string;
  /** Package directory inside W0 whose functions are repo targets, e.g. `seaborn`. */
  package: string;
}

/** One task chain (tasks/<chain>/chain.json). */
export interface ChainSpec {
  chain: string;
  /** Absolute directory `tasks/<chain>/`. */
  dir: string;
  repo: RepoSpec;
  /** Turns in order 1..n. */
  turns: TurnSpec[];
}

/** Memory settings of the paper (§4.4). */
export type Memory = "none" | "interface" | "source";

/** One configuration (runs/<config>/config.json). */
export interface ConfigSpec {
  /** Directory name under runs/. */
  id: string;
  dir: string;
  harness: string;
  model: string;
  memory: Memory;
  /** Harness working directory the log's absolute paths start with (e.g. `/testbed`). */
  cwd?: string;
}

/** The files of one run turn (runs/<config>/<chain>/turn<N>/). Absent files are undefined. */
export interface RunTurn {
  config: string;
  chain: string;
  turn: number;
  dir: string;
  log?: string;
  /** Sub-agent logs of the session (`subagents/*.jsonl` beside the log), sorted. */
  companions?: string[];
  submission?: string;
  /** results.xml (JUnit) or results.json (simple form). */
  results?: string;
  meta?: string;
  /** Problems that prevent scoring this turn (empty: scorable as far as the layout goes). */
  blocked: Problem[];
}

/** A corpus as read from disk: everything well-formed enough to be scored, plus its problems. */
export interface Corpus {
  dir: string;
  chains: ChainSpec[];
  configs: ConfigSpec[];
  /** Every run turn found on disk or expected (a chain dir present under a config), sorted. */
  runs: RunTurn[];
}

/** One test case of a turn (tests.json). */
export interface TestCase {
  id: string;
  [key: string]: unknown;
}

/** Outcome of one test case in a results file. */
export interface CaseResult {
  id: string;
  passed: boolean;
  message?: string;
}

/**
 * The figures a turn's meta.json (and a log, lib/logs `LogMeta`) may record, each a number ≥ 0:
 * `cost` (dollars), `steps` (model calls), `seconds` (wall time), `tokens_in` (prompt tokens sent
 * to the model over the turn, cached ones included) and `tokens_out` (tokens it generated,
 * reasoning included).
 */
export const META_FIELDS = ["cost", "steps", "seconds", "tokens_in", "tokens_out"] as const;

/** meta.json of a run turn: the {@link META_FIELDS} it records. */
export type TurnMeta = { [K in typeof META_FIELDS[number]]?: number };
