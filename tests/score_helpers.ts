/** Shared helpers of the scoring tests (not a test file). */
import { join } from "node:path";

/** The hand-worked corpus of tests/fixtures/score/corpus (see tests/score_fixture_test.ts). */
export const FIXTURE = new URL("./fixtures/score/corpus", import.meta.url).pathname;

const copies: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of copies) Deno.removeSync(dir, { recursive: true });
});

/** A temporary directory removed when the test module ends. */
export async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-score-test-" });
  copies.push(dir);
  return dir;
}

/** A scratch copy of the hand-worked corpus (W0 stays shared: it is referenced by path). */
export async function copyCorpus(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-layout-" });
  copies.push(dir);
  const copy = async (from: string, to: string) => {
    await Deno.mkdir(to, { recursive: true });
    for await (const e of Deno.readDir(from)) {
      if (e.isDirectory) await copy(join(from, e.name), join(to, e.name));
      else await Deno.copyFile(join(from, e.name), join(to, e.name));
    }
  };
  await copy(FIXTURE, dir);
  return dir;
}
