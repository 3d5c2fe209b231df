/**
 * Notebook-facing helpers (notebooks/*.ipynb, Deno's Jupyter kernel), one module per concern under
 * lib/report/notebook/: loading the scored frames of the simulated corpus or of a user's corpus
 * with one call (load.ts), displaying polars frames and HTML (show.ts), interval and
 * paired-comparison frames and charts (intervals.ts), the read-but-unused analysis (unused.ts,
 * notebook 05, not in the paper), the Appendix C case study (case_study.ts, notebook 06), the
 * benchmark composition chart (benchmark.ts, notebook 07) and small filters (filters.ts).
 *
 * Display objects implement `Symbol.for("Jupyter.display")` and never touch `Deno.jupyter` (it
 * throws outside the kernel), so everything here also runs under `deno test`.
 *
 * @module
 */

export * from "./notebook/load.ts";
export * from "./notebook/show.ts";
export * from "./notebook/intervals.ts";
export * from "./notebook/unused.ts";
export * from "./notebook/case_study.ts";
export * from "./notebook/benchmark.ts";
export * from "./notebook/filters.ts";
export * from "./notebook/findings.ts";
