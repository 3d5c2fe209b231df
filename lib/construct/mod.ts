/**
 * The construction pipeline (paper §3.1, Appendix B.1): candidate starting points, guided
 * evidence walks, six-block task synthesis and execution verification over an OpenAI-compatible
 * API, writing verified chains in the run-log layout's tasks format.
 *
 * @module
 */
export * from "./types.ts";
export {
  apiKeyFromEnv,
  type ChatMessage,
  DEFAULT_TIMEOUT_MS,
  ModelClient,
  type ModelConfig,
  ModelError,
} from "./llm.ts";
export { parseJsonReply } from "./llm.ts";
export { GraphIndex } from "./graph.ts";
export { fillTemplate, validateWalkReply, walk, WALK_PROMPT, WalkError } from "./walk.ts";
export {
  namedEvidence,
  SYNTHESIS_PROMPT,
  synthesisPrompt,
  synthesize,
  validateDraft,
} from "./synth.ts";
export { callsFunction, emptyImplementation, verifyTurn } from "./execution.ts";
export type { CalledSymbols, TurnUnderTest, VerifyOptions, VerifyOutcome } from "./execution.ts";
export { calledByModule, calledSymbols } from "./reuse.ts";
export { runCalls } from "./calls.ts";
export { defaultPython } from "../util/mod.ts";
export { runProcess } from "../util/mod.ts";
export { chainFile, writeChain } from "./write.ts";
export { buildChain, type BuildOptions, type BuildResult } from "./pipeline.ts";
export { recheckChain, type RecheckedTurn } from "./recheck.ts";
