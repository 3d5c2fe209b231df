/**
 * Requirement rendering (paper Appendix A.3 and B.2): the requirement of a turn (behavioural
 * description, exact path and module, each function's signature, return contract and behaviour),
 * followed from turn 2 by a historical note that depends on the memory setting:
 *
 * - `none`: no note;
 * - `interface`: every earlier turn's module and, per function, signature, return contract and
 *   behaviour;
 * - `source`: the exact file submitted in each earlier turn with its UTF-8 byte length and
 *   SHA-256, delimited by `<<<CODEFLOW_L5_SELF_SOURCE bytes=N>>>` markers.
 *
 * The delivery instructions of B.2 wrap the requirement identically for every memory setting.
 *
 * @example
 * ```ts
 * import { renderSourceNote } from "./requirement.ts";
 * const note = renderSourceNote([{ turn: 1, module: "pkg.a", path: "pkg/a.py", source: "é\n" }]);
 * console.assert(note.includes("- UTF-8 bytes: 3"));
 * console.assert(note.includes("<<<CODEFLOW_L5_SELF_SOURCE bytes=3>>>\né\n<<<END_CODEFLOW_L5_SELF_SOURCE>>>"));
 * ```
 * @module
 */
import { sha256 } from "../util/mod.ts";

/** The memory settings of §4.4. */
export type Memory = "none" | "interface" | "source";

/** One required function of a turn, as chain.json lists it (block 3 of the synthesis prompt). */
export interface FunctionSpec {
  name: string;
  signature: string;
  returns: string;
  behaviour: string;
}

/** What the renderer needs of a turn. */
export interface TurnSpec {
  turn: number;
  module: string;
  path: string;
  functions: FunctionSpec[];
  /** Behavioural description (goal) of the turn. */
  goal?: string;
}

/** An earlier turn's submitted file for source memory (`source: null` when nothing was submitted). */
export interface SubmittedSource {
  turn: number;
  module: string;
  path: string;
  source: string | null;
}

/** A function's signature, return value and behaviour as Markdown list items. */
function facts(f: FunctionSpec, bullet: string): string[] {
  return [
    `${bullet}Signature: \`${f.signature}\``,
    `${bullet}Returns: ${f.returns}`,
    `${bullet}Behaviour: ${f.behaviour}`,
  ];
}

/** The body of a requirement without its historical note. */
export function renderRequirementBody(turn: TurnSpec): string {
  const lines: string[] = [];
  if (turn.goal) lines.push(turn.goal.trim(), "");
  lines.push(
    `Create the module \`${turn.module}\` at \`${turn.path}\`, defining the following functions.`,
    "",
  );
  for (const f of turn.functions) lines.push(`### \`${f.name}\``, "", ...facts(f, "- "), "");
  return lines.join("\n").trimEnd() + "\n";
}

/**
 * A memory note: the `## Note` heading, its introduction, then one `### Round t – \`module\``
 * section per earlier turn with the lines `section` gives (empty string when there are none).
 */
function renderNote<T extends { turn: number; module: string }>(
  intro: string,
  earlier: readonly T[],
  section: (t: T) => string[],
): string {
  if (!earlier.length) return "";
  const lines = ["## Note", "", intro, ""];
  for (const t of earlier) lines.push(`### Round ${t.turn} – \`${t.module}\``, ...section(t));
  return lines.join("\n").trimEnd() + "\n";
}

/** The interface-memory note for the given earlier turns (empty string when there are none). */
export function renderInterfaceNote(earlier: TurnSpec[]): string {
  return renderNote(
    "The repository already contains modules you implemented in earlier rounds. You are encouraged to reuse their public interfaces:",
    earlier,
    (t) => ["", ...t.functions.flatMap((f) => [`- \`${f.name}\``, ...facts(f, "  - ")]), ""],
  );
}

/** The source-memory note embedding the files submitted in earlier turns. */
export function renderSourceNote(earlier: SubmittedSource[]): string {
  return renderNote(
    "The following exact source files were submitted by this same harness in earlier rounds of this task. Byte lengths delimit source payloads.",
    earlier,
    (t) => {
      const head = ["", `- Submit path: \`${t.path}\``];
      if (t.source === null) return [...head, "- No file was submitted at this path.", ""];
      const bytes = new TextEncoder().encode(t.source);
      return [
        ...head,
        `- UTF-8 bytes: ${bytes.length}`,
        `- SHA-256: \`${sha256(bytes)}\``,
        "",
        `<<<CODEFLOW_L5_SELF_SOURCE bytes=${bytes.length}>>>`,
        t.source.endsWith("\n") ? t.source.slice(0, -1) : t.source,
        "<<<END_CODEFLOW_L5_SELF_SOURCE>>>",
        "",
      ];
    },
  );
}

/**
 * The requirement q_t under a memory setting. `earlier` are the chain's earlier turns; `sources`
 * the files the agent submitted in them (source memory only).
 */
export function renderRequirement(
  turn: TurnSpec,
  memory: Memory,
  earlier: TurnSpec[],
  sources: SubmittedSource[] = [],
): string {
  return withNote(renderRequirementBody(turn), memory, earlier, sources);
}

/** A requirement body followed by the historical note of `memory` (none without memory). */
function withNote(
  body: string,
  memory: Memory,
  earlier: TurnSpec[],
  sources: SubmittedSource[],
): string {
  const note = memory === "interface"
    ? renderInterfaceNote(earlier)
    : memory === "source"
    ? renderSourceNote(sources)
    : "";
  return note ? `${body}\n${note}` : body;
}

/**
 * The requirement q_t under a memory setting, from a requirement text written for another setting
 * (e.g. a chain's `requirement.md`, rendered with interface memory): its historical note, if any,
 * is replaced by the one of `memory`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withMemory } from "./requirement.ts";
 * assert.equal(withMemory("Do X.\n\n## Note\n\nold\n", "none", [], []), "Do X.\n");
 * ```
 */
export function withMemory(
  text: string,
  memory: Memory,
  earlier: TurnSpec[],
  sources: SubmittedSource[] = [],
): string {
  const at = text.lastIndexOf("\n## Note\n");
  const body = (at >= 0 ? text.slice(0, at) : text).trimEnd() + "\n";
  return withNote(body, memory, earlier, sources);
}

/** The delivery instructions of Appendix B.2 wrapping a requirement (identical for every memory). */
export function renderPrompt(
  requirement: string,
  opts: { workdir: string; submitTo: string; module: string },
): string {
  return `You are working in the repository checkout at ${opts.workdir} (your working directory). The package is installed in editable mode, so \`python -c "import …"\` picks up any file you write there. The repository’s own test suite is not available; write and run your own checks if you need to.

# Requirement

${requirement.trimEnd()}

# What you must deliver

A new Python module at exactly \`${opts.workdir}/${opts.submitTo}\` (importable as \`${opts.module}\`), defining exactly the functions the requirement lists, with those names and signatures. The requirement may mention modules that already exist in the repository – find and reuse them where it makes sense; do not modify existing files.

Write the file, check that it imports and behaves as required, and fix what fails. A round with no file at that path scores zero however much you learned.
`;
}
