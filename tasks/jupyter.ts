/**
 * `deno task jupyter` — opens the notebooks in Jupyter: Debian's classic Notebook (`jupyter
 * notebook`, installed by `deno task setup`) serving `notebooks/` with the Deno kernel (registered
 * when missing). Arguments after the task go to the server (e.g. `--no-browser`, `--port 9999`).
 *
 * ```
 * deno task jupyter [server args …]
 * deno task jupyter --live-check [--runs N] [--grace S] [--timeout S] [--shots DIR] [name …]
 * ```
 *
 * `--live-check` runs the notebooks the way a reader does, N times each (default 16): the same
 * server, a headless Chromium driving the notebook page (run all cells, wait for every reply,
 * then for the kernel indicator to go idle), and reports per run the seconds, errors, lost
 * displays and whether the kernel was left "busy"; screenshots of the first run of each notebook go
 * to `--shots` (default out/notebooks/live/). Exits 1 when any run failed or got stuck.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import {
  Browser,
  freePort,
  hasNotebookServer,
  type LiveRun,
  notebookNames,
  runNotebookLive,
  shotPath,
  startNotebookServer,
} from "../lib/report/mod.ts";
import { ensureKernel, NOTEBOOK_DIR, ROOT } from "./notebooks.ts";

async function liveCheck(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      "live-check": { type: "boolean" },
      runs: { type: "string", default: "16" },
      grace: { type: "string", default: "60" },
      timeout: { type: "string", default: "900" },
      shots: { type: "string", default: join(ROOT, "out", "notebooks", "live") },
    },
  });
  const runs = Number(values.runs), grace = Number(values.grace);
  const timeout = Number(values.timeout);
  if (!(runs > 0) || !(grace > 0) || !(timeout > 0)) {
    console.error("jupyter --live-check: --runs, --grace and --timeout must be positive numbers");
    return 2;
  }
  const names = await notebookNames(NOTEBOOK_DIR, positionals);
  if (!names.length) {
    console.error(`jupyter --live-check: no notebook matches ${positionals.join(" ")}`);
    return 1;
  }
  await Deno.mkdir(values.shots!, { recursive: true });
  const server = await startNotebookServer(NOTEBOOK_DIR, {
    port: freePort(),
    extra: ["--no-browser"],
  });
  console.log(
    `server ${server.url} (pid ${server.pid}); ${runs} run(s) of ${names.length} notebook(s)`,
  );
  const browser = await Browser.launch();
  const all: LiveRun[] = [];
  try {
    for (let k = 1; k <= runs; k++) {
      for (const name of names) {
        // a run the harness could not complete (the page never loaded…) is a failed run, not the end
        const r: LiveRun = await runNotebookLive(browser, server, name, {
          graceSeconds: grace,
          timeoutSeconds: timeout,
          screenshot: k === 1 ? shotPath(values.shots!, name, k) : undefined,
        }).catch((e) => ({
          notebook: name,
          seconds: 0,
          finished: false,
          stuck: false,
          idleAfter: null,
          errors: [`harness: ${(e as Error).message}`],
          cells: 0,
          displays: 0,
          statuses: [],
        }));
        all.push(r);
        const status = r.stuck ? "STUCK" : !r.finished || r.errors.length ? "FAILED" : "ok";
        console.log(
          `run ${String(k).padStart(2)} ${status.padEnd(6)} ${name.padEnd(32)} ` +
            `${r.seconds.toFixed(1).padStart(6)} s, idle ${
              r.idleAfter === null ? "never" : `+${r.idleAfter.toFixed(1)} s`
            }, ${r.displays} display(s)`,
        );
        for (const e of r.errors) console.log(`       ${e}`);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const stuck = all.filter((r) => r.stuck).length;
  const failed = all.filter((r) => !r.finished || r.errors.length).length;
  console.log(
    `${all.length} live run(s): ${stuck} left the kernel busy, ${failed} with errors or unfinished; ` +
      `screenshots in ${values.shots}`,
  );
  return stuck || failed ? 1 : 0;
}

async function serve(args: string[]): Promise<number> {
  await ensureKernel((s) => console.log(s));
  const server = await startNotebookServer(NOTEBOOK_DIR, {
    extra: args,
    log: (l) => console.log(l),
  });
  console.log(`\nOpen ${server.url}tree?token=${server.token} — Ctrl-C stops the server.`);
  await new Promise<void>((resolve) => Deno.addSignalListener("SIGINT", () => resolve()));
  await server.stop();
  return 0;
}

if (import.meta.main) {
  if (!(await hasNotebookServer())) {
    console.error(
      "jupyter: the classic Notebook is not installed (deno task setup, or apt-get install jupyter-notebook)",
    );
    Deno.exit(1);
  }
  Deno.exit(
    Deno.args.includes("--live-check") ? await liveCheck(Deno.args) : await serve(Deno.args),
  );
}
