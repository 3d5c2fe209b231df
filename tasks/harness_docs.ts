/**
 * `deno task harness-docs`: rewrites the generated tables of docs/harnesses.md from the reader
 * registry (lib/logs/readers/), then formats the page with `deno fmt`.
 *
 * @module
 */
import { READERS, renderReaders, UNSUPPORTED, withGenerated } from "../lib/logs/mod.ts";

const page = new URL("../docs/harnesses.md", import.meta.url).pathname;
await Deno.writeTextFile(
  page,
  withGenerated(await Deno.readTextFile(page), renderReaders(READERS, UNSUPPORTED)),
);
const fmt = await new Deno.Command(Deno.execPath(), { args: ["fmt", page] }).output();
if (!fmt.success) throw new Error(`deno fmt ${page} failed`);
console.log(`wrote ${page}`);
