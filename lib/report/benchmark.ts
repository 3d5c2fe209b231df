/**
 * Table 1 (benchmark statistics): a `tasks` frame read from a corpus's `tasks/` directory
 * (docs/run-logs.md) and the builder over it plus the `turns` frame (for the reuse-target counts).
 *
 * @module
 */
import pl from "nodejs-polars";
import { type TurnRow, turnRows } from "./aggregate.ts";
import { paperRecords } from "./paper.ts";
import type { Row, TableData } from "./table.ts";
import type { TableOptions } from "./tables.ts";

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

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(path));
}

/**
 * Reads `<corpus>/tasks/<chain>/{chain.json, turn<N>/requirement.md, turn<N>/tests.json}` into a
 * `tasks` frame (sorted by chain, turn). Unreadable files are listed in `problems`, never thrown.
 */
export async function readTasks(
  corpusDir: string,
): Promise<{ tasks: pl.DataFrame; problems: TaskProblem[] }> {
  const root = `${corpusDir.replace(/\/+$/, "")}/tasks`;
  const problems: TaskProblem[] = [];
  const rows: TaskTurn[] = [];
  let chains: string[] = [];
  try {
    for await (const e of Deno.readDir(root)) if (e.isDirectory) chains.push(e.name);
  } catch (e) {
    problems.push({ path: root, message: `cannot list tasks: ${(e as Error).message}` });
  }
  chains = chains.sort();
  for (const chain of chains) {
    const chainPath = `${root}/${chain}/chain.json`;
    let turns: { turn?: unknown; functions?: unknown }[];
    try {
      const doc = await readJson(chainPath) as { turns?: unknown };
      if (!Array.isArray(doc.turns)) throw new Error("no `turns` array");
      turns = doc.turns;
    } catch (e) {
      problems.push({ path: chainPath, message: (e as Error).message });
      continue;
    }
    for (const [i, t] of turns.entries()) {
      const turn = typeof t.turn === "number" ? t.turn : i + 1;
      const dir = `${root}/${chain}/turn${turn}`;
      let tests = 0, chars = 0;
      try {
        const doc = await readJson(`${dir}/tests.json`) as { cases?: unknown };
        if (!Array.isArray(doc.cases)) throw new Error("no `cases` array");
        tests = doc.cases.length;
      } catch (e) {
        problems.push({ path: `${dir}/tests.json`, message: (e as Error).message });
        continue;
      }
      try {
        chars = [...await Deno.readTextFile(`${dir}/requirement.md`)].length;
      } catch (e) {
        problems.push({ path: `${dir}/requirement.md`, message: (e as Error).message });
        continue;
      }
      rows.push({
        chain,
        turn,
        tests,
        requirement_chars: chars,
        functions: Array.isArray(t.functions) ? t.functions.length : 0,
      });
    }
  }
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
