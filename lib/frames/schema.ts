/**
 * Column schemas of the scored frames (one frame per grain, explicit join keys).
 *
 * A contract between the scorer (`lib/frames/`) and its consumers (`lib/report/`, the `query`
 * command, notebooks). Parquet and CSV files written by `score` have exactly these columns.
 *
 * @module
 */

/** Polars dtype names used in the schemas. */
export type ColumnType = "str" | "i32" | "f64" | "bool" | "str[]";

/**
 * Short names of Polars dtypes (`Float64` → `f64`), the vocabulary of {@link ColumnType}; the
 * `query` command's schema listing and the notebooks' frame headers print dtypes with them.
 */
export const DTYPE_SHORT_NAMES: Readonly<Record<string, string>> = {
  String: "str",
  Utf8: "str",
  Bool: "bool",
  Boolean: "bool",
  Float64: "f64",
  Float32: "f32",
  Int64: "i64",
  Int32: "i32",
  Int16: "i16",
  Int8: "i8",
  UInt64: "u64",
  UInt32: "u32",
  UInt16: "u16",
  UInt8: "u8",
};

/** Configuration join keys. */
export const CONFIG_KEYS = ["harness", "model", "memory"] as const;
/** Turn join keys. */
export const TURN_KEYS = [...CONFIG_KEYS, "chain", "turn"] as const;

/**
 * The numeric columns that hold a share, in [0, 1] (null where undefined). Every other numeric
 * column of the schemas is a count, a line number or an amount (cost, seconds): ≥ 0.
 */
export const RATE_COLUMNS: ReadonlySet<string> = new Set([
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "pass_rate",
  "coverage",
  "callee_overlap",
]);

/** `turns`: one row per (configuration, chain, turn). Rates are 0..1; null where undefined. */
export const TURNS_SCHEMA: Record<string, ColumnType> = {
  harness: "str",
  model: "str",
  memory: "str",
  chain: "str",
  turn: "i32",
  n_repo: "i32",
  n_self: "i32",
  reuse_repo: "f64", // eq. 1, null when n_repo = 0
  reuse_self: "f64",
  recall_repo: "f64", // eq. 2, null when n_repo = 0
  recall_self: "f64",
  files: "i32",
  lines: "i32",
  tests: "i32",
  passed: "i32",
  pass_rate: "f64", // null when tests = 0
  resolved: "bool",
  submitted: "bool",
  reimplemented: "i32", // number of targets re-implemented at this turn (|R_{c,t}|)
  dup_chain: "bool", // chain has a re-implementation at some turn <= t (eq. 3 indicator)
  coverage: "f64", // share of agent actions the log reader interpreted
  cost: "f64", // null when the log / meta.json lacks it
  steps: "i32",
  seconds: "f64",
};

/** `targets`: one row per (configuration, chain, turn, target). */
export const TARGETS_SCHEMA: Record<string, ColumnType> = {
  harness: "str",
  model: "str",
  memory: "str",
  chain: "str",
  turn: "i32",
  target: "str", // qualified id, e.g. seaborn._core.rules.categorical_order
  kind: "str", // repo | self
  implemented: "bool", // self target: the agent's earlier file defines it (repo: always true)
  read: "bool",
  reused: "bool",
  reimplemented: "bool",
  reimplemented_by: "str", // submission function with the largest callee overlap, when reimplemented
  file: "str", // workspace-relative path of the target's body (null when not implemented)
  start: "i32", // line of the def keyword (CPython ast lineno)
  end: "i32",
  body_lines: "i32", // end - body_start + 1: the lines recall looks at
  body_start: "i32", // first line of the body block (recall: reads must overlap body_start..end)
  callees: "i32", // |non-builtin callees of the target|
  callee_overlap: "f64", // share of those callees the submission calls (null when callees = 0)
};

/** `events`: one row per agent action. */
export const EVENTS_SCHEMA: Record<string, ColumnType> = {
  harness: "str",
  model: "str",
  memory: "str",
  chain: "str",
  turn: "i32",
  idx: "i32", // 0-based order of the action within the turn
  step: "i32",
  kind: "str",
  tool: "str",
  command: "str",
  paths: "str[]",
  lines_read: "i32", // distinct lines this action showed
  placed: "bool",
};

/** `tests`: one row per test case. */
export const TESTS_SCHEMA: Record<string, ColumnType> = {
  harness: "str",
  model: "str",
  memory: "str",
  chain: "str",
  turn: "i32",
  case: "str",
  passed: "bool",
};

/** `errors`: one row per problem met while scoring; every unscored turn appears here. */
export const ERRORS_SCHEMA: Record<string, ColumnType> = {
  path: "str",
  chain: "str",
  turn: "i32",
  config: "str",
  message: "str",
};

export type { ErrorRow, EventRow, TargetRow, TestRow, TurnRow } from "../metrics/rows.ts";

/** `configs`: one row per configuration found. */
export const CONFIGS_SCHEMA: Record<string, ColumnType> = {
  harness: "str",
  model: "str",
  memory: "str",
  chains: "i32", // chains with at least one scored turn
  turns: "i32", // turns scored
};

/** Plain-object form of a `configs` row. */
export interface ConfigRow {
  harness: string;
  model: string;
  memory: string;
  chains: number;
  turns: number;
}
