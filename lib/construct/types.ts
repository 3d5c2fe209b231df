/**
 * Types of the construction pipeline (paper §3.1): evidence packs, synthesized turn drafts,
 * verification outcomes and the chain written in the run-log layout's tasks format
 * (docs/run-logs.md).
 *
 * @module
 */
import type { FunctionSpec, TestCase } from "../protocol/mod.ts";

/** One required function of a turn (block 3 of the synthesis prompt; the chain's turn shape). */
export type { FunctionSpec } from "../protocol/mod.ts";

/** A location a developer must read (block 6). */
export interface ReadTarget {
  symbol: string;
  why: string;
}

/** The content of one turn as synthesized by the authoring model (Appendix B.1, six blocks). */
export interface TurnDraft {
  /** Block 1: snake_case module name (placed in the package as `<package>/<subpackage>/<name>.py`). */
  moduleName: string;
  /** Block 2: behavioural goal. */
  goal: string;
  /** Block 3. */
  functions: FunctionSpec[];
  /** Block 4: reference solution source. */
  solution: string;
  /** Block 5: single-line calls (predicted reprs are ignored: expected values come from real runs). */
  calls: string[];
  /** Block 6. */
  readTargets: ReadTarget[];
}

/** The evidence pack of a turn. */
export interface EvidencePack {
  /** Symbol ids collected by the walk (repository symbols and earlier-turn functions). */
  symbols: string[];
  /** The walk's one-sentence task sketch (the "suggested direction"). */
  sketch: string;
  /** The injected nearby, previously unused repository symbol (turn ≥ 2). */
  injected?: string;
  /** Per hop: chosen symbol and the model's reason. */
  hops: { symbol: string; reason: string }[];
}

/** A turn that passed verification. */
export interface VerifiedTurn {
  turn: number;
  module: string;
  path: string;
  functions: FunctionSpec[];
  goal: string;
  solution: string;
  cases: TestCase[];
  evidence: EvidencePack;
  readTargets: ReadTarget[];
  /** Calls dropped during verification, with the reason. */
  dropped: { call: string; reason: string }[];
}

/** chain.json (docs/run-logs.md). */
export interface ChainFile {
  chain: string;
  repo: { name: string; version?: string; workspace: string; package: string };
  turns: {
    turn: number;
    module: string;
    path: string;
    functions: FunctionSpec[];
    [extra: string]: unknown;
  }[];
  [extra: string]: unknown;
}
