/**
 * The viewer: a static site of what an agent read, reused and rebuilt, over the repository's own
 * code — for a corpus (scored now or from a scored directory), for one run log with its
 * workspace (any harness `lib/logs` reads, Claude Code and Codex sessions included), and for an
 * `audit --format json` report. The site opens from disk with no server and no network.
 *
 * - {@link viewCorpus} — index (configurations → chains → turns, a sortable, filterable table of
 *   turn metrics), a page per configuration (a strip of turns per chain) and a page per turn;
 * - {@link viewLog} — one log's page (tree, code with the lines shown, events);
 * - {@link viewAudit} — each finding of an audit as F beside G with its evidence;
 * - {@link TurnView} / {@link turnView} / {@link logView} — one turn inline in a notebook.
 *
 * @module
 */
import {
  averageByConfig,
  type EventRow,
  type TargetRow,
  type TestRow,
  type TurnRow,
} from "../../metrics/mod.ts";
import { scoreRows } from "../../frames/mod.ts";
import { corpusPages, isSimulatedCorpus, type ViewRows } from "./corpus.ts";
import { configPage, indexPage } from "./pages.ts";
import { writeSite, type WrittenSite } from "./site.ts";
import { configHref } from "./paths.ts";
import { buildTurnPage, logInputs, type LogSource } from "./turn.ts";
import { progress } from "../../util/mod.ts";

export { type Site, writeSite, type WrittenSite } from "./site.ts";
export type * from "./model.ts";
export { eventVia, OUTCOME_LABELS, VIEW_OUTCOMES, viewOutcome } from "./model.ts";
export { highlightPython, TOKEN_CLASSES, tokensToHtml } from "./highlight.ts";
export { configHref, slug, turnHref } from "./paths.ts";
export { viewAudit } from "./audit.ts";
export { logView, TurnView, turnView } from "./display.ts";

/** Options of {@link viewCorpus}. */
export interface ViewCorpusOptions {
  /** A corpus directory (docs/run-logs.md): scored now (cached), its code shown. */
  corpus?: string;
  /** A scored directory (`score --out`): its frames are shown; with `corpus`, the code too. */
  scored?: string;
  /** The site directory (written all or nothing). */
  out: string;
  /** Use the scorer's content-hash cache (default true). */
  cache?: boolean;
  /** Worker threads (default: one per core). */
  workers?: number;
  /** Progress on stderr (default false). */
  progress?: boolean;
  /** Label the data SIMULATED (default: the corpus's corpus.json says it is the simulator's). */
  simulated?: boolean;
}

/** The scorer's rows of a scored directory (lib/frames `readScored`, loaded only when needed). */
async function scoredRows(dir: string): Promise<ViewRows & { errors: number }> {
  const { readScored, rowsOf, erroredTurns } = await import("../../frames/mod.ts");
  const s = await readScored(dir);
  return {
    turns: rowsOf<TurnRow>(s.turns),
    targets: rowsOf<TargetRow>(s.targets),
    events: rowsOf<EventRow>(s.events),
    tests: rowsOf<TestRow>(s.tests),
    errors: erroredTurns(s.errors),
  };
}

/**
 * Writes the site of a corpus and/or a scored directory (see {@link ViewCorpusOptions}): every
 * scored turn gets a page.
 */
export async function viewCorpus(opts: ViewCorpusOptions): Promise<WrittenSite> {
  if (!opts.corpus && !opts.scored) {
    throw new Error("viewCorpus: give a corpus or a scored directory");
  }
  let rows: ViewRows & { errors: number };
  if (opts.scored) rows = await scoredRows(opts.scored);
  else {
    const r = await scoreRows(opts.corpus!, {
      cache: opts.cache,
      workers: opts.workers,
      progress: opts.progress,
    });
    rows = {
      ...r,
      errors: new Set(
        r.errors.filter((e) => e.turn !== null).map((e) =>
          `${e.config}\u0000${e.chain}\u0000${e.turn}`
        ),
      ).size,
    };
  }
  const simulated = opts.simulated ?? (opts.corpus ? isSimulatedCorpus(opts.corpus) : false);
  const source = opts.corpus && opts.scored
    ? `Scored frames of ${opts.scored}, code of the corpus ${opts.corpus}`
    : opts.corpus
    ? `Corpus ${opts.corpus}`
    : `Scored frames of ${opts.scored} (no corpus given: no code)`;
  return await writeSite(opts.out, async (site) => {
    const tick = opts.progress ? progress(rows.turns.length, "view", { unit: "turns" }) : undefined;
    site.onPage = () => tick?.tick();
    const indexed = await corpusPages(site, rows, opts.corpus, simulated);
    tick?.done();
    const byConfig = new Map<string, typeof indexed>();
    for (const t of indexed) {
      const k = `${t.row.harness}\u0000${t.row.model}\u0000${t.row.memory}`;
      const g = byConfig.get(k);
      if (g) g.push(t);
      else byConfig.set(k, [t]);
    }
    for (const turns of byConfig.values()) {
      await site.write(
        configHref(turns[0].row),
        configPage({ config: turns[0].row, turns, simulated }),
      );
    }
    await site.write(
      "index.html",
      indexPage({
        title: "reporeuse viewer",
        source,
        simulated,
        configs: averageByConfig(rows.turns),
        turns: indexed,
        errors: rows.errors,
      }),
    );
  }, { workers: opts.workers, cache: opts.cache });
}

/** Options of {@link viewLog}. */
export interface ViewLogOptions extends LogSource {
  out: string;
  workers?: number;
}

/** Writes the site of one run log: its page is the site's index. */
export async function viewLog(opts: ViewLogOptions): Promise<WrittenSite> {
  const inputs = await logInputs(opts);
  return await writeSite(opts.out, async (site) => {
    await site.turnPage(await buildTurnPage(inputs, site.store, site.addresses));
  }, { workers: opts.workers });
}
