/**
 * Shape checks of cached rows: an entry of the scored-turn cache is used only when every row has
 * the columns of its schema (schema.ts) with values of the right type and the keys of the turn it
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
import type { TurnKeys, TurnResult } from "../metrics/rows.ts";
import {
  type ColumnType,
  EVENTS_SCHEMA,
  TARGETS_SCHEMA,
  TESTS_SCHEMA,
  TURN_KEYS,
  TURNS_SCHEMA,
} from "./schema.ts";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hasType(v: unknown, t: ColumnType): boolean {
  if (v === null) return true;
  switch (t) {
    case "str":
      return typeof v === "string";
    case "i32":
    case "f64":
      return typeof v === "number" && Number.isFinite(v);
    case "bool":
      return typeof v === "boolean";
    case "str[]":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
  }
}

/** Whether `row` has every column of `schema` (but `skip`) with a value of its type or null. */
export function matchesSchema(
  row: unknown,
  schema: Record<string, ColumnType>,
  skip: readonly string[] = [],
): boolean {
  if (!isObject(row)) return false;
  for (const [col, t] of Object.entries(schema)) {
    if (skip.includes(col)) continue;
    if (!(col in row) || !hasType(row[col], t)) return false;
  }
  return true;
}

function rowsOfTurn(
  rows: unknown,
  schema: Record<string, ColumnType>,
  keys: TurnKeys,
): boolean {
  return Array.isArray(rows) &&
    rows.every((r) => matchesSchema(r, schema) && TURN_KEYS.every((k) => r[k] === keys[k]));
}

/** Whether a cached value is the complete result of the turn with these keys. */
export function isTurnResult(v: unknown, keys: TurnKeys): v is TurnResult {
  if (!isObject(v)) return false;
  const turn = v.turn;
  return matchesSchema(turn, TURNS_SCHEMA, ["dup_chain"]) &&
    TURN_KEYS.every((k) => (turn as Record<string, unknown>)[k] === keys[k]) &&
    rowsOfTurn(v.targets, TARGETS_SCHEMA, keys) &&
    rowsOfTurn(v.events, EVENTS_SCHEMA, keys) &&
    rowsOfTurn(v.tests, TESTS_SCHEMA, keys);
}
