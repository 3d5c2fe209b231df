/**
 * Executes every `notebooks/*.ipynb` headless through Jupyter with the Deno kernel (the same
 * executor as `deno task notebooks`), one test per notebook: it must run clean and display at least
 * one HTML table and one chart, and its HTML export must show every chart drawn in headless
 * Chromium (tests/notebooks_browser_test.ts has the details). Skipped, with a message, only when
 * `jupyter nbconvert` is missing (the browser part when Chromium is).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Browser, chromiumPath } from "../lib/report/browser.ts";
import { chartExpectations, checkPage } from "../lib/report/notebook/export.ts";
import {
  cleanProblems,
  ensureKernel,
  executeNotebook,
  exportHtml,
  hasJupyter,
  isLostOutput,
  listNotebooks,
  type Notebook,
  NOTEBOOK_DIR,
  scanOutputs,
  stripNotebook,
} from "../tasks/notebooks.ts";

/** The notebooks the spec asks for (others may be added beside them). */
const SEVEN = [
  "01-quickstart.ipynb",
  "02-main-results.ipynb",
  "03-across-turns.ipynb",
  "04-memory-ablation.ipynb",
  "05-read-but-unused.ipynb",
  "06-case-study.ipynb",
  "07-benchmark-statistics.ipynb",
];
const notebooks = await listNotebooks(NOTEBOOK_DIR);
const jupyter = await hasJupyter();
const chromium = await chromiumPath();
if (jupyter && !chromium) {
  console.warn(
    "notebooks_test: Chromium not installed — the browser check of each export is SKIPPED",
  );
}
if (!jupyter) {
  console.warn(
    "notebooks_test: `jupyter nbconvert` not installed — notebook execution tests are SKIPPED " +
      "(install Debian's jupyter-nbconvert python3-nbclient jupyter-client to run them)",
  );
}

Deno.test("notebooks: the seven notebooks exist and are committed clean (no outputs, deno kernel)", async () => {
  const names = notebooks.map((p) => p.split("/").pop()!);
  for (const name of SEVEN) assert.ok(names.includes(name), `notebooks/${name} is missing`);
  for (const p of notebooks) {
    const nb: Notebook = JSON.parse(await Deno.readTextFile(p));
    assert.deepEqual(cleanProblems(nb), [], p);
  }
});

Deno.test("notebooks: scanOutputs finds errors, stderr errors, tables and charts", () => {
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: "markdown", source: "# t" },
      {
        cell_type: "code",
        source: "x",
        outputs: [
          { output_type: "stream", name: "stderr", text: ["Warning: slow\n"] },
          {
            output_type: "display_data",
            data: { "text/html": ["<div><table>", "</table></div>"] },
          },
          {
            output_type: "display_data",
            data: { "application/vnd.vegalite.v5+json": {}, "text/plain": "chart" },
          },
          { output_type: "execute_result", data: { "image/svg+xml": "<svg/>" } },
          { output_type: "display_data", data: { "text/html": "<p>no table</p>" } },
        ],
      },
      {
        cell_type: "code",
        source: "y",
        outputs: [
          { output_type: "stream", name: "stderr", text: "Uncaught TypeError: x is undefined\n" },
          { output_type: "error", ename: "Error", evalue: "boom", traceback: ["Error: boom"] },
        ],
      },
    ],
  };
  nb.cells.push({ cell_type: "code", source: "await nb.show(x);", outputs: [] });
  nb.cells.push({
    cell_type: "code",
    source: "await nb.show(y);",
    outputs: [{ output_type: "stream", name: "stdout", text: "only a log line\n" }],
  });
  const scan = scanOutputs(nb);
  assert.equal(scan.htmlTables, 1);
  assert.equal(scan.charts, 2);
  assert.equal(scan.errors.length, 4);
  assert.match(scan.errors[0], /^cell 3: stderr: Uncaught TypeError/);
  assert.match(scan.errors[1], /^cell 3: Error: boom/);
  assert.match(scan.errors[2], /^cell 4: displays something but has no display output/);
  assert.match(scan.errors[3], /^cell 5: displays something but has no display output/);
  assert.deepEqual(scan.errors.map(isLostOutput), [false, false, true, true]);
  assert.ok(isLostOutput("nbclient: 1 cell(s) timed out waiting for IOPub output (output lost?)"));
  assert.ok(scan.mimes.has("application/vnd.vegalite.v5+json"));
});

const out = join(await Deno.makeTempDir({ prefix: "reporeuse-notebooks-" }));
let kernelReady: Promise<string[]> | undefined;

for (const path of notebooks) {
  const name = path.split("/").pop()!;
  Deno.test({
    name: `notebooks: ${name} executes clean with the Deno kernel and shows a table and a chart`,
    ignore: !jupyter,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      kernelReady ??= ensureKernel();
      await kernelReady;
      // the small simulated corpus keeps `deno task test` fast; `deno task notebooks` runs the
      // paper-scale one (same notebooks, same code paths, 10 configurations in both)
      const run = await executeNotebook(path, out, {
        timeout: 300,
        env: { REPOREUSE_NOTEBOOK_SCALE: "small" },
      });
      assert.deepEqual(run.errors, [], `${name} produced errors`);
      assert.ok(run.htmlTables >= 1, `${name}: no text/html table among its outputs`);
      assert.ok(run.charts >= 1, `${name}: no vega-lite v5 or SVG chart among its outputs`);
      // the HTML export keeps the tables, and a reader sees every chart drawn (headless Chromium)
      const exported = (await exportHtml(run.output!, out))!;
      assert.match(await Deno.readTextFile(exported), /<table/);
      if (chromium) {
        const browser = await Browser.launch();
        try {
          const nb = JSON.parse(await Deno.readTextFile(run.output!));
          const r = await checkPage(browser, pathToFileURL(exported).href, chartExpectations(nb));
          assert.deepEqual(r.problems, [], `${name}: charts as a reader sees them`);
          assert.equal(r.charts.length, run.charts);
        } finally {
          await browser.close();
        }
      }
      // stripping the executed copy gives back the committed cells (what --strip does before a commit)
      await stripNotebook(run.output!);
      const stripped: Notebook = JSON.parse(await Deno.readTextFile(run.output!));
      const committed: Notebook = JSON.parse(await Deno.readTextFile(path));
      assert.deepEqual(stripped.cells, committed.cells);
    },
  });
}
