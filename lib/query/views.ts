/**
 * Ready-made SQL views over the scored frames, registered in every {@link ScoredQuery} context.
 *
 * Each view is plain Polars SQL over the base tables (`turns`, `targets`, `events`, `tests`,
 * `configs`, `errors`; columns in `lib/frames/schema.ts`) or over views defined before it.
 * `docs/queries.md` documents them with examples.
 *
 * @module
 */
import { targetOutcomeSql } from "../metrics/mod.ts";

/** A named SQL view: registered lazily, so it costs nothing until a query reads it. */
export interface View {
  name: string;
  /** One paragraph: what a row is and what the columns mean. */
  doc: string;
  /** Tables or views the view reads (it is registered only when they all exist). */
  needs: string[];
  /** The defining `SELECT`. */
  sql: string;
}

const KEYS = "harness, model, memory, chain, turn";

/**
 * `missed_targets`: targets a turn did not reuse, classed by lib/metrics/outcomes.ts
 * `targetOutcome` as the paper does (§3.3.2): `never_read` (exploration-side gap: none of its
 * lines were read this turn), `read_not_used` (execution-side gap: read, yet not called), or
 * `absent` (a self target the agent never wrote: nothing to read).
 */
export const MISSED_TARGETS: View = {
  name: "missed_targets",
  doc: "One row per (configuration, chain, turn, target) that was not reused; `class` is " +
    "'never_read' (exploration-side gap), 'read_not_used' (execution-side gap) or 'absent' (a " +
    "self target the agent never wrote).",
  needs: ["targets"],
  sql: `SELECT ${KEYS}, target, kind,
  ${targetOutcomeSql()} AS class,
  implemented, read, reimplemented, reimplemented_by, file, start, "end", body_lines
FROM targets
WHERE NOT reused`,
};

/**
 * `reimplementations`: targets the submission re-implemented (paper §3.3.3, lib/metrics
 * `isReimplemented`), with the submission function that re-implements it.
 */
export const REIMPLEMENTATIONS: View = {
  name: "reimplementations",
  doc: "One row per re-implemented target: `reimplemented_by` is the submission function with " +
    "the largest callee overlap; `body_lines` the size of the target's body.",
  needs: ["targets"],
  sql: `SELECT ${KEYS}, target, kind, reimplemented_by, file, start, "end", body_lines,
  callees, callee_overlap, read
FROM targets
WHERE reimplemented`,
};

/**
 * `flips`: the same chain, turn and target scored under two configurations, reused under one and
 * not under the other. Every flip appears once per direction (a → b and b → a), so filter on the
 * `_a` and `_b` columns to compare two configurations; `change` says what happened from a to b.
 */
export const FLIPS: View = {
  name: "flips",
  doc: "One row per ordered pair of configurations (a, b) and (chain, turn, target) where " +
    "`reused` differs; each flip appears in both directions. `change` is 'gained' (reused in b " +
    "only) or 'lost' (reused in a only); `config_a`/`config_b` are 'harness/model/memory'.",
  needs: ["targets"],
  sql: `SELECT a.chain, a.turn, a.target, a.kind,
  a.harness || '/' || a.model || '/' || a.memory AS config_a,
  b.harness || '/' || b.model || '/' || b.memory AS config_b,
  CASE WHEN b.reused THEN 'gained' ELSE 'lost' END AS change,
  a.harness AS harness_a, a.model AS model_a, a.memory AS memory_a,
  b.harness AS harness_b, b.model AS model_b, b.memory AS memory_b,
  a.reused AS reused_a, b.reused AS reused_b,
  a.read AS read_a, b.read AS read_b,
  a.reimplemented AS reimplemented_a, b.reimplemented AS reimplemented_b
FROM targets a
JOIN targets b ON a.chain = b.chain AND a.turn = b.turn AND a.target = b.target AND a.kind = b.kind
WHERE a.reused <> b.reused`,
};

/**
 * `event_paths`: events flattened to one row per (event, path) — actions that touched no path
 * (e.g. `python -m pytest`) do not appear.
 */
export const EVENT_PATHS: View = {
  name: "event_paths",
  doc: "One row per (agent action, workspace-relative path it viewed, searched, listed or " +
    "wrote); `kind` is the action's kind (read|search|list|write|run|other).",
  needs: ["events"],
  sql: `SELECT * FROM (
  SELECT ${KEYS}, idx, step, kind, tool, command, UNNEST(paths) AS path FROM events
) WHERE path IS NOT NULL`,
};

/**
 * `target_reads`: every action that touched the file holding a target of its turn — the file
 * itself (`match` = 'file') or a directory above it (`match` = 'dir', e.g. `grep -rn x pkg/`) —
 * with the target's outcome. Transcript search over it is one query.
 */
export const TARGET_READS: View = {
  name: "target_reads",
  doc: "One row per (action, path, target of the same turn) where the path is the target's " +
    "file (`match` = 'file') or a directory holding it (`match` = 'dir'); carries the command and " +
    "the target's read/reused/reimplemented outcome. `event_kind` is the action's kind, " +
    "`target_kind` repo|self.",
  needs: ["event_paths", "targets"],
  sql: `SELECT p.harness, p.model, p.memory, p.chain, p.turn, p.idx, p.step,
  p.kind AS event_kind, p.tool, p.command, p.path,
  CASE WHEN t.file = p.path THEN 'file' ELSE 'dir' END AS match,
  t.target, t.kind AS target_kind, t.file, t.start, t."end",
  t.read, t.reused, t.reimplemented, t.reimplemented_by
FROM event_paths p
JOIN targets t ON p.harness = t.harness AND p.model = t.model AND p.memory = t.memory
  AND p.chain = t.chain AND p.turn = t.turn
WHERE t.file = p.path OR starts_with(t.file, p.path || '/') OR p.path = '.' OR p.path = ''`,
};

/** All views, in registration order (a view may read the views before it). */
export const VIEWS: readonly View[] = [
  MISSED_TARGETS,
  REIMPLEMENTATIONS,
  FLIPS,
  EVENT_PATHS,
  TARGET_READS,
];
