/**
 * A larger corpus from a simulated one: its configurations replicated K times. Replica k ≥ 2 of
 * `runs/<config>/` is `runs/<config>~r<k>/`, with its own `config.json` (the same harness and
 * memory, model `"<model> r<k>"`, so every configuration keeps unique keys) and each chain
 * directory a symbolic link to the original's (inside the corpus, so the layout follows it): K
 * times the turns for one copy of the logs on disk. Planted truth (`truth/`) describes the first
 * replica only. Used by `deno task bench score --replicate K` and the scale tests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replicateConfigs } from "./replicate.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/runs/k/c1/turn1`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/runs/k/config.json`, JSON.stringify({ harness: "h", model: "m", memory: "none" }));
 * assert.equal(await replicateConfigs(dir, 3), 2);
 * const c3 = JSON.parse(await Deno.readTextFile(`${dir}/runs/k~r3/config.json`));
 * assert.equal(c3.model, "m r3");
 * assert.ok((await Deno.lstat(`${dir}/runs/k~r3/c1`)).isSymlink);
 * assert.equal(await replicateConfigs(dir, 3), 0); // already there
 * ```
 * @module
 */
import { join } from "node:path";

const REPLICA = /~r\d+$/;

/**
 * Adds the replicas 2..K of every configuration of `corpus` that are not there yet; returns how
 * many configuration directories it made.
 */
export async function replicateConfigs(corpus: string, k: number): Promise<number> {
  const runs = join(corpus, "runs");
  const originals: string[] = [];
  for await (const e of Deno.readDir(runs)) {
    if (e.isDirectory && !REPLICA.test(e.name)) originals.push(e.name);
  }
  let made = 0;
  for (const name of originals.sort()) {
    const config = JSON.parse(await Deno.readTextFile(join(runs, name, "config.json")));
    const chains: string[] = [];
    for await (const e of Deno.readDir(join(runs, name))) if (e.isDirectory) chains.push(e.name);
    for (let r = 2; r <= k; r++) {
      const dir = join(runs, `${name}~r${r}`);
      try {
        await Deno.mkdir(dir);
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists) continue;
        throw e;
      }
      await Deno.writeTextFile(
        join(dir, "config.json"),
        JSON.stringify({ ...config, model: `${config.model} r${r}` }, null, 2),
      );
      for (const c of chains) await Deno.symlink(join("..", name, c), join(dir, c));
      made++;
    }
  }
  return made;
}
