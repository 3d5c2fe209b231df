/**
 * The evaluation protocol (paper Appendix A.1, A.3, B.2): workspace preparation, requirement
 * rendering for the three memory settings, hidden tests, and the runner that records agent runs
 * in the run-log layout.
 *
 * @module
 */
export { checkImports, isRemovedPath, prepareWorkspace } from "./prepare.ts";
export {
  type FunctionSpec,
  type Memory,
  renderInterfaceNote,
  renderPrompt,
  renderRequirement,
  renderRequirementBody,
  renderSourceNote,
  type SubmittedSource,
  type TurnSpec,
  withMemory,
} from "./requirement.ts";
export { HIDDEN_DIR, hiddenTestSource, parseJunit, runHiddenTests } from "./hidden.ts";
export type { CaseResult, TestCase } from "./hidden.ts";
export { configDirName, fillCommand, runProtocol, shellQuote } from "./runner.ts";
export type { RunConfig, RunOptions, TurnOutcome } from "./runner.ts";
export {
  AGENT_PRESETS,
  type AgentPreset,
  agentPreset,
  isAgentPreset,
  type Preset,
  presetHelp,
} from "./presets.ts";
