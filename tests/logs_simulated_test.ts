/**
 * Planted truth: a small simulated corpus (lib/simulate, 300 run turns in mini-SWE-agent v1/v2
 * and OpenCode formats) records, per turn, the Files and Lines its planner showed and, per
 * target, whether the turn's reads show a line of the target's body. The reader, given each
 * turn's workspace W_{t-1} (W0 plus the agent's own earlier submissions), must find exactly those.
 */
import assert from "node:assert/strict";
import { parseLog } from "../lib/logs/mod.ts";
import type { Ranges } from "../lib/logs/mod.ts";
import { readTruth, simulateCorpus } from "../lib/simulate/mod.ts";

function walk(dir: string, base = "", out = new Map<string, string>()): Map<string, string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory) walk(`${dir}/${e.name}`, p, out);
    else if (e.isFile) out.set(p, Deno.readTextFileSync(`${dir}/${e.name}`));
  }
  return out;
}

function logOf(dir: string): string | undefined {
  for (const f of ["log.json", "log.jsonl", "log.traj"]) {
    try {
      Deno.statSync(`${dir}/${f}`);
      return `${dir}/${f}`;
    } catch { /* next */ }
  }
  return undefined;
}

Deno.test("simulated corpus: Files, Lines and each target's read flag agree with the planted truth", async () => {
  const root = await Deno.makeTempDir({ prefix: "reporeuse-logs-sim-" });
  try {
    await simulateCorpus(root, { scale: "small", seed: 5 });
    const truth = await readTruth(root);
    const key = (...k: unknown[]) => k.join("|");
    const got = new Map<
      string,
      { files: number; lines: number; reads: Ranges; coverage: number }
    >();
    for (const cfg of Deno.readDirSync(`${root}/runs`)) {
      if (!cfg.isDirectory) continue;
      const conf = JSON.parse(Deno.readTextFileSync(`${root}/runs/${cfg.name}/config.json`));
      for (const ch of Deno.readDirSync(`${root}/runs/${cfg.name}`)) {
        if (!ch.isDirectory) continue;
        const chain = JSON.parse(Deno.readTextFileSync(`${root}/tasks/${ch.name}/chain.json`));
        const w0 = walk(`${root}/tasks/${ch.name}/${chain.repo.workspace}`);
        const own = new Map<string, string>();
        for (const turn of chain.turns) {
          const dir = `${root}/runs/${cfg.name}/${ch.name}/turn${turn.turn}`;
          const log = logOf(dir);
          if (log) {
            const r = await parseLog(Deno.readTextFileSync(log), {
              file: log,
              files: (p) => own.get(p) ?? w0.get(p),
              cwd: conf.cwd,
            });
            got.set(key(conf.harness, conf.model, conf.memory, ch.name, turn.turn), r);
          }
          try {
            own.set(turn.path, Deno.readTextFileSync(`${dir}/submission.py`));
          } catch { /* no submission this turn */ }
        }
      }
    }
    assert.equal(truth.turns.length, 300);
    let turns = 0;
    for (const t of truth.turns) {
      const r = got.get(key(t.harness, t.model, t.memory, t.chain, t.turn));
      assert.ok(r, `no log read for ${key(t.harness, t.model, t.memory, t.chain, t.turn)}`);
      const where = `${t.harness} ${t.model} ${t.memory} ${t.chain} turn ${t.turn}`;
      assert.equal(r.files, Number(t.files_planned), `Files, ${where}`);
      assert.equal(r.lines, Number(t.lines_planned), `Lines, ${where}`);
      assert.equal(r.coverage, 1, `coverage, ${where}`);
      turns++;
    }
    let targets = 0;
    for (const t of truth.targets) {
      if (!t.file) continue;
      const r = got.get(key(t.harness, t.model, t.memory, t.chain, t.turn))!;
      const shown = (r.reads[String(t.file)] ?? []).some(([a, b]) =>
        a <= Number(t.end) && b >= Number(t.body_start)
      );
      assert.equal(
        shown,
        String(t.read) === "true",
        `read flag of ${t.target} (${t.chain} turn ${t.turn})`,
      );
      targets++;
    }
    assert.equal(turns, 300);
    assert.ok(targets > 500, `only ${targets} targets`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
