/**
 * The rows a scored turn yields, as plain objects (the columns of lib/frames/schema.ts, where
 * they become Polars frames): `turns`, `targets`, `events`, `tests` and `errors` rows. Null where
 * a metric is undefined, never 0.
 *
 * @module
 */

/** Plain-object form of a `turns` row (null where undefined). */
export interface TurnRow {
  harness: string;
  model: string;
  memory: string;
  chain: string;
  turn: number;
  n_repo: number;
  n_self: number;
  reuse_repo: number | null;
  reuse_self: number | null;
  recall_repo: number | null;
  recall_self: number | null;
  files: number;
  lines: number;
  tests: number;
  passed: number;
  pass_rate: number | null;
  resolved: boolean;
  submitted: boolean;
  reimplemented: number;
  dup_chain: boolean;
  coverage: number | null;
  cost: number | null;
  steps: number | null;
  seconds: number | null;
}

/** Plain-object form of a `targets` row. */
export interface TargetRow {
  harness: string;
  model: string;
  memory: string;
  chain: string;
  turn: number;
  target: string;
  kind: "repo" | "self";
  implemented: boolean;
  read: boolean;
  reused: boolean;
  reimplemented: boolean;
  reimplemented_by: string | null;
  file: string | null;
  start: number | null;
  end: number | null;
  body_lines: number | null;
  body_start: number | null;
  callees: number;
  callee_overlap: number | null;
}

/** Plain-object form of an `events` row. */
export interface EventRow {
  harness: string;
  model: string;
  memory: string;
  chain: string;
  turn: number;
  idx: number;
  step: number;
  kind: string;
  tool: string;
  command: string;
  paths: string[];
  lines_read: number;
  placed: boolean;
}

/** Plain-object form of a `tests` row. */
export interface TestRow {
  harness: string;
  model: string;
  memory: string;
  chain: string;
  turn: number;
  case: string;
  passed: boolean;
}

/** Plain-object form of an `errors` row. */
export interface ErrorRow {
  path: string;
  chain: string | null;
  turn: number | null;
  config: string | null;
  message: string;
}

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
