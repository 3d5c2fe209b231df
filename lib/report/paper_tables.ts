/**
 * Builders of the paper's Tables 1–5 from the scored frames (lib/frames/schema.ts). Pure functions:
 * frames in, {@link TableData} out (render with lib/report/table_render.ts or wrap in a display
 * `Table`). The paper's published values themselves are in lib/report/paper.ts.
 *
 * @module
 */
import type pl from "nodejs-polars";
import {
  asTurnRows,
  byConfig,
  type ConfigKey,
  configMetrics,
  configOrder,
  type Metric,
  metricsByTurn,
  type TurnRow,
  turnsOf,
} from "./aggregate.ts";
import { MEMORIES, memoryLabel, numericFields, orderIndex, paperRecords } from "./paper.ts";
import { type Column, roundTo, type Row, type TableData } from "./table_render.ts";

/** Options shared by the builders. */
export interface TableOptions {
  /** Provenance printed in the table header (default "scored run logs"). */
  provenance?: string;
  /** Show the paper's values and differences (default true). */
  paper?: boolean;
}

/** Tolerance of reuse, recall and correctness cells (points). */
export const TOLERANCE = 5;
/** Tolerance of C_dup cells (points). */
export const TOLERANCE_CDUP = 8;

const DEFAULT_PROVENANCE = "scored run logs";

/** Columns of Tables 2 and 4 in the paper's order. */
export function mainColumns(): Column[] {
  const rate = (key: Metric, group: string, label: string, best = true): Column => ({
    key,
    label,
    group,
    digits: 1,
    best: best ? "max" : undefined,
    tolerance: TOLERANCE,
  });
  return [
    rate("reuse_repo", "Reuse", "repo"),
    rate("reuse_self", "Reuse", "self"),
    rate("recall_repo", "Recall", "repo"),
    rate("recall_self", "Recall", "self"),
    { key: "files", label: "Files", group: "Agent behavior", digits: 1 },
    { key: "lines", label: "Lines", group: "Agent behavior", digits: 0 },
    rate("resolve", "Correctness", "Resolve"),
    rate("pass", "Correctness", "Pass"),
    {
      key: "c_dup",
      label: "C_dup",
      latex: "$C_{\\mathrm{dup}}$",
      group: "Redundancy",
      digits: 1,
      tolerance: TOLERANCE_CDUP,
    },
  ];
}

function sortConfigs<T extends { key: ConfigKey }>(groups: T[]): T[] {
  return [...groups].sort((a, b) => configOrder(a.key, b.key));
}

/** Table 2/4 values of one configuration's rows (report units). */
export function mainValues(rows: readonly TurnRow[]): Record<Metric, number | null> {
  return configMetrics(rows);
}

function paperRow(
  n: 2 | 3 | 4 | 5,
  match: Record<string, string>,
  keyFields: string[],
): Record<string, number | null> | undefined {
  const rec = paperRecords(n).find((r) => Object.entries(match).every(([k, v]) => r[k] === v));
  return rec ? numericFields(rec, keyFields) : undefined;
}

/**
 * The harness × model grid of Tables 2–3: configurations with the requested memory setting (default
 * "interface", the paper's); when the runs have no such configuration and no setting was asked for,
 * every configuration, its memory setting shown beside the model.
 */
function gridOf(rows: TurnRow[], asked: string | undefined) {
  const all = byConfig(rows);
  const memory = asked ?? "interface";
  const picked = all.filter((g) => g.key.memory === memory);
  if (picked.length || asked !== undefined || !all.length) {
    const notes = picked.length ? [] : [`No scored turns with memory setting "${memory}".`];
    return { memory: memory as string | null, groups: sortConfigs(picked), notes };
  }
  return {
    memory: null,
    groups: sortConfigs(all),
    notes: ['No configuration uses the paper\'s default "interface" memory; all are shown.'],
  };
}

function modelLabel(k: ConfigKey, memory: string | null): string {
  return memory === null ? `${k.model} (${k.memory})` : k.model;
}

/**
 * Table 2 (main results): one row per harness × model under `memory` (default "interface", the
 * paper's default setting), every metric macro-averaged over turns; C_dup averaged over the
 * turn-wise rates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { table2 } from "./paper_tables.ts";
 * import { toMarkdown } from "./table_render.ts";
 * import { rowOf, TURN_COLUMNS } from "../metrics/rows.ts";
 * const row = rowOf(TURN_COLUMNS, { harness: "OpenCode", model: "GLM-5.3", memory: "interface",
 *   chain: "c", turn: 1, n_repo: 2, reuse_repo: 0.5, recall_repo: 1, files: 3, lines: 90, tests: 4,
 *   passed: 4, pass_rate: 1, resolved: true, submitted: true, coverage: 1 });
 * const t = table2([row], { provenance: "one hand-made turn" });
 * assert.equal(t.rows[0].values.reuse_repo, 50);
 * assert.equal(t.rows[0].paper?.reuse_repo, 56.1); // the paper's OpenCode × GLM-5.3 cell
 * assert.ok(toMarkdown(t).includes("| OpenCode | GLM-5.3 | 50.0 / 56.1 (-6.1) |"));
 * ```
 */
export function table2(
  turns: pl.DataFrame | TurnRow[],
  opts: TableOptions & { memory?: string } = {},
): TableData {
  const { memory, groups, notes } = gridOf(asTurnRows(turns), opts.memory);
  const rows = gridRows(groups, memory, opts, 2, mainValues);
  return {
    id: "table2",
    title: "Table 2: Main results on RepoReuse",
    caption: "Reuse, recall, correctness and C_dup in %; Files and Lines per turn. All metrics " +
      "macro-averaged over turns where defined (self metrics from turn 2); C_dup averaged over " +
      `the cumulative turn-wise rates. Memory setting: ${
        memory ?? "all"
      }. Best reuse, recall and ` +
      "correctness per column in bold.",
    provenance: opts.provenance ?? DEFAULT_PROVENANCE,
    keys: [{ name: "harness", label: "Harness" }, { name: "model", label: "Model" }],
    columns: mainColumns(),
    rows,
    notes: [
      ...notes,
      ...countsNote(groups),
      ...(rows.some((r) => r.paper)
        ? [
          `Check column: ✓ when every reuse, recall and correctness cell is within ±${TOLERANCE} ` +
          `points of the paper and C_dup within ±${TOLERANCE_CDUP}; otherwise the columns outside.`,
        ]
        : []),
    ],
    groupKeys: true,
  };
}

/** Metrics of Tables 3 and 5 with the turn used as "first" (self reuse: turn 2). */
const TURN_METRICS: { key: Metric; label: string; latex: string; first: number }[] = [
  {
    key: "recall_repo",
    label: "Recall (repo)",
    latex: "$\\mathrm{recall}_{\\mathrm{repo}}$",
    first: 1,
  },
  {
    key: "reuse_repo",
    label: "Reuse (repo)",
    latex: "$\\mathrm{reuse}_{\\mathrm{repo}}$",
    first: 1,
  },
  {
    key: "reuse_self",
    label: "Reuse (self)",
    latex: "$\\mathrm{reuse}_{\\mathrm{self}}$",
    first: 2,
  },
  { key: "c_dup", label: "C_dup", latex: "$C_{\\mathrm{dup}}$", first: 1 },
];

function turnColumns(): Column[] {
  return TURN_METRICS.flatMap((m) => [
    {
      key: `${m.key}_t${m.first}`,
      label: `T${m.first}`,
      group: m.label,
      groupLatex: m.latex,
      digits: 1,
    },
    { key: `${m.key}_t5`, label: "T5", group: m.label, groupLatex: m.latex, digits: 1 },
    {
      key: `${m.key}_delta`,
      label: "Δ",
      latex: "$\\Delta$",
      group: m.label,
      groupLatex: m.latex,
      digits: 1,
      signed: true,
    },
  ]);
}

/**
 * First/last-turn values of one configuration's rows: `<metric>_t1` (`reuse_self_t2`), `<metric>_t5`
 * (the last turn present, labelled T5 as in the paper) and `<metric>_delta` = rounded last − rounded
 * first, so the printed Δ is the difference of the printed values, as in the paper.
 */
export function turnValues(rows: readonly TurnRow[]): Record<string, number | null> {
  const turns = turnsOf(rows);
  const last = turns.length ? turns[turns.length - 1] : 5;
  const at = metricsByTurn(rows);
  const out: Record<string, number | null> = {};
  for (const m of TURN_METRICS) {
    const a = at.get(m.first)?.[m.key] ?? null;
    const b = at.get(last)?.[m.key] ?? null;
    out[`${m.key}_t${m.first}`] = a;
    out[`${m.key}_t5`] = b;
    out[`${m.key}_delta`] = a === null || b === null ? null : roundTo(b, 1) - roundTo(a, 1);
  }
  return out;
}

/** "Scored: 75 chains, 375 turns per configuration." (or per configuration when they differ). */
function countsNote(groups: { key: ConfigKey; rows: TurnRow[] }[]): string[] {
  if (!groups.length) return [];
  const count = (g: { rows: TurnRow[] }) =>
    `${new Set(g.rows.map((r) => r.chain)).size} chains, ${g.rows.length} turns`;
  const all = new Set(groups.map(count));
  return all.size === 1 ? [`Scored: ${[...all][0]} per configuration.`] : [
    `Scored: ${groups.map((g) => `${g.key.harness} · ${g.key.model}: ${count(g)}`).join("; ")}.`,
  ];
}

function lastTurnNote(groups: { rows: TurnRow[] }[]): string[] {
  const lasts = new Set(groups.map((g) => turnsOf(g.rows).at(-1)));
  lasts.delete(5);
  return lasts.size
    ? [`The last turn present is ${[...lasts].join(", ")}, not 5; "T5" columns show it.`]
    : [];
}

/** Table 3 (first and last turn): per harness × model under `memory` (default "interface"). */
export function table3(
  turns: pl.DataFrame | TurnRow[],
  opts: TableOptions & { memory?: string } = {},
): TableData {
  const { memory, groups, notes } = gridOf(asTurnRows(turns), opts.memory);
  return {
    id: "table3",
    title: "Table 3: Recall, reuse, and redundancy at the first and last turn",
    caption:
      "In %. Self reuse is defined from turn 2; Δ is the change from the first to the last " +
      `turn (difference of the rounded values). Memory setting: ${memory ?? "all"}.`,
    provenance: opts.provenance ?? DEFAULT_PROVENANCE,
    keys: [{ name: "harness", label: "Harness" }, { name: "model", label: "Model" }],
    columns: turnColumns(),
    rows: gridRows(groups, memory, opts, 3, turnValues),
    notes: [...notes, ...lastTurnNote(groups)],
    groupKeys: true,
  };
}

/** Rows of Tables 2–3: one per harness × model (paper values under the "interface" memory). */
function gridRows(
  groups: readonly { key: ConfigKey; rows: TurnRow[] }[],
  memory: string | null,
  opts: TableOptions,
  table: 2 | 3,
  values: (rows: readonly TurnRow[]) => Record<string, number | null>,
): Row[] {
  const paper = opts.paper !== false && memory === "interface";
  return groups.map(({ key: k, rows }) => ({
    keys: [k.harness, modelLabel(k, memory)],
    values: values(rows),
    paper: paper
      ? paperRow(table, { harness: k.harness, model: k.model }, ["harness", "model"])
      : undefined,
  }));
}

function memoryGroups(rows: TurnRow[], harness: string, model: string) {
  return byConfig(rows)
    .filter((g) => g.key.harness === harness && g.key.model === model)
    .sort((a, b) =>
      orderIndex(MEMORIES, a.key.memory) - orderIndex(MEMORIES, b.key.memory) ||
      a.key.memory.localeCompare(b.key.memory)
    );
}

/** Options of the memory tables. */
export interface MemoryOptions extends TableOptions {
  /** Default "OpenCode". */
  harness?: string;
  /** Default "Qwen3.7-plus". */
  model?: string;
}

function isPaperCell(o: MemoryOptions): boolean {
  return o.paper !== false && (o.harness ?? "OpenCode") === "OpenCode" &&
    (o.model ?? "Qwen3.7-plus") === "Qwen3.7-plus";
}

/** Rows of Tables 4–5: one per memory setting. */
function memoryRows(
  groups: readonly { key: ConfigKey; rows: TurnRow[] }[],
  opts: MemoryOptions,
  table: 4 | 5,
  values: (rows: readonly TurnRow[]) => Record<string, number | null>,
): Row[] {
  const paper = isPaperCell(opts);
  return groups.map(({ key: k, rows }) => ({
    keys: [memoryLabel(k.memory)],
    values: values(rows),
    paper: paper ? paperRow(table, { memory: k.memory }, ["memory", "label"]) : undefined,
  }));
}

/** Table 4 (memory settings of one harness × model, default OpenCode × Qwen3.7-plus). */
export function table4(turns: pl.DataFrame | TurnRow[], opts: MemoryOptions = {}): TableData {
  const harness = opts.harness ?? "OpenCode", model = opts.model ?? "Qwen3.7-plus";
  const groups = memoryGroups(asTurnRows(turns), harness, model);
  const counts = groups.map((g) =>
    `${memoryLabel(g.key.memory)}: ${new Set(g.rows.map((r) => r.chain)).size} ` +
    `chains, ${g.rows.length} turns`
  );
  return {
    id: "table4",
    title: `Table 4: Effect of historical memory on ${harness} with ${model}`,
    caption: "Reuse, recall, correctness and C_dup in %; agent behavior and C_dup averaged over " +
      "turns. Best reuse, recall and correctness per column in bold.",
    provenance: opts.provenance ?? DEFAULT_PROVENANCE,
    keys: [{ name: "memory", label: "Memory" }],
    columns: mainColumns(),
    rows: memoryRows(groups, opts, 4, mainValues),
    notes: counts.length
      ? [`Scored: ${counts.join("; ")}.`]
      : [`No scored turns of ${harness} with ${model}.`],
  };
}

/** Table 5 (memory settings across turns, default OpenCode × Qwen3.7-plus). */
export function table5(turns: pl.DataFrame | TurnRow[], opts: MemoryOptions = {}): TableData {
  const harness = opts.harness ?? "OpenCode", model = opts.model ?? "Qwen3.7-plus";
  const groups = memoryGroups(asTurnRows(turns), harness, model);
  return {
    id: "table5",
    title: `Table 5: Effect of historical memory across turns on ${harness} with ${model}`,
    caption:
      "In %. Self reuse is defined from turn 2; Δ is the change from the first to the last " +
      "turn (difference of the rounded values).",
    provenance: opts.provenance ?? DEFAULT_PROVENANCE,
    keys: [{ name: "memory", label: "Memory" }],
    columns: turnColumns(),
    rows: memoryRows(groups, opts, 5, turnValues),
    notes: groups.length ? lastTurnNote(groups) : [`No scored turns of ${harness} with ${model}.`],
  };
}
