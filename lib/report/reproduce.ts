/**
 * `reproduce()`: regenerates the paper's Tables 1–5, the bootstrap intervals and the figures from a
 * corpus — the project's simulated corpus by default (generated once and cached), or the user's run
 * logs — and writes them under `out/` with a README naming the data they come from.
 *
 * Outputs are deterministic: no timestamps, fixed ordering, seeded bootstrap; a second run writes
 * byte-identical tables.
 *
 * @module
 */
import type pl from "nodejs-polars";
import {
  readManifest,
  readScored,
  scoreCorpus,
  type Scored,
  SCORED_FILES,
  type ScoreOptions,
  writeScored,
} from "../frames/mod.ts";
import { simulateCorpus } from "../simulate/mod.ts";
import {
  cacheRoot,
  exists,
  mdCode,
  mdText,
  sha256,
  sourceHash,
  writeDirAtomic,
} from "../util/mod.ts";
import { turnRows } from "./aggregate.ts";
import { readTasks, table1, type TaskProblem } from "./benchmark.ts";
import {
  type CellInterval,
  cellIntervals,
  ciMarkdown,
  harnessComparisons,
  memoryComparisons,
  type PairedComparison,
  turnCellIntervals,
} from "./ci.ts";
import { type Chart, Table } from "./display.ts";
import {
  linesRecallFigure,
  memoryConfig,
  memoryFigure,
  perTurnFigure,
  readUnusedFigure,
  reuseResolveFigure,
} from "./figures.ts";
import { DEFAULT_B, DEFAULT_SEED, type Interval } from "./stats.ts";
import { Browser, chromiumPath } from "./browser.ts";
import { PRINT_SIZES, printSvg, svgToPdf } from "./print.ts";
import { COLUMN_WIDTHS, type Layout, printLayout } from "./style.ts";
import { csvField, type TableData, toleranceLine } from "./table_render.ts";
import { table2, table3, table4, table5 } from "./paper_tables.ts";

import { SIMULATED } from "./provenance.ts";
export { SIMULATED };

/** The scored frames (lib/frames `Scored`; columns in lib/frames/schema.ts). */
export interface ScoredFrames {
  turns: pl.DataFrame;
  targets: pl.DataFrame;
  errors?: pl.DataFrame;
  events?: pl.DataFrame;
  tests?: pl.DataFrame;
  configs?: pl.DataFrame;
}

/** Options of {@link reproduce}. */
export interface ReproduceOptions {
  /**
   * A corpus directory (docs/run-logs.md), or scored directories: one written by `score`, or the
   * N directories of `score --shard i/N` (lib/frames `readScored`), whose report is the whole
   * run's; absent → the simulated corpus.
   */
  runs?: string | readonly string[];
  /** Output directory (tables/, figures/, README.md). */
  out: string;
  /** Seed of the simulated corpus (default 1). */
  seed?: number;
  /** Scale of the simulated corpus (default "paper": 75 chains × 5 turns). */
  scale?: "paper" | "small";
  /** Bootstrap replicates (default 1000) and seed (default 20260). */
  B?: number;
  bootstrapSeed?: number;
  /** Reuse the cached simulated corpus and its scored frames (default true). */
  cache?: boolean;
  /** Progress messages (default: none). */
  log?: (message: string) => void;
  /** Scoring progress, as `scoreCorpus`'s `progress` option (default: none). */
  progress?: ScoreOptions["progress"];
}

/** What {@link reproduce} produced. */
export interface ReproduceResult {
  out: string;
  corpus: string;
  simulated: boolean;
  provenance: string;
  tables: Record<string, Table>;
  figures: Record<string, Chart>;
  /** Files written, relative to `out`, sorted. */
  files: string[];
  /** Table 2 agreement with the paper. */
  agreement: string | null;
  scoringErrors: number;
}

const SIM_NAMESPACE = "report-simulated";
const SIM_VERSION = 1;

/**
 * Moves a finished directory (holding `.complete`) into place. When another process published the
 * same key first, its copy is kept (`keepExisting`) or replaced.
 */
async function publish(tmp: string, dest: string, keepExisting: boolean): Promise<void> {
  try {
    await Deno.rename(tmp, dest);
    return;
  } catch (e) {
    if (!(await exists(dest))) throw e;
  }
  if (keepExisting && (await exists(`${dest}/.complete`))) {
    await Deno.remove(tmp, { recursive: true });
    return;
  }
  await Deno.remove(dest, { recursive: true });
  await Deno.rename(tmp, dest);
}

/**
 * The simulated corpus for a seed and scale, generated once into the cache (keyed by seed, scale and
 * a hash of the simulator's sources) and scored once (keyed also by the scorer's sources).
 */
export async function simulatedScored(
  opts: {
    seed?: number;
    scale?: "paper" | "small";
    cache?: boolean;
    log?: (m: string) => void;
    /** Scoring progress, as `scoreCorpus`'s `progress` option (lib/frames/score.ts). */
    progress?: ScoreOptions["progress"];
  } = {},
): Promise<{ corpus: string; scored: ScoredFrames; generator: string }> {
  const seed = opts.seed ?? 1, scale = opts.scale ?? "paper";
  const log = opts.log ?? (() => {});
  const generator = (await sourceHash(["simulate"])).slice(0, 12);
  const root = `${cacheRoot()}/${SIM_NAMESPACE}-v${SIM_VERSION}`;
  const corpus = `${root}/corpus-${sha256(`${generator}|${seed}|${scale}`).slice(0, 16)}`;
  if (opts.cache === false || !(await exists(`${corpus}/.complete`))) {
    log(`simulating the corpus (seed ${seed}, scale ${scale}) into ${corpus}`);
    const tmp = `${corpus}.${crypto.randomUUID()}.tmp`;
    // a line every 5 s while simulating (the simulator reports nothing itself)
    const t0 = performance.now();
    const beat = setInterval(
      () => log(`simulating … ${((performance.now() - t0) / 1000).toFixed(0)} s`),
      5000,
    );
    let made: Awaited<ReturnType<typeof simulateCorpus>>;
    try {
      made = await simulateCorpus(tmp, { seed, scale });
    } finally {
      clearInterval(beat);
    }
    await Deno.writeTextFile(`${made.dir}/.complete`, `${generator} ${seed} ${scale}\n`);
    await publish(made.dir, corpus, opts.cache !== false);
  } else {
    log(`using the cached simulated corpus ${corpus}`);
    await touch(corpus);
  }
  const scorer = (await sourceHash(["frames", "metrics", "layout", "logs", "python", "util"]))
    .slice(0, 12);
  const scoredDir = `${corpus}.scored-${scorer}`;
  if (opts.cache !== false && (await exists(`${scoredDir}/.complete`))) {
    log(`using the cached scores ${scoredDir}`);
    await touch(scoredDir);
    return { corpus, scored: await readScored(scoredDir), generator };
  }
  log("scoring the simulated corpus");
  const scored = await scoreCorpus(corpus, {
    cache: opts.cache !== false,
    progress: opts.progress,
  });
  const tmp = `${scoredDir}.${crypto.randomUUID()}.tmp`;
  await writeScored(scored, tmp);
  await Deno.writeTextFile(`${tmp}/.complete`, `${scorer}\n`);
  await publish(tmp, scoredDir, opts.cache !== false);
  // pruning old cache entries is housekeeping; the result is written
  await pruneCache(root, { corpus, scoredDir, seed, scale }).catch(() => {});
  return { corpus, scored, generator };
}

/** Marks a cache entry as in use (its mtime is what {@link pruneCache} looks at). */
async function touch(path: string): Promise<void> {
  const now = new Date();
  // the time stamp only orders pruning; a failed touch costs nothing
  await Deno.utime(path, now, now).catch(() => {});
}

/** Entries untouched for this long may be pruned (a concurrent run may still read younger ones). */
const PRUNE_AFTER_MS = 30 * 60 * 1000;

/**
 * Removes cache entries made obsolete by a source change: simulated corpora of the same seed and
 * scale from other simulator versions, scores of the current corpus from other scorer versions,
 * scores whose corpus is gone, and abandoned `.tmp` directories — only those neither made nor used
 * (see {@link touch}) for 30 minutes.
 */
export async function pruneCache(
  root: string,
  keep: { corpus: string; scoredDir: string; seed: number; scale: string },
): Promise<void> {
  const now = Date.now();
  const name = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  const corpusName = name(keep.corpus);
  const entries = await Array.fromAsync(Deno.readDir(root));
  const corpora = new Set(
    entries.filter((e) => /^corpus-[0-9a-f]+$/.test(e.name)).map((e) => e.name),
  );
  const doomed: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory || e.name === corpusName || e.name === name(keep.scoredDir)) continue;
    const path = `${root}/${e.name}`;
    const scored = e.name.match(/^(corpus-[0-9a-f]+)\.scored-[0-9a-f]+$/);
    let obsolete = false;
    if (e.name.endsWith(".tmp")) obsolete = true;
    else if (scored) obsolete = scored[1] === corpusName || !corpora.has(scored[1]);
    else if (corpora.has(e.name)) {
      const mark = await Deno.readTextFile(`${path}/.complete`).catch(() => "");
      const [, seed, scale] = mark.trim().split(" ");
      obsolete = seed === String(keep.seed) && scale === keep.scale;
    }
    if (!obsolete) continue;
    // an entry gone meanwhile is not pruned
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.mtime && now - info.mtime.getTime() > PRUNE_AFTER_MS) doomed.push(path);
  }
  // housekeeping: an entry that cannot be removed is tried again next time
  for (const path of doomed) await Deno.remove(path, { recursive: true }).catch(() => {});
}

/** Runs the whole reproduction and writes `out/`. */
export async function reproduce(opts: ReproduceOptions): Promise<ReproduceResult> {
  const log = opts.log ?? (() => {});
  const B = opts.B ?? DEFAULT_B, bseed = opts.bootstrapSeed ?? DEFAULT_SEED;
  let corpus: string, scored: ScoredFrames, provenance: string, source: string;
  const simulated = opts.runs === undefined;
  if (simulated) {
    const seed = opts.seed ?? 1, scale = opts.scale ?? "paper";
    const sim = await simulatedScored({
      seed,
      scale,
      cache: opts.cache,
      log,
      progress: opts.progress,
    });
    corpus = sim.corpus;
    scored = sim.scored;
    provenance = SIMULATED;
    source =
      `the project's simulated corpus (\`simulateCorpus\` from lib/simulate, seed ${seed}, ` +
      `scale "${scale}", generator sources ${sim.generator}), scored with \`scoreCorpus\` from ` +
      "lib/frames. These are synthetic logs calibrated to the paper's tables: they test the " +
      "pipeline, they are **not measurements of real agents**.";
  } else {
    const dirs = typeof opts.runs === "string" ? [opts.runs] : [...opts.runs!];
    const manifests = dirs.map(readManifest);
    if (manifests.every((m) => m !== undefined)) {
      // scored already (a run or its shards): the corpus they name gives the tasks
      corpus = manifests[0]!.corpus;
      log(`reading the scored frames of ${dirs.join(", ")}`);
      scored = await readScored(dirs);
    } else {
      if (dirs.length !== 1) {
        throw new Error(`--runs: ${dirs.find((_, i) => !manifests[i])} is not a scored directory`);
      }
      corpus = dirs[0];
      log(`scoring ${corpus}`);
      scored = await scoreCorpus(corpus, { cache: opts.cache !== false, progress: opts.progress });
    }
    provenance = `run logs in ${corpus}`;
    source = `the run logs in ${mdCode(corpus)}, scored with \`scoreCorpus\` from lib/frames.`;
  }
  const { tasks, problems } = await readTasks(corpus);
  return await writeReport({
    scored,
    tasks,
    taskProblems: problems,
    corpus,
    simulated,
    provenance,
    source,
  }, {
    out: opts.out,
    B,
    bootstrapSeed: bseed,
    log,
  });
}

/**
 * The report's figures (out/figures/<id>.svg): per-turn curves, reuse vs resolve, Lines viewed vs
 * recall, the read-but-unused breakdown, and the memory ablation (with the 95% intervals of
 * `cells`, from `cellIntervals`, when given).
 */
export function reportFigures(
  scored: Pick<ScoredFrames, "turns" | "targets">,
  opts: { provenance?: string; cells?: readonly CellInterval[]; layout?: Layout } = {},
): Record<string, Chart> {
  const rows = turnRows(scored.turns);
  const figOpts = { provenance: opts.provenance, layout: opts.layout };
  const mc = memoryConfig(rows);
  const intervals: Record<string, Interval> = {};
  if (mc) {
    for (const c of opts.cells ?? []) {
      if (c.config.harness === mc.harness && c.config.model === mc.model) {
        intervals[`${c.config.memory}:${c.metric}`] = c.interval;
      }
    }
  }
  const figures: Record<string, Chart> = {
    per_turn: perTurnFigure(rows, figOpts),
    reuse_vs_resolve: reuseResolveFigure(rows, figOpts),
    lines_vs_recall: linesRecallFigure(rows, figOpts),
    read_unused: readUnusedFigure(scored.targets, figOpts),
  };
  const mem = memoryFigure(rows, {
    ...figOpts,
    intervals: opts.cells ? intervals : undefined,
  });
  if (mem) figures.memory_ablation = mem;
  return figures;
}

/** Input of {@link writeReport}: scored frames, the benchmark's tasks and where they come from. */
export interface ReportInput {
  scored: ScoredFrames;
  /** The `tasks` frame (lib/report/benchmark.ts). */
  tasks: pl.DataFrame;
  taskProblems?: TaskProblem[];
  corpus: string;
  simulated: boolean;
  /** One line printed in every table header and figure title. */
  provenance: string;
  /** A sentence for out/README.md naming the data. */
  source: string;
}

/**
 * Builds every table, interval and figure from scored frames and writes them under `opts.out`
 * (the second half of {@link reproduce}; usable on frames from anywhere).
 */
export async function writeReport(
  input: ReportInput,
  opts: { out: string; B?: number; bootstrapSeed?: number; log?: (m: string) => void },
): Promise<ReproduceResult> {
  const { scored, tasks, corpus, simulated, provenance, source } = input;
  const problems = input.taskProblems ?? [];
  const log = opts.log ?? (() => {});
  const B = opts.B ?? DEFAULT_B, bseed = opts.bootstrapSeed ?? DEFAULT_SEED;
  const rows = turnRows(scored.turns);
  log("building tables");
  const tableData: TableData[] = [
    table1(tasks, rows, { provenance }),
    table2(rows, { provenance }),
    table3(rows, { provenance }),
    table4(rows, { provenance }),
    table5(rows, { provenance }),
  ];
  if (problems.length) {
    tableData[0].notes.push(
      `${problems.length} task file(s) could not be read: ` +
        problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`).join("; "),
    );
  }
  const tables = Object.fromEntries(tableData.map((t) => [t.id, new Table(t)]));

  log(`bootstrapping intervals (B = ${B}, seed = ${bseed})`);
  const cells = cellIntervals(rows, { B, seed: bseed });
  const mc = memoryConfig(rows);
  const paired: PairedComparison[] = [
    ...(mc ? memoryComparisons(rows, scored.targets, mc, { B, seed: bseed }) : []),
    ...harnessComparisons(rows, scored.targets, { B, seed: bseed }),
  ];
  const turnCells = turnCellIntervals(rows, { B, seed: bseed });
  const ci = ciMarkdown(cells, paired, { provenance, B, seed: bseed, turnCells });

  log("rendering figures");
  const figures = reportFigures(scored, { provenance, cells });
  const printed = Object.fromEntries(
    PRINT_SIZES.map((size) => [
      size,
      reportFigures(scored, { provenance, cells, layout: printLayout(COLUMN_WIDTHS[size]) }),
    ]),
  );
  const chromium = await chromiumPath();
  let pdfNote = chromium ? "" : "Chromium not found: print PDFs not written (deno task setup)";

  const files: string[] = [];
  const errors = scored.errors?.height ?? 0;
  const agreement = toleranceLine(tableData[1]);
  // all or nothing (lib/util/fs.ts writeDirAtomic): a run that fails leaves the earlier outputs
  // whole; our own outputs of an earlier run that this one did not write (e.g. a figure now
  // skipped) are not carried over, anything else in the directory is
  await writeDirAtomic(opts.out, async (dir) => {
    const write = async (rel: string, text: string) => {
      const path = `${dir}/${rel}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, text);
      files.push(rel);
    };
    for (const [id, t] of Object.entries(tables)) {
      await write(`tables/${id}.md`, t.toMarkdown());
      await write(`tables/${id}.csv`, t.toCSV());
      await write(`tables/${id}.tex`, t.toLaTeX());
    }
    await write("tables/ci.md", ci);
    for (const [id, c] of Object.entries(figures).sort(([a], [b]) => a.localeCompare(b))) {
      await write(`figures/${id}.vl.json`, JSON.stringify(c.toSpec(), null, 2) + "\n");
      await write(`figures/${id}.svg`, await c.toSVG());
    }
    // the same figures laid out for the paper's columns, SVG sized in inches and PDF
    const browser = chromium
      ? await Browser.launch().catch((e) => {
        pdfNote = `Chromium failed to start, print PDFs not written: ${(e as Error).message}`;
        return undefined;
      })
      : undefined;
    try {
      for (const size of PRINT_SIZES) {
        const inches = COLUMN_WIDTHS[size];
        for (
          const [id, c] of Object.entries(printed[size]).sort(([a], [b]) => a.localeCompare(b))
        ) {
          const p = printSvg(await c.toSVG(), inches);
          const rel = `figures/print/${id}-${size}`;
          await write(`${rel}.svg`, p.svg);
          if (browser) {
            await Deno.writeFile(
              `${dir}/${rel}.pdf`,
              await svgToPdf(browser, `${dir}/${rel}.svg`, inches, p.height),
            );
            files.push(`${rel}.pdf`);
          }
        }
      }
    } finally {
      await browser?.close();
    }
    if (scored.errors && errors > 0) await write("errors.csv", errorsCsv(scored.errors));
    // the scored frames themselves, so `deno task reporeuse query` and notebooks can open them
    if (scored.events && scored.tests && scored.configs && scored.errors) {
      await writeScored(scored as Scored, `${dir}/scored`);
      files.push(...SCORED_FILES.map((f) => `scored/${f}`));
    }
    const listed = [...files].sort();
    await write(
      "README.md",
      readme({
        provenance,
        source,
        simulated,
        B,
        bseed,
        files: listed,
        agreement,
        errors,
        tables: tableData,
        pdfNote,
      }),
    );
  }, { keep: (rel) => !OURS.test(rel) });
  files.sort();
  return {
    out: opts.out,
    corpus,
    simulated,
    provenance,
    tables,
    figures,
    files,
    agreement,
    scoringErrors: errors,
  };
}

/** Our own outputs (relative paths) that a run replaces or, when it no longer writes them, drops. */
const OURS =
  /^(tables\/(table\d\.(md|csv|tex)|ci\.md)|figures\/[\w-]+\.(svg|vl\.json)|figures\/print\/[\w-]+\.(svg|pdf)|errors\.csv)$/;

/** The errors frame as CSV text. */
function errorsCsv(errors: pl.DataFrame): string {
  const cols = errors.columns;
  const recs = errors.toRecords() as Record<string, unknown>[];
  const lines = [cols.map(csvField).join(",")];
  for (const r of recs) {
    lines.push(cols.map((c) => csvField(r[c] as string | number | null)).join(","));
  }
  return lines.join("\n") + "\n";
}

function readme(o: {
  provenance: string;
  source: string;
  simulated: boolean;
  B: number;
  bseed: number;
  files: string[];
  agreement: string | null;
  errors: number;
  tables: TableData[];
  pdfNote?: string;
}): string {
  const lines = [
    "# reporeuse — reproduced tables and figures",
    "",
    o.simulated ? `> **${SIMULATED}.**` : `> **Data: ${mdText(o.provenance)}.**`,
    "",
    `Produced by \`deno task reproduce\` from ${o.source}`,
    "",
  ];
  if (o.simulated) {
    lines.push(
      "The paper's raw agent logs are not public. Every number, table and figure in this directory " +
        "was computed from synthetic run logs generated by the project's simulator; they show that the " +
        "scorer and the report work end to end and where a calibrated simulation lands against the " +
        "paper, not how real agents behave. Run `deno task reproduce --runs <corpus-dir>` on real " +
        "run logs (layout: docs/run-logs.md) for measured numbers.",
      "",
    );
  }
  lines.push(
    "## Files",
    "",
    "| File | Content |",
    "|---|---|",
  );
  const what: Record<string, string> = {};
  for (const t of o.tables) {
    for (const ext of ["md", "csv", "tex"]) what[`tables/${t.id}.${ext}`] = `${t.title} (${ext})`;
  }
  what["errors.csv"] =
    "problems met while scoring (one row each; those turns are not in the tables)";
  what["tables/ci.md"] =
    `95% cluster-bootstrap intervals of every Table 2/4 cell and of the Table 3/5 cells (B = ${o.B}, ` +
    `seed = ${o.bseed}) and paired comparisons on the same chains (paired-bootstrap deltas; chain-level permutation and sign-flip tests, Holm within each family)`;
  const figs: Record<string, string> = {
    per_turn: "per-turn recall_repo, reuse_self and C_dup per configuration",
    reuse_vs_resolve: "repository reuse vs resolve rate across configurations",
    lines_vs_recall: "distinct lines viewed per turn vs repository recall",
    memory_ablation: "memory settings (no / interface / source) with bootstrap error bars",
    read_unused: "targets never read vs read but not reused, by turn and kind",
  };
  for (const [id, text] of Object.entries(figs)) {
    what[`figures/${id}.vl.json`] = `vega-lite spec: ${text}`;
    what[`figures/${id}.svg`] = `SVG (headless Vega render): ${text}`;
    for (const size of PRINT_SIZES) {
      const w = `${COLUMN_WIDTHS[size]} in (${size === "single" ? "one column" : "full width"})`;
      what[`figures/print/${id}-${size}.svg`] = `for print, ${w}, text ≥ 7 pt: ${text}`;
      what[`figures/print/${id}-${size}.pdf`] = `PDF of the same (headless Chromium)`;
    }
  }
  for (const f of o.files) lines.push(`| \`${f}\` | ${what[f] ?? ""} |`);
  lines.push(
    "",
    "## Conventions",
    "",
    "- Every table cell shows the computed value, the paper's value (data/paper/) and the difference.",
    "- Metrics are macro-averaged over turns where defined; self metrics from turn 2; C_dup in " +
      "Tables 2 and 4 is the mean of the cumulative turn-wise rates C_dup(1..5); Δ in Tables 3 and 5 " +
      "is the difference of the rounded first- and last-turn values.",
    "- Intervals resample whole task chains (the turns of a chain are correlated); the seed and the " +
      "number of replicates are recorded in ci.md; the same seed gives the same intervals.",
    "- SVG text is laid out with Helvetica metrics (no canvas in headless Deno; " +
      "lib/report/display.ts); compare figures by their specs.",
    "- `figures/print/` holds each figure laid out for the paper's single column (3.33 in) and full " +
      "width (7 in), sized in inches, with no text under 7 pt at that size; the PDFs are those SVGs " +
      "printed by headless Chromium." + (o.pdfNote ? ` ${o.pdfNote}.` : ""),
    "",
    "## Agreement with the paper (Table 2)",
    "",
    o.agreement ? mdText(o.agreement) : "No Table 2 row matches a configuration of the paper.",
    "",
    o.errors
      ? `Scoring problems: ${o.errors}, listed in \`errors.csv\` (turns listed there are not in the tables).`
      : "Scoring problems: none (every turn was scored).",
    "",
  );
  return lines.join("\n");
}
