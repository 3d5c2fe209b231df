/**
 * The provenance line of numbers computed from the project's simulated corpus, in one place:
 * tables, figures, READMEs and the viewer's banner print it.
 *
 * ```ts
 * import { SIMULATED } from "./provenance.ts";
 * console.assert(SIMULATED.startsWith("SIMULATED"));
 * ```
 * @module
 */

/** The provenance line of numbers computed from the simulated corpus. */
export const SIMULATED = "SIMULATED corpus — not measured agent runs";
