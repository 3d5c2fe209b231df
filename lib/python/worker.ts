/**
 * Web Worker of {@link analyzePackage}: summarises files sent by the main thread with one
 * tree-sitter parser, stores the summary in the content-hash cache and answers with it as JSON
 * texts (cheaper to pass between threads than an object graph). Protocol: lib/util/pool.ts, jobs
 * `SummaryJob` of parsing.ts, results `SummaryText` (summary_cache.ts).
 * @module
 */
/// <reference lib="deno.worker" />
import type { SummaryJob } from "./parsing.ts";
import { type SummaryText, summaryText, writeSummaryTextSync } from "./summary_cache.ts";
import { pythonParser } from "./direct.ts";
import { summarizeWith } from "./summary.ts";
import { useNativeSummaries } from "./parser_choice.ts";
import { serveJobs } from "../util/mod.ts";

const parser = pythonParser();

let nativeTried: string | undefined;

serveJobs(async ({ source, file, module, key, cacheDir, native }: SummaryJob) => {
  const fp = await parser;
  if (native && native.dir !== nativeTried) {
    nativeTried = native.dir;
    useNativeSummaries(fp, native);
  }
  const text: SummaryText = summaryText(summarizeWith(fp, source, file, module));
  // written before answering: the main thread terminates the worker after its last answer
  if (key && cacheDir) {
    try {
      text.bytes = writeSummaryTextSync(cacheDir, key, text);
    } catch {
      // a cache that cannot be written only costs time
    }
  }
  return text;
});
