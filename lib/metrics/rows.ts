/**
 * The columns of the scored frames, each declared once — name, type, what it holds and where its
 * value comes from, on one line (the way Inspect AI declares its dataframe columns) — and the row
 * types derived from them: `turns`, `targets`, `events`, `tests` and `errors` rows as plain
 * objects. Null where a metric is undefined, never 0.
 *
 * Everything else follows from these declarations: the Polars schemas (lib/frames/schema.ts
 * `schemaOf`), the frame → row decoder (lib/frames/build.ts `decodeRows`, which the report's
 * `turnRows` uses), the checks of cached rows (lib/frames/valid.ts) and the `turns` row's
 * meta columns (lib/metrics/turn.ts copies every column declared `from: "meta"` out of the turn's
 * meta figures, which lib/layout/types.ts `META_FIELDS` lists). A column added here reaches every
 * one of them; the type checker refuses a `from: "meta"` column that the meta figures lack.
 *
 * A declaration is `[type, doc]` or `[type, doc, options]`; the type is a {@link ColumnType},
 * with a trailing `?` when the column may be null (`"f64?"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type RowOf, TURN_COLUMNS } from "./rows.ts";
 * assert.deepEqual(TURN_COLUMNS.reuse_repo, ["f64?", "eq. 1 over repo targets; null when n_repo = 0", { rate: true }]);
 * const row: Pick<RowOf<typeof TURN_COLUMNS>, "turn" | "cost"> = { turn: 1, cost: null };
 * assert.equal(row.cost, null);
 * ```
 * @module
 */
import type { META_FIELDS } from "../layout/mod.ts";

/** Column types of the frames (Polars dtypes: String, Int32, Int64, Float64, Boolean, List(String)). */
export type ColumnType = "str" | "i32" | "i64" | "f64" | "bool" | "str[]";

/** A column's type as declared: {@link ColumnType}, with `?` when it may be null. */
export type ColumnSpec = ColumnType | `${ColumnType}?`;

/** Options of a column declaration. */
export interface ColumnOptions {
  /** A share in [0, 1] (null where undefined); every other numeric column is ≥ 0. */
  readonly rate?: boolean;
  /**
   * Where the value comes from: `"meta"` — the turn's meta figure of the same name (meta.json
   * over the log's own, lib/layout `META_FIELDS`), null when neither records it. Default: the
   * scorer computes it (lib/metrics).
   */
  readonly from?: "meta";
  /** The only values a `str` column takes (its row type is their union). */
  readonly values?: readonly string[];
}

/** One column: `[type, doc]` or `[type, doc, options]`. */
export type ColumnDecl =
  | readonly [ColumnSpec, string]
  | readonly [ColumnSpec, string, ColumnOptions];

/** The columns of one frame, in order. */
export type Columns = Readonly<Record<string, ColumnDecl>>;

type Plain<T> = T extends `${infer B extends ColumnType}?` ? B : T;
type ValueOfType<T> = T extends "str" ? string
  : T extends "i32" | "i64" | "f64" ? number
  : T extends "bool" ? boolean
  : T extends "str[]" ? string[]
  : never;
type ValueOf<D extends ColumnDecl> = D extends readonly [ColumnSpec, string, { values: infer V }]
  ? V extends readonly (infer S)[] ? S : never
  : ValueOfType<Plain<D[0]>>;

/** The plain-object row of a frame with these columns (`null` where a column is nullable). */
export type RowOf<C extends Columns> = {
  -readonly [K in keyof C]: ValueOf<C[K]> | (C[K][0] extends `${string}?` ? null : never);
};

/** The type of a declared column without its nullability (`"f64?"` → `"f64"`). */
export function typeOf(decl: ColumnDecl): ColumnType {
  return decl[0].replace(/\?$/, "") as ColumnType;
}

/** Whether a declared column may be null. */
export function isNullable(decl: ColumnDecl): boolean {
  return decl[0].endsWith("?");
}

/** `turns`: one row per (configuration, chain, turn). Rates are 0..1; null where undefined. */
export const TURN_COLUMNS = {
  harness: ["str", "the configuration's harness (config.json)"],
  model: ["str", "the configuration's model"],
  memory: ["str", "the configuration's memory setting: none | interface | source"],
  chain: ["str", "the chain"],
  turn: ["i32", "turn number, from 1"],
  n_repo: ["i32", "repository targets of the turn"],
  n_self: ["i32", "self targets of the turn (functions of the agent's earlier turns)"],
  reuse_repo: ["f64?", "eq. 1 over repo targets; null when n_repo = 0", { rate: true }],
  reuse_self: ["f64?", "eq. 1 over self targets; null when n_self = 0", { rate: true }],
  recall_repo: ["f64?", "eq. 2 over repo targets; null when n_repo = 0", { rate: true }],
  recall_self: ["f64?", "eq. 2 over self targets; null when n_self = 0", { rate: true }],
  files: ["i32", "distinct files viewed, searched or listed (Files)"],
  lines: ["i32", "distinct (file, line) pairs viewed (Lines)"],
  tests: ["i32", "test cases of the turn (tests.json)"],
  passed: ["i32", "test cases passed"],
  pass_rate: ["f64?", "passed / tests; null when tests = 0", { rate: true }],
  resolved: ["bool", "every test case passed"],
  submitted: ["bool", "the agent left a submission at the required path"],
  reimplemented: ["i32", "targets re-implemented at this turn (|R_{c,t}|)"],
  dup_chain: ["bool", "the chain has a re-implementation at some turn <= t (eq. 3 indicator)"],
  coverage: ["f64?", "share of agent actions the log reader interpreted", { rate: true }],
  cost: ["f64?", "dollars, when meta.json or the log records them", { from: "meta" }],
  steps: ["i32?", "agent steps (model calls), when recorded", { from: "meta" }],
  seconds: ["f64?", "wall time of the turn, when recorded", { from: "meta" }],
  tokens_in: ["i64?", "prompt tokens of the model calls, cached ones too", { from: "meta" }],
  tokens_out: ["i64?", "tokens the model generated, reasoning too", { from: "meta" }],
} as const satisfies Columns;

/** `targets`: one row per (configuration, chain, turn, target). */
export const TARGET_COLUMNS = {
  harness: ["str", "the configuration's harness"],
  model: ["str", "the configuration's model"],
  memory: ["str", "the configuration's memory setting"],
  chain: ["str", "the chain"],
  turn: ["i32", "turn number"],
  target: ["str", "qualified id, e.g. seaborn._core.rules.categorical_order"],
  kind: ["str", "repo | self", { values: ["repo", "self"] }],
  implemented: ["bool", "self target: the agent's earlier file defines it (repo: always true)"],
  read: ["bool", "a line of its body was shown this turn (recall)"],
  reused: ["bool", "the submission calls or references it (reuse)"],
  reimplemented: ["bool", "not reused, yet the submission calls most of its callees"],
  reimplemented_by: ["str?", "submission function with the largest callee overlap"],
  file: ["str?", "workspace-relative path of its body (null when not implemented)"],
  start: ["i32?", "line of the def keyword (CPython ast lineno)"],
  end: ["i32?", "last line of the definition"],
  body_lines: ["i32?", "end - body_start + 1: the lines recall looks at"],
  body_start: ["i32?", "first line of the body block (reads must overlap body_start..end)"],
  callees: ["i32", "|non-builtin callees of the target|"],
  callee_overlap: ["f64?", "share of those callees the submission calls", { rate: true }],
} as const satisfies Columns;

/** `events`: one row per agent action. */
export const EVENT_COLUMNS = {
  harness: ["str", "the configuration's harness"],
  model: ["str", "the configuration's model"],
  memory: ["str", "the configuration's memory setting"],
  chain: ["str", "the chain"],
  turn: ["i32", "turn number"],
  idx: ["i32", "0-based order of the action within the turn"],
  step: ["i32", "the agent step (model call) the action belongs to"],
  kind: ["str", "read | search | list | write | run | other"],
  tool: ["str", "the tool (or shell command) the agent used"],
  command: ["str", "the call as the log records it"],
  paths: ["str[]", "workspace-relative paths the action touched"],
  lines_read: ["i32", "distinct lines this action showed"],
  placed: ["bool", "every line shown was placed in its file"],
} as const satisfies Columns;

/** `tests`: one row per test case. */
export const TEST_COLUMNS = {
  harness: ["str", "the configuration's harness"],
  model: ["str", "the configuration's model"],
  memory: ["str", "the configuration's memory setting"],
  chain: ["str", "the chain"],
  turn: ["i32", "turn number"],
  case: ["str", "test case id (tests.json)"],
  passed: ["bool", "the case passed"],
} as const satisfies Columns;

/** `errors`: one row per problem met while scoring; every unscored turn appears here. */
export const ERROR_COLUMNS = {
  path: ["str", "the file or directory the problem is about, corpus-relative"],
  chain: ["str?", "the chain, when the problem is about one"],
  turn: ["i32?", "the turn, when the problem blocks one"],
  config: ["str?", "the configuration directory, when the problem is about one"],
  message: ["str", "what is wrong"],
} as const satisfies Columns;

/** Plain-object form of a `turns` row (null where undefined). */
export type TurnRow = RowOf<typeof TURN_COLUMNS>;
/** Plain-object form of a `targets` row. */
export type TargetRow = RowOf<typeof TARGET_COLUMNS>;
/** Plain-object form of an `events` row. */
export type EventRow = RowOf<typeof EVENT_COLUMNS>;
/** Plain-object form of a `tests` row. */
export type TestRow = RowOf<typeof TEST_COLUMNS>;
/** Plain-object form of an `errors` row. */
export type ErrorRow = RowOf<typeof ERROR_COLUMNS>;

const ZERO: Record<ColumnType, unknown> = {
  str: "",
  i32: 0,
  i64: 0,
  f64: 0,
  bool: false,
  "str[]": [],
};

/**
 * The value a declared column takes where a row has none: null when the column may be null, else
 * its zero (`""`, 0, false, a new []).
 */
export function missingValue(decl: ColumnDecl): unknown {
  if (isNullable(decl)) return null;
  const t = typeOf(decl);
  return t === "str[]" ? [] : ZERO[t];
}

/**
 * A row with every declared column: the given values, and for the others null (nullable columns)
 * or their zero (`""`, 0, false, []). For hand-made rows (examples, fixtures) that should not
 * list every column, nor change when one is added.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowOf, TURN_COLUMNS } from "./rows.ts";
 * const row = rowOf(TURN_COLUMNS, { chain: "c", turn: 2, reuse_repo: 0.5 });
 * assert.equal(row.turn, 2);
 * assert.equal(row.files, 0);
 * assert.equal(row.reuse_self, null);
 * ```
 */
export function rowOf<C extends Columns>(columns: C, values: Partial<RowOf<C>>): RowOf<C> {
  const row: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(columns)) {
    const v = (values as Record<string, unknown>)[name];
    row[name] = v !== undefined ? v : missingValue(d);
  }
  return row as RowOf<C>;
}

/** The `turns` columns copied from the turn's meta figures (declared `from: "meta"`). */
export type MetaColumn = {
  [K in keyof typeof TURN_COLUMNS]: typeof TURN_COLUMNS[K] extends
    readonly [ColumnSpec, string, { from: "meta" }] ? K : never;
}[keyof typeof TURN_COLUMNS];

// compile-time check: every meta column is a figure that meta.json and the logs can record
const _metaColumnsRecorded: readonly (typeof META_FIELDS)[number][] = [] as MetaColumn[];
void _metaColumnsRecorded;

/** Names of the `turns` columns declared `from: "meta"`, in column order. */
export const META_COLUMNS: readonly MetaColumn[] = Object.entries(TURN_COLUMNS)
  .filter(([, d]) => (d as ColumnDecl)[2]?.from === "meta")
  .map(([name]) => name as MetaColumn);

/** The keys of a turn: configuration, chain and turn number. */
export type TurnKeys = Pick<TurnRow, "harness" | "model" | "memory" | "chain" | "turn">;

/**
 * What one turn scores to (`scoreTurn` in turn.ts): its `turns` row (without `dup_chain`,
 * which depends on the earlier turns of the chain — see `dupChain`), and its `targets`,
 * `events` and `tests` rows.
 */
export interface TurnResult {
  turn: Omit<TurnRow, "dup_chain">;
  targets: TargetRow[];
  events: EventRow[];
  tests: TestRow[];
}
