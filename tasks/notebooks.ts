/**
 * `deno task notebooks` — executes every `notebooks/*.ipynb` headless through Jupyter (Debian's
 * `jupyter nbconvert`) with the Deno kernel, writes the executed copies to `out/notebooks/`, and
 * fails when any cell produced an error.
 *
 * ```
 * deno task notebooks [options] [name …]
 *   --out <dir>        where executed copies go (default out/notebooks)
 *   --timeout <s>      per-cell timeout in seconds (default 300)
 *   --html             also export each executed notebook to HTML (out/notebooks/*.html; charts
 *                      as <img> of their SVG, tables as HTML), check every chart and the report's
 *                      figures in headless Chromium, and write screenshots to out/notebooks/shots/
 *   --check-clean      only check that the committed notebooks carry no outputs
 *   --strip            remove outputs and execution counts from the committed notebooks, in place
 * ```
 *
 * `name` filters notebooks by substring (`deno task notebooks 05` runs `05-read-but-unused`).
 * The Deno kernel spec is registered (`deno jupyter --install`) when it is missing or points at a
 * deno binary that no longer exists. The kernel's working directory is the notebook's directory
 * (`notebooks/`), as in Jupyter Lab or VS Code, so `deno.json` is found by walking up and the
 * notebooks import the library as `../lib/…`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  Browser,
  cellIntervals,
  chartExpectations,
  checkPage,
  chromiumPath,
  DEFAULT_B,
  DEFAULT_SEED,
  expectationOf,
  htmlExportCopy,
  reportFigures,
  SIMULATED,
  simulatedScored,
} from "../lib/report/mod.ts";
import { removeIfPresent } from "../lib/util/mod.ts";

const toFileUrl = (p: string) => pathToFileURL(p).href;
/** Seconds between "still running" lines while a notebook executes. */
const HEARTBEAT_MS = 5000;

/** The project root (the directory holding deno.json). */
export const ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the notebooks live. */
export const NOTEBOOK_DIR: string = join(ROOT, "notebooks");
/** Name of the Jupyter kernel spec the notebooks use. */
export const KERNEL = "deno";

/** One output of a code cell (nbformat 4). */
interface NbOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

/** A cell of an nbformat 4 notebook (only the fields used here). */
interface NbCell {
  cell_type: string;
  source: string | string[];
  outputs?: NbOutput[];
  execution_count?: number | null;
  metadata?: Record<string, unknown>;
}

/** An nbformat 4 notebook (only the fields used here). */
export interface Notebook {
  cells: NbCell[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

/** Result of executing one notebook. */
export interface NotebookRun {
  /** Notebook file name, e.g. `01-quickstart.ipynb`. */
  name: string;
  /** Wall-clock seconds of the nbconvert process (kernel start included). */
  seconds: number;
  /** Every problem found: error outputs, stderr streams reporting errors, nbconvert failures. */
  errors: string[];
  /** MIME types present in the executed outputs (plus `stream:stdout`/`stream:stderr`). */
  mimes: Set<string>;
  /** Number of `text/html` outputs holding a `<table`. */
  htmlTables: number;
  /** Number of chart outputs (vega-lite v5 or SVG). */
  charts: number;
  /** Path of the executed copy (absent when nbconvert failed before writing it). */
  output?: string;
  /** Lost outputs of earlier attempts, when the notebook was executed again because of them. */
  retried?: string[];
}

const text = (s: string | string[] | undefined): string => Array.isArray(s) ? s.join("") : s ?? "";

/** A cell that calls one of these must have a display output (the notebooks display through them). */
const SHOWS = /\b(?:nb\.show|show|Deno\.jupyter\.display)\(/;

const LOST_TEXT = "displays something but has no display output (output lost?)";
const LOST = /\(output lost\?\)$/;

/** Lines of stderr that report a failure (not mere warnings). */
const STDERR_ERROR = /\b(error|exception|uncaught|panic(?:ked)?)\b/i;

/**
 * Scans the outputs of an executed notebook: error outputs, stderr streams reporting errors, cells
 * that call `show(…)`/`Deno.jupyter.display(…)` yet hold no display output (a lost output), the
 * MIME types present, and how many HTML tables and charts were displayed.
 *
 * ```ts
 * import { scanOutputs } from "./notebooks.ts";
 * const scan = scanOutputs({
 *   nbformat: 4, nbformat_minor: 5, metadata: {},
 *   cells: [{ cell_type: "code", source: "1/0", outputs: [
 *     { output_type: "display_data", data: { "text/html": "<table></table>" } },
 *     { output_type: "error", ename: "Error", evalue: "boom", traceback: [] },
 *   ] }],
 * });
 * if (scan.errors.length !== 1 || scan.htmlTables !== 1 || scan.charts !== 0) throw new Error();
 * ```
 */
export function scanOutputs(
  nb: Notebook,
): Omit<NotebookRun, "name" | "seconds" | "output" | "retried"> {
  const errors: string[] = [];
  const mimes = new Set<string>();
  let htmlTables = 0;
  let charts = 0;
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const where = `cell ${i + 1}`;
    if (SHOWS.test(text(cell.source)) && !(cell.outputs ?? []).some((o) => o.data)) {
      errors.push(`${where}: ${LOST_TEXT}`);
    }
    for (const out of cell.outputs ?? []) {
      if (out.output_type === "error") {
        const head = `${out.ename}: ${out.evalue}`;
        const tb = (out.traceback ?? []).filter((l, k) => !(k === 0 && l === head)).slice(0, 6)
          .join("\n");
        errors.push(`${where}: ${out.ename}: ${out.evalue}${tb ? `\n${tb}` : ""}`);
      } else if (out.output_type === "stream") {
        mimes.add(`stream:${out.name}`);
        const body = text(out.text);
        if (out.name === "stderr") {
          const bad = body.split("\n").filter((l) => STDERR_ERROR.test(l));
          if (bad.length) errors.push(`${where}: stderr: ${bad.slice(0, 5).join("\n")}`);
        }
      } else if (out.data) {
        for (const [mime, value] of Object.entries(out.data)) {
          mimes.add(mime);
          if (mime === "text/html" && /<table[\s>]/i.test(text(value as string | string[]))) {
            htmlTables++;
          }
        }
        if (
          "application/vnd.vegalite.v5+json" in out.data || "image/svg+xml" in out.data
        ) charts++;
      }
    }
  });
  return { errors, mimes, htmlTables, charts };
}

async function capture(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Whether `jupyter nbconvert` can be run (Debian's `jupyter-nbconvert`). */
export async function hasJupyter(): Promise<boolean> {
  try {
    return (await capture("jupyter", ["nbconvert", "--version"])).code === 0;
  } catch {
    // no jupyter to run: notebooks are skipped with that reason
    return false;
  }
}

/**
 * Makes sure the `deno` kernel spec exists and its argv[0] is an existing deno binary; installs
 * it with `deno jupyter --install --force` otherwise. Returns the kernel.json argv.
 */
export async function ensureKernel(log: (s: string) => void = () => {}): Promise<string[]> {
  const read = async (): Promise<string[] | undefined> => {
    const r = await capture("jupyter", ["kernelspec", "list", "--json"]);
    if (r.code !== 0) throw new Error(`jupyter kernelspec list failed:\n${r.stderr}`);
    const spec = JSON.parse(r.stdout).kernelspecs?.[KERNEL]?.spec;
    return spec?.argv;
  };
  let argv = await read();
  const works = async (a?: string[]) => {
    if (!a?.length) return false;
    try {
      return (await Deno.stat(a[0])).isFile;
    } catch {
      // what cannot be stat'ed is no executable
      return false;
    }
  };
  if (!(await works(argv))) {
    log(
      argv
        ? `kernel spec '${KERNEL}' points at missing ${argv[0]}; reinstalling`
        : `installing the '${KERNEL}' kernel spec`,
    );
    const r = await capture(Deno.execPath(), ["jupyter", "--install", "--force"], {
      env: { NO_COLOR: "1" },
    });
    if (r.code !== 0) throw new Error(`deno jupyter --install failed:\n${r.stdout}${r.stderr}`);
    argv = await read();
    if (!(await works(argv))) {
      throw new Error(
        `the '${KERNEL}' kernel spec is still unusable after installing: ${JSON.stringify(argv)}`,
      );
    }
  }
  return argv!;
}

/** The notebooks under `dir`, sorted, optionally filtered by substrings of their names. */
export async function listNotebooks(dir = NOTEBOOK_DIR, filters: string[] = []): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".ipynb")) names.push(e.name);
  }
  names.sort();
  return names
    .filter((n) => !filters.length || filters.some((f) => n.includes(f)))
    .map((n) => join(dir, n));
}

/**
 * Executes one notebook headless through `jupyter nbconvert --execute` with the Deno kernel
 * (`NO_COLOR=1`, a per-cell timeout), writes the executed copy into `outDir`, and scans it.
 * Never throws for a failing notebook: failures are listed in `errors`. When the only problems are
 * lost display outputs (the kernel's IOPub socket can drop messages under load, see `show` in
 * lib/report/notebook.ts), the notebook is executed again, up to `retries` times (default 1), and
 * the lost outputs of the earlier attempt are listed in `retried`.
 */
export async function executeNotebook(
  path: string,
  outDir: string,
  opts: { timeout?: number; env?: Record<string, string>; retries?: number } = {},
): Promise<NotebookRun> {
  const retries = opts.retries ?? 1;
  let run = await executeOnce(path, outDir, opts);
  let lost: string[] = [];
  for (let i = 0; i < retries && run.errors.length && run.errors.every(isLostOutput); i++) {
    lost = [...lost, ...run.errors];
    const again = await executeOnce(path, outDir, opts);
    again.seconds += run.seconds;
    run = again;
  }
  return lost.length ? { ...run, retried: lost } : run;
}

/** Whether a problem is only a lost display output (a kernel transport flake, see lib/report/notebook.ts `show`). */
export function isLostOutput(problem: string): boolean {
  return LOST.test(problem);
}

async function executeOnce(
  path: string,
  outDir: string,
  opts: { timeout?: number; env?: Record<string, string> },
): Promise<NotebookRun> {
  const name = basename(path);
  const timeout = opts.timeout ?? 300;
  await Deno.mkdir(outDir, { recursive: true });
  const output = join(outDir, name);
  await removeIfPresent(output); // a stale output must never pass for this run's
  const started = performance.now();
  const r = await capture("jupyter", [
    "nbconvert",
    "--to",
    "notebook",
    "--execute",
    "--allow-errors",
    `--ExecutePreprocessor.kernel_name=${KERNEL}`,
    `--ExecutePreprocessor.timeout=${timeout}`,
    "--ExecutePreprocessor.startup_timeout=120",
    "--output-dir",
    outDir,
    path,
  ], { cwd: ROOT, env: { NO_COLOR: "1", ...opts.env } });
  const seconds = (performance.now() - started) / 1000;
  let nb: Notebook;
  try {
    nb = JSON.parse(await Deno.readTextFile(output));
  } catch (e) {
    const why = r.code !== 0 ? r.stderr.trim().split("\n").slice(-15).join("\n") : String(e);
    return {
      name,
      seconds,
      errors: [`nbconvert failed (exit ${r.code}): ${why}`],
      mimes: new Set(),
      htmlTables: 0,
      charts: 0,
    };
  }
  const scan = scanOutputs(nb);
  const iopubTimeouts =
    r.stderr.split("\n").filter((l) => l.includes("Timeout waiting for IOPub")).length;
  if (iopubTimeouts) {
    scan.errors.push(
      `nbclient: ${iopubTimeouts} cell(s) timed out waiting for IOPub output (output lost?)`,
    );
  }
  if (r.code !== 0) {
    scan.errors.push(
      `nbconvert exited with ${r.code}: ${r.stderr.trim().split("\n").slice(-5).join("\n")}`,
    );
  }
  return { name, seconds, output, ...scan };
}

/**
 * Exports an executed notebook to HTML with nbconvert, from its export copy (charts as `<img>` of
 * their SVG, lib/report/notebook/export.ts); returns the HTML path, or undefined on failure.
 */
export async function exportHtml(executed: string, outDir: string): Promise<string | undefined> {
  const name = basename(executed).replace(/\.ipynb$/, "");
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-export-" });
  try {
    const copy = join(tmp, `${name}.ipynb`);
    await Deno.writeTextFile(
      copy,
      JSON.stringify(htmlExportCopy(JSON.parse(await Deno.readTextFile(executed)))),
    );
    const r = await capture("jupyter", [
      "nbconvert",
      "--to",
      "html",
      "--output-dir",
      outDir,
      "--output",
      name,
      copy,
    ], { env: { NO_COLOR: "1" } });
    if (r.code !== 0) {
      console.error(r.stderr.trim().split("\n").slice(-5).join("\n"));
      return undefined;
    }
    return join(outDir, `${name}.html`);
  } finally {
    // best effort: a scratch directory
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/**
 * Signs executed notebooks as trusted (`jupyter trust`), so Jupyter shows their HTML, SVG and
 * Markdown outputs instead of plain text. Returns the problem, or undefined when signed.
 */
export async function trustNotebooks(paths: string[]): Promise<string | undefined> {
  if (!paths.length) return undefined;
  try {
    const r = await capture("jupyter", ["trust", ...paths], { env: { NO_COLOR: "1" } });
    return r.code === 0 ? undefined : `jupyter trust failed: ${r.stderr.trim().split("\n").at(-1)}`;
  } catch (e) {
    return `jupyter trust failed: ${(e as Error).message}`;
  }
}

/**
 * Checks the charts of exported notebooks and the report's figures in headless Chromium and writes
 * a screenshot of each into `shots` (`<notebook>-<n>.png`, `figure-<id>.png`). Returns the
 * problems found; undefined when Chromium is not installed.
 */
export async function checkInBrowser(
  pages: { html: string; ipynb: string }[],
  figures: Record<string, string>,
  shots: string,
): Promise<string[] | undefined> {
  if (!(await chromiumPath())) return undefined;
  await Deno.mkdir(shots, { recursive: true });
  const browser = await Browser.launch();
  const problems: string[] = [];
  try {
    for (const p of pages) {
      const nb = JSON.parse(await Deno.readTextFile(p.ipynb));
      const name = basename(p.html).replace(/\.html$/, "");
      const r = await checkPage(browser, toFileUrl(p.html), chartExpectations(nb), {
        shots: join(shots, name),
      });
      problems.push(...r.problems.map((x) => `${name}: ${x}`));
    }
    for (const [id, svg] of Object.entries(figures)) {
      const spec = JSON.parse(await Deno.readTextFile(svg.replace(/\.svg$/, ".vl.json")));
      const r = await checkPage(browser, toFileUrl(svg), [expectationOf(spec, id)], {
        shots: join(shots, `figure-${id}`),
      });
      problems.push(...r.problems.map((x) => `figure ${id}: ${x}`));
    }
  } finally {
    await browser.close();
  }
  return problems;
}

/** Writes the report's figures (SVG + vega-lite) from the simulated corpus into `dir`. */
export async function writeFigures(dir: string): Promise<Record<string, string>> {
  const sim = await simulatedScored({});
  const cells = cellIntervals(sim.scored.turns, { B: DEFAULT_B, seed: DEFAULT_SEED });
  const figures = reportFigures(sim.scored, { provenance: SIMULATED, cells });
  await Deno.mkdir(dir, { recursive: true });
  const out: Record<string, string> = {};
  for (const [id, c] of Object.entries(figures)) {
    await Deno.writeTextFile(join(dir, `${id}.vl.json`), JSON.stringify(c.toSpec(), null, 2));
    await Deno.writeTextFile(join(dir, `${id}.svg`), await c.toSVG());
    out[id] = join(dir, `${id}.svg`);
  }
  return out;
}

/** Returns the problems that make a committed notebook not clean: outputs or execution counts kept, wrong kernel. */
export function cleanProblems(nb: Notebook): string[] {
  const problems: string[] = [];
  const ks = nb.metadata?.kernelspec as { name?: string; language?: string } | undefined;
  if (ks?.name !== KERNEL) {
    problems.push(`kernelspec name is ${JSON.stringify(ks?.name)}, expected "${KERNEL}"`);
  }
  if (ks?.language !== "typescript") {
    problems.push(`kernelspec language is ${JSON.stringify(ks?.language)}, expected "typescript"`);
  }
  nb.cells.forEach((c, i) => {
    if (c.cell_type !== "code") return;
    if (c.outputs?.length) problems.push(`cell ${i + 1} has ${c.outputs.length} output(s)`);
    if (c.execution_count != null) {
      problems.push(`cell ${i + 1} has execution_count ${c.execution_count}`);
    }
  });
  return problems;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Removes outputs, execution counts and execution timings in place; returns whether the file changed. */
export async function stripNotebook(path: string): Promise<boolean> {
  const before = await Deno.readTextFile(path);
  const nb: Notebook = JSON.parse(before);
  for (const c of nb.cells) {
    if (c.cell_type !== "code") continue;
    c.outputs = [];
    c.execution_count = null;
    if (c.metadata) delete c.metadata.execution; // nbclient's per-cell timings
  }
  const after = JSON.stringify(sortKeys(nb), null, 1) + "\n"; // as nbformat writes it
  if (after === before) return false;
  await Deno.writeTextFile(path, after);
  return true;
}

/** Runs the task; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: "string", default: join(ROOT, "out", "notebooks") },
      timeout: { type: "string", default: "300" },
      html: { type: "boolean", default: false },
      "check-clean": { type: "boolean", default: false },
      strip: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(
      "deno task notebooks [--out dir] [--timeout s] [--html] [--check-clean] [--strip] [name …]",
    );
    return 0;
  }
  const paths = await listNotebooks(NOTEBOOK_DIR, positionals);
  if (!paths.length) {
    console.error(
      `notebooks: no notebook in ${NOTEBOOK_DIR} matches ${positionals.join(" ") || "*.ipynb"}`,
    );
    return 1;
  }
  if (values.strip) {
    for (const p of paths) if (await stripNotebook(p)) console.log(`stripped ${basename(p)}`);
    return 0;
  }
  if (values["check-clean"]) {
    let bad = 0;
    for (const p of paths) {
      const problems = cleanProblems(JSON.parse(await Deno.readTextFile(p)));
      if (problems.length) {
        bad++;
        console.error(`${basename(p)}: ${problems.join("; ")}`);
      }
    }
    return bad ? 1 : 0;
  }
  if (!(await hasJupyter())) {
    console.error(
      "notebooks: `jupyter nbconvert` not found; install Debian's jupyter-nbconvert python3-nbclient jupyter-client",
    );
    return 1;
  }
  await ensureKernel((s) => console.log(s));
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) {
    console.error(
      `notebooks: --timeout must be a positive number of seconds, got ${values.timeout}`,
    );
    return 2;
  }
  let failed = 0;
  const started = performance.now();
  const exported: { html: string; ipynb: string }[] = [];
  for (const [i, p] of paths.entries()) {
    const name = basename(p);
    console.log(`[${i + 1}/${paths.length}] executing ${name} …`);
    const t0 = performance.now();
    const beat = setInterval(() => {
      console.log(
        `       ${name}: still running (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }, HEARTBEAT_MS);
    let run: NotebookRun;
    try {
      run = await executeNotebook(p, values.out!, { timeout });
    } finally {
      clearInterval(beat);
    }
    const status = run.errors.length ? "FAILED" : "ok";
    console.log(
      `${status.padEnd(6)} ${run.name.padEnd(32)} ${run.seconds.toFixed(1).padStart(6)} s  ` +
        `${run.htmlTables} table(s), ${run.charts} chart(s)`,
    );
    for (const e of run.errors) console.log(`       ${e.replaceAll("\n", "\n       ")}`);
    if (run.retried) {
      console.log(`       (executed again after a lost output: ${run.retried.join("; ")})`);
    }
    if (run.output) {
      const untrusted = await trustNotebooks([run.output]);
      if (untrusted) console.log(`       ${untrusted} (Jupyter will show charts as text)`);
    }
    if (run.errors.length) failed++;
    else if (values.html && run.output) {
      const html = await exportHtml(run.output, values.out!);
      console.log(`       ${html ? `HTML: ${html}` : "HTML export failed"}`);
      if (!html) failed++;
      else exported.push({ html, ipynb: run.output });
    }
  }
  if (values.html && exported.length) {
    console.log("checking charts in headless Chromium …");
    const figures = await writeFigures(join(values.out!, "figures"));
    const shots = join(values.out!, "shots");
    const problems = await checkInBrowser(exported, figures, shots);
    if (problems === undefined) {
      console.log("       Chromium not found (apt-get install chromium): charts not checked");
    } else {
      for (const x of problems) console.log(`FAILED ${x}`);
      console.log(
        `       ${
          problems.length ? `${problems.length} chart problem(s)` : "every chart drawn"
        }; ` +
          `screenshots in ${shots}`,
      );
      if (problems.length) failed++;
    }
  }
  const total = (performance.now() - started) / 1000;
  console.log(
    `${paths.length - failed}/${paths.length} notebooks clean in ${
      total.toFixed(1)
    } s; executed copies in ${values.out}`,
  );
  return failed ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
