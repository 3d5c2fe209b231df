/**
 * The held-out evaluation of the log readers (issue 23, "Done when"):
 *
 * ```sh
 * deno task logs-eval [data/logs/eval] [--json] [--verbose] [--min-recall 98]
 * ```
 *
 * reads every log of `<dir>/manifest.json` with today's readers (detection included, the way
 * `reporeuse reads` does; `--cwd` only where the manifest gives one, for logs that do not record
 * their workspace), compares the credited lines with the independent labels in
 * `<dir>/labels/<id>.json` (written by `<dir>/label.py` from the raw tool results) and prints,
 * per harness and overall: files read / refused / misdetected, lines shown, credited, recall,
 * must-not lines credited, and credited keys outside the workspace.
 *
 * A log's `expect` is the format its own reader reports, or `refuse` (no reader for it yet: it
 * must be refused with "unsupported log format: looks like …"). A log read as another format, or
 * a `refuse` log read by a reader other than the family named in its `after`, is misdetected; a
 * log read by its `after` family (a reader added since) is scored. A log with an `expect` format
 * that is refused counts as refused, its labelled lines as missed.
 *
 * Exit codes: 0 when no must-not line and no outside key is credited, no log is misdetected and
 * (with `--min-recall P`) the overall recall is at least P %; 1 otherwise; 2 on unusable input (no
 * manifest, a label file missing, a bad option).
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import {
  LogFormatError,
  type LogLabels,
  readerOf,
  READERS,
  readLog,
  type ReadsScore,
  recall,
  scoreReads,
} from "../lib/logs/mod.ts";

/** One manifest entry. */
export interface EvalLog {
  id: string;
  path: string;
  harness: string;
  /** The format its reader reports, or "refuse". */
  expect: string;
  /** The reader family (a registry name, e.g. "openhands", "cline") that must read it later. */
  after?: string | null;
  /** label.py's rule set; null: no labels. */
  rules: string | null;
  cwd?: string;
}

/** What happened to one log. */
export interface EvalRow {
  id: string;
  harness: string;
  outcome: "read" | "refused" | "misdetected" | "error";
  format?: string;
  message?: string;
  score?: ReadsScore;
  coverage?: number;
  /** Counts in recall: a reader exists for it (`expect` is a format) or one read it. */
  scored: boolean;
}

/** Totals of a group of rows. */
export interface EvalTotals {
  logs: number;
  read: number;
  refused: number;
  misdetected: number;
  shown: number;
  credited: number;
  mustNot: number;
  outside: number;
  /** Labelled calls (reads) and those fully credited. */
  probes: number;
  probesCredited: number;
  /** Labelled lines of logs refused today for want of a reader (not in recall). */
  unscored: number;
}

/** A refusal that names the bytes, not the format: misleading for a well-formed log. */
const MISLEADING = /invalid JSON|Unexpected token|in JSON at position/i;

/** Does the file parse as JSON, or as JSONL line by line? (A directory counts as not.) */
async function wellFormed(file: string): Promise<boolean> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch {
    return false; // unreadable (a session directory): the refusal is not blamed on its JSON
  }
  try {
    JSON.parse(text);
    return true;
  } catch {
    // not one JSON document: try JSON Lines below
  }
  try {
    for (const l of text.split("\n")) if (l.trim()) JSON.parse(l);
    return true;
  } catch {
    return false; // broken JSON: "invalid JSON" is then the right answer
  }
}

/** Reads and scores one log. */
export async function evalLog(dir: string, log: EvalLog, labels?: LogLabels): Promise<EvalRow> {
  const row: EvalRow = {
    id: log.id,
    harness: log.harness,
    outcome: "error",
    scored: log.expect !== "refuse",
  };
  const file = join(dir, log.path);
  try {
    const r = await readLog(file, log.cwd ? { cwd: log.cwd } : {});
    row.format = r.format;
    row.coverage = r.coverage;
    // `after` names the family of a reader added since: the registry name of any reader of that
    // family (the same harness), its preset or harness name
    const reader = readerOf(r.format);
    const family = reader ? READERS.filter((x) => x.harness === reader.harness) : [];
    const names = family.flatMap((x) => [x.name, x.run?.name, ...x.harnessNames]);
    const own = log.expect === "refuse"
      ? log.after != null && names.includes(log.after)
      : r.format === log.expect;
    row.outcome = own ? "read" : "misdetected";
    if (own) row.scored = true;
    if (!own) {
      row.message = log.expect === "refuse"
        ? `read as ${r.format}, expected a refusal${
          log.after ? ` (or the ${log.after} reader)` : ""
        }`
        : `read as ${r.format}, expected ${log.expect}`;
    }
    if (labels) row.score = scoreReads(r.reads, labels);
  } catch (e) {
    if (!(e instanceof LogFormatError)) throw e;
    row.message = e.message.slice(e.file.length + 2);
    // a refusal with its reason is right for a format without a reader; one that blames the
    // JSON of a valid log ("invalid JSON … position N") is a misleading answer, counted as a
    // misdetection; a log of a supported format refused is a miss (its lines are missed)
    row.outcome = MISLEADING.test(row.message) && await wellFormed(file)
      ? "misdetected"
      : "refused";
    if (labels) row.score = scoreReads({}, labels);
  }
  return row;
}

/** Sums rows. */
export function totals(rows: readonly EvalRow[]): EvalTotals {
  const t: EvalTotals = {
    logs: 0,
    read: 0,
    refused: 0,
    misdetected: 0,
    shown: 0,
    credited: 0,
    mustNot: 0,
    outside: 0,
    probes: 0,
    probesCredited: 0,
    unscored: 0,
  };
  for (const r of rows) {
    t.logs++;
    if (r.outcome === "read") t.read++;
    else if (r.outcome === "refused") t.refused++;
    else t.misdetected++;
    if (r.scored) {
      t.shown += r.score?.shown ?? 0;
      t.credited += r.score?.credited ?? 0;
      t.probes += r.score?.probes ?? 0;
      t.probesCredited += r.score?.probesCredited ?? 0;
    } else t.unscored += r.score?.shown ?? 0;
    t.mustNot += r.score?.mustNotCredited ?? 0;
    t.outside += r.score?.outsideKeys.length ?? 0;
  }
  return t;
}

/** The table printed: one line per harness, then the total. */
export function table(rows: readonly EvalRow[]): string {
  const groups = new Map<string, EvalRow[]>();
  for (const r of rows) groups.set(r.harness, [...(groups.get(r.harness) ?? []), r]);
  const head = [
    "harness",
    "logs",
    "read",
    "refused",
    "misdetected",
    "reads credited",
    "lines shown",
    "credited",
    "recall %",
    "must-not credited",
    "outside keys",
    "lines of logs without a reader",
  ];
  const line = (
    name: string,
    t: EvalTotals,
  ) => [
    name,
    t.logs,
    t.read,
    t.refused,
    t.misdetected,
    `${t.probesCredited}/${t.probes}`,
    t.shown,
    t.credited,
    t.shown ? recall(t.credited, t.shown).toFixed(1) : "—",
    t.mustNot,
    t.outside,
    t.unscored,
  ];
  const body = [...groups].map(([h, rs]) => line(h, totals(rs)));
  body.push(line("all", totals(rows)));
  const cells = [head, ...body].map((r) => r.map(String));
  const width = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    "| " + r.map((c, i) => i === 0 ? c.padEnd(width[i]) : c.padStart(width[i])).join(" | ") + " |";
  return [
    fmt(cells[0]),
    "|" + width.map((w, i) => (i ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|") + "|",
    ...cells.slice(1).map(fmt),
  ].join("\n");
}

/** Runs the evaluation on a directory; returns the rows. */
export async function evaluate(dir: string): Promise<EvalRow[]> {
  const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json"))) as {
    logs: EvalLog[];
  };
  const rows: EvalRow[] = [];
  for (const log of manifest.logs) {
    let labels: LogLabels | undefined;
    if (log.rules) {
      const f = join(dir, "labels", `${log.id}.json`);
      try {
        labels = JSON.parse(await Deno.readTextFile(f)) as LogLabels;
      } catch (e) {
        throw new Error(`${f}: ${e instanceof Error ? e.message : e} (run label.py)`);
      }
    }
    rows.push(await evalLog(dir, log, labels));
  }
  return rows;
}

/** Per-log detail lines. */
export function details(rows: readonly EvalRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const s = r.score;
    const rec = s ? ` ${s.credited}/${s.shown} (${recall(s.credited, s.shown).toFixed(1)} %)` : "";
    out.push(
      `${r.id}: ${r.outcome}${r.format ? ` as ${r.format}` : ""}${rec}` +
        (r.coverage !== undefined ? ` coverage ${r.coverage.toFixed(2)}` : "") +
        (r.message ? ` — ${r.message.split("\n")[0].slice(0, 160)}` : ""),
    );
    if (!s) continue;
    for (const [p, rs] of Object.entries(s.missed)) {
      out.push(`  missed ${p}: ${rs.map(([a, b]) => a === b ? `${a}` : `${a}-${b}`).join(",")}`);
    }
    for (const [p, ls] of Object.entries(s.mustNotHits)) {
      out.push(`  MUST-NOT credited ${p}: ${ls.join(",")}`);
    }
    for (const k of s.outsideKeys) out.push(`  OUTSIDE key credited: ${k}`);
  }
  return out.join("\n");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
      "min-recall": { type: "string" },
    },
    allowPositionals: true,
  });
  const dir = positionals[0] ?? "data/logs/eval";
  let rows: EvalRow[];
  try {
    rows = await evaluate(dir);
  } catch (e) {
    console.error(`logs-eval: ${e instanceof Error ? e.message : e}`);
    Deno.exit(2);
  }
  const t = totals(rows);
  if (values.json) console.log(JSON.stringify({ rows, totals: t }, null, 1));
  else {
    console.log(table(rows));
    if (values.verbose) console.log("\n" + details(rows));
  }
  const min = values["min-recall"] === undefined ? undefined : Number(values["min-recall"]);
  if (min !== undefined && !(min >= 0 && min <= 100)) {
    console.error(`logs-eval: --min-recall ${values["min-recall"]}: a percentage, 0 to 100`);
    Deno.exit(2);
  }
  const low = min !== undefined && recall(t.credited, t.shown) < min;
  if (low) {
    console.error(`logs-eval: recall ${recall(t.credited, t.shown).toFixed(1)} % < ${min} %`);
  }
  Deno.exit(t.mustNot > 0 || t.outside > 0 || t.misdetected > 0 || low ? 1 : 0);
}
