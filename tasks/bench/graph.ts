/**
 * Benchmark of the Python code model on Debian's python3-sympy 1.11 (1,472 files, 753k lines):
 * the graph built cold (fresh cache directory) and warm (same cache, nothing changed), against
 * CPython merely `ast.parse`-ing the same files (`/usr/bin/python3`), plus agreement of every
 * def/class `(file, id, start, end)` with CPython's `ast`.
 *
 * In each of `BENCH_ROUNDS` rounds (default 3) CPython's parse, our cold graph and our cold graph
 * on the wasm parser alone (the baseline: no native parser) run one after the other, each as a
 * process of its own timed from outside, as a user runs them (`python3 …` and `deno run …`:
 * start-up included; for ours, the bench's own checks after the graph is built are left out);
 * ratios are taken round by round and their median quoted, since this shared machine's speed
 * drifts by tens of percent within minutes. The graphs of both parsers must be identical.
 *
 * Goals: cold ≥ 2x faster than CPython's parse, warm ≥ 10x, agreement 100%.
 * Run with `deno task bench graph` (or `deno run -A tasks/bench/graph.ts [package-dir]`).
 * @module
 */
import process from "node:process";
import { median } from "simple-statistics";
import {
  analyzePackage,
  buildNativeParser,
  listPackageFiles,
  pythonParser,
  useNativeSummaries,
} from "../../lib/python/mod.ts";
import { exists, parserFor, sha256 } from "../../lib/util/mod.ts";
import { cpuSeconds, loadAverage } from "./proc.ts";

const childMode = Deno.args[0] === "--child";
const dir = (childMode ? Deno.args[4] : Deno.args[0]) ?? "/usr/lib/python3/dist-packages/sympy";
const ORACLE = new URL("../../tests/fixtures/python/ast_defs.py", import.meta.url).pathname;
const python = await Deno.stat("/usr/bin/python3").then(() => "/usr/bin/python3", () => "python3");

if (!(await exists(dir))) {
  console.error(`bench graph: ${dir} missing (install Debian's python3-sympy)`);
  Deno.exit(1);
}

interface Oracle {
  files: number;
  parsed: number;
  /** Seconds of the parse loop, by the script's own clock. */
  seconds: number;
  /** Wall seconds of the whole `python3` process, timed from outside. */
  wall: number;
  cpu: number;
  defs: unknown[][];
  skipped: unknown[][];
}

async function py(args: string[]): Promise<Oracle> {
  const t0 = performance.now();
  const out = await new Deno.Command(python, { args: [ORACLE, ...args] }).output();
  const wall = (performance.now() - t0) / 1000;
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return { ...JSON.parse(new TextDecoder().decode(out.stdout)), wall };
}

/** CPU seconds of this process, all threads (workers included). */
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** What one graph build reports (a child process of this script: see the end of this file). */
interface Build {
  digest: string;
  size: string;
  definitions: string[];
  summarize: number;
  resolve: number;
  /** Seconds from the process's start to the graph, by its own clock. */
  total: number;
  /**
   * CPU seconds of the process up to the graph, all threads (workers included); the native
   * parser's server processes are not counted (`wall` is the figure).
   */
  cpu: number;
  /** Seconds the process spent after the graph on this bench's checks (digest, definitions). */
  checks: number;
  /** Wall seconds of the whole process, timed from outside, less `checks`. */
  wall: number;
}

/** One graph build in a process of its own, timed from outside. */
async function build(cacheDir: string, native: "auto" | "off" = "auto"): Promise<Build> {
  const out = await Deno.makeTempFile({ prefix: "reporeuse-bench-graph-", suffix: ".json" });
  try {
    const t0 = performance.now();
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, "--child", native, cacheDir, out, dir],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    const wall = (performance.now() - t0) / 1000;
    if (r.code !== 0) throw new Error(`bench graph: the build exited with ${r.code}`);
    const b = JSON.parse(await Deno.readTextFile(out));
    return { ...b, wall: wall - b.checks };
  } finally {
    // best effort: the bench's output file
    await Deno.remove(out).catch(() => {});
  }
}

/** The child: builds the graph once, writes what {@link Build} holds to `out`, and exits. */
async function child(native: "auto" | "off", cacheDir: string, out: string) {
  const t0 = performance.now();
  const project = await analyzePackage(dir, { cacheDir, native });
  const t1 = performance.now();
  const graph = project.graph(dir);
  const t2 = performance.now();
  const c = cpu();
  const b = {
    digest: sha256(JSON.stringify(graph)),
    size: `${graph.nodes.length} nodes, ${graph.edges.length} edges, ${graph.errors.length} errors`,
    definitions: project.definitions().map((d) => [d.file, d.id, d.start, d.end].join("|")),
    summarize: (t1 - t0) / 1000,
    resolve: (t2 - t1) / 1000,
    // performance.now() counts from the process's start
    total: t2 / 1000,
    cpu: c,
  };
  const checks = (performance.now() - t2) / 1000;
  await Deno.writeTextFile(out, JSON.stringify({ ...b, checks }));
  Deno.exit(0);
}

const range = (xs: number[], digits = 2) =>
  `median ${median(xs).toFixed(digits)} (min ${Math.min(...xs).toFixed(digits)}, max ${
    Math.max(...xs).toFixed(digits)
  })`;

if (childMode) await child(Deno.args[1] === "off" ? "off" : "auto", Deno.args[2], Deno.args[3]);

const rounds = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? 3));
console.log(`package: ${dir}`);
console.log(`cores: ${navigator.hardwareConcurrency}, load average before: ${loadAverage(2)}`);

// the native parser is part of the installation (`deno task setup` builds it), like node_modules:
// built here if missing, outside the timed runs
const t0 = performance.now();
const built = await buildNativeParser();
console.log(
  "files" in built
    ? `native parser: ${built.built ? "built now" : "built before"} (${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s, not timed below): ${built.files.dir}`
    : `native parser: unavailable (${built.error}); every run below uses the wasm parser`,
);

// the floor of any tree-sitter analysis: parsing alone, one thread
{
  const files = await listPackageFiles(dir, "bench", []);
  // a file gone or unreadable is left out of the parse-only timing
  const sources = (await Promise.all(files.map((f) => Deno.readTextFile(f.path).catch(() => null))))
    .filter((t): t is string => t !== null);
  const parser = await parserFor("python");
  let c0 = cpu();
  for (const text of sources) parser.parse(text)?.delete();
  const wasmCpu = cpu() - c0;
  const fp = await pythonParser();
  const native = "files" in built && !useNativeSummaries(fp, built.files) ? fp.native : null;
  // the parse runs in the native parser's server process: its CPU time counts too
  const server = native?.pid() ?? 0;
  c0 = cpu() + (cpuSeconds(server, "own") ?? 0);
  for (const text of sources) native?.parse(text);
  const nativeCpu = cpu() + (cpuSeconds(server, "own") ?? 0) - c0;
  console.log(
    `parse only, 1 thread, cpu: wasm ${wasmCpu.toFixed(2)} s${
      native ? `, native ${nativeCpu.toFixed(2)} s (tree handed over flat)` : ""
    }`,
  );
}

// rounds: CPython's parse, our cold graph, the same on the wasm parser, one after the other, so
// that each ratio compares runs made moments apart on this (shared, drifting) machine
const runs: { parse: Oracle; cold: Build; wasm: number }[] = [];
const caches: string[] = [];
const fresh = async () => {
  const d = await Deno.makeTempDir({ prefix: "reporeuse-bench-cache-" });
  caches.push(d);
  return d;
};
try {
  let wasmDigest: string | undefined;
  for (let r = 1; r <= rounds; r++) {
    const parse = await py(["--parse-only", dir]);
    const cold = await build(await fresh());
    const wasm = await build(await fresh(), "off");
    wasmDigest ??= wasm.digest;
    runs.push({ parse, cold, wasm: wasm.wall });
    console.log(
      `round ${r}: CPython ast.parse ${parse.wall.toFixed(2)} s (its loop ${
        parse.seconds.toFixed(2)
      } s; ${parse.parsed}/${parse.files} files) · cold ${cold.wall.toFixed(2)} s (cpu ${
        cold.cpu.toFixed(2)
      } s; summaries ${cold.summarize.toFixed(2)} s + resolution ${
        cold.resolve.toFixed(2)
      } s) · cold on wasm ${wasm.wall.toFixed(2)} s → ${
        (parse.wall / cold.wall).toFixed(2)
      }x (wasm ${(parse.wall / wasm.wall).toFixed(2)}x)`,
    );
  }
  const cold = runs[runs.length - 1].cold;
  console.log(`graph: ${cold.size}; identical on the wasm parser: ${cold.digest === wasmDigest}`);
  const warm = await build(caches[caches.length - 2]);
  console.log(
    `graph warm: ${warm.wall.toFixed(2)} s (cpu ${warm.cpu.toFixed(2)} s; summaries ${
      warm.summarize.toFixed(2)
    } s + resolution ${warm.resolve.toFixed(2)} s)`,
  );
  const ratios = runs.map((x) => x.parse.wall / x.cold.wall);
  const wasmRatios = runs.map((x) => x.parse.wall / x.wasm);
  console.log(`CPython parse (whole process): ${range(runs.map((x) => x.parse.wall))} s`);
  console.log(`graph cold (whole process): ${range(runs.map((x) => x.cold.wall))} s`);
  console.log(
    `ratio CPython parse / cold, round by round: ${
      range(ratios)
    }x (goal ≥ 2x); on the wasm parser ${range(wasmRatios)}x`,
  );
  const lastParse = runs[runs.length - 1].parse.wall;
  console.log(`ratio CPython parse / warm: ${(lastParse / warm.wall).toFixed(2)}x (goal ≥ 10x)`);
  console.log(
    `cpu ratios (machine load makes wall times noisy): cold ${
      median(runs.map((x) => x.parse.cpu / x.cold.cpu)).toFixed(2)
    }x over ${navigator.hardwareConcurrency} cores, warm ${
      (runs[runs.length - 1].parse.cpu / warm.cpu).toFixed(2)
    }x`,
  );

  const oracle = await py([dir]);
  const theirs = new Set<string>(oracle.defs.map((d) => d.join("|")));
  const ours = cold.definitions;
  const oursSet = new Set(ours);
  const agree = ours.filter((x) => theirs.has(x)).length;
  const missing = [...theirs].filter((x) => !oursSet.has(x));
  const total = Math.max(theirs.size, ours.length);
  console.log(
    `agreement with CPython ast: ${
      (100 * agree / total).toFixed(3)
    }% (${agree}/${total}; CPython ${oracle.defs.length} defs, ours ${ours.length}; CPython skipped ${oracle.skipped.length} files)`,
  );
  if (missing.length) console.log(`  e.g. missing: ${missing.slice(0, 5).join(", ")}`);
  console.log(`load average after: ${loadAverage(2)}`);
} finally {
  // best effort: the bench's caches
  for (const d of caches) await Deno.remove(d, { recursive: true }).catch(() => {});
}
