/**
 * The code model on PyCG's call-graph micro-benchmark (tests/fixtures/pycg/, Apache-2.0): file-level
 * "module M uses function F" pairs against each test's hand-written `callgraph.json`. The figures are
 * floors of what the model achieves (the bench, `deno task bench callgraph`, prints them per
 * category); a change that loses a pair the model finds today fails here.
 */
import assert from "node:assert/strict";
import { compareSnippet, compareSuite, precisionRecall, sumCounts } from "../lib/python/oracle.ts";

const SUITE = new URL("./fixtures/pycg/micro", import.meta.url).pathname;

Deno.test("callgraph: PyCG micro-benchmark precision and recall floors", async () => {
  const results = await compareSuite(SUITE);
  assert.equal(results.length, 119);
  const sum = sumCounts(results);
  const { precision, recall } = precisionRecall(sum);
  assert.equal(sum.tp + sum.fn, 230, "expected pairs of the suite");
  assert.ok(precision >= 0.975, `precision ${precision}`);
  assert.ok(recall >= 0.965, `recall ${recall}`);
});

Deno.test("callgraph: implicit dunders of iteration, context managers and raise", async () => {
  for (const t of ["generators/iterable", "generators/iterable_assigned", "exceptions/raise"]) {
    const r = await compareSnippet(`${SUITE}/${t}`);
    assert.deepEqual(r.missed, [], t);
    assert.deepEqual(r.extra, [], t);
  }
  const it = await compareSnippet(`${SUITE}/generators/iterable`);
  assert.equal(it.tp, 3); // main uses func.__init__, func.__iter__, func.__next__
});

Deno.test("callgraph: element flow through dicts and lists, dead stores", async () => {
  // d.update({...}), a slice with constant bounds, an index imported from another module, a
  // decorator assigned to a name twice
  for (
    const t of [
      "dicts/update",
      "lists/slice",
      "lists/ext_index",
      "decorators/assigned",
      "dicts/assign",
      "lists/simple",
    ]
  ) {
    const r = await compareSnippet(`${SUITE}/${t}`);
    assert.deepEqual([r.extra, r.missed], [[], []], t);
  }
});
