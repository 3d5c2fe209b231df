/**
 * The code model beside a call-graph oracle in PyCG's JSON format (`{"caller": ["callee", …]}`,
 * e.g. the `callgraph.json` expectations of PyCG's micro-benchmark, tests/fixtures/pycg/):
 * file-level "module M uses function F" pairs, the granularity reuse is decided at.
 *
 * A pair `(M, F)` holds when code of module M (its top level or any def in it) calls F, F being a
 * function or method defined in the analysed files (builtins, external names, lambdas, classes
 * and modules are no pairs). On our side the uses counted are those of the {@link Use} kinds
 * given (by default all: {@link USE_KINDS}); the set of
 * functions is our definitions of kind `function`/`method`, which agree with CPython's `ast`
 * (tests/python_defs_test.ts).
 *
 * @example
 * ```ts
 * import { oraclePairs, snippetPairs, comparePairs } from "./oracle.ts";
 * import { summarize } from "./summary.ts";
 * import { Project } from "./project.ts";
 * const s = await summarize("def f():\n    pass\n\nf()\n", "main.py", "main");
 * const project = Project.fromSummaries([s]);
 * const ours = snippetPairs(project);
 * const truth = oraclePairs({ main: ["main.f"], "main.f": [] }, project);
 * console.assert(comparePairs(ours, truth).tp === 1);
 * ```
 * @module
 */
import { Project } from "./project.ts";
import { summarize } from "./summary.ts";
import { moduleName } from "./names.ts";
import { type Use, USE_KINDS } from "./types.ts";

/*
 * Use kinds a module "uses" a function by: by default every kind ({@link USE_KINDS}). A reference
 * (`key=f`, `d = {"a": f}`) is how most call graphs' indirect calls start, and reuse counts it too
 * (lib/metrics REUSE_KINDS).
 */

/** The project's modules, longest first (for owner lookups). */
function modulesOf(project: Project): string[] {
  return project.summaries().map((s) => s.module).sort((a, b) => b.length - a.length);
}

function owner(id: string, modules: readonly string[]): string | undefined {
  return modules.find((m) => id === m || id.startsWith(m + "."));
}

function functionIds(project: Project): Set<string> {
  return new Set(
    project.definitions().filter((d) => d.kind === "function" || d.kind === "method").map((d) =>
      d.id
    ),
  );
}

/** Our pairs `M\tF` of a project (uses of the given kinds, resolved to a project function). */
export function snippetPairs(
  project: Project,
  kinds: readonly Use["kind"][] = USE_KINDS,
): Set<string> {
  const fns = functionIds(project);
  const out = new Set<string>();
  for (const s of project.summaries()) {
    for (const u of project.resolveModule(s.module).uses) {
      if (u.resolved && kinds.includes(u.kind) && fns.has(u.target)) {
        out.add(`${s.module}\t${u.target}`);
      }
    }
  }
  return out;
}

/** The oracle's pairs `M\tF`: callers mapped to their module, callees kept when project functions. */
export function oraclePairs(
  callgraph: Record<string, readonly string[]>,
  project: Project,
): Set<string> {
  const fns = functionIds(project);
  const modules = modulesOf(project);
  const out = new Set<string>();
  for (const [caller, callees] of Object.entries(callgraph)) {
    const m = owner(caller, modules);
    if (m === undefined) continue;
    for (const c of callees) if (fns.has(c)) out.add(`${m}\t${c}`);
  }
  return out;
}

/** Counts of a comparison of our pairs with the oracle's. */
export interface PairCounts {
  tp: number;
  fp: number;
  fn: number;
  /** Pairs only we found, then pairs only the oracle has. */
  extra: string[];
  missed: string[];
}

/** Compares two pair sets. */
export function comparePairs(ours: ReadonlySet<string>, truth: ReadonlySet<string>): PairCounts {
  const extra = [...ours].filter((p) => !truth.has(p)).sort();
  const missed = [...truth].filter((p) => !ours.has(p)).sort();
  return { tp: ours.size - extra.length, fp: extra.length, fn: missed.length, extra, missed };
}

/** The summed counts of several comparisons. */
export function sumCounts(list: readonly Pick<PairCounts, "tp" | "fp" | "fn">[]): {
  tp: number;
  fp: number;
  fn: number;
} {
  const sum = { tp: 0, fp: 0, fn: 0 };
  for (const r of list) {
    sum.tp += r.tp;
    sum.fp += r.fp;
    sum.fn += r.fn;
  }
  return sum;
}

/** Precision and recall of summed counts (1 when nothing was expected / found). */
export function precisionRecall(c: Pick<PairCounts, "tp" | "fp" | "fn">): {
  precision: number;
  recall: number;
} {
  return {
    precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
  };
}

async function pyFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await pyFiles(`${dir}/${e.name}`, r));
    else if (e.name.endsWith(".py")) out.push(r);
  }
  return out.sort();
}

async function subdirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isDirectory) out.push(e.name);
  return out.sort();
}

/**
 * One test of a PyCG-style suite: a directory of `.py` files (module ids relative to it, as
 * PyCG's `--package`) and its `callgraph.json`; our pairs against the expectation.
 */
export async function compareSnippet(
  dir: string,
  kinds: readonly Use["kind"][] = USE_KINDS,
): Promise<PairCounts> {
  const summaries = [];
  for (const f of await pyFiles(dir)) {
    summaries.push(await summarize(await Deno.readTextFile(`${dir}/${f}`), f, moduleName(f)));
  }
  const project = Project.fromSummaries(summaries);
  const expected = JSON.parse(await Deno.readTextFile(`${dir}/callgraph.json`));
  return comparePairs(snippetPairs(project, kinds), oraclePairs(expected, project));
}

/** Results of one test of a suite. */
export interface SnippetResult extends PairCounts {
  category: string;
  test: string;
}

/** Every test of a suite laid out `<suite>/<category>/<test>/` (PyCG's micro-benchmark). */
export async function compareSuite(
  suite: string,
  kinds: readonly Use["kind"][] = USE_KINDS,
): Promise<SnippetResult[]> {
  const out: SnippetResult[] = [];
  for (const category of await subdirs(suite)) {
    for (const test of await subdirs(`${suite}/${category}`)) {
      out.push({ category, test, ...await compareSnippet(`${suite}/${category}/${test}`, kinds) });
    }
  }
  return out;
}
