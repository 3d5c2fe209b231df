/**
 * Web Worker of {@link analyzePackage}: summarises files sent by the main thread with one
 * tree-sitter parser, stores the summary in the content-hash cache and posts it back.
 *
 * Message in: `{ id, source, file, module, key?, cacheDir? }`; out: `{ id, summary }` or `{ id, error }`.
 * @module
 */
/// <reference lib="deno.worker" />
import { parserFor } from "../util/treesitter.ts";
import { Cache } from "../util/cache.ts";
import { summarizeWith, SUMMARY_VERSION } from "./summary.ts";

const parser = parserFor("python");

self.onmessage = async (e: MessageEvent) => {
  const { id, source, file, module, key, cacheDir } = e.data;
  try {
    const summary = summarizeWith(await parser, source, file, module);
    if (key && cacheDir) {
      await new Cache("python-summary", SUMMARY_VERSION, cacheDir).set(key, summary).catch(
        () => {},
      );
    }
    self.postMessage({ id, summary });
  } catch (err) {
    self.postMessage({ id, error: String(err) });
  }
};
