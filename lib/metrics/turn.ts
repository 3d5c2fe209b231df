/**
 * One turn's rows from its decided inputs (paper §3.3.2): the per-target decisions of
 * `scoreTargets`, reuse (eq. 1, {@link reuse_s}) and recall (eq. 2, {@link recall_s}) of repo and
 * self targets, Files and Lines, pass rate and resolved, and the number of re-implementations
 * |R_{c,t}| (eq. 3 then needs only `dupChain` over the chain). Pure: no file system, no parsing —
 * the caller (lib/frames) reads the corpus and builds the code models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreTurn } from "./turn.ts";
 * const none = { definition: () => undefined, callees: () => [] };
 * const agent = { ...none, resolveModule: () => ({ uses: [], definitions: [] }) } as never;
 * const rows = scoreTurn({
 *   keys: { harness: "h", model: "m", memory: "none", chain: "c", turn: 1 },
 *   targets: [],
 *   model: { agent, w0: none, module: "p.new", submitted: true, earlier: new Map(), w0Path: () => "" },
 *   reads: { format: "x", events: [], reads: {}, files: 2, lines: 10, coverage: 1, meta: {} },
 *   cases: [{ id: "t1", passed: true }, { id: "t2", passed: false }],
 *   meta: { cost: 0.5 },
 * });
 * assert.equal(rows.turn.reuse_repo, null); // no repo target: undefined, never 0
 * assert.equal(rows.turn.pass_rate, 0.5);
 * assert.equal(rows.turn.resolved, false);
 * assert.deepEqual(rows.tests.map((t) => t.case), ["t1", "t2"]);
 * ```
 * @module
 */
import { countLines, type LogMeta, type ReadsResult } from "../logs/mod.ts";
import { type CaseOutcome, passRate, resolved } from "./correctness.ts";
import { recall_s } from "./recall.ts";
import { duplicatedBy } from "./redundancy.ts";
import { reuse_s } from "./reuse.ts";
import {
  type EventRow,
  META_COLUMNS,
  type MetaColumn,
  type TargetRow,
  type TestRow,
  type TurnKeys,
  type TurnResult,
  type TurnRow,
} from "./rows.ts";
import { scoreTargets, type Target, type TargetScore, type TurnModels } from "./targets.ts";

/** Inputs of {@link scoreTurn}. */
export interface TurnInput {
  /** Configuration, chain and turn of the rows. */
  keys: TurnKeys;
  /** The turn's targets (`extractTargets`). */
  targets: readonly Target[];
  /** The code models of the turn (everything `scoreTargets` needs but the reads). */
  model: Omit<TurnModels, "reads">;
  /** What the turn's log showed (lib/logs `parseLog`). */
  reads: ReadsResult;
  /** Outcome of every test case of the turn, in tests.json order. */
  cases: readonly (CaseOutcome & { id: string })[];
  /** Cost figures of the turn (meta.json over the log's own). */
  meta: LogMeta;
}

/** The `turns` row of a turn (without `dup_chain`) from its target decisions. */
function turnRow(input: TurnInput, scores: readonly TargetScore[]): Omit<TurnRow, "dup_chain"> {
  const { keys, reads, cases, meta, model } = input;
  const repo = scores.filter((s) => s.kind === "repo");
  const self = scores.filter((s) => s.kind === "self");
  const reusedIds = (xs: TargetScore[]) => new Set(xs.filter((s) => s.reused).map((s) => s.id));
  return {
    ...keys,
    n_repo: repo.length,
    n_self: self.length,
    reuse_repo: reuse_s(repo.map((s) => s.id), reusedIds(repo)),
    reuse_self: reuse_s(self.map((s) => s.id), reusedIds(self)),
    recall_repo: recall_s(repo.map((s) => s.body), reads.reads),
    recall_self: recall_s(self.map((s) => s.body), reads.reads),
    files: reads.files,
    lines: reads.lines,
    tests: cases.length,
    passed: cases.filter((c) => c.passed).length,
    pass_rate: passRate(cases),
    resolved: resolved(cases),
    submitted: model.submitted,
    reimplemented: scores.filter((s) => s.reimplemented).length,
    coverage: reads.coverage,
    ...metaColumns(meta),
  };
}

/** The `turns` columns declared `from: "meta"` (rows.ts): each meta figure, null when absent. */
function metaColumns(meta: LogMeta): Record<MetaColumn, number | null> {
  const out = {} as Record<MetaColumn, number | null>;
  for (const name of META_COLUMNS) out[name] = meta[name] ?? null;
  return out;
}

/** A `targets` row of one target decision. */
function targetRow(keys: TurnKeys, s: TargetScore): TargetRow {
  return {
    ...keys,
    target: s.id,
    kind: s.kind,
    implemented: s.implemented,
    read: s.read,
    reused: s.reused,
    reimplemented: s.reimplemented,
    reimplemented_by: s.reimplemented_by,
    file: s.body?.file ?? null,
    start: s.defStart,
    end: s.body?.end ?? null,
    body_lines: s.body ? s.body.end - s.body.start + 1 : null,
    body_start: s.body?.start ?? null,
    callees: s.callees,
    callee_overlap: s.callee_overlap,
  };
}

/**
 * Every row of one turn: the `turns` row (all of §3.3.2's per-turn metrics), one `targets` row
 * per target (in the order of `targets`), one `events` row per agent action and one `tests` row
 * per case. Reuse is eq. (1), recall eq. (2) over the targets' bodies, pass/resolve over the
 * cases; `reimplemented` counts the targets re-implemented at this turn.
 */
export function scoreTurn(input: TurnInput): TurnResult {
  const { keys, reads } = input;
  const scores = scoreTargets(input.targets, { ...input.model, reads: reads.reads });
  const events: EventRow[] = reads.events.map((ev, idx) => ({
    ...keys,
    idx,
    step: ev.step,
    kind: ev.kind,
    tool: ev.tool,
    command: ev.command,
    paths: ev.paths,
    lines_read: countLines(ev.lines),
    placed: ev.placed,
  }));
  const tests: TestRow[] = input.cases.map((c) => ({ ...keys, case: c.id, passed: c.passed }));
  return {
    turn: turnRow(input, scores),
    targets: scores.map((s) => targetRow(keys, s)),
    events,
    tests,
  };
}

/**
 * The cumulative duplicated-chain indicator of eq. (3) along one chain: entry t − 1 is
 * {@link duplicatedBy}(chain, t), true when a target was re-implemented at any turn up to t.
 * `reimplemented` holds |R_{c,t}| of the chain's turns in turn order (a missing turn counts as 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dupChain } from "./turn.ts";
 * assert.deepEqual(dupChain([0, 2, 0]), [false, true, true]);
 * ```
 */
export function dupChain(reimplemented: readonly number[]): boolean[] {
  return reimplemented.map((_, i) => duplicatedBy(reimplemented, i + 1));
}
