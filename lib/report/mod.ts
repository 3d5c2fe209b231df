/**
 * Report: the paper's Tables 1–5 from the scored frames (beside the published values), figures as
 * vega-lite specs rendered headless to SVG, seeded cluster-bootstrap intervals, paired comparisons,
 * and `reproduce()` which writes them all under `out/`.
 *
 * @module
 */
export * from "./aggregate.ts";
export * from "./benchmark.ts";
export * from "./ci.ts";
export * from "./display.ts";
export * from "./figures.ts";
export * from "./paper.ts";
export * from "./reproduce.ts";
export * from "./stats.ts";
export * from "./table_render.ts";
export * from "./paper_tables.ts";
export * from "./style.ts";
export * from "./clustered.ts";
export * from "./clustered_examples.ts";
export { Browser, chromiumPath } from "./browser.ts";
export { expectationOf } from "./chart_check.ts";
export { chartExpectations, checkPage, htmlExportCopy } from "./notebook/export.ts";
export * from "./notebook/live.ts";
