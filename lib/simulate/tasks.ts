/**
 * Generation of task chains on a generated package: per turn a module to create, three function
 * specs, repo and self targets, a reference solution calling exactly those targets, test cases and
 * the requirement text (interface memory, Appendix A.3/B.2).
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { capital, type GenPackage, type PyDef } from "./package.ts";
import { ImportPlan } from "./imports.ts";
import { NOUNS, renderFunction, VERBS, words } from "./pygen.ts";
import { renderRequirement, type TurnSpec as ReqTurn } from "../protocol/mod.ts";

/** One function the requirement asks for. */
export interface FnSpec {
  name: string;
  params: string[];
  signature: string;
  returns: string;
  behaviour: string;
}

/** One turn of a generated chain. */
export interface TaskTurn {
  turn: number;
  module: string;
  path: string;
  goal: string;
  functions: FnSpec[];
  /** Repo target ids (W0 functions). */
  repoTargets: string[];
  /** Self target ids (`<earlier module>.<function>`). */
  selfTargets: string[];
  solution: string;
  tests: { id: string; call: string; expected: string }[];
  requirement: string;
}

/** A generated chain. */
export interface TaskChain {
  chain: string;
  repo: GenPackage;
  turns: TaskTurn[];
}

const RETURNS = [
  "list[tuple[Any, float]] – (label, value) per level",
  "dict[str, list[int]] – positions by key; keys sorted",
  "list[str] – cleaned labels in caller order",
  "tuple[float, float] – inclusive (low, high)",
  "list[dict[str, Any]] – 'key', 'count', 'share' per group",
  "int – the number of distinct resolved entries",
  "dict[Any, tuple[float, ...]] – level to tuple, in order",
  "list[float] – rescaled values in input order",
];

function pickCount(rng: Rng, dist: [number, number][]): number {
  return dist[rng.weighted(dist.map((d) => d[1]))][0];
}

/** Generates `count` chains on the given packages (round-robin). */
export function generateChains(
  rng: Rng,
  repos: GenPackage[],
  count: number,
  turns = 5,
): TaskChain[] {
  const chains: TaskChain[] = [];
  for (let c = 0; c < count; c++) {
    const repo = repos[c % repos.length];
    const idx = Math.floor(c / repos.length) + 1;
    chains.push(
      generateChain(
        rng.fork(`chain${c}`),
        repo,
        `${repo.repo}-${String(idx).padStart(3, "0")}`,
        turns,
      ),
    );
  }
  return chains;
}

function generateChain(rng: Rng, repo: GenPackage, chain: string, nTurns: number): TaskChain {
  const w0Names = new Set([...repo.defs.values()].map((d) => d.name));
  const w0Modules = new Set(repo.files.map((f) => f.module));
  const usedNames = new Set<string>();
  const fnName = (): string => {
    for (let k = 0; k < 500; k++) {
      const n = `${rng.pick(VERBS)}_${rng.pick(NOUNS)}`;
      if (!w0Names.has(n) && !usedNames.has(n) && !w0Names.has(`_${n}`)) {
        usedNames.add(n);
        return n;
      }
    }
    throw new Error("generateChain: out of function names");
  };
  // a cluster of W0 modules the chain's evidence packs walk through
  const byModule = new Map<string, PyDef[]>();
  for (const d of repo.targetable) byModule.set(d.module, [...(byModule.get(d.module) ?? []), d]);
  const modules = rng.sample([...byModule.keys()].sort(), 3);
  const usedTargets = new Set<string>();
  const pickRepo = (k: number): string[] => {
    const out: string[] = [];
    for (let tries = 0; out.length < k && tries < 200; tries++) {
      const pool = tries < 60 ? byModule.get(rng.pick(modules))! : repo.targetable;
      const d = rng.pick(pool);
      if (usedTargets.has(d.id)) continue;
      usedTargets.add(d.id);
      out.push(d.id);
    }
    return out;
  };
  const turns: TaskTurn[] = [];
  const earlierFns: { id: string; turn: number }[] = [];
  const usedModules = new Set<string>();
  for (let t = 1; t <= nTurns; t++) {
    // the module to create: new in W0 and in this chain (a redraw only where the first draw
    // collides, so chains without a collision are generated as before)
    let modName = "", module = "";
    for (let tries = 0; tries < 100; tries++) {
      for (let k = 0; k < 100; k++) {
        modName = `${
          rng.pick([
            "grouped",
            "ordered",
            "scaled",
            "mapped",
            "binned",
            "stacked",
            "aligned",
            "weighted",
          ])
        }_${rng.pick(NOUNS)}`;
        const m = `${repo.pkg}._core.${modName}`;
        if (!usedModules.has(m) && !w0Modules.has(m)) break;
      }
      const underCore = rng.chance(0.7);
      module = underCore ? `${repo.pkg}._core.${modName}` : `${repo.pkg}.${modName}`;
      if (!usedModules.has(module) && !w0Modules.has(module)) break;
    }
    usedModules.add(module);
    const path = module.replaceAll(".", "/") + ".py";
    const functions: FnSpec[] = [];
    for (let i = 0; i < 3; i++) {
      const name = fnName();
      const params = rng.pick([
        ["data", "order=None"],
        ["values", "levels=None"],
        ["data", "key=None", "default=None"],
        ["records", "*", "normalize=True"],
        ["values", "width=0.8"],
        ["data", "mapping=None"],
      ]);
      functions.push({
        name,
        params,
        signature: `def ${name}(${params.join(", ")})`,
        returns: rng.pick(RETURNS),
        behaviour: `${capital(words(name))} ${
          rng.pick([
            "in the package's categorical order;",
            "as the plotting layer expects;",
            "by normalised key;",
            "skipping missing entries;",
          ])
        } ${
          rng.pick([
            "one entry per level.",
            "first-appearance order.",
            "numeric labels stay scalars.",
            "inputs are not modified.",
          ])
        }`,
      });
    }
    const nRepo = t === 1
      ? pickCount(rng, [[2, 0.4], [3, 0.6]])
      : pickCount(rng, [[1, 0.25], [2, 0.6], [3, 0.15]]);
    const repoTargets = pickRepo(nRepo);
    let selfTargets: string[] = [];
    if (t > 1) {
      const k = Math.min(
        earlierFns.length,
        pickCount(rng, [[1, 0.15], [2, 0.4], [3, 0.35], [4, 0.1]]),
      );
      const prev = earlierFns.filter((f) => f.turn === t - 1);
      const first = rng.pick(prev);
      const rest = rng.sample(earlierFns.filter((f) => f !== first), k - 1);
      selfTargets = [first, ...rest].map((f) => f.id);
    }
    const goal = `${
      rng.pick([
        "Maintainers need a small, reusable building block for",
        "Several plotting paths duplicate ad-hoc logic for",
        "Add first-class support for",
        "We want a single place that handles",
      ])
    } ${rng.pick(NOUNS)} ${rng.pick(["resolution", "normalisation", "grouping", "bookkeeping"])} ${
      rng.pick([
        "when data arrive as mixed sequences.",
        "so that legends, ticks and facets agree on one order.",
        "that follows the package's existing conventions exactly.",
        "across categorical and numeric inputs.",
      ])
    } The functions below must behave consistently with the rest of the package: ${
      rng.pick([
        "missing entries are skipped, not coerced",
        "the order of first appearance is preserved unless an explicit order is given",
        "numeric labels compare by value",
      ])
    }, and results are plain Python containers that compare equal across runs. ${
      rng.pick([
        "Callers pass lists, tuples or mappings; a mapping is read by its keys.",
        "Inputs may mix numbers and strings; None marks a missing entry.",
        "Empty inputs are valid and give empty results rather than errors.",
      ])
    } ${
      rng.pick([
        "Follow the package's existing conventions rather than inventing new ones.",
        "Results feed legends and ticks downstream; tests compare reprs.",
        "Edge cases (repeated or missing labels) must match existing behaviour.",
      ])
    }`;
    const solution = referenceSolution(rng.fork(`sol${t}`), repo, module, functions, [
      ...repoTargets,
      ...selfTargets,
    ], goal);
    const nCases = pickCount(rng, [[8, 0.12], [9, 0.14], [10, 0.17], [11, 0.18], [12, 0.16], [
      13,
      0.13,
    ], [14, 0.1]]);
    const tests = Array.from({ length: nCases }, (_, i) => {
      const f = functions[i % 3];
      const arg = rng.pick([
        `[${rng.int(0, 5)}, ${rng.int(1, 9)}, None, ${rng.int(2, 7)}]`,
        `["${rng.pick(NOUNS)}", "${rng.pick(NOUNS)}", "${rng.pick(NOUNS)}"]`,
        `[]`,
        `[(${rng.int(0, 3)}, "a"), (${rng.int(0, 3)}, "b")]`,
        `{"${rng.pick(NOUNS)}": ${rng.int(1, 4)}, "${rng.pick(NOUNS)}": ${rng.int(5, 9)}}`,
      ]);
      const expected = rng.pick([
        `[${rng.int(0, 5)}, ${rng.int(1, 9)}]`,
        `{'${rng.pick(NOUNS)}': [0, 2]}`,
        `[]`,
        `(0.0, ${rng.int(1, 9)}.5)`,
        `${rng.int(0, 6)}`,
      ]);
      return { id: `case_${String(i + 1).padStart(2, "0")}`, call: `${f.name}(${arg})`, expected };
    });
    const tt: TaskTurn = {
      turn: t,
      module,
      path,
      goal,
      functions,
      repoTargets,
      selfTargets,
      solution,
      tests,
      requirement: "",
    };
    turns.push(tt);
    tt.requirement = renderRequirement(reqTurn(tt), "interface", turns.slice(0, -1).map(reqTurn));
    for (const f of functions) earlierFns.push({ id: `${module}.${f.name}`, turn: t });
  }
  return { chain, repo, turns };
}

/** The requirement renderer's view of a turn. */
export function reqTurn(t: TaskTurn): ReqTurn {
  return {
    turn: t.turn,
    module: t.module,
    path: t.path,
    goal: t.goal,
    functions: t.functions.map((f) => ({
      name: f.name,
      signature: f.signature,
      returns: f.returns,
      behaviour: f.behaviour,
    })),
  };
}

function referenceSolution(
  rng: Rng,
  repo: GenPackage,
  module: string,
  functions: FnSpec[],
  targets: string[],
  goal: string,
): string {
  const names = new Set(functions.map((f) => f.name));
  const imports = new ImportPlan(rng, module, repo.pkg, names, [0.5, 0.1, 0.2, 0.1, 0.1]);
  // each target goes to one function (sometimes two)
  const assigned: string[][] = functions.map(() => []);
  const order = rng.shuffle(targets);
  order.forEach((id, i) => {
    const k = i < 3 ? i : rng.int(0, 2);
    assigned[k].push(id);
    if (rng.chance(0.15)) assigned[(k + 1) % 3].push(id);
  });
  const bodies: string[][] = [];
  functions.forEach((f, i) => {
    const used = [...new Set(assigned[i])].map((id) => imports.expr(id));
    // a target passed as a value (`map(f, …)`) is a reference: still a target
    const refs = used.filter(() => rng.chance(0.1));
    const calls = used.filter((e) => !refs.includes(e));
    if (i > 0 && rng.chance(0.3)) calls.push(functions[i - 1].name); // sibling call
    if (calls.length === 0) calls.push(functions[(i + 1) % 3].name);
    bodies.push(renderFunction(rng, {
      name: f.name,
      params: f.params,
      calls,
      refs,
      summary: `${capital(words(f.name))}.`,
      bodyLines: rng.int(6, 22),
      docStyle: "short",
      returns: f.returns,
      avoid: [...names],
    }));
  });
  const lines = [
    `"""${goal.split(". ")[0]}."""`,
    "from __future__ import annotations",
    "",
    ...imports.lines(),
  ];
  for (const b of bodies) lines.push("", "", ...b);
  return lines.join("\n") + "\n";
}
