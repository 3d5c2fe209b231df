/**
 * Web Worker of {@link analyzePackage}: summarises files sent by the main thread with one
 * tree-sitter parser, stores the summary in the content-hash cache and posts it back as JSON
 * texts (cheaper to pass between threads than an object graph).
 *
 * Message in: `{ id, source, file, module, key?, cacheDir? }`; out: `{ id, meta, rest }` or
 * `{ id, error }`.
 * @module
 */
/// <reference lib="deno.worker" />
import { summaryText, writeSummaryTextSync } from "./analyze.ts";
import { pythonParser } from "./direct.ts";
import { summarizeWith } from "./summary.ts";

const parser = pythonParser();

self.onmessage = async (e: MessageEvent) => {
  const { id, source, file, module, key, cacheDir } = e.data;
  try {
    const text = summaryText(summarizeWith(await parser, source, file, module));
    // written before posting: the main thread terminates the worker after its last answer
    if (key && cacheDir) {
      try {
        writeSummaryTextSync(cacheDir, key, text);
      } catch {
        // a cache that cannot be written only costs time
      }
    }
    self.postMessage({ id, meta: text.meta, rest: text.rest });
  } catch (err) {
    self.postMessage({ id, error: String(err) });
  }
};
