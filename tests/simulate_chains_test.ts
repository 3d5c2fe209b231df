/**
 * Every turn of a simulated chain creates a module that neither W0 nor an earlier turn of the chain
 * has (the layout refuses a chain that creates a module twice, docs/run-logs.md): checked on the
 * chains of the paper-scale corpora of seeds 1–20 (seed 6 once drew `plotkit.stacked_fields` for
 * turns 3 and 4 of chain plotkit-003, found by `deno task verify truth`).
 */
import assert from "node:assert/strict";
import { corpusBatches } from "../lib/simulate/mod.ts";

Deno.test("simulated chains (paper scale, seeds 1-20): no module created twice in a chain", () => {
  for (let seed = 1; seed <= 20; seed++) {
    // the first batch holds W0 and the tasks
    const first = corpusBatches({ seed, scale: "paper" }).next().value as Map<string, string>;
    const chains = [...first].filter(([p]) => /^tasks\/[^/]+\/chain\.json$/.test(p));
    assert.equal(chains.length, 75);
    for (const [p, text] of chains) {
      const chain = JSON.parse(text) as { repo: { name: string }; turns: { path: string }[] };
      const paths = chain.turns.map((t) => t.path);
      assert.equal(new Set(paths).size, paths.length, `seed ${seed} ${p}: ${paths.join(", ")}`);
      for (const path of paths) {
        assert.ok(
          !first.has(`repos/${chain.repo.name}/${path}`),
          `seed ${seed} ${p}: ${path} in W0`,
        );
      }
    }
  }
});
