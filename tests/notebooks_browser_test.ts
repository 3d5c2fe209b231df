/**
 * The real-browser test (issue 15): charts as a reader sees them in Debian's headless Chromium.
 * - A notebook whose outputs are the library's charts is exported with Debian's nbconvert 6.5
 *   twice: as-is (inline SVG, which nbconvert's sanitiser empties: must be reported blank) and
 *   through the export copy (`<img>` of the SVG: every chart drawn, with axis titles and legend
 *   entries, not clipped, no wider than a notebook column).
 * - Every report figure (lib/report/figures.ts on the small simulated corpus) opened as an SVG file.
 * Skipped, with a message, when Chromium or `jupyter nbconvert` is missing.
 * (tests/notebooks_test.ts runs the same check on every executed notebook.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Browser, chromiumPath } from "../lib/report/browser.ts";
import { chartProblems, expectationOf, measureCharts } from "../lib/report/chart_check.ts";
import { bundleOf, intervalChart } from "../lib/report/notebook.ts";
import { chartExpectations, checkPage, NOTEBOOK_COLUMN } from "../lib/report/notebook/export.ts";
import { cellIntervals } from "../lib/report/ci.ts";
import { reportFigures, SIMULATED, simulatedScored } from "../lib/report/reproduce.ts";
import { type Chart, chart } from "../lib/report/display.ts";
import { exportHtml, hasJupyter } from "../tasks/notebooks.ts";
import { pdfPages, PRINT_SIZES, printSvg, svgToPdf } from "../lib/report/print.ts";
import { COLUMN_WIDTHS, MIN_PRINT_PT, PAPER_LAYER, printLayout } from "../lib/report/style.ts";

const chromium = await chromiumPath();
const jupyter = await hasJupyter();
if (!chromium) {
  console.warn(
    "notebooks_browser_test: Chromium not installed — SKIPPED (apt-get install chromium)",
  );
}
const url = (p: string) => pathToFileURL(p).href;

const sim = chromium ? await simulatedScored({ scale: "small" }) : undefined;
const cells = sim ? cellIntervals(sim.scored.turns, { B: 200, seed: 7 }) : [];

/** An executed notebook (nbformat 4) whose outputs are the display bundles of `charts`. */
async function notebookOf(charts: Chart[]) {
  const outputs = [];
  for (const c of charts) {
    outputs.push({ output_type: "display_data", metadata: {}, data: await bundleOf(c) });
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: "deno", language: "typescript", display_name: "Deno" } },
    cells: [
      { cell_type: "markdown", metadata: {}, source: "# charts" },
      { cell_type: "code", metadata: {}, execution_count: 1, source: "show()", outputs },
    ],
  };
}

Deno.test({
  name: "browser: nbconvert's plain export leaves charts blank; the export copy draws every chart",
  ignore: !chromium || !jupyter,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const main = cells.filter((c) => c.config.memory === "interface");
    const charts = [
      intervalChart(main, ["reuse_repo", "reuse_self", "recall_repo", "resolve", "pass", "c_dup"], {
        provenance: SIMULATED,
      }),
      ...Object.values(reportFigures(sim!.scored, { provenance: SIMULATED, cells })),
    ];
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-browser-" });
    const ipynb = join(dir, "charts.ipynb");
    const nb = await notebookOf(charts);
    await Deno.writeTextFile(ipynb, JSON.stringify(nb));
    const expected = chartExpectations(nb);
    assert.equal(expected.length, charts.length);
    const browser = await Browser.launch();
    try {
      // before: what `jupyter nbconvert --to html` makes of the executed notebook as it is
      const plainDir = join(dir, "plain");
      await Deno.mkdir(plainDir);
      const r = await new Deno.Command("jupyter", {
        args: ["nbconvert", "--to", "html", "--output-dir", plainDir, ipynb],
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(r.code, 0);
      const before = await checkPage(browser, url(join(plainDir, "charts.html")), expected);
      for (const c of before.charts) {
        assert.ok(c.problems.includes("no data marks drawn"), `${c.expectation.title}: not blank?`);
      }
      // after: the export copy of `deno task notebooks --html`
      const html = await exportHtml(ipynb, dir);
      assert.ok(html);
      const after = await checkPage(browser, url(html), expected, {
        shots: join(dir, "shot"),
      });
      assert.deepEqual(after.problems, []);
      for (const c of after.charts) {
        assert.ok(c.report!.marks > 0 && c.report!.axisTitles.length > 0);
        assert.ok(c.report!.natural <= NOTEBOOK_COLUMN);
      }
      assert.ok((await Deno.stat(join(dir, "shot-1.png"))).size > 1000);
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: every report figure, opened as an SVG file, is drawn whole and fits a column",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const figures = reportFigures(sim!.scored, { provenance: SIMULATED, cells });
    assert.deepEqual(Object.keys(figures).sort(), [
      "lines_vs_recall",
      "memory_ablation",
      "per_turn",
      "read_unused",
      "reuse_vs_resolve",
    ]);
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-figures-" });
    const browser = await Browser.launch();
    try {
      const page = await browser.newPage(1100, 900);
      for (const [id, c] of Object.entries(figures)) {
        const path = join(dir, `${id}.svg`);
        await Deno.writeTextFile(path, await c.toSVG());
        await page.goto(url(path));
        const [report] = await page.call<Awaited<ReturnType<typeof measureCharts>>>(
          measureCharts,
          1.5,
        );
        const problems = chartProblems(report, expectationOf(c.toSpec(), id), NOTEBOOK_COLUMN);
        assert.deepEqual(problems, [], `figure ${id}`);
        assert.ok(report.legendLabels.length > 0, `figure ${id}: no legend`);
      }
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: the check catches a chart too wide for its column and labels cut with …",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const wide = chart({
      width: 1200,
      data: { values: [{ k: "a very long category label that will be cut", v: 1 }] },
      mark: "bar",
      encoding: {
        y: { field: "k", type: "nominal", title: "Category", axis: { labelLimit: 60 } },
        x: { field: "v", type: "quantitative", title: "Value" },
        color: { field: "k", type: "nominal" },
      },
    });
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-wide-" });
    const browser = await Browser.launch();
    try {
      const path = join(dir, "wide.svg");
      await Deno.writeTextFile(path, await wide.toSVG());
      const page = await browser.newPage(1100, 900);
      await page.goto(url(path));
      const [report] = await page.call<Awaited<ReturnType<typeof measureCharts>>>(
        measureCharts,
        1.5,
      );
      const problems = chartProblems(report, expectationOf(wide.toSpec(), "wide"), NOTEBOOK_COLUMN);
      assert.ok(problems.some((p) => p.startsWith("truncated labels")), problems.join("; "));
      assert.ok(problems.some((p) => /px wide, over 980 px/.test(p)), problems.join("; "));
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: print figures at 3.33 and 7 in — text ≥ 7 pt, drawn whole, a one-page PDF",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-print-" });
    const browser = await Browser.launch();
    try {
      const page = await browser.newPage(1100, 900);
      for (const size of PRINT_SIZES) {
        const inches = COLUMN_WIDTHS[size];
        const figures = reportFigures(sim!.scored, {
          provenance: SIMULATED,
          cells,
          layout: printLayout(inches),
        });
        assert.equal(Object.keys(figures).length, 5);
        for (const [id, c] of Object.entries(figures)) {
          const p = printSvg(await c.toSVG(), inches);
          const path = join(dir, `${id}-${size}.svg`);
          await Deno.writeTextFile(path, p.svg);
          await page.goto(url(path));
          const [report] = await page.call<Awaited<ReturnType<typeof measureCharts>>>(
            measureCharts,
            1.5,
          );
          // drawn at the column's width: 96 CSS px per inch
          assert.ok(
            Math.abs(report.box.width - inches * 96) < 1,
            `${id} ${size}: ${report.box.width}`,
          );
          const problems = chartProblems(report, expectationOf(c.toSpec(), id), Infinity, {
            minFontPt: MIN_PRINT_PT,
          });
          assert.deepEqual(problems, [], `${id} at ${inches} in`);
          assert.ok(report.minFontPx * 0.75 >= MIN_PRINT_PT, `${id} ${size}: ${report.minFontPx}`);
          const pdf = await svgToPdf(browser, path, inches, p.height);
          const pages = pdfPages(pdf);
          assert.equal(pages.pages, 1, `${id} ${size}: ${pages.pages} pages`);
          assert.ok(
            Math.abs(pages.width - inches * 72) < 1,
            `${id} ${size}: ${pages.width} pt wide`,
          );
        }
      }
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "browser: the checks catch small text, a paper mark over a computed one, red/green series",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const values = [{ x: 1, y: 1, s: "a" }, { x: 2, y: 2, s: "b" }];
    const bad = chart({
      config: { axis: { labelFontSize: 6, titleFontSize: 6 }, legend: { labelFontSize: 6 } },
      data: { values },
      layer: [
        {
          mark: { type: "point", filled: true, size: 100 },
          encoding: {
            x: { field: "x", type: "quantitative", title: "X" },
            y: { field: "y", type: "quantitative", title: "Y" },
            color: {
              field: "s",
              type: "nominal",
              scale: { domain: ["a", "b"], range: ["#d62728", "#2ca02c"] },
            },
          },
        },
        {
          name: PAPER_LAYER,
          mark: { type: "point", shape: "diamond", filled: false, size: 140 },
          encoding: {
            x: { field: "x", type: "quantitative" },
            y: { field: "y", type: "quantitative" },
          },
        },
      ],
    });
    const dir = await Deno.makeTempDir({ prefix: "reporeuse-bad-" });
    const browser = await Browser.launch();
    try {
      const path = join(dir, "bad.svg");
      await Deno.writeTextFile(path, await bad.toSVG());
      const page = await browser.newPage(1100, 900);
      await page.goto(url(path));
      const [report] = await page.call<Awaited<ReturnType<typeof measureCharts>>>(
        measureCharts,
        1.5,
      );
      const problems = chartProblems(report, expectationOf(bad.toSpec(), "bad"), Infinity, {
        minFontPt: MIN_PRINT_PT,
      });
      assert.ok(problems.some((p) => /text of 4\.5 pt, under 7 pt/.test(p)), problems.join("; "));
      assert.ok(
        problems.some((p) => /2 paper mark\(s\) over computed marks/.test(p)),
        problems.join("; "),
      );
      assert.ok(
        problems.some((p) => /series colours .* under simulated (deuteranopia|protanopia)/.test(p)),
        problems.join("; "),
      );
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
