/**
 * Notebook-facing helpers (notebooks/*.ipynb, Deno's Jupyter kernel): loading the scored frames
 * of the simulated corpus or of a user's corpus with one call, displaying polars frames and HTML,
 * interval and paired-comparison frames, the read-but-unused analysis (notebook 05, not in the
 * paper) and the Appendix C case study (notebook 06).
 *
 * Display objects implement `Symbol.for("Jupyter.display")` and never touch `Deno.jupyter` (it
 * throws outside the kernel), so everything here also runs under `deno test`.
 *
 * @module
 */

import pl from "nodejs-polars";
import { createTwoFilesPatch } from "diff";
import { isAbsolute, join, resolve } from "node:path";
import { readScored, scoreCorpus } from "../frames/mod.ts";
import { readCorpus } from "../layout/mod.ts";
import type { ChainSpec, ConfigSpec } from "../layout/types.ts";
import { summarize } from "../python/summary.ts";
import { moduleName } from "../python/names.ts";
import { fromFrames, type ScoredQuery } from "../query/open.ts";
import { configId, type ConfigKey, type Metric, METRICS, PERCENT_METRICS } from "./aggregate.ts";
import type { CellInterval, PairedComparison } from "./ci.ts";
import { Chart, jsonSafe, type MimeBundle } from "./display.ts";
import { type ScoredFrames, SIMULATED, simulatedScored } from "./reproduce.ts";
import { fmt } from "./table.ts";
import { escapeHtml } from "../util/text.ts";
import { isDirectory } from "../util/fs.ts";
import { type MissedOutcome, targetOutcome } from "../metrics/outcomes.ts";

// ---------------------------------------------------------------------------------------------
// Loading

/** The scored frames a notebook works on, and where they come from. */
export interface Runs {
  /** Scored frames (columns in lib/frames/schema.ts). */
  scored: ScoredFrames;
  /** The corpus directory (docs/run-logs.md), or null when only scored frames were given. */
  corpus: string | null;
  /** Whether this is the project's simulated corpus. */
  simulated: boolean;
  /** Provenance line to print under every table and figure. */
  provenance: string;
}

/** Options of {@link loadRuns}. */
export interface LoadOptions {
  /** Seed of the simulated corpus (default 1). */
  seed?: number;
  /**
   * Scale of the simulated corpus: "paper" (75 chains × 5 turns per configuration) or "small".
   * Default: `$REPOREUSE_NOTEBOOK_SCALE`, else "paper".
   */
  scale?: "paper" | "small";
  /** Progress messages (default: none). */
  log?: (message: string) => void;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The one call every notebook starts with. `runs` null → the project's simulated corpus, simulated
 * and scored once into the cache (shared by all notebooks and by `deno task reproduce`); a path →
 * either a scored directory (`deno task reporeuse score <corpus> --out <dir>`, holding
 * `turns.parquet`) or a corpus in the docs/run-logs.md layout (scored here, with the scorer's
 * content-hash cache). Relative paths resolve against the current directory (the notebook's).
 */
export async function loadRuns(runs: string | null, opts: LoadOptions = {}): Promise<Runs> {
  if (runs === null || runs === undefined) {
    const env = Deno.env.get("REPOREUSE_NOTEBOOK_SCALE");
    const scale = opts.scale ?? (env === "small" || env === "paper" ? env : "paper");
    const sim = await simulatedScored({ seed: opts.seed ?? 1, scale, log: opts.log });
    return { scored: sim.scored, corpus: sim.corpus, simulated: true, provenance: SIMULATED };
  }
  const dir = isAbsolute(runs) ? runs : resolve(Deno.cwd(), runs);
  if (!(await isDirectory(dir))) {
    throw new Error(`loadRuns: '${runs}' is not a directory (resolved to ${dir})`);
  }
  if (await isFile(join(dir, "turns.parquet"))) {
    opts.log?.(`reading scored frames from ${dir}`);
    const scored: ScoredFrames = { ...(await readScored(dir)) };
    const corpus = (await isDirectory(join(dir, "tasks"))) ? dir : null;
    return { scored, corpus, simulated: false, provenance: `scored runs in ${dir}` };
  }
  if (!(await isDirectory(join(dir, "runs"))) && !(await isDirectory(join(dir, "tasks")))) {
    throw new Error(
      `loadRuns: ${dir} is neither a scored directory (no turns.parquet) nor a corpus (no runs/ or tasks/; see docs/run-logs.md)`,
    );
  }
  opts.log?.(`scoring ${dir}`);
  const scored: ScoredFrames = { ...(await scoreCorpus(dir, { cache: true })) };
  return { scored, corpus: dir, simulated: false, provenance: `run logs in ${dir}` };
}

/**
 * SQL over in-memory scored frames: the same tables and views (`missed_targets`, `flips`, …) as
 * `openScored(dir)` / `deno task reporeuse query`, without writing the frames to disk.
 */
export function sqlContext(scored: ScoredFrames): ScoredQuery {
  return fromFrames(scored);
}

// ---------------------------------------------------------------------------------------------
// Display

/** Escapes text for HTML (lib/util/text.ts). */
export { escapeHtml };

/**
 * The MIME bundle an object shows in Deno's Jupyter kernel (what its `Symbol.for("Jupyter.display")`
 * method returns), for tests and for saving outputs outside the kernel. Throws when the object does
 * not implement the display protocol.
 */
export async function bundleOf(x: unknown): Promise<MimeBundle> {
  const fn = (x as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  if (typeof fn !== "function") {
    throw new Error("bundleOf: the object has no Jupyter display method");
  }
  return await fn.call(x) as MimeBundle;
}

interface JupyterNamespace {
  display(obj: unknown, options?: Record<string, unknown>): Promise<void>;
  broadcast(type: string, content: Record<string, unknown>): Promise<void>;
}

/** `Deno.jupyter` inside Deno's Jupyter kernel, undefined elsewhere (reading it there throws). */
export function jupyter(): JupyterNamespace | undefined {
  try {
    return (Deno as unknown as { jupyter?: JupyterNamespace }).jupyter;
  } catch {
    return undefined;
  }
}

async function plainText(x: unknown): Promise<string> {
  if (typeof x === "string") return x;
  const fn = (x as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  if (typeof fn === "function" && !pl.DataFrame.isDataFrame(x)) {
    const b = await fn.call(x) as MimeBundle;
    const t = b["text/plain"] ?? b["text/markdown"] ?? b["text/html"];
    if (typeof t === "string") return t;
  }
  if (pl.DataFrame.isDataFrame(x)) return String(x);
  return Deno.inspect(x, { colors: false, depth: 4 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Milliseconds before each flush poke (see {@link show}). */
export const FLUSH_PAUSE_MS = 25;

/** Flush pokes after displaying a bundle of `bytes` bytes: 2, plus one per 16 KiB, at most 12. */
export function flushPokes(bytes: number): number {
  return Math.min(12, 2 + Math.ceil(bytes / 16384));
}

/**
 * Shows each item as its own output: in Deno's Jupyter kernel through `Deno.jupyter.display`
 * (rich MIME bundle: tables as HTML, charts as vega-lite + SVG); elsewhere (`deno run`, tests) as
 * plain text on stdout.
 *
 * Why not just a cell's last expression: the kernel's IOPub socket (zmq.rs PUB) silently drops a
 * message sent while the tail of a previous large one is still unflushed (zeromq/zmq.rs#237), so
 * under load a chart or table can vanish from a headless run — measured here with Deno 2.9.6 and
 * nbclient 0.7.2: 13 of 225 chart outputs lost in 3 runs, and 1 in 36 last-expression results.
 * After each display this pauses briefly and sends harmless `status: busy` messages (more for larger
 * bundles, {@link flushPokes}); each send flushes what the socket accepts of the remainder once the
 * reader has drained it (0 of 225 lost with 3 pokes on a lightly loaded machine; under heavy load a
 * loss is still possible, which `deno task notebooks` detects and retries).
 *
 * ```ts
 * import { Html, show } from "./notebook.ts";
 * await show(new Html("<b>x</b>", "x"), "plain"); // prints "x" and "plain" outside the kernel
 * ```
 */
export async function show(...items: unknown[]): Promise<void> {
  const j = jupyter();
  for (const x of items) {
    if (!j) {
      console.log(await plainText(x));
      continue;
    }
    let bytes = 0;
    try {
      bytes = JSON.stringify(await bundleOf(x)).length;
    } catch {
      bytes = 0; // no display method: the kernel formats it (small text)
    }
    await j.display(x);
    for (let i = 0; i < flushPokes(bytes); i++) {
      await sleep(FLUSH_PAUSE_MS);
      await j.broadcast("status", { execution_state: "busy" });
    }
  }
}

/**
 * An HTML fragment that displays itself in Deno's Jupyter kernel (`text/html` + `text/plain`, and
 * `text/markdown` when given).
 *
 * ```ts
 * import { bundleOf, Html } from "./notebook.ts";
 * const bundle = await bundleOf(new Html("<b>hi</b>", "hi"));
 * if (bundle["text/html"] !== "<b>hi</b>" || bundle["text/plain"] !== "hi") throw new Error();
 * ```
 */
export class Html {
  constructor(readonly html: string, readonly text: string = "", readonly markdown?: string) {}
  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    const b: MimeBundle = { "text/html": this.html, "text/plain": this.text || this.html };
    if (this.markdown !== undefined) b["text/markdown"] = this.markdown;
    return b;
  }
  /** The plain text. */
  toString(): string {
    return this.text;
  }
}

/**
 * Markdown that displays itself rendered (`text/markdown` + `text/plain`).
 *
 * ```ts
 * import { bundleOf, Markdown } from "./notebook.ts";
 * const b = await bundleOf(new Markdown("# Title"));
 * if (b["text/markdown"] !== "# Title" || "text/html" in b) throw new Error();
 * ```
 */
export class Markdown {
  constructor(readonly markdown: string) {}
  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    return { "text/markdown": this.markdown, "text/plain": this.markdown };
  }
  /** The Markdown text. */
  toString(): string {
    return this.markdown;
  }
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return String(v);
    return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(4)));
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "object") return JSON.stringify(jsonSafe(v));
  return String(v);
}

/**
 * A polars frame as a display object: an HTML table with a caption (title, shape), the column
 * dtypes, and the first and last rows when the frame is longer than `rows` (default 20); plus the
 * frame's own text rendering as `text/plain`. Unlike the frame's built-in display it shows the
 * shape and a text fallback.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { frame } from "./notebook.ts";
 * const h = frame(pl.DataFrame({ a: [1, 2, 3], b: ["x", null, "<z>"] }), { title: "demo", rows: 2 });
 * if (!h.html.includes("shape: (3, 2)") || !h.html.includes("&lt;z&gt;") || !h.html.includes("…")) {
 *   throw new Error(h.html);
 * }
 * ```
 */
export function frame(df: pl.DataFrame, opts: { title?: string; rows?: number } = {}): Html {
  const limit = Math.max(2, opts.rows ?? 20);
  const cols = df.columns;
  const head = df.height > limit ? df.head(Math.ceil(limit / 2)) : df;
  const tail = df.height > limit ? df.tail(Math.floor(limit / 2)) : undefined;
  const row = (r: Record<string, unknown>) =>
    `<tr>${
      cols.map((c) => {
        const v = r[c];
        const t = escapeHtml(cellText(v));
        const style = typeof v === "number" ? ' style="text-align:right"' : "";
        return v === null || v === undefined
          ? `<td${style}><i style="color:#999">null</i></td>`
          : `<td${style}>${t}</td>`;
      }).join("")
    }</tr>`;
  const body = (head.toRecords() as Record<string, unknown>[]).map(row);
  if (tail) {
    body.push(`<tr>${cols.map(() => "<td>…</td>").join("")}</tr>`);
    body.push(...(tail.toRecords() as Record<string, unknown>[]).map(row));
  }
  const caption = `${
    opts.title ? `<b>${escapeHtml(opts.title)}</b> — ` : ""
  }shape: (${df.height}, ${cols.length})`;
  const html = [
    `<div><table>`,
    `<caption style="text-align:left">${caption}</caption>`,
    `<thead><tr>${cols.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr>`,
    `<tr>${
      df.dtypes.map((d) => `<td><small style="color:#777">${escapeHtml(String(d))}</small></td>`)
        .join("")
    }</tr></thead>`,
    `<tbody>${body.join("")}</tbody></table></div>`,
  ].join("\n");
  const text = `${opts.title ? `${opts.title}\n` : ""}${String(df)}`;
  return new Html(html, text);
}

// ---------------------------------------------------------------------------------------------
// Intervals and paired comparisons as frames and charts

/** Digits a metric is shown with. */
function digitsOf(m: Metric): number {
  return m === "lines" ? 0 : 1;
}

/**
 * The cluster-bootstrap intervals of `cellIntervals()` as a wide frame: one row per configuration,
 * one text column per metric, `estimate [low, high]`.
 */
export function intervalFrame(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = METRICS,
): pl.DataFrame {
  const rows = new Map<string, Record<string, unknown>>();
  for (const c of cells) {
    if (!metrics.includes(c.metric)) continue;
    const id = configId(c.config);
    const row = rows.get(id) ??
      {
        harness: c.config.harness,
        model: c.config.model,
        memory: c.config.memory,
        chains: c.chains,
      };
    const d = digitsOf(c.metric);
    const i = c.interval;
    row[c.metric] = `${fmt(i.estimate, d)} [${fmt(i.low, d)}, ${fmt(i.high, d)}]`;
    rows.set(id, row);
  }
  const recs = [...rows.values()];
  return pl.DataFrame({
    harness: recs.map((r) => r.harness as string),
    model: recs.map((r) => r.model as string),
    memory: recs.map((r) => r.memory as string),
    chains: pl.Series("chains", recs.map((r) => r.chains as number), pl.Int32),
    ...Object.fromEntries(
      metrics.map((m) => [m, pl.Series(m, recs.map((r) => (r[m] as string) ?? "–"), pl.Utf8)]),
    ),
  });
}

/**
 * Point estimates with 95% error bars per configuration, one panel per metric (rates in %).
 */
export function intervalChart(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = ["reuse_repo", "reuse_self", "recall_repo", "resolve"],
  opts: { title?: string; provenance?: string } = {},
): Chart {
  const values = cells.filter((c) => metrics.includes(c.metric) && c.interval.estimate !== null)
    .map((c) => ({
      config: `${c.config.harness} · ${c.config.model}`,
      memory: c.config.memory,
      metric: c.metric,
      estimate: c.interval.estimate,
      low: c.interval.low,
      high: c.interval.high,
    }));
  const t = opts.title ?? "Estimates with 95% cluster-bootstrap intervals";
  const y = { field: "config", type: "nominal", title: null, sort: null };
  return new Chart({
    title: opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t,
    data: { values },
    facet: { column: { field: "metric", type: "nominal", sort: [...metrics], title: null } },
    spec: {
      width: 150,
      layer: [
        {
          mark: { type: "rule" },
          encoding: {
            y,
            x: { field: "low", type: "quantitative", title: "%" },
            x2: { field: "high" },
          },
        },
        {
          mark: { type: "point", filled: true },
          encoding: {
            y,
            x: { field: "estimate", type: "quantitative" },
            color: { field: "memory", type: "nominal", title: "Memory" },
            tooltip: [
              { field: "config" },
              { field: "memory" },
              { field: "estimate", format: ".1f" },
              { field: "low", format: ".1f" },
              { field: "high", format: ".1f" },
            ],
          },
        },
      ],
    },
    resolve: { scale: { x: "independent" } },
  }, t);
}

/**
 * A paired comparison as two frames: per-metric A, B and the paired-bootstrap Δ = A − B with its
 * interval; per target kind the McNemar table of per-target reuse.
 */
export function pairedFrames(p: PairedComparison): { deltas: pl.DataFrame; targets: pl.DataFrame } {
  const r = (x: number | null, d: number) => x === null ? null : Number(x.toFixed(d));
  const deltas = pl.DataFrame({
    metric: p.deltas.map((d) => d.metric),
    unit: p.deltas.map((d) => PERCENT_METRICS.has(d.metric) ? "%" : "count"),
    a: pl.Series("a", p.deltas.map((d) => r(d.a, 2)), pl.Float64),
    b: pl.Series("b", p.deltas.map((d) => r(d.b, 2)), pl.Float64),
    delta: pl.Series("delta", p.deltas.map((d) => r(d.delta.estimate, 2)), pl.Float64),
    low: pl.Series("low", p.deltas.map((d) => r(d.delta.low, 2)), pl.Float64),
    high: pl.Series("high", p.deltas.map((d) => r(d.delta.high, 2)), pl.Float64),
    excludes_zero: p.deltas.map((d) =>
      d.delta.low !== null && d.delta.high !== null && (d.delta.low > 0 || d.delta.high < 0)
    ),
  });
  const targets = pl.DataFrame({
    kind: p.targets.map((t) => t.kind),
    pairs: pl.Series("pairs", p.targets.map((t) => t.pairs), pl.Int32),
    both: pl.Series("both", p.targets.map((t) => t.both), pl.Int32),
    only_a: pl.Series("only_a", p.targets.map((t) => t.aOnly), pl.Int32),
    only_b: pl.Series("only_b", p.targets.map((t) => t.bOnly), pl.Int32),
    neither: pl.Series("neither", p.targets.map((t) => t.neither), pl.Int32),
    test: p.targets.map((t) => t.test.method),
    statistic: pl.Series("statistic", p.targets.map((t) => r(t.test.statistic, 3)), pl.Float64),
    p: pl.Series("p", p.targets.map((t) => t.test.p), pl.Float64),
  });
  return { deltas, targets };
}

/** Forest plot of paired Δ = A − B (with intervals) for several comparisons, rates only. */
export function pairedChart(
  comparisons: readonly PairedComparison[],
  opts: { title?: string; provenance?: string } = {},
): Chart {
  const values = comparisons.flatMap((p) =>
    p.deltas.filter((d) => PERCENT_METRICS.has(d.metric) && d.delta.estimate !== null).map((d) => ({
      comparison: `${configId(p.a)} − ${configId(p.b)}`,
      metric: d.metric,
      delta: d.delta.estimate,
      low: d.delta.low,
      high: d.delta.high,
    }))
  );
  const t = opts.title ?? "Paired differences A − B (percentage points, 95% paired bootstrap)";
  const y = { field: "metric", type: "nominal", title: null, sort: [...METRICS] };
  return new Chart({
    title: opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t,
    data: { values },
    width: 360,
    layer: [
      { mark: { type: "rule", color: "#999", strokeDash: [4, 4] }, encoding: { x: { datum: 0 } } },
      {
        mark: "rule",
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "low", type: "quantitative", title: "Δ (points)" },
          x2: { field: "high" },
          color: { field: "comparison", type: "nominal", legend: { orient: "bottom", columns: 1 } },
        },
      },
      {
        mark: { type: "point", filled: true },
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "delta", type: "quantitative" },
          color: { field: "comparison", type: "nominal" },
          tooltip: [
            { field: "comparison" },
            { field: "metric" },
            { field: "delta", format: ".1f" },
            { field: "low", format: ".1f" },
            { field: "high", format: ".1f" },
          ],
        },
      },
    ],
  }, t);
}

// ---------------------------------------------------------------------------------------------
// Read but unused (notebook 05)

/** Display labels of the gaps of lib/metrics/outcomes.ts (the classes of `missed_targets`). */
const GAP_LABELS = {
  never_read: "never read",
  read_not_used: "read, not used",
  absent: "absent",
} as const satisfies Record<MissedOutcome, string>;

/** Gap classes, in display order. */
export const GAPS = Object.values(GAP_LABELS);
/** A gap class. */
export type Gap = typeof GAPS[number];

/** Target-size buckets by body lines, in display order (upper bounds inclusive). */
export const SIZE_BUCKETS: readonly { label: string; max: number }[] = [
  { label: "1-10", max: 10 },
  { label: "11-25", max: 25 },
  { label: "26-50", max: 50 },
  { label: ">50", max: Infinity },
];

/** The size bucket label of a target body of `lines` lines (`"unknown"` for null). */
export function sizeBucket(lines: number | null | undefined): string {
  if (lines == null || !Number.isFinite(lines)) return "unknown";
  return SIZE_BUCKETS.find((b) => lines <= b.max)!.label;
}

/**
 * The gap class of one missed target.
 *
 * ```ts
 * import { gapOf } from "./notebook.ts";
 * if (gapOf({ implemented: true, read: true }) !== "read, not used") throw new Error();
 * if (gapOf({ implemented: true, read: false }) !== "never read") throw new Error();
 * if (gapOf({ implemented: false, read: false }) !== "absent") throw new Error();
 * ```
 */
export function gapOf(t: { implemented: boolean | null; read: boolean | null }): Gap {
  return GAP_LABELS[targetOutcome({ ...t, reused: false }) as MissedOutcome];
}

/**
 * The missed targets (`reused` false) of a `targets` frame, with two added columns: `gap` (a
 * {@link Gap}) and `size` (a {@link SIZE_BUCKETS} label of `body_lines`). Rows keep the frame's
 * column order and are sorted by the turn keys and target.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { classifyMisses } from "./notebook.ts";
 * const targets = pl.DataFrame({
 *   harness: ["h", "h", "h"], model: ["m", "m", "m"], memory: ["none", "none", "none"],
 *   chain: ["c", "c", "c"], turn: [2, 2, 2], target: ["a", "b", "c"],
 *   kind: ["repo", "self", "self"], implemented: [true, true, false],
 *   read: [true, true, false], reused: [false, true, false], reimplemented: [true, false, false],
 *   body_lines: [12, 4, null],
 * });
 * const missed = classifyMisses(targets);
 * if (missed.height !== 2) throw new Error();
 * if (missed.getColumn("gap").toArray().join() !== "read, not used,absent") throw new Error();
 * if (missed.getColumn("size").toArray().join() !== "11-25,unknown") throw new Error();
 * ```
 */
export function classifyMisses(targets: pl.DataFrame): pl.DataFrame {
  for (
    const c of ["kind", "implemented", "read", "reused", "reimplemented", "body_lines", "turn"]
  ) {
    if (!targets.columns.includes(c)) {
      throw new Error(
        `classifyMisses: the targets frame has no '${c}' column (see lib/frames/schema.ts)`,
      );
    }
  }
  const missed = targets.filter(pl.col("reused").eq(pl.lit(false)));
  const rows = missed.select("implemented", "read", "body_lines").toRecords() as {
    implemented: boolean | null;
    read: boolean | null;
    body_lines: number | null;
  }[];
  const sortKeys = ["harness", "model", "memory", "chain", "turn", "target"].filter((c) =>
    missed.columns.includes(c)
  );
  return missed
    .withColumns(
      pl.Series("gap", rows.map(gapOf), pl.Utf8),
      pl.Series("size", rows.map((r) => sizeBucket(r.body_lines)), pl.Utf8),
      pl.col("turn").cast(pl.Int32),
    )
    .sort(sortKeys);
}

/** Display order of grouping columns whose values are not sorted alphabetically. */
const KEY_ORDER: Record<string, readonly string[]> = {
  size: [...SIZE_BUCKETS.map((b) => b.label), "unknown"],
  memory: ["none", "interface", "source"],
};

/**
 * Counts missed targets by `by` (one or more columns of {@link classifyMisses}' frame) and gap:
 * one row per group with `missed` and, per gap class, the count and its share of the group
 * (`never read`, `never read %`, …, in %, rounded to 0.1). Groups are sorted; size buckets in bucket
 * order, memory settings in the paper's order (none, interface, source).
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { gapBreakdown } from "./notebook.ts";
 * const missed = pl.DataFrame({ kind: ["repo", "repo", "self", "repo"],
 *   gap: ["never read", "read, not used", "read, not used", "never read"] });
 * const t = gapBreakdown(missed, "kind").toRecords();
 * if (t[0].kind !== "repo" || t[0].missed !== 3 || t[0]["never read"] !== 2) throw new Error();
 * if (t[0]["never read %"] !== 66.7) throw new Error(); // rounded to 0.1
 * if (t[1]["read, not used %"] !== 100) throw new Error();
 * ```
 */
export function gapBreakdown(missed: pl.DataFrame, by: string | string[]): pl.DataFrame {
  const keys = Array.isArray(by) ? by : [by];
  const exprs: pl.Expr[] = [pl.len().cast(pl.Int32).alias("missed")];
  for (const g of GAPS) {
    exprs.push(pl.col("gap").eq(pl.lit(g)).cast(pl.Int32).sum().cast(pl.Int32).alias(g));
  }
  let out = missed.groupBy(keys).agg(...exprs);
  for (const g of GAPS) {
    out = out.withColumns(
      pl.col(g).cast(pl.Float64).mul(100).div(pl.col("missed").cast(pl.Float64)).round(1)
        .alias(`${g} %`),
    );
  }
  // drop the "absent" columns when no group has any (repo-only analyses)
  if ((out.getColumn("absent").sum() as number) === 0) out = out.drop("absent", "absent %");
  const orderCols = keys.map((k) => `__order_${k}`);
  for (const k of keys) {
    const order = KEY_ORDER[k];
    const col = order
      ? pl.Series(
        `__order_${k}`,
        out.getColumn(k).toArray().map((v) => {
          const i = order.indexOf(String(v));
          return i < 0 ? order.length : i;
        }),
        pl.Int32,
      )
      : out.getColumn(k).alias(`__order_${k}`);
    out = out.withColumns(col);
  }
  return out.sort(orderCols).drop(orderCols);
}

const GAP_COLORS: Record<Gap, string> = {
  "never read": "#d73027",
  "read, not used": "#fc8d59",
  "absent": "#bdbdbd",
};

/**
 * Stacked bars of missed targets by gap class along one dimension of {@link classifyMisses}' frame
 * (`turn`, `kind`, `size`, `reimplemented`, `model`, …), as shares of the group's missed targets;
 * with `facet`, one panel per value of that column (e.g. `kind`).
 */
export function gapChart(
  missed: pl.DataFrame,
  by: string,
  opts: { facet?: string; title?: string; provenance?: string } = {},
): Chart {
  const keys = opts.facet ? [opts.facet, by] : [by];
  const table = gapBreakdown(missed, keys).toRecords() as Record<string, unknown>[];
  const present = GAPS.filter((g) => g in (table[0] ?? {}));
  const order = [...new Set(table.map((r) => String(r[by])))];
  const values = table.flatMap((r) =>
    present.map((g, i) => ({
      [by]: String(r[by]),
      ...(opts.facet ? { [opts.facet]: String(r[opts.facet]) } : {}),
      gap: g,
      order: i,
      count: r[g] as number,
      share: r[`${g} %`] as number,
      missed: r.missed as number,
    }))
  );
  const t = opts.title ?? `Missed targets by ${by}: never read vs read but not used`;
  const inner = {
    width: Math.max(120, 36 * order.length),
    height: 200,
    mark: "bar",
    encoding: {
      x: { field: by, type: "ordinal", sort: order, title: by, axis: { labelAngle: 0 } },
      y: {
        field: "share",
        type: "quantitative",
        stack: "zero",
        title: "% of missed targets",
        scale: { domain: [0, 100] },
      },
      color: {
        field: "gap",
        type: "nominal",
        title: "Gap",
        sort: present,
        scale: { domain: present, range: present.map((g) => GAP_COLORS[g]) },
      },
      order: { field: "order", type: "quantitative" },
      tooltip: [
        { field: by },
        ...(opts.facet ? [{ field: opts.facet }] : []),
        { field: "gap" },
        { field: "count" },
        { field: "missed" },
        { field: "share", format: ".1f" },
      ],
    },
  };
  const head = opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t;
  return new Chart(
    opts.facet
      ? {
        title: head,
        data: { values },
        facet: { column: { field: opts.facet, type: "nominal", title: opts.facet } },
        spec: inner,
      }
      : { title: head, data: { values }, ...inner },
    t,
  );
}

// ---------------------------------------------------------------------------------------------
// Case study (notebook 06, paper Appendix C)

/** Identifies one scored turn. */
export interface CaseKey extends ConfigKey {
  chain: string;
  turn: number;
}

/** One re-implemented target beside the submission function that re-implements it. */
export interface CasePair {
  target: string;
  kind: string;
  read: boolean;
  /** Workspace-relative file of the target's body, and where it was read from on disk. */
  file: string;
  path: string | null;
  start: number;
  end: number;
  source: string;
  /** Id of the submission function that re-implements the target. */
  by: string;
  byStart: number | null;
  byEnd: number | null;
  bySource: string;
  /** Share of the target's callees the submission calls. */
  overlap: number | null;
}

const CASE_COLUMNS = [
  "target",
  "kind",
  "implemented",
  "read",
  "reused",
  "reimplemented",
  "reimplemented_by",
  "file",
  "start",
  "end",
  "body_lines",
  "callees",
  "callee_overlap",
];

function keyFilter(k: CaseKey): pl.Expr {
  return pl.col("harness").eq(pl.lit(k.harness))
    .and(pl.col("model").eq(pl.lit(k.model)))
    .and(pl.col("memory").eq(pl.lit(k.memory)))
    .and(pl.col("chain").eq(pl.lit(k.chain)))
    .and(pl.col("turn").eq(pl.lit(k.turn)));
}

/**
 * Picks a turn worth drilling into, as in the paper's Appendix C: a target the agent **read and
 * then re-implemented** (self targets first, then repo), in a turn that passed all its tests when
 * possible; ties broken by the paper's default memory (interface), the larger target body, then
 * the keys. Returns undefined when no target was re-implemented.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { pickCase } from "./notebook.ts";
 * const targets = pl.DataFrame({ harness: ["h", "h"], model: ["m", "m"], memory: ["interface", "interface"],
 *   chain: ["a", "b"], turn: [2, 3], target: ["p.f", "p.g"], kind: ["repo", "self"],
 *   read: [true, true], reimplemented: [true, true], reimplemented_by: ["q.x", "q.y"],
 *   file: ["p.py", "p.py"], body_lines: [40, 10] });
 * const k = pickCase(targets);
 * if (k?.chain !== "b" || k.turn !== 3) throw new Error(JSON.stringify(k));
 * ```
 */
export function pickCase(targets: pl.DataFrame, turns?: pl.DataFrame): CaseKey | undefined {
  const rows = targets.filter(
    pl.col("reimplemented").eq(pl.lit(true)).and(pl.col("reimplemented_by").isNotNull())
      .and(pl.col("file").isNotNull()),
  ).toRecords() as Record<string, unknown>[];
  const resolved = new Set<string>();
  if (turns?.columns.includes("resolved")) {
    const rs = turns.filter(pl.col("resolved").eq(pl.lit(true)))
      .select("harness", "model", "memory", "chain", "turn").toRecords();
    for (const r of rs) {
      resolved.add([r.harness, r.model, r.memory, r.chain, Number(r.turn)].join("\u0000"));
    }
  }
  const id = (r: Record<string, unknown>) =>
    [r.harness, r.model, r.memory, r.chain, Number(r.turn)].join("\u0000");
  const rank = (r: Record<string, unknown>) => [
    r.read ? 0 : 1,
    r.kind === "self" ? 0 : 1,
    resolved.has(id(r)) ? 0 : 1,
    r.memory === "interface" ? 0 : 1,
    -Number(r.body_lines ?? 0),
  ];
  rows.sort((a, b) => {
    const ra = rank(a), rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;
  });
  const r = rows[0];
  return r
    ? {
      harness: String(r.harness),
      model: String(r.model),
      memory: String(r.memory),
      chain: String(r.chain),
      turn: Number(r.turn),
    }
    : undefined;
}

function lines(text: string, start: number, end: number): string {
  return text.split("\n").slice(start - 1, end).join("\n");
}

async function readText(path: string | undefined): Promise<string | null> {
  if (!path) return null;
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** The Appendix C drill-down of one turn; displays itself as one HTML report. */
export class CaseStudy {
  constructor(
    readonly key: CaseKey,
    /** The requirement text q_t (requirement.md), "" when absent. */
    readonly requirement: string,
    /** The turn's row of the `turns` frame. */
    readonly turn: Record<string, unknown>,
    /** The turn's targets (read / reused / re-implemented). */
    readonly targets: pl.DataFrame,
    /** Re-implemented targets beside the submission functions re-implementing them. */
    readonly pairs: CasePair[],
    /** Submission path (workspace-relative) and text, when the agent submitted. */
    readonly submissionPath: string,
    readonly submission: string | null,
    /** The chain's turns of this configuration (for {@link CaseStudy.chart}). */
    readonly chainTurns: pl.DataFrame,
    readonly provenance: string,
  ) {}

  /** One line naming the turn. */
  title(): string {
    const k = this.key;
    return `${k.harness} · ${k.model} · ${k.memory} memory — chain ${k.chain}, turn ${k.turn}`;
  }

  /** Tests passed, reuse and recall of the turn, as text. */
  outcome(): string {
    const t = this.turn;
    const pct = (x: unknown) => x === null || x === undefined ? "–" : `${fmt(Number(x) * 100, 1)}%`;
    return `tests ${t.passed ?? "?"}/${t.tests ?? "?"} passed (resolved: ${t.resolved}); ` +
      `reuse repo ${pct(t.reuse_repo)}, self ${pct(t.reuse_self)}; recall repo ${
        pct(t.recall_repo)
      }, self ${pct(t.recall_self)}; ${t.reimplemented ?? 0} target(s) re-implemented; ` +
      `${t.files ?? "?"} files, ${t.lines ?? "?"} lines viewed`;
  }

  /** The requirement q_t as Markdown (rendered by Jupyter as it was given to the agent). */
  requirementView(): Markdown {
    return new Markdown(this.requirement || "_(no requirement.md)_");
  }

  /** The targets of the turn as a table. */
  targetsView(): Html {
    return frame(this.targets, { title: `Targets of ${this.title()}`, rows: 40 });
  }

  /** One row per re-implemented target: where it lives and which submission function rewrote it. */
  pairsFrame(): pl.DataFrame {
    const ps = this.pairs;
    return pl.DataFrame({
      target: ps.map((p) => p.target),
      kind: ps.map((p) => p.kind),
      read: ps.map((p) => p.read),
      target_lines: pl.Series("target_lines", ps.map((p) => p.end - p.start + 1), pl.Int32),
      reimplemented_by: ps.map((p) => p.by),
      by_lines: pl.Series(
        "by_lines",
        ps.map((p) => p.byStart === null || p.byEnd === null ? null : p.byEnd - p.byStart + 1),
        pl.Int32,
      ),
      callee_overlap: pl.Series("callee_overlap", ps.map((p) => p.overlap), pl.Float64),
    });
  }

  /** The target's source beside the submission function that re-implements it (HTML table). */
  sideBySide(i = 0): Html {
    const p = this.pairs[i];
    if (!p) {
      return new Html("<p>No re-implemented target in this turn.</p>", "no re-implemented target");
    }
    const pre = (s: string) =>
      `<pre style="font-size:11px;line-height:1.3;margin:0;white-space:pre">${escapeHtml(s)}</pre>`;
    const left = `target <code>${escapeHtml(p.target)}</code> (${p.kind}, ${
      p.read ? "read" : "not read"
    }) — ${escapeHtml(p.file)}:${p.start}-${p.end}`;
    const right = `submission <code>${escapeHtml(p.by)}</code> — ${
      escapeHtml(this.submissionPath)
    }${p.byStart ? `:${p.byStart}-${p.byEnd}` : ""}`;
    const html = [
      `<table style="table-layout:fixed;width:100%"><thead><tr>`,
      `<th style="text-align:left;width:50%">${left}</th><th style="text-align:left">${right}</th>`,
      `</tr></thead><tbody><tr style="vertical-align:top">`,
      `<td style="overflow:auto">${pre(p.source)}</td><td style="overflow:auto">${
        pre(p.bySource)
      }</td>`,
      `</tr></tbody></table>`,
      `<p><small>callee overlap ${
        p.overlap === null ? "–" : `${fmt(p.overlap * 100, 0)}%`
      } (a target is re-implemented when the submission does not call it but calls ≥ 80% of its ` +
      `non-builtin callees, §3.3.2)</small></p>`,
    ].join("\n");
    const plain = (s: string) =>
      s.replace(/<\/?code>/g, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll(
        "&amp;",
        "&",
      );
    const text = `${plain(left)}\n${p.source}\n\n${plain(right)}\n${p.bySource}`;
    return new Html(html, text);
  }

  /** A unified diff from the target's source to the re-implementing function (npm `diff`). */
  diff(i = 0): Html {
    const p = this.pairs[i];
    if (!p) {
      return new Html("<p>No re-implemented target in this turn.</p>", "no re-implemented target");
    }
    const patch = createTwoFilesPatch(
      `${p.file}:${p.start}-${p.end} (${p.target})`,
      `${this.submissionPath} (${p.by})`,
      p.source + "\n",
      p.bySource + "\n",
      undefined,
      undefined,
      { context: 3 },
    );
    const colored = patch.split("\n").map((l) => {
      const e = escapeHtml(l);
      if (l.startsWith("+") && !l.startsWith("+++")) {
        return `<span style="color:#1a7f37">${e}</span>`;
      }
      if (l.startsWith("-") && !l.startsWith("---")) {
        return `<span style="color:#cf222e">${e}</span>`;
      }
      if (l.startsWith("@@")) return `<span style="color:#8250df">${e}</span>`;
      return e;
    }).join("\n");
    return new Html(`<pre style="font-size:11px">${colored}</pre>`, patch);
  }

  /** The chain's per-turn reuse, recall and pass rate under this configuration; the case turn marked. */
  chart(): Chart {
    const metrics = ["reuse_repo", "reuse_self", "recall_repo", "recall_self", "pass_rate"];
    const recs = this.chainTurns.toRecords() as Record<string, unknown>[];
    const values = recs.flatMap((r) =>
      metrics.filter((m) => r[m] !== null && r[m] !== undefined).map((m) => ({
        turn: Number(r.turn),
        metric: m,
        value: 100 * Number(r[m]),
      }))
    );
    const t =
      `Chain ${this.key.chain} turn by turn (${this.key.harness} · ${this.key.model} · ${this.key.memory})`;
    return new Chart({
      title: { text: t, subtitle: `Data: ${this.provenance}` },
      width: 360,
      height: 200,
      data: { values },
      layer: [
        {
          mark: { type: "rule", color: "#999", strokeDash: [4, 4] },
          encoding: { x: { datum: this.key.turn, type: "ordinal" } },
        },
        {
          mark: { type: "line", point: true },
          encoding: {
            x: { field: "turn", type: "ordinal", title: "Turn", axis: { labelAngle: 0 } },
            y: { field: "value", type: "quantitative", title: "%", scale: { domain: [0, 100] } },
            color: { field: "metric", type: "nominal", sort: metrics, title: null },
            tooltip: [{ field: "turn" }, { field: "metric" }, { field: "value", format: ".1f" }],
          },
        },
      ],
    }, t);
  }

  /** The MIME bundle shown by Deno's Jupyter kernel: title, outcome, targets, first pair. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    const parts = [
      `<h4>${escapeHtml(this.title())}</h4>`,
      `<p>${escapeHtml(this.outcome())}</p>`,
      this.targetsView().html,
      this.sideBySide().html,
    ];
    return {
      "text/html": parts.join("\n"),
      "text/plain": `${this.title()}\n${this.outcome()}\n\n${this.sideBySide().text}`,
    };
  }
}

function chainSpec(chains: ChainSpec[], chain: string): ChainSpec {
  const c = chains.find((x) => x.chain === chain);
  if (!c) throw new Error(`caseStudy: chain '${chain}' is not in the corpus's tasks/`);
  return c;
}

function configSpec(configs: ConfigSpec[], k: ConfigKey): ConfigSpec {
  const c = configs.find((x) =>
    x.harness === k.harness && x.model === k.model && x.memory === k.memory
  );
  if (!c) throw new Error(`caseStudy: no runs/<config>/config.json for ${configId(k)}`);
  return c;
}

/**
 * Drills into one turn (default: {@link pickCase}): the requirement, every target with
 * read / reused / re-implemented, and for each re-implemented target its source (from W_{t-1}:
 * the agent's earlier submission for a self target, the original repository otherwise) beside
 * the submission function that re-implements it. Needs the corpus directory (`runs.corpus`).
 */
export async function caseStudy(runs: Runs, key?: CaseKey): Promise<CaseStudy> {
  if (!runs.corpus) {
    throw new Error(
      "caseStudy needs the corpus directory (set RUNS to a corpus, not only a scored directory)",
    );
  }
  const { turns, targets } = runs.scored;
  const k = key ?? pickCase(targets, turns);
  if (!k) throw new Error("caseStudy: no re-implemented target anywhere in these runs; pass a key");
  const { corpus } = await readCorpus(runs.corpus);
  const chain = chainSpec(corpus.chains, k.chain);
  const config = configSpec(corpus.configs, k);
  const spec = chain.turns.find((t) => t.turn === k.turn);
  if (!spec) throw new Error(`caseStudy: chain ${k.chain} has no turn ${k.turn}`);
  const runOf = (turn: number) =>
    corpus.runs.find((r) => r.config === config.id && r.chain === k.chain && r.turn === turn);
  const turnRows = turns.filter(keyFilter(k)).toRecords() as Record<string, unknown>[];
  if (!turnRows.length) throw new Error(`caseStudy: no scored turn for ${JSON.stringify(k)}`);
  const tg = targets.filter(keyFilter(k)).select(
    ...CASE_COLUMNS.filter((c) => targets.columns.includes(c)),
  )
    .sort(["kind", "target"]);
  const submissionFile = runOf(k.turn)?.submission;
  const submission = await readText(submissionFile);
  const defs = submission === null
    ? []
    : (await summarize(submission, spec.path, spec.module || moduleName(spec.path))).definitions;

  // W_{t-1}: the agent's latest earlier submission at a path, else the original repository
  const fileSource = async (
    file: string,
  ): Promise<{ path: string | null; text: string | null }> => {
    for (let t = k.turn - 1; t >= 1; t--) {
      const earlier = chain.turns.find((x) => x.turn === t);
      if (earlier?.path === file) {
        const path = runOf(t)?.submission ?? null;
        const text = await readText(path ?? undefined);
        if (text !== null) return { path, text };
      }
    }
    const path = join(chain.repo.workspace, file);
    return { path, text: await readText(path) };
  };

  const pairs: CasePair[] = [];
  const recs = tg.filter(pl.col("reimplemented").eq(pl.lit(true))).toRecords() as Record<
    string,
    unknown
  >[];
  for (const r of recs) {
    if (!r.file || r.start == null || r.end == null) continue;
    const src = await fileSource(String(r.file));
    // show the whole def (the frame's start/end delimit the body the reads are matched against)
    let [start, end] = [Number(r.start), Number(r.end)];
    if (src.text !== null) {
      const file = String(r.file);
      const whole = (await summarize(src.text, file, moduleName(file))).definitions
        .find((d) => d.id === String(r.target));
      if (whole && whole.start <= start && whole.end >= end) {
        [start, end] = [whole.start, whole.end];
      }
    }
    const by = String(r.reimplemented_by ?? "");
    const def = defs.find((d) => d.id === by) ??
      defs.find((d) => by.endsWith(`.${d.id.split(".").pop()}`) || d.id.endsWith(`.${by}`));
    pairs.push({
      target: String(r.target),
      kind: String(r.kind),
      read: Boolean(r.read),
      file: String(r.file),
      path: src.path,
      start,
      end,
      source: src.text === null ? `(source not found: ${src.path})` : lines(src.text, start, end),
      by,
      byStart: def?.start ?? null,
      byEnd: def?.end ?? null,
      bySource: def && submission !== null
        ? lines(submission, def.start, def.end)
        : `(function ${by} not found in the submission)`,
      overlap: r.callee_overlap === null || r.callee_overlap === undefined
        ? null
        : Number(r.callee_overlap),
    });
  }
  pairs.sort((a, b) =>
    Number(b.read) - Number(a.read) ||
    (a.kind === "self" ? -1 : 1) - (b.kind === "self" ? -1 : 1) || a.target.localeCompare(b.target)
  );
  const chainTurns = turns.filter(
    pl.col("harness").eq(pl.lit(k.harness)).and(pl.col("model").eq(pl.lit(k.model)))
      .and(pl.col("memory").eq(pl.lit(k.memory))).and(pl.col("chain").eq(pl.lit(k.chain))),
  ).sort("turn");
  return new CaseStudy(
    k,
    (await readText(spec.requirement)) ?? "",
    turnRows[0],
    tg,
    pairs,
    spec.path,
    submission,
    chainTurns,
    runs.provenance,
  );
}

// ---------------------------------------------------------------------------------------------
// Small glue for notebooks 04 and 07

/**
 * The intervals of one harness × model keyed `${memory}:${metric}`, as `memoryFigure(…, {intervals})`
 * expects.
 */
export function memoryIntervals(
  cells: readonly CellInterval[],
  which: { harness: string; model: string },
): Record<string, CellInterval["interval"]> {
  const out: Record<string, CellInterval["interval"]> = {};
  for (const c of cells) {
    if (c.config.harness === which.harness && c.config.model === which.model) {
      out[`${c.config.memory}:${c.metric}`] = c.interval;
    }
  }
  return out;
}

/**
 * Benchmark composition per turn index: mean test cases, requirement length (k chars) and new
 * functions from the `tasks` frame (`readTasks`), and mean repo / self reuse targets from the
 * `turns` frame (targets come from the reference solution, so they are the same in every
 * configuration).
 */
export function benchmarkChart(
  tasks: pl.DataFrame,
  turns: pl.DataFrame,
  opts: { provenance?: string } = {},
): Chart {
  const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  const byTurn = new Map<number, Record<string, number[]>>();
  const push = (turn: number, k: string, v: unknown) => {
    if (v === null || v === undefined || !Number.isFinite(Number(v))) return;
    const m = byTurn.get(turn) ?? {};
    (m[k] ??= []).push(Number(v));
    byTurn.set(turn, m);
  };
  for (const r of tasks.toRecords() as Record<string, unknown>[]) {
    push(Number(r.turn), "test cases", r.tests);
    push(Number(r.turn), "requirement (k chars)", Number(r.requirement_chars) / 1000);
    push(Number(r.turn), "new functions", r.functions);
  }
  const cols = turns.columns;
  if (cols.includes("n_repo") && cols.includes("n_self")) {
    // one value per (chain, turn): the targets are the reference solution's
    const seen = new Set<string>();
    for (const r of turns.select("chain", "turn", "n_repo", "n_self").toRecords()) {
      const id = `${r.chain}\u0000${r.turn}`;
      if (seen.has(id)) continue;
      seen.add(id);
      push(Number(r.turn), "repo targets", r.n_repo);
      if (Number(r.turn) >= 2) push(Number(r.turn), "self targets", r.n_self);
    }
  }
  const order = [
    "test cases",
    "requirement (k chars)",
    "new functions",
    "repo targets",
    "self targets",
  ];
  const values = [...byTurn.entries()].sort(([a], [b]) => a - b).flatMap(([turn, m]) =>
    order.filter((k) => m[k]?.length).map((k) => ({ turn, statistic: k, mean: mean(m[k]) }))
  );
  const t = "Benchmark composition by turn (means per turn)";
  return new Chart({
    title: opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t,
    data: { values },
    facet: { column: { field: "statistic", type: "nominal", sort: order, title: null } },
    spec: {
      width: 110,
      height: 160,
      mark: "bar",
      encoding: {
        x: { field: "turn", type: "ordinal", title: "Turn", axis: { labelAngle: 0 } },
        y: { field: "mean", type: "quantitative", title: null },
        tooltip: [{ field: "statistic" }, { field: "turn" }, { field: "mean", format: ".2f" }],
      },
    },
    resolve: { scale: { y: "independent" } },
  }, t);
}

// ---------------------------------------------------------------------------------------------
// Filters used in notebook cells

/** Rows of one memory setting: `frame.filter(memoryIs("interface"))`. */
export function memoryIs(memory: string): pl.Expr {
  return pl.col("memory").eq(pl.lit(memory));
}

/** Rows of one gap class of {@link classifyMisses}' frame. */
export function gapIs(gap: string): pl.Expr {
  return pl.col("gap").eq(pl.lit(gap));
}

/** A `config` column "harness · model" (add with `withColumns(configLabel())`). */
export function configLabel(): pl.Expr {
  return pl.concatString([pl.col("harness"), pl.col("model")], " · ").alias("config");
}

/** The memory settings a harness × model ran under, in the paper's order (none, interface, source). */
export function memoriesOf(
  turns: pl.DataFrame,
  which: { harness: string; model: string },
): string[] {
  const found = new Set(
    (turns.filter(
      pl.col("harness").eq(pl.lit(which.harness)).and(pl.col("model").eq(pl.lit(which.model))),
    )
      .select("memory").unique().toRecords() as { memory: string }[]).map((r) => r.memory),
  );
  const order = ["none", "interface", "source"];
  return [...found].sort((a, b) =>
    (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b)
  );
}
