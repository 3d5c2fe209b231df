/**
 * Shape checks of cached rows: an entry of the scored-turn cache is used only when every row has
 * the declared columns (lib/metrics/rows.ts) with values of the right type (null only where a column may be null) and the keys of the turn it
 * stands for. Anything else — a truncated write of an older version, a hand edit, valid JSON of
 * another shape — is a miss, and the turn is scored again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTurnResult } from "./valid.ts";
 * const keys = { harness: "h", model: "m", memory: "none", chain: "c", turn: 1 };
 * assert.equal(isTurnResult({ turn: keys, targets: [], events: [], tests: [] }, keys), false);
 * assert.equal(isTurnResult([], keys), false);
 * ```
 * @module
 */
import type { TurnKeys, TurnResult } from "../metrics/mod.ts";
import {
  type Columns,
  type ColumnType,
  EVENT_COLUMNS,
  isNullable,
  TARGET_COLUMNS,
  TEST_COLUMNS,
  TURN_COLUMNS,
  TURN_KEYS,
  typeOf,
} from "./schema.ts";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hasType(v: unknown, t: ColumnType): boolean {
  switch (t) {
    case "str":
      return typeof v === "string";
    case "i32":
    case "i64":
      return typeof v === "number" && Number.isInteger(v);
    case "f64":
      return typeof v === "number" && Number.isFinite(v);
    case "bool":
      return typeof v === "boolean";
    case "str[]":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
  }
}

/**
 * Whether `row` has every declared column (but `skip`) with a value of its type, or null where
 * the column is nullable.
 */
export function matchesColumns(
  row: unknown,
  columns: Columns,
  skip: readonly string[] = [],
): boolean {
  if (!isObject(row)) return false;
  for (const [col, d] of Object.entries(columns)) {
    if (skip.includes(col)) continue;
    if (!(col in row)) return false;
    const v = row[col];
    if (v === null ? !isNullable(d) : !hasType(v, typeOf(d))) return false;
  }
  return true;
}

function rowsOfTurn(rows: unknown, columns: Columns, keys: TurnKeys): boolean {
  return Array.isArray(rows) &&
    rows.every((r) => matchesColumns(r, columns) && TURN_KEYS.every((k) => r[k] === keys[k]));
}

/** Whether a cached value is the complete result of the turn with these keys. */
export function isTurnResult(v: unknown, keys: TurnKeys): v is TurnResult {
  if (!isObject(v)) return false;
  const turn = v.turn;
  return matchesColumns(turn, TURN_COLUMNS, ["dup_chain"]) &&
    TURN_KEYS.every((k) => (turn as Record<string, unknown>)[k] === keys[k]) &&
    rowsOfTurn(v.targets, TARGET_COLUMNS, keys) &&
    rowsOfTurn(v.events, EVENT_COLUMNS, keys) &&
    rowsOfTurn(v.tests, TEST_COLUMNS, keys);
}
