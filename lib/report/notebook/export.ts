/**
 * Executed notebooks for readers who do not run Jupyter: the HTML-export copy (charts as `<img>`
 * of an SVG data URI, which Debian's nbconvert 6.5 keeps — it strips the children of inline SVG),
 * the charts' expectations from their vega-lite specs, and the real-browser check and screenshots
 * of an exported page (lib/report/browser.ts, lib/report/chart_check.ts).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { Browser } from "../browser.ts";
import {
  type ChartExpectation,
  chartProblems,
  type ChartReport,
  expectationOf,
  measureCharts,
} from "../chart_check.ts";
import { VEGA_LITE_MIME } from "../display.ts";
import { escapeHtml } from "../../util/mod.ts";

/** Widest chart that fits a notebook column (JupyterLab's default document width, CSS px). */
export const NOTEBOOK_COLUMN = 980;

/** An nbformat 4 output (only the fields used here). */
interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** An nbformat 4 notebook (only the fields used here). */
export interface NotebookJson {
  cells: { cell_type: string; outputs?: Output[] }[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

const joined = (v: unknown): string => Array.isArray(v) ? v.join("") : String(v ?? "");

/** The chart outputs of an executed notebook (those with a vega-lite spec or an SVG), in order. */
export function chartOutputs(nb: NotebookJson): Output[] {
  return nb.cells.flatMap((c) => c.outputs ?? []).filter((o) =>
    o.data !== undefined && (VEGA_LITE_MIME in o.data || "image/svg+xml" in o.data)
  );
}

/** What each chart of an executed notebook must show, from its vega-lite spec. */
export function chartExpectations(nb: NotebookJson): ChartExpectation[] {
  return chartOutputs(nb).map((o) => {
    const spec = (o.data![VEGA_LITE_MIME] ?? {}) as Record<string, unknown>;
    return expectationOf(spec, joined(o.data!["text/plain"]) || "chart");
  });
}

/** An `<img>` of an SVG as a base64 data URI, at the SVG's own width (never wider than its column). */
export function svgImage(svg: string, alt: string): string {
  const width = svg.match(/<svg[^>]*\swidth="([\d.]+)"/)?.[1];
  const src = `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
  return `<img src="${src}" alt="${escapeHtml(alt)}"${
    width ? ` width="${width}"` : ""
  } style="max-width:100%;height:auto">`;
}

/**
 * The copy of an executed notebook that nbconvert exports to HTML: every chart output becomes a
 * `text/html` `<img>` of its SVG (nbconvert ranks `text/html` first and does not sanitise it by
 * default), without the vega-lite spec (nothing to load from a CDN) or the inline SVG.
 *
 * ```ts
 * import { htmlExportCopy } from "./export.ts";
 * const nb = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: "code", outputs: [
 *   { output_type: "display_data", data: { "image/svg+xml": '<svg width="10"></svg>', "text/plain": "t" } },
 * ] }] };
 * const out = htmlExportCopy(nb).cells[0].outputs![0].data!;
 * console.assert(String(out["text/html"]).startsWith('<img src="data:image/svg+xml;base64,'));
 * console.assert(!("image/svg+xml" in out));
 * ```
 */
export function htmlExportCopy(nb: NotebookJson): NotebookJson {
  const copy = structuredClone(nb);
  for (const o of chartOutputs(copy)) {
    const data = o.data!;
    const svg = joined(data["image/svg+xml"]);
    if (!svg) continue;
    const title = joined(data["text/plain"]) || "chart";
    o.data = { "text/html": svgImage(svg, title), "text/plain": title };
  }
  return copy;
}

/** One chart of an exported page: where, what it must show, what was measured, what is wrong. */
export interface CheckedChart {
  expectation: ChartExpectation;
  report?: ChartReport;
  problems: string[];
}

/**
 * Opens an exported notebook (or any page with charts) in the browser and checks every chart as
 * a reader sees it; `expected` (from {@link chartExpectations}) also catches charts missing from
 * the page. With `shots`, writes a PNG of each chart (`<shots>-<n>.png`, n from 1).
 */
export async function checkPage(
  browser: Browser,
  url: string,
  expected: ChartExpectation[],
  opts: { shots?: string; maxWidth?: number; viewport?: number } = {},
): Promise<{ charts: CheckedChart[]; problems: string[] }> {
  const page = await browser.newPage(opts.viewport ?? 1100, 900);
  try {
    await page.goto(url);
    const reports = await page.call<ChartReport[]>(measureCharts, 1.5);
    const problems: string[] = [];
    if (reports.length !== expected.length) {
      problems.push(`${expected.length} chart(s) in the notebook, ${reports.length} on the page`);
    }
    const charts = expected.map((expectation, i): CheckedChart => {
      const report = reports[i];
      const p = report
        ? chartProblems(report, expectation, opts.maxWidth ?? NOTEBOOK_COLUMN)
        : ["missing"];
      for (const x of p) problems.push(`chart ${i + 1} (${expectation.title}): ${x}`);
      return { expectation, report, problems: p };
    });
    if (opts.shots) {
      for (const [i, r] of reports.entries()) {
        if (r.box.width < 1 || r.box.height < 1) continue;
        const png = await page.screenshot({
          x: Math.max(0, r.box.x - 4),
          y: Math.max(0, r.box.y - 4),
          width: Math.ceil(r.box.width + 8),
          height: Math.ceil(r.box.height + 8),
        });
        await Deno.writeFile(`${opts.shots}-${i + 1}.png`, png);
      }
    }
    return { charts, problems };
  } finally {
    await page.close();
  }
}
