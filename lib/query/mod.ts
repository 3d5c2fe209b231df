/**
 * Ad-hoc research queries: SQL over scored runs (`openScored`), ready-made views, and result
 * formatting for the `query` command.
 *
 * @module
 */
export * from "./open.ts";
export * from "./views.ts";
export * from "./errors.ts";
export * from "./format.ts";
export * from "./examples.ts";
export * from "./readme.ts";
