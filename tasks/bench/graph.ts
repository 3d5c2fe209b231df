/**
 * Benchmark of the Python code model on Debian's python3-sympy 1.11 (1,472 files, 753k lines):
 * the graph built cold (fresh cache directory) and warm (same cache, nothing changed), against
 * CPython merely `ast.parse`-ing the same files (`/usr/bin/python3`), plus agreement of every
 * def/class `(file, id, start, end)` with CPython's `ast`.
 *
 * Goals: cold ≥ 2x faster than CPython's parse, warm ≥ 10x, agreement 100%.
 * Run with `deno task bench graph` (or `deno run -A tasks/bench/graph.ts [package-dir]`).
 * @module
 */
import process from "node:process";
import { analyzePackage, listPackageFiles } from "../../lib/python/mod.ts";
import { parserFor } from "../../lib/util/treesitter.ts";
import { exists } from "../../lib/util/fs.ts";

const dir = Deno.args[0] ?? "/usr/lib/python3/dist-packages/sympy";
const ORACLE = new URL("../../tests/fixtures/python/ast_defs.py", import.meta.url).pathname;
const python = await Deno.stat("/usr/bin/python3").then(() => "/usr/bin/python3", () => "python3");

if (!(await exists(dir))) {
  console.error(`bench graph: ${dir} missing (install Debian's python3-sympy)`);
  Deno.exit(1);
}

interface Oracle {
  files: number;
  parsed: number;
  seconds: number;
  cpu: number;
  defs: unknown[][];
  skipped: unknown[][];
}

async function py(args: string[]): Promise<Oracle> {
  const out = await new Deno.Command(python, { args: [ORACLE, ...args] }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** CPU seconds of this process, all threads (workers included). */
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function build(cacheDir: string) {
  const c0 = cpu();
  const t0 = performance.now();
  const project = await analyzePackage(dir, { cacheDir });
  const t1 = performance.now();
  const graph = project.graph(dir);
  const t2 = performance.now();
  return {
    project,
    graph,
    summarize: (t1 - t0) / 1000,
    resolve: (t2 - t1) / 1000,
    total: (t2 - t0) / 1000,
    cpu: cpu() - c0,
  };
}

const load = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
console.log(`package: ${dir}`);
console.log(`cores: ${navigator.hardwareConcurrency}, load average before: ${load()}`);

const parse = await py(["--parse-only", dir]);
console.log(
  `CPython ast.parse: ${parse.seconds.toFixed(2)} s (cpu ${
    parse.cpu.toFixed(2)
  } s; ${parse.parsed}/${parse.files} files)`,
);

// the floor of any tree-sitter analysis: parsing alone, one thread
let parseCpu = 0;
{
  const parser = await parserFor("python");
  const c0 = cpu();
  const t0 = performance.now();
  for (const f of await listPackageFiles(dir, "bench", [])) {
    const text = await Deno.readTextFile(f.path).catch(() => null);
    if (text !== null) parser.parse(text)?.delete();
  }
  parseCpu = cpu() - c0;
  console.log(
    `tree-sitter parse only, 1 thread: ${((performance.now() - t0) / 1000).toFixed(2)} s (cpu ${
      parseCpu.toFixed(2)
    } s)`,
  );
  const cores = navigator.hardwareConcurrency;
  console.log(
    `parse floor over ${cores} cores: ${
      (parseCpu / cores).toFixed(2)
    } s → best cold ratio with free extraction: ${
      (parse.seconds / (parseCpu / cores)).toFixed(2)
    }x`,
  );
}

const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-bench-cache-" });
try {
  const cold = await build(cacheDir);
  const show = (name: string, r: typeof cold) =>
    console.log(
      `graph ${name}: ${r.total.toFixed(2)} s (cpu ${r.cpu.toFixed(2)} s, all threads; summaries ${
        r.summarize.toFixed(2)
      } s + resolution ${
        r.resolve.toFixed(2)
      } s), ${r.graph.nodes.length} nodes, ${r.graph.edges.length} edges, ${r.graph.errors.length} errors`,
    );
  show("cold", cold);
  console.log(
    `cold cpu beyond parsing (extraction, messages, cache writes, resolution): ${
      (cold.cpu - parseCpu).toFixed(2)
    } s`,
  );
  const warm = await build(cacheDir);
  show("warm", warm);
  const ratio = (x: number) => (parse.seconds / x).toFixed(2);
  console.log(`ratio CPython parse / cold: ${ratio(cold.total)}x (goal ≥ 2x)`);
  console.log(`ratio CPython parse / warm: ${ratio(warm.total)}x (goal ≥ 10x)`);
  console.log(
    `cpu ratios (machine load makes wall times noisy): cold ${
      (parse.cpu / cold.cpu).toFixed(2)
    }x over ${navigator.hardwareConcurrency} cores, warm ${(parse.cpu / warm.cpu).toFixed(2)}x`,
  );

  const oracle = await py([dir]);
  const theirs = new Set<string>(oracle.defs.map((d) => d.join("|")));
  const ours = cold.project.definitions().map((d) => [d.file, d.id, d.start, d.end].join("|"));
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
  console.log(`load average after: ${load()}`);
} finally {
  await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
}
