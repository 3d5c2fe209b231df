/**
 * The notebooks as a reader runs them: Debian's classic Jupyter Notebook (`jupyter notebook`,
 * package `jupyter-notebook`) serving `notebooks/` with the Deno kernel, and a headless Chromium
 * (lib/report/browser.ts) that opens a notebook, runs every cell from the page (the notebook UI's
 * own `execute_all_cells`), waits for every cell's reply and for the kernel indicator to go back
 * to idle, then reads what the page shows: errors, cells whose display went missing, and whether
 * the kernel was left "busy" after the last cell finished (a lost final `status: idle`).
 *
 * `deno task jupyter` starts the same server for people ({@link startNotebookServer});
 * `deno task jupyter --live-check` runs {@link runNotebookLive} over the notebooks, many times.
 *
 * @module
 */

import { join } from "node:path";
import type { Browser, Page } from "../browser.ts";

/** A running notebook server. */
export interface NotebookServer {
  /** Base URL, e.g. `http://127.0.0.1:8888/`. */
  url: string;
  /** The access token (random unless given). */
  token: string;
  /** The server process id. */
  pid: number;
  /** Stops the server (and with it its kernels). */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Whether Debian's classic Notebook (`jupyter notebook`) is installed. */
export async function hasNotebookServer(): Promise<boolean> {
  try {
    const r = await new Deno.Command("jupyter", {
      args: ["notebook", "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return r.code === 0;
  } catch {
    // no jupyter to start: no live server
    return false;
  }
}

/**
 * Starts `jupyter notebook` on `dir` (its kernels' working directory is the notebook's directory),
 * bound to 127.0.0.1, with a random token unless `token` is given; resolves when it listens.
 * `extra` are passed to the server as they are (e.g. `--no-browser`).
 */
export async function startNotebookServer(
  dir: string,
  opts: {
    token?: string;
    port?: number;
    extra?: string[];
    env?: Record<string, string>;
    log?: (line: string) => void;
    timeoutMs?: number;
  } = {},
): Promise<NotebookServer> {
  const token = opts.token ?? crypto.randomUUID().replaceAll("-", "");
  const proc = new Deno.Command("jupyter", {
    args: [
      "notebook",
      `--notebook-dir=${dir}`,
      "--ip=127.0.0.1",
      ...(opts.port ? [`--port=${opts.port}`] : []),
      `--NotebookApp.token=${token}`,
      // the notebook refuses to run as root without it (containers, CI)
      ...(Deno.uid() === 0 ? ["--allow-root"] : []),
      ...(opts.extra ?? []),
    ],
    env: { NO_COLOR: "1", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("jupyter notebook printed no URL")),
      opts.timeoutMs ?? 60_000,
    );
    let seen = "";
    const dec = new TextDecoder();
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) {
        const text = dec.decode(chunk);
        for (const line of text.split("\n")) if (line.trim()) opts.log?.(line);
        seen += text;
        const m = seen.match(/(http:\/\/127\.0\.0\.1:\d+\/)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      }
    };
    // the server's output is only drained; it ends with the process
    pump(proc.stderr).catch(() => {});
    // the server's output is only drained; it ends with the process
    pump(proc.stdout).catch(() => {});
    proc.status.then((s) => {
      clearTimeout(timer);
      reject(new Error(`jupyter notebook exited (${s.code}):\n${seen.slice(-800)}`));
    });
  });
  return {
    url,
    token,
    pid: proc.pid,
    async stop() {
      try {
        proc.kill("SIGTERM");
      } catch {
        // gone
      }
      const t = setTimeout(() => {
        try {
          proc.kill("SIGKILL");
        } catch {
          // gone
        }
      }, 10_000);
      // its exit status is not needed, only that it ended
      await proc.status.catch(() => {});
      clearTimeout(t);
    },
  };
}

/** What one live run of a notebook showed. */
export interface LiveRun {
  notebook: string;
  /** Seconds from "run all" until every code cell had its reply. */
  seconds: number;
  /** Whether every code cell got its reply before the timeout. */
  finished: boolean;
  /**
   * Whether the kernel indicator still said "busy" `graceSeconds` after the last reply (the
   * kernel's final `status: idle` never arrived).
   */
  stuck: boolean;
  /** Seconds from the last reply until the indicator showed idle (null when it never did). */
  idleAfter: number | null;
  /** Error outputs, stderr lines reporting errors, cells that show something but have no display. */
  errors: string[];
  /** Code cells, and outputs with a display (HTML, SVG, vega-lite) on the page. */
  cells: number;
  displays: number;
  /** PNG of the whole notebook as shown, when asked for. */
  screenshot?: string;
  /** The kernel status changes the page saw last ("busy @12.3 s"), to tell a late busy from none. */
  statuses: string[];
}

/** Runs in the page: the state of the notebook (self-contained, for `Page.call`). */
function notebookState(): {
  ready: boolean;
  cells: number;
  done: number;
  busy: boolean;
  indicator: string;
  errors: string[];
  displays: number;
} {
  // deno-lint-ignore no-explicit-any
  const J = (globalThis as any).Jupyter;
  const nb = J?.notebook;
  const kernel = nb?.kernel;
  const ready = !!(kernel && kernel.is_connected && kernel.is_connected() && kernel.info_reply);
  const indicator = document.querySelector("#kernel_indicator_icon")?.getAttribute("class") ?? "";
  if (!nb) {
    return { ready, cells: 0, done: 0, busy: true, indicator, errors: [], displays: 0 };
  }
  // deno-lint-ignore no-explicit-any
  const code = nb.get_cells().filter((c: any) => c.cell_type === "code");
  const errors: string[] = [];
  let displays = 0;
  // deno-lint-ignore no-explicit-any
  code.forEach((c: any, i: number) => {
    const where = `cell ${i + 1}`;
    // deno-lint-ignore no-explicit-any
    const outs: any[] = c.output_area?.outputs ?? [];
    for (const o of outs) {
      if (o.output_type === "error") errors.push(`${where}: ${o.ename}: ${o.evalue}`);
      if (o.output_type === "stream" && o.name === "stderr") {
        const bad = String(o.text).split("\n").filter((l: string) =>
          /\b(error|exception|uncaught|panic(?:ked)?)\b/i.test(l)
        );
        if (bad.length) errors.push(`${where}: stderr: ${bad.slice(0, 3).join(" | ")}`);
      }
      if (o.data) displays++;
    }
    const src = c.get_text();
    if (/\b(?:nb\.show|show|Deno\.jupyter\.display)\(/.test(src) && !outs.some((o) => o.data)) {
      errors.push(`${where}: displays something but has no display output (output lost?)`);
    }
  });
  const done =
    code.filter((c: { input_prompt_number?: unknown }) => typeof c.input_prompt_number === "number")
      .length;
  return {
    ready,
    cells: code.length,
    done,
    busy: /busy/.test(indicator),
    indicator,
    errors,
    displays,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens `notebook` (a path relative to the server's directory) in a new tab, waits for its kernel,
 * runs every cell through the page, waits until every code cell has its reply (`timeoutSeconds`)
 * and then up to `graceSeconds` for the kernel indicator to show idle; takes a screenshot of the
 * whole notebook when `screenshot` names a PNG file; shuts the kernel down.
 */
export async function runNotebookLive(
  browser: Browser,
  server: NotebookServer,
  notebook: string,
  opts: { timeoutSeconds?: number; graceSeconds?: number; screenshot?: string } = {},
): Promise<LiveRun> {
  const timeout = (opts.timeoutSeconds ?? 900) * 1000;
  const grace = (opts.graceSeconds ?? 60) * 1000;
  const page = await browser.newPage(1280, 1000);
  try {
    // a loaded machine can take long to serve the notebook page and its scripts
    await page.goto(`${server.url}notebooks/${encodeURI(notebook)}?token=${server.token}`, 300_000);
    const t0 = Date.now();
    let s = await page.call<ReturnType<typeof notebookState>>(notebookState);
    while (!s.ready) {
      if (Date.now() - t0 > 120_000) throw new Error(`${notebook}: the kernel never became ready`);
      await sleep(500);
      s = await page.call<ReturnType<typeof notebookState>>(notebookState);
    }
    // the status changes the page sees, with their time
    await page.evaluate(`(() => {
      const k = Jupyter.notebook.kernel, t0 = performance.now();
      window.__statuses = [];
      const note = (s) => () => window.__statuses.push(s + " @" + ((performance.now() - t0) / 1000).toFixed(1) + " s");
      k.events.on("kernel_busy.Kernel", note("busy"));
      k.events.on("kernel_idle.Kernel", note("idle"));
      return true;
    })()`);
    const started = Date.now();
    await page.evaluate("Jupyter.notebook.execute_all_cells(), true");
    while (s.done < s.cells || s.cells === 0) {
      if (Date.now() - started > timeout) break;
      await sleep(1000);
      s = await page.call<ReturnType<typeof notebookState>>(notebookState);
    }
    const finished = s.cells > 0 && s.done === s.cells;
    const seconds = (Date.now() - started) / 1000;
    const replied = Date.now();
    let idleAfter: number | null = null;
    while (finished && Date.now() - replied <= grace) {
      s = await page.call<ReturnType<typeof notebookState>>(notebookState);
      if (!s.busy) {
        idleAfter = (Date.now() - replied) / 1000;
        break;
      }
      await sleep(250);
    }
    s = await page.call<ReturnType<typeof notebookState>>(notebookState);
    const statuses = await page.evaluate<string[]>("(window.__statuses || []).slice(-6)");
    let screenshot: string | undefined;
    if (opts.screenshot) {
      screenshot = opts.screenshot;
      await Deno.writeFile(screenshot, await wholeNotebook(page));
    }
    return {
      notebook,
      seconds,
      finished,
      stuck: finished && idleAfter === null,
      idleAfter,
      errors: finished ? s.errors : [`not finished after ${timeout / 1000} s`, ...s.errors],
      cells: s.cells,
      displays: s.displays,
      screenshot,
      statuses,
    };
  } finally {
    await page.evaluate(
      "(async () => { try { await new Promise((ok) => Jupyter.notebook.session.delete(ok, ok)); } catch { /* gone already */ } })()",
      // best-effort session clean-up: the page closes next
    ).catch(() => {});
    await page.close();
  }
}

/** A PNG of the whole notebook (the page's scrolling area unrolled). */
async function wholeNotebook(page: Page): Promise<Uint8Array> {
  const size = await page.evaluate<{ width: number; height: number }>(`(() => {
    const site = document.getElementById("site");
    if (site) { site.style.height = "auto"; site.style.overflow = "visible"; }
    document.body.style.overflow = "visible";
    document.body.style.height = "auto";
    return { width: document.documentElement.scrollWidth,
      height: Math.min(document.documentElement.scrollHeight, 30000) };
  })()`);
  return await page.screenshot({ x: 0, y: 0, width: size.width, height: size.height });
}

/** The notebooks under `dir` (names), sorted, optionally filtered by substrings. */
export async function notebookNames(dir: string, filters: string[] = []): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".ipynb")) names.push(e.name);
  }
  return names.sort().filter((n) => !filters.length || filters.some((f) => n.includes(f)));
}

/** Where live-check screenshots go: `<out>/<notebook>-run<k>.png`. */
export function shotPath(out: string, notebook: string, run: number): string {
  return join(out, `${notebook.replace(/\.ipynb$/, "")}-run${run}.png`);
}
