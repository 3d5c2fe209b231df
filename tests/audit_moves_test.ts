/**
 * Issue 24: pairs a change did not make. Code moved into a new class and made public
 * (`Operations._unique_constraint` → `SchemaObjects.unique_constraint`, as alembic's squash merge
 * 0e43247d did; alembic is a development project for this rule) continues the removed function:
 * its pairs with other moved functions existed before. And a call one edit gives many existing
 * functions (`same-edit`, lib/audit/idiom.ts) is no evidence that two of them copy each other.
 * Hand-built sides (lib/audit/side.ts), with the rule asked independently through lib/metrics.
 */
import assert from "node:assert/strict";
import {
  auditChange,
  DEFAULT_FAIL_ON,
  NOTE_FACTOR,
  SAME_EDIT_FUNCTIONS,
  type Side,
  type SideDef,
  spelling,
} from "../lib/audit/mod.ts";
import { isReimplemented } from "../lib/metrics/mod.ts";
import { sideDef } from "./audit_helpers.ts";

const side = (defs: SideDef[]): Side => ({
  rev: "x",
  files: [...new Set(defs.map((d) => d.file))].map((path) => ({
    path,
    oid: path + defs.filter((d) => d.file === path).map((d) => `${d.id}=${d.hash}`).join(),
  })),
  modules: {},
  defs,
  ids: defs.map((d) => d.id),
  errors: [],
});

/** A def with its own shape (`features`) and code hash. */
const def = (id: string, file: string, callees: string[], features: number[], hash = id) => ({
  ...sideDef(id, file, callees, hash),
  features,
});

const FACTORY = ["p.sa.Table", "p.sa.MetaData", "p.sa.Column"];
// shapes as lib/audit/shape.ts's sorted (feature, count) pairs: 0.6 alike, under the twins' 0.75
const PK = [1, 1, 4, 1, 6, 1, 9, 1];
const UQ = [1, 1, 4, 1, 6, 1, 8, 1];

Deno.test("spelling: underscores and case aside; a dunder is its own", () => {
  assert.equal(spelling("_unique_constraint"), spelling("unique_constraint"));
  assert.equal(spelling("uniqueConstraint"), spelling("unique_constraint"));
  assert.notEqual(spelling("__init__"), spelling("init"));
  assert.notEqual(spelling("unique_constraint"), spelling("check_constraint"));
});

Deno.test("moved into a new class and made public: the pair of two moved functions existed before, not made by the change", () => {
  // base: two private factories of one class, each calling the same three helpers (a pair the
  // rule already joins), plus a caller
  const pk0 = def(
    "p.ops.Operations._primary_key_constraint",
    "p/ops.py",
    [...FACTORY, "p.sa.PK"],
    PK,
  );
  const uq0 = def("p.ops.Operations._unique_constraint", "p/ops.py", FACTORY, UQ);
  assert.ok(isReimplemented(false, uq0.callees, new Set(pk0.callees)).reimplemented);
  // head: both moved to a new class of another module, renamed public, one line edited each
  // (another code hash, the same shape)
  const pk = def(
    "p.schemaobj.SchemaObjects.primary_key_constraint",
    "p/schemaobj.py",
    pk0.callees,
    PK,
    "pk2",
  );
  const uq = def(
    "p.schemaobj.SchemaObjects.unique_constraint",
    "p/schemaobj.py",
    uq0.callees,
    UQ,
    "uq2",
  );
  const r = auditChange(side([pk0, uq0]), side([pk, uq]), { maxTargets: 0 });
  assert.deepEqual(
    r.changed.map((c) => [c.id, c.status, c.from?.id]).sort(),
    [
      [pk.id, "modified", pk0.id],
      [uq.id, "modified", uq0.id],
    ],
  );
  assert.deepEqual(r.findings, []);

  // the same move where the old versions shared too little for the rule: the change made the pair
  const uqOld = { ...uq0, callees: ["p.sa.Table", "p.sa.UQ"], uses: ["p.sa.Table", "p.sa.UQ"] };
  assert.ok(!isReimplemented(false, uqOld.callees, new Set(pk0.callees)).reimplemented);
  assert.ok(!isReimplemented(false, pk0.callees, new Set(uqOld.callees)).reimplemented);
  const r2 = auditChange(side([pk0, uqOld]), side([pk, uq]), { maxTargets: 0 });
  assert.equal(r2.findings.length, 1);
  assert.equal(r2.findings[0].kind, "reimplementation");
  assert.ok(r2.findings[0].within);
  // only the rule joins them (shapes apart, no tokens to share): written together, apart
  assert.deepEqual(r2.findings[0].notes, ["written-together"]);

  // a new function of another name (not the same spelling) is new, its pair introduced
  const fk = def(
    "p.schemaobj.SchemaObjects.foreign_key_constraint",
    "p/schemaobj.py",
    pk0.callees,
    PK,
    "fk",
  );
  const r3 = auditChange(side([pk0, uq0]), side([fk, uq]), { maxTargets: 0 });
  assert.deepEqual(r3.changed.find((c) => c.id === fk.id)?.status, "added");
  assert.ok(r3.findings.some((f) => f.within && f.notes.join() === "written-together"));
});

// four modules, one function each in `p.a`, `p.b`, `p.c`, `p.d`: no container is shared, so no
// `module-vocabulary`; each has its own shape (no `same-api` exception for shape, no twins)
const SHAPES = [[10, 1, 11, 2], [20, 1, 21, 2], [30, 1, 31, 2], [40, 1, 41, 2]];
const QUOTE = "p.util.quote";

/** The four functions before the change: F and G share two helpers, under the rule's three. */
function before(): SideDef[] {
  return [
    def("p.a.render_pk", "p/a.py", ["p.util.prefix", "p.util.name"], SHAPES[0]),
    def("p.b.render_uq", "p/b.py", ["p.util.prefix", "p.util.name"], SHAPES[1]),
    def("p.c.render_ix", "p/c.py", ["p.util.prefix", "p.util.cols"], SHAPES[2]),
    def("p.d.render_ck", "p/d.py", ["p.util.sql"], SHAPES[3]),
  ];
}

/** The change gives `call` to the first `n` functions (each edited: another code hash). */
function giveCall(defs: SideDef[], n: number, call: string): SideDef[] {
  return defs.map((d, i) =>
    i < n ? { ...d, hash: `${d.hash}+`, callees: [...d.callees, call], uses: [...d.uses, call] } : d
  );
}

Deno.test("same-edit: a call one edit gives four existing functions is no evidence of a copy between two of them", () => {
  const base = before();
  const head = giveCall(base, SAME_EDIT_FUNCTIONS, QUOTE);
  const [f, g] = head;
  // independently: the rule holds between F and G after the change only through the new call
  assert.ok(isReimplemented(false, g.callees, new Set(f.callees)).reimplemented);
  assert.ok(
    !isReimplemented(false, g.callees.filter((c) => c !== QUOTE), new Set(f.callees)).reimplemented,
  );
  const r = auditChange(side(base), side(head), { maxTargets: 0 });
  const all = r.findings.flatMap((x) => [x, ...x.alternatives]);
  const pair = all.find((p) =>
    new Set([p.function.id, p.target.id]).size === 2 &&
    [p.function.id, p.target.id].sort().join() === [f.id, g.id].sort().join()
  );
  assert.ok(pair, "the rule's hit is still reported");
  assert.equal(pair.kind, "reimplementation");
  assert.ok(pair.within);
  // (both changed, joined by the rule alone: also written together, apart)
  assert.deepEqual(pair.notes, ["same-edit", "written-together"]);

  // the same call given to F and G alone (one function fewer than a sweep needs, twice over): a
  // pair the change made, not noted for an edit across functions
  assert.ok(SAME_EDIT_FUNCTIONS > 2);
  const two = auditChange(side(base), side(giveCall(base, 2, QUOTE)), { maxTargets: 0 });
  const pair2 = two.findings.flatMap((x) => [x, ...x.alternatives]).find((p) =>
    [p.function.id, p.target.id].sort().join() === [f.id, g.id].sort().join()
  );
  assert.ok(pair2);
  assert.deepEqual(pair2.notes, ["written-together"]);
  // the note is its factor, nothing else (the same evidence, confidences rounded to 3 decimals):
  // under the default --fail-on, where the pair without either note would be above it
  assert.equal(pair.function.id, pair2.function.id);
  assert.ok(Math.abs(pair.confidence - pair2.confidence * NOTE_FACTOR["same-edit"]) < 0.002);
  assert.ok(
    pair.confidence < DEFAULT_FAIL_ON * NOTE_FACTOR["written-together"] &&
      pair2.confidence >= DEFAULT_FAIL_ON * NOTE_FACTOR["written-together"],
  );
});

Deno.test("same-edit: against an unchanged G that already made the call; not when F shares enough besides the swept call", () => {
  // G (unchanged) already calls prefix, name and quote; the change gives quote to F and three
  // other functions
  const g = def("p.e.render_fk", "p/e.py", ["p.util.prefix", "p.util.name", QUOTE], [50, 1, 51, 2]);
  const base = [...before(), g];
  const head = [...giveCall(before(), SAME_EDIT_FUNCTIONS, QUOTE), g];
  const f = head[0];
  const r = auditChange(side(base), side(head), { maxTargets: 0 });
  const hit = r.findings.flatMap((x) => [x, ...x.alternatives]).find((p) =>
    p.function.id === f.id && p.target.id === g.id
  );
  assert.ok(hit);
  assert.deepEqual(hit.notes, ["same-edit"]);

  // F also takes G's rarer helpers: the rule holds without the swept call, no note
  const g2 = { ...g, callees: [...g.callees, "p.util.fk_opts", "p.util.ondelete"] };
  g2.uses = g2.callees;
  const f2 = { ...f, callees: [...f.callees, "p.util.fk_opts", "p.util.ondelete"] };
  f2.uses = f2.callees;
  assert.ok(
    isReimplemented(false, g2.callees, new Set(f2.callees.filter((c) => c !== QUOTE)))
      .reimplemented,
  );
  const r2 = auditChange(
    side([...before(), g2]),
    side([f2, ...giveCall(before(), SAME_EDIT_FUNCTIONS, QUOTE).slice(1), g2]),
    { maxTargets: 0 },
  );
  const hit2 = r2.findings.flatMap((x) => [x, ...x.alternatives]).find((p) =>
    p.function.id === f2.id && p.target.id === g2.id
  );
  assert.ok(hit2);
  assert.deepEqual(hit2.notes, []);
});

Deno.test("twins split alike: two new methods each split out of one of two already-joined functions are the old pair, not a new one", () => {
  const block = ["p.log.info", "p.term.style", "p.sig.signal"];
  const shapes = { a: [60, 1, 61, 1], b: [70, 1, 71, 1], s: [80, 1, 81, 1], t: [90, 1, 91, 1] };
  // base: two supervisors' run() calling the same helpers (the rule joins them)
  const a0 = def("p.a.A.run", "p/a.py", [...block, "p.proc.spawn"], shapes.a);
  const b0 = def("p.b.B.run", "p/b.py", [...block, "p.proc.spawn"], shapes.b);
  assert.ok(isReimplemented(false, b0.callees, new Set(a0.callees)).reimplemented);
  // head: each run() now calls a new startup() holding the start lines
  const split = (run: SideDef, cls: string, file: string, shape: number[]) => {
    const startup = def(`${cls}.startup`, file, block, shape);
    const callees = [startup.id, "p.proc.spawn"];
    return [{ ...run, hash: `${run.hash}+`, callees, uses: callees }, startup];
  };
  const head = [
    ...split(a0, "p.a.A", "p/a.py", shapes.s),
    ...split(b0, "p.b.B", "p/b.py", shapes.t),
  ];
  const r = auditChange(side([a0, b0]), side(head), { maxTargets: 0 });
  const within = r.findings.flatMap((x) => [x, ...x.alternatives]).filter((p) => p.within);
  assert.deepEqual(within, []);
  // two pieces split out of the same run()s are not twins: two new shared helpers that both run()s
  // now call, holding lines of both (as uvicorn's get_local_addr and get_remote_addr, called by
  // every protocol's connection_made), are a pair the change made
  const local = def("p.u.local_addr", "p/u.py", block, [100, 1, 101, 1]);
  const remote = def("p.u.remote_addr", "p/u.py", block, [110, 1, 111, 1]);
  const calling = (run: SideDef) => {
    const callees = [local.id, remote.id, "p.proc.spawn"];
    return { ...run, hash: `${run.hash}+`, callees, uses: callees };
  };
  const r1 = auditChange(side([a0, b0]), side([calling(a0), calling(b0), local, remote]), {
    maxTargets: 0,
  });
  const pairs1 = r1.findings.flatMap((x) => [x, ...x.alternatives]).filter((p) => p.within)
    .map((p) => [p.function.id, p.target.id].sort().join(" ~ "));
  assert.deepEqual(pairs1, ["p.u.local_addr ~ p.u.remote_addr"]);
  // the same change where the old run()s were not joined: the two startups are a new pair
  const c0 = def("p.b.B.run", "p/b.py", ["p.proc.spawn", "p.proc.wait"], shapes.b);
  assert.ok(!isReimplemented(false, c0.callees, new Set(a0.callees)).reimplemented);
  assert.ok(!isReimplemented(false, a0.callees, new Set(c0.callees)).reimplemented);
  const r2 = auditChange(side([a0, c0]), side(head), { maxTargets: 0 });
  const within2 = r2.findings.flatMap((x) => [x, ...x.alternatives]).filter((p) => p.within);
  assert.deepEqual(
    within2.map((p) => [p.kind, [p.function.id, p.target.id].sort()]),
    [["reimplementation", ["p.a.A.startup", "p.b.B.startup"]]],
  );
});
