/**
 * Column schemas of the scored frames (one frame per grain, explicit join keys), derived from the
 * column declarations of lib/metrics/rows.ts (and `configs` here): each column is declared once.
 *
 * A contract between the scorer (`lib/frames/`) and its consumers (`lib/report/`, the `query`
 * command, notebooks). Parquet and CSV files written by `score` have exactly these columns.
 *
 * @module
 */
import {
  type Columns,
  type ColumnType,
  ERROR_COLUMNS,
  EVENT_COLUMNS,
  type RowOf,
  TARGET_COLUMNS,
  TEST_COLUMNS,
  TURN_COLUMNS,
  typeOf,
} from "../metrics/mod.ts";

export type { ColumnType };

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
 * The Polars schema of declared columns (lib/metrics/rows.ts): name → {@link ColumnType}, in
 * declaration order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schemaOf } from "./schema.ts";
 * assert.deepEqual(schemaOf({ a: ["str", "x"], b: ["f64?", "y", { rate: true }] }), { a: "str", b: "f64" });
 * ```
 */
export function schemaOf(columns: Columns): Record<string, ColumnType> {
  return Object.fromEntries(Object.entries(columns).map(([name, d]) => [name, typeOf(d)]));
}

/** `turns`: one row per (configuration, chain, turn) — {@link TURN_COLUMNS}. */
export const TURNS_SCHEMA: Record<string, ColumnType> = schemaOf(TURN_COLUMNS);
/** `targets`: one row per (configuration, chain, turn, target) — {@link TARGET_COLUMNS}. */
export const TARGETS_SCHEMA: Record<string, ColumnType> = schemaOf(TARGET_COLUMNS);
/** `events`: one row per agent action — {@link EVENT_COLUMNS}. */
export const EVENTS_SCHEMA: Record<string, ColumnType> = schemaOf(EVENT_COLUMNS);
/** `tests`: one row per test case — {@link TEST_COLUMNS}. */
export const TESTS_SCHEMA: Record<string, ColumnType> = schemaOf(TEST_COLUMNS);
/** `errors`: one row per problem met while scoring — {@link ERROR_COLUMNS}. */
export const ERRORS_SCHEMA: Record<string, ColumnType> = schemaOf(ERROR_COLUMNS);

export {
  type ColumnDecl,
  type Columns,
  ERROR_COLUMNS,
  type ErrorRow,
  EVENT_COLUMNS,
  type EventRow,
  isNullable,
  missingValue,
  type RowOf,
  TARGET_COLUMNS,
  type TargetRow,
  TEST_COLUMNS,
  type TestRow,
  TURN_COLUMNS,
  type TurnRow,
  typeOf,
} from "../metrics/mod.ts";

/** `configs`: one row per configuration found. */
export const CONFIG_COLUMNS = {
  harness: ["str", "the configuration's harness"],
  model: ["str", "the configuration's model"],
  memory: ["str", "the configuration's memory setting"],
  chains: ["i32", "chains with at least one scored turn"],
  turns: ["i32", "turns scored"],
} as const satisfies Columns;

/** `configs` — {@link CONFIG_COLUMNS}. */
export const CONFIGS_SCHEMA: Record<string, ColumnType> = schemaOf(CONFIG_COLUMNS);

/** Plain-object form of a `configs` row. */
export type ConfigRow = RowOf<typeof CONFIG_COLUMNS>;

/** The declared columns of each scored frame, by frame name. */
export const FRAME_COLUMNS = {
  turns: TURN_COLUMNS,
  targets: TARGET_COLUMNS,
  events: EVENT_COLUMNS,
  tests: TEST_COLUMNS,
  errors: ERROR_COLUMNS,
  configs: CONFIG_COLUMNS,
} as const;

/** The Polars schema of each scored frame, by frame name. */
export const FRAME_SCHEMAS: Record<keyof typeof FRAME_COLUMNS, Record<string, ColumnType>> = {
  turns: TURNS_SCHEMA,
  targets: TARGETS_SCHEMA,
  events: EVENTS_SCHEMA,
  tests: TESTS_SCHEMA,
  errors: ERRORS_SCHEMA,
  configs: CONFIGS_SCHEMA,
};

/**
 * The numeric columns that hold a share, in [0, 1] (null where undefined): those declared
 * `rate: true`. Every other numeric column of the schemas is a count, a line number or an amount
 * (cost, seconds): ≥ 0.
 */
export const RATE_COLUMNS: ReadonlySet<string> = new Set(
  Object.values(FRAME_COLUMNS).flatMap((cols) =>
    Object.entries(cols as Columns).filter(([, d]) => d[2]?.rate).map(([name]) => name)
  ),
);
