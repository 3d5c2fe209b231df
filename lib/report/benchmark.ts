/**
 * Table 1 (benchmark statistics): a `tasks` frame read from a corpus's `tasks/` directory
 * (docs/run-logs.md) and the builder over it plus the `turns` frame (for the reuse-target counts).
 *
 * @module
 */
import pl from "nodejs-polars";
import { relative, sep } from "node:path";
import { readCorpus } from "../layout/mod.ts";
import { type TurnRow, turnRows } from "./aggregate.ts";
import { paperRecords } from "./paper.ts";
import type { Row, TableData } from "./table_render.ts";
import type { TableOptions } from "./paper_tables.ts";

/** Columns of the `tasks` frame: one row per (chain, turn) of the benchmark. */
export const TASKS_COLUMNS = ["chain", "turn", "tests", "requirement_chars", "functions"] as const;

/** One benchmark turn. */
export interface TaskTurn {
  chain: string;
  turn: number;
  /** Test cases in tests.json. */
  tests: number;
  /** Characters (Unicode code points) of requirement.md. */
  requirement_chars: number;
  /** Functions the turn asks for (chain.json). */
  functions: number;
}

/** A problem met while reading the tasks. */
export interface TaskProblem {
  path: string;
  message: string;
}

/**
 * Reads the benchmark side of a corpus (`tasks/`, read with lib/layout's `readCorpus`, so the
 * chains are those the scorer sees) into a `tasks` frame sorted by chain and turn: test cases from
 * tests.json, functions from chain.json, characters (code points) of requirement.md. Turns whose
 * tests.json or requirement.md cannot be read are left out and listed in `problems` (as are the
 * layout's other task-side problems); nothing is thrown.
 */
export async function readTasks(
  corpusDir: string,
): Promise<{ tasks: pl.DataFrame; problems: TaskProblem[] }> {
  let read;
  try {
    read = await readCorpus(corpusDir);
  } catch (e) {
    return {
      tasks: tasksFrame([]),
      problems: [{ path: corpusDir, message: (e as Error).message }],
    };
  }
  const problems: TaskProblem[] = read.problems
    .filter((p) => !p.path.startsWith("runs"))
    .map((p) => ({ path: p.path, message: p.message }));
  const unusable = new Set(problems.map((p) => p.path));
  const rows: TaskTurn[] = [];
  const rel = (path: string) => relative(read.corpus.dir, path).split(sep).join("/");
  for (const chain of read.corpus.chains) {
    for (const t of chain.turns) {
      if (unusable.has(rel(t.tests))) continue;
      let chars: number;
      try {
        chars = [...await Deno.readTextFile(t.requirement)].length;
      } catch (e) {
        problems.push({ path: rel(t.requirement), message: (e as Error).message });
        continue;
      }
      rows.push({
        chain: chain.chain,
        turn: t.turn,
        tests: t.cases.length,
        requirement_chars: chars,
        functions: t.functions.length,
      });
    }
  }
  rows.sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : a.turn - b.turn));
  return { tasks: tasksFrame(rows), problems };
}

/** A `tasks` frame from rows (columns {@link TASKS_COLUMNS}, integer columns as Int32). */
export function tasksFrame(rows: readonly TaskTurn[]): pl.DataFrame {
  return pl.DataFrame({
    chain: pl.Series("chain", rows.map((r) => r.chain), pl.Utf8),
    turn: pl.Series("turn", rows.map((r) => r.turn), pl.Int32),
    tests: pl.Series("tests", rows.map((r) => r.tests), pl.Int32),
    requirement_chars: pl.Series(
      "requirement_chars",
      rows.map((r) => r.requirement_chars),
      pl.Int32,
    ),
    functions: pl.Series("functions", rows.map((r) => r.functions), pl.Int32),
  });
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Mean over distinct (chain, turn ≥ 2) of a target count (averaged across configurations first). */
function targetsPerTurn(rows: TurnRow[], key: "n_repo" | "n_self"): number | null {
  const per = new Map<string, number[]>();
  for (const r of rows) {
    const v = r[key];
    if (r.turn < 2 || v === null) continue;
    const id = `${r.chain}\u0000${r.turn}`;
    const list = per.get(id);
    if (list) list.push(v);
    else per.set(id, [v]);
  }
  return mean([...per.values()].map((vs) => mean(vs)!));
}

/**
 * Table 1 (statistics of the benchmark): chains, turns per chain, test cases and requirement length
 * per turn and new functions per turn from the `tasks` frame; reused symbols per turn (repo / self,
 * turns 2 onward as in §3.2) from the `turns` frame's target counts.
 */
export function table1(
  tasks: pl.DataFrame,
  turns?: pl.DataFrame | TurnRow[],
  opts: TableOptions = {},
): TableData {
  const recs = tasks.toRecords() as Record<string, unknown>[];
  const t = recs.map((r) => ({
    chain: String(r.chain),
    tests: Number(r.tests),
    chars: Number(r.requirement_chars),
    functions: Number(r.functions),
  }));
  const chains = new Set(t.map((r) => r.chain)).size;
  const trs = turns === undefined ? [] : Array.isArray(turns) ? turns : turnRows(turns);
  const values: Record<string, number | null> = {
    tasks: chains,
    turns_per_task: chains ? t.length / chains : null,
    tests_per_turn: mean(t.map((r) => r.tests)),
    requirement_chars: mean(t.map((r) => r.chars)),
    new_functions_per_turn: mean(t.map((r) => r.functions)),
    reused_repo_per_turn: targetsPerTurn(trs, "n_repo"),
    reused_self_per_turn: targetsPerTurn(trs, "n_self"),
  };
  const digits: Record<string, number> = {
    tasks: 0,
    turns_per_task: 1,
    tests_per_turn: 1,
    requirement_chars: 0,
    new_functions_per_turn: 0,
    reused_repo_per_turn: 1,
    reused_self_per_turn: 1,
  };
  const labels: Record<string, string> = {
    reused_repo_per_turn: "Reused symbols per turn (repo)",
    reused_self_per_turn: "Reused symbols per turn (self)",
  };
  const rows: Row[] = paperRecords(1).map((p) => ({
    keys: [labels[p.key] ?? p.statistic],
    values: { value: values[p.key] ?? null },
    paper: opts.paper === false ? undefined : { value: Number(p.value) },
    digits: { value: digits[p.key] ?? 1 },
  }));
  return {
    id: "table1",
    title: "Table 1: Statistics of RepoReuse",
    caption: "Per-turn statistics are means over the benchmark's turns; reused symbols per turn " +
      "count the reference solution's repo and self targets from turn 2 onward (§3.2). The paper " +
      "prints the requirement length as ~2,570 and the reused symbols as one cell, 1.9 / 2.4.",
    provenance: opts.provenance ?? "scored run logs",
    keys: [{ name: "statistic", label: "Statistic" }],
    columns: [{ key: "value", label: "Value", digits: 1 }],
    rows,
    notes: [],
  };
}
