/**
 * Planting the decisions of one configuration: per turn and target kind, exactly
 * round(rate × n) targets read and reused (quota assignment, calibrated per turn), chains that
 * become duplicated per the cumulative C_dup curve, missing submissions and functions, and test
 * outcomes; then the agent's submissions realising those decisions in Python.
 *
 * The truth of every target is recomputed from the generated submission with the paper's rules
 * (reuse = a resolved call; re-implementation = lib/metrics `isReimplemented`, the scorer's own
 * rule and constants), so the planted truth is exactly what a correct scorer must find.
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { type ConfigCalibration, type TurnRates, turnRates } from "./calibration.ts";
import { capital, type GenPackage, type PyDef } from "./package.ts";
import type { TaskChain, TaskTurn } from "./tasks.ts";
import { allocate } from "./quota.ts";
import { ImportPlan } from "./imports.ts";
import { renderFunction, words } from "./pygen.ts";
import { isReimplemented, reimplementationHits as need } from "../metrics/mod.ts";

/** One function the agent defined in a submission. */
export interface AgentFn {
  id: string;
  name: string;
  path: string;
  start: number;
  end: number;
  /** Non-builtin functions its body calls (qualified ids). */
  callees: string[];
  /** Functions its body references without calling. */
  refs: string[];
}

/** Planted truth of one target. */
export interface TargetTruth {
  id: string;
  kind: "repo" | "self";
  implemented: boolean;
  path?: string;
  start?: number;
  end?: number;
  callees: string[];
  read: boolean;
  reused: boolean;
  reimplemented: boolean;
  reimplementedBy?: string;
}

/** One simulated turn of one configuration and chain. */
export interface SimTurn {
  chain: TaskChain;
  task: TaskTurn;
  t: number;
  submitted: boolean;
  submission?: string;
  fns: AgentFn[];
  targets: TargetTruth[];
  passed: boolean[];
  filesGoal: number;
  linesGoal: number;
}

/** A simulated configuration. */
export interface SimConfig {
  calib: ConfigCalibration;
  rates: TurnRates;
  /** turns[chain][t-1]. */
  turns: SimTurn[][];
}

/** Simulates one configuration over the chains. */
export function simulateConfig(rng: Rng, calib: ConfigCalibration, chains: TaskChain[]): SimConfig {
  const T = chains[0]?.turns.length ?? 5;
  const rates = turnRates(calib, T);
  const missing = plantMissing(rng, calib, chains, T);
  const state: ChainState = {
    agentFns: chains.map(() => new Map()),
    dup: new Array<boolean>(chains.length).fill(false),
    dupCount: 0,
  };
  const turns: SimTurn[][] = chains.map(() => []);
  for (let t = 1; t <= T; t++) {
    const tr = rng.fork(`turn${t}`);
    const rows = chains.map((ch, c) => turnRow(ch, c, t, state, !missing.sub.has(`${c}:${t}`)));
    plantReadReuse(tr, calib, rates, rows, t);
    const reimpl = plantReimplementations(tr, rates, rows, state, t);
    rows.forEach((r, c) => {
      if (r.submitted) {
        submit(tr.fork(`sub${c}`), r, reimpl[c], missing.fn.get(`${c}:${t}`), state.agentFns[c]);
      }
      if (r.targets.some((x) => x.reimplemented) && !state.dup[c]) {
        state.dup[c] = true;
        state.dupCount++;
      }
    });
    turns.forEach((list, c) => list.push(rows[c]));
  }
  for (let t = 1; t <= T; t++) {
    plantTests(rng.fork(`tests${t}`), rates, turns.map((l) => l[t - 1]), t);
  }
  return { calib, rates, turns };
}

/** What a configuration's chains carry from turn to turn while it is simulated. */
interface ChainState {
  /** Per chain: the functions the agent has defined so far (the self targets), by id. */
  agentFns: Map<string, AgentFn>[];
  /** Per chain: whether it is duplicated already (a re-implementation at an earlier turn). */
  dup: boolean[];
  dupCount: number;
}

/**
 * Missing submissions (`chain:turn` keys) and missing functions (`chain:turn` → the required
 * function left out); draws from `rng` itself as well as from its forks.
 */
function plantMissing(
  rng: Rng,
  calib: ConfigCalibration,
  chains: TaskChain[],
  T: number,
): { sub: Set<string>; fn: Map<string, string> } {
  const C = chains.length;
  const interfaceLike = calib.memory === "interface";
  const missingSub = new Set<string>();
  const missingFn = new Map<string, string>();
  const nSub = Math.max(1, Math.round((interfaceLike ? 0.01 : 0.015) * C * T));
  for (const c of rng.fork("missing").sample([...Array(C).keys()], nSub)) {
    const t = interfaceLike ? T : rng.int(Math.max(2, T - 2), T);
    missingSub.add(`${c}:${t}`);
  }
  const nFn = interfaceLike ? (C >= 30 ? 1 : 0) : Math.max(1, Math.round(0.01 * C * T));
  const fr = rng.fork("missingfn");
  for (let i = 0; i < nFn; i++) {
    const c = fr.int(0, C - 1);
    const t = fr.int(1, Math.max(1, T - 1));
    if (missingSub.has(`${c}:${t}`)) continue;
    missingFn.set(`${c}:${t}`, fr.pick(chains[c].turns[t - 1].functions).name);
  }
  return { sub: missingSub, fn: missingFn };
}

/** Turn `t` of chain `c` before anything is planted: its targets, none read, reused or copied. */
function turnRow(ch: TaskChain, c: number, t: number, state: ChainState, submitted: boolean) {
  const task = ch.turns[t - 1];
  const targets: TargetTruth[] = [];
  for (const id of task.repoTargets) {
    const d = ch.repo.defs.get(id)!;
    targets.push({
      id,
      kind: "repo",
      implemented: true,
      path: d.path,
      start: d.start,
      end: d.end,
      callees: d.callees,
      read: false,
      reused: false,
      reimplemented: false,
    });
  }
  for (const id of task.selfTargets) {
    const f = state.agentFns[c].get(id);
    targets.push({
      id,
      kind: "self",
      implemented: !!f,
      path: f?.path,
      start: f?.start,
      end: f?.end,
      callees: f?.callees ?? [],
      read: false,
      reused: false,
      reimplemented: false,
    });
  }
  const row: SimTurn = {
    chain: ch,
    task,
    t,
    submitted,
    fns: [],
    targets,
    passed: [],
    filesGoal: 0,
    linesGoal: 0,
  };
  return row;
}

/** Read and reuse quotas per target kind at turn `t` (calibrated rates, reads weighting reuse). */
function plantReadReuse(
  tr: Rng,
  calib: ConfigCalibration,
  rates: TurnRates,
  rows: SimTurn[],
  t: number,
): void {
  for (const kind of ["repo", "self"] as const) {
    const items: { row: number; tg: TargetTruth; sub: boolean }[] = [];
    rows.forEach((r, c) =>
      r.targets.filter((x) => x.kind === kind).forEach((tg) =>
        items.push({ row: c, tg, sub: r.submitted })
      )
    );
    if (!items.length) continue;
    const recall = kind === "repo" ? rates.recallRepo[t - 1] : rates.recallSelf[t - 1];
    const reuse = kind === "repo" ? rates.reuseRepo[t - 1] : rates.reuseSelf[t - 1];
    const read = allocate(tr.fork(`read-${kind}`), {
      rows: items.map((i) => i.row),
      rate: recall,
      allowed: items.map((i) => i.tg.implemented),
    });
    items.forEach((it, i) => (it.tg.read = read[i]));
    const wRead = kind === "repo" ? 3 : calib.memory === "interface" ? 1 : 4;
    const reused = allocate(tr.fork(`reuse-${kind}`), {
      rows: items.map((i) => i.row),
      rate: reuse,
      allowed: items.map((i) => i.tg.implemented && i.sub),
      weights: items.map((i) => (i.tg.read ? wRead : 1)),
      groups: items.map((i) => (i.tg.read ? 1 : 0)),
    });
    items.forEach((it, i) => (it.tg.reused = reused[i]));
  }
}

/**
 * The targets each chain re-implements at turn `t`, per the cumulative C_dup curve: enough newly
 * duplicated chains to reach the curve, and some more copies in chains duplicated already.
 */
function plantReimplementations(
  tr: Rng,
  rates: TurnRates,
  rows: SimTurn[],
  state: ChainState,
  t: number,
): TargetTruth[][] {
  const C = rows.length;
  const candidates = rows.map((r) => {
    if (!r.submitted) return [];
    const forbidden = new Set(r.targets.filter((x) => !x.reused).map((x) => x.id));
    // re-implementable: the rule holds when it calls every callee it may (no bypassed target)
    return r.targets.filter((x) =>
      !x.reused && x.implemented &&
      isReimplemented(false, x.callees, new Set(x.callees.filter((id) => !forbidden.has(id))))
        .reimplemented
    );
  });
  const goal = Math.max(Math.round(rates.cdup[t - 1] * C), state.dupCount);
  const fresh = tr.fork("dup").shuffle(
    [...Array(C).keys()].filter((c) => !state.dup[c] && candidates[c].length > 0),
  );
  const newly = fresh.slice(0, Math.max(0, goal - state.dupCount));
  const reimpl: TargetTruth[][] = rows.map(() => []);
  const dr = tr.fork("dup-targets");
  for (const c of newly) reimpl[c] = dr.sample(candidates[c], dr.chance(0.15) ? 2 : 1);
  for (let c = 0; c < C; c++) {
    if (state.dup[c]) reimpl[c] = candidates[c].filter(() => dr.chance(0.3));
  }
  return reimpl;
}

/**
 * Writes a submitted turn's submission and recomputes its targets' truth from it with the paper's
 * rules (reuse: called or referenced; re-implementation: lib/metrics `isReimplemented`, by the
 * function with the largest callee overlap).
 */
function submit(
  rng: Rng,
  r: SimTurn,
  reimpl: TargetTruth[],
  missing: string | undefined,
  agentFns: Map<string, AgentFn>,
): void {
  const sub = writeSubmission(rng, r, reimpl, missing);
  r.submission = sub.text;
  r.fns = sub.fns;
  for (const f of sub.fns) agentFns.set(f.id, f);
  const calls = new Set(sub.fns.flatMap((f) => f.callees));
  const refs = new Set(sub.fns.flatMap((f) => f.refs));
  for (const tg of r.targets) {
    tg.reused = calls.has(tg.id) || refs.has(tg.id);
    tg.reimplemented = isReimplemented(tg.reused, tg.callees, calls).reimplemented;
    if (tg.reimplemented) {
      let best = "", bestHit = -1;
      for (const f of sub.fns) {
        const h = tg.callees.filter((x) => f.callees.includes(x)).length;
        if (h > bestHit) [best, bestHit] = [f.id, h];
      }
      tg.reimplementedBy = best;
    }
  }
}

/** Test outcomes, Files and Lines goals of turn `t` (`rows`: that turn of every chain). */
function plantTests(tr: Rng, rates: TurnRates, rows: SimTurn[], t: number): void {
  const C = rows.length;
  const share = (r: SimTurn) => {
    const n = r.targets.length;
    return n ? r.targets.filter((x) => x.reused).length / n : 0.5;
  };
  const resolved = allocate(tr, {
    rows: rows.map((_, i) => i),
    rate: rates.resolve[t - 1],
    allowed: rows.map((r) => r.submitted),
    weights: rows.map((r) => 0.5 + share(r)),
  });
  const open = rows.map((r, i) => r.submitted && !resolved[i]);
  const nOpen = open.filter(Boolean).length;
  const R = resolved.filter(Boolean).length;
  const q = nOpen ? Math.min(0.95, Math.max(0, (rates.pass[t - 1] * C - R) / nOpen)) : 0;
  const counts = rows.map((r, i) => {
    const n = r.task.tests.length;
    if (resolved[i]) return n;
    if (!open[i]) return 0;
    const f = Math.min(1, Math.max(0, tr.normal(q, 0.18)));
    return Math.min(n - 1, Math.max(0, Math.round(f * n)));
  });
  // adjust towards the target mean pass rate
  const targetSum = rates.pass[t - 1] * C;
  for (let iter = 0; iter < 2000; iter++) {
    const cur = rows.reduce((s, r, i) => s + counts[i] / r.task.tests.length, 0);
    const diff = targetSum - cur;
    if (Math.abs(diff) < 0.5 / 12) break;
    const i = tr.int(0, C - 1);
    if (!open[i]) continue;
    const n = rows[i].task.tests.length;
    if (diff > 0 && counts[i] < n - 1) counts[i]++;
    else if (diff < 0 && counts[i] > 0) counts[i]--;
  }
  rows.forEach((r, i) => {
    const n = r.task.tests.length;
    const pass = tr.shuffle([...Array(n).keys()]).slice(0, counts[i]);
    r.passed = Array.from({ length: n }, (_, k) => pass.includes(k));
    r.filesGoal = Math.max(
      3,
      Math.round(tr.normal(rates.files[t - 1], rates.files[t - 1] * 0.25)),
    );
    r.linesGoal = Math.max(
      40,
      Math.round(tr.normal(rates.lines[t - 1], rates.lines[t - 1] * 0.25)),
    );
  });
}

const FILLER_POOL = (repo: GenPackage) => repo.helpers.filter((d) => d.module.includes("._util."));

function writeSubmission(
  rng: Rng,
  row: SimTurn,
  reimpl: TargetTruth[],
  missing: string | undefined,
): { text: string; fns: AgentFn[] } {
  for (let attempt = 0;; attempt++) {
    const out = trySubmission(rng.fork(attempt), row, reimpl, missing);
    // accept when no unplanned target is re-implemented (or after enough attempts)
    const calls = new Set(out.fns.flatMap((f) => f.callees));
    const planned = new Set(reimpl.map((x) => x.id));
    const extra = row.targets.some((tg) => {
      if (planned.has(tg.id) || calls.has(tg.id)) return false;
      return isReimplemented(false, tg.callees, calls).reimplemented;
    });
    if (!extra || attempt >= 8) return out;
  }
}

function trySubmission(
  rng: Rng,
  row: SimTurn,
  reimpl: TargetTruth[],
  missing: string | undefined,
): { text: string; fns: AgentFn[] } {
  const { task } = row;
  const repo = row.chain.repo;
  const required = task.functions.filter((f) => f.name !== missing);
  const taken = new Set(task.functions.map((f) => f.name));
  const reusedIds = row.targets.filter((x) => x.reused).map((x) => x.id);
  const forbidden = new Set(row.targets.filter((x) => !x.reused).map((x) => x.id));
  const danger = new Set(row.targets.filter((x) => !x.reused).flatMap((x) => x.callees));
  // local-redefinition names must stay free of imports
  const sameName = new Map<string, string>();
  for (const tg of reimpl) {
    const name = tg.id.slice(tg.id.lastIndexOf(".") + 1);
    if (!taken.has(name) && rng.chance(0.2)) {
      sameName.set(tg.id, name);
      taken.add(name);
    }
  }
  const modDefs: { name: string; calls: string[]; lines: string[] }[] = [];
  const perFn = new Map<string, string[]>(required.map((f) => [f.name, []]));
  const reqNames = required.map((f) => f.name);
  // re-implementations
  for (const tg of reimpl) {
    const allowed = rng.shuffle(tg.callees.filter((x) => !forbidden.has(x)));
    const k = rng.chance(0.3) ? need(tg.callees.length) : allowed.length;
    const calls = allowed.slice(0, Math.max(k, need(tg.callees.length)));
    const host = reqNames.length ? rng.pick(reqNames) : undefined;
    const mode = sameName.has(tg.id) ? "same" : !host || rng.chance(0.6) ? "helper" : "inline";
    if (mode === "inline" && host) {
      perFn.get(host)!.push(...calls);
      continue;
    }
    const base = tg.id.slice(tg.id.lastIndexOf(".") + 1).replace(/^_+/, "");
    let name = sameName.get(tg.id) ?? `_${base}_local`;
    while (taken.has(name) && !sameName.has(tg.id)) name += "_";
    taken.add(name);
    modDefs.push({ name, calls, lines: [] });
    if (host) perFn.get(host)!.push(`${task.module}.${name}`);
  }
  // imports are planned once every local def name is taken: an import under the name of a local
  // helper would be rebound by the def, so calls would reach the helper, not the import
  const imports = new ImportPlan(rng, task.module, repo.pkg, taken);
  // reused targets
  const asRef = new Set<string>();
  for (const id of reusedIds) {
    if (!reqNames.length) break;
    perFn.get(rng.pick(reqNames))!.push(id);
    // sometimes the target is passed as a value (`key=f`, `map(f, …)`): a reference edge
    if (rng.chance(0.12)) asRef.add(id);
  }
  // fillers: helpers no bypassed target calls
  const pool = FILLER_POOL(repo).filter((d: PyDef) => !danger.has(d.id));
  for (const name of reqNames) {
    const list = perFn.get(name)!;
    const k = rng.int(3, 4);
    for (const d of rng.sample(pool, k)) list.push(d.id);
    if (rng.chance(0.15)) {
      const sib = reqNames.filter((n) => n !== name);
      if (sib.length) list.push(`${task.module}.${rng.pick(sib)}`);
    }
  }
  const exprOf = (id: string) => imports.expr(id);
  const style = rng.pick(["google", "numpy", "short"] as const);
  const rendered: { name: string; callees: string[]; refs: string[]; lines: string[] }[] = [];
  for (const d of modDefs) {
    const callees = [...new Set(d.calls)];
    rendered.push({
      name: d.name,
      callees,
      refs: [],
      lines: renderFunction(rng, {
        name: d.name,
        params: ["values", "default=None"],
        calls: callees.map(exprOf),
        summary: `${capital(words(d.name))} (local variant used by this module).`,
        bodyLines: rng.int(6, 30),
        docStyle: "short",
        avoid: [...taken],
      }),
    });
  }
  for (const f of required) {
    const used = [...new Set(perFn.get(f.name)!)];
    const callees = used.filter((id) => !asRef.has(id));
    const refs = used.filter((id) => asRef.has(id));
    rendered.push({
      name: f.name,
      callees,
      refs,
      lines: renderFunction(rng, {
        name: f.name,
        params: f.params,
        calls: callees.map(exprOf),
        refs: refs.map(exprOf),
        summary: `${capital(words(f.name))}.`,
        returns: f.returns.split(" – ")[0],
        bodyLines: rng.int(8, 40),
        docStyle: style,
        avoid: [...taken],
      }),
    });
  }
  const lines = [
    `"""${capital(words(task.module.split(".").pop()!))}: ${
      task.goal.split(". ")[0].toLowerCase()
    }."""`,
    "from __future__ import annotations",
    "",
    ...imports.lines(),
  ];
  const fns: AgentFn[] = [];
  for (const r of rendered) {
    lines.push("", "");
    const start = lines.length + 1;
    lines.push(...r.lines);
    fns.push({
      id: `${task.module}.${r.name}`,
      name: r.name,
      path: task.path,
      start,
      end: lines.length,
      callees: r.callees.sort(),
      refs: r.refs.sort(),
    });
  }
  return { text: lines.join("\n") + "\n", fns };
}
