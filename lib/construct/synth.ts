/**
 * Task synthesis (paper §3.1 "Task Synthesis"): the authoring model writes the six blocks of
 * Appendix B.1 (module name, goal, functions, solution, calls, read targets) from the evidence
 * pack, the suggested direction, the package layout and the previous rounds' artifacts. The reply
 * (a JSON object with one key per block) is validated; a requirement that names an evidence symbol
 * is rejected, as is a solution that does not define the declared functions.
 *
 * @module
 */
import type { ChatMessage, ModelClient } from "./llm.ts";
import { parseJsonReply } from "./llm.ts";
import { fillTemplate } from "./walk.ts";
import type { GraphIndex } from "./graph.ts";
import type { EvidencePack, FunctionSpec, ReadTarget, TurnDraft } from "./types.ts";

/** The synthesis prompt of Appendix B.1, verbatim. */
export const SYNTHESIS_PROMPT =
  `You are authoring a programming task for a benchmark that evaluates whether coding agents explore and reuse repository internals. Inputs: an evidence pack (repository symbols to build on), a suggested direction, the package layout, and previous-round artifacts.

Write a task a real developer would plausibly need, whose correct implementation GENUINELY requires reading the evidence symbols’ source – i.e., it must exploit internal conventions invisible in signatures (zero representation, coefficient ordering, implicit domain transforms). Any task solvable from docstrings alone is rejected.

Output six blocks:

1. module_name: snake_case; reads as if it always belonged to the package.

2. goal: 2-4 behavioural sentences, as a maintainer would request; never reference earlier rounds – discovering what the repo already provides is what is being measured.

3. functions: {nfun} functions (name / signature / returns / behaviour); house-style names, no shared prefix; 5+ lines of real logic each; ‘returns‘ pins container, element type, and ordering; >=2 functions return plainly repr-comparable values.

4. solution: imports and calls the evidence symbols non-trivially; function names match block 3 verbatim; no module-level helpers.

5. calls: 8-14 single-line calls with predicted reprs, including edge cases; we execute each call and assert the real return value.

6. read_targets locations a developer MUST read: the evidence symbols plus callees encoding conventions (even if never imported); each ‘why‘ names the convention, not the task.`;

/** How the six blocks are to be returned (machine-readable form of the blocks above). */
export const SYNTHESIS_FORMAT = `## Reply format

Reply with STRICT JSON only, one key per block:
{"module_name": "...", "goal": "...",
 "functions": [{"name": "...", "signature": "def ...(...)", "returns": "...", "behaviour": "..."}],
 "solution": "<complete Python source of the module>",
 "calls": [{"call": "<single-line call>", "repr": "<predicted repr>"}],
 "read_targets": [{"symbol": "<dotted id or path:line>", "why": "..."}]}
Calls are evaluated with the module's functions, \`np\` (numpy) and \`pd\` (pandas) in scope.`;

/** Inputs of {@link synthesize} besides the model. */
export interface SynthesisInput {
  evidence: EvidencePack;
  graph: GraphIndex;
  /** Module ids of the package (the layout). */
  layout: string[];
  /** Earlier turns of the chain. */
  previous: { turn: number; module: string; functions: FunctionSpec[] }[];
  nfun?: number;
  /** A problem of the previous attempt (regeneration feedback). */
  feedback?: string;
}

/** The user message of a synthesis request. */
export function synthesisPrompt(input: SynthesisInput): string {
  const nfun = input.nfun ?? 3;
  const parts = [fillTemplate(SYNTHESIS_PROMPT, { nfun }), "", "## Evidence pack", ""];
  for (const id of input.evidence.symbols) {
    const d = input.graph.node(id);
    parts.push(`### \`${id}\`${d ? ` (${d.file}:${d.start}-${d.end})` : ""}`, "");
    const src = input.graph.source(id, 80);
    if (src) parts.push("```python", src, "```", "");
  }
  parts.push("## Suggested direction", "", input.evidence.sketch || "(none)", "");
  parts.push("## Package layout", "", ...input.layout.map((m) => `- ${m}`), "");
  parts.push("## Previous-round artifacts", "");
  if (!input.previous.length) parts.push("(none: this is round 1)", "");
  for (const p of input.previous) {
    parts.push(`### Round ${p.turn} – \`${p.module}\``);
    for (const f of p.functions) parts.push(`- \`${f.signature}\` → ${f.returns}`);
    parts.push("");
  }
  parts.push(SYNTHESIS_FORMAT);
  if (input.feedback) {
    parts.push("", "## Problem with the previous attempt", "", input.feedback);
  }
  return parts.join("\n");
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The short names of evidence symbols the requirement text names (word-boundary match). */
export function namedEvidence(text: string, evidence: string[]): string[] {
  const out: string[] = [];
  for (const id of evidence) {
    const short = id.split(".").pop()!;
    const re = new RegExp(`(^|[^A-Za-z0-9_])${short}([^A-Za-z0-9_]|$)`);
    if (text.includes(id) || re.test(text)) out.push(id);
  }
  return out;
}

/** Validates a synthesis reply; throws an Error naming every problem. */
export function validateDraft(text: string, evidence: string[], nfun: number): TurnDraft {
  const r = parseJsonReply(text);
  const problems: string[] = [];
  const str = (k: string) => (typeof r[k] === "string" ? (r[k] as string).trim() : "");
  const moduleName = str("module_name");
  if (!/^[a-z][a-z0-9_]*$/.test(moduleName)) problems.push("module_name must be snake_case");
  const goal = str("goal");
  if (!goal) problems.push("goal is missing");
  const functions: FunctionSpec[] = [];
  for (const f of Array.isArray(r.functions) ? r.functions : []) {
    const o = (f ?? {}) as Record<string, unknown>;
    const spec = {
      name: String(o.name ?? ""),
      signature: String(o.signature ?? ""),
      returns: String(o.returns ?? ""),
      behaviour: String(o.behaviour ?? o.behavior ?? ""),
    };
    if (!IDENT.test(spec.name) || !spec.signature.startsWith(`def ${spec.name}(`)) {
      problems.push(`function ${JSON.stringify(spec.name)} needs a name and a matching signature`);
    }
    functions.push(spec);
  }
  if (functions.length !== nfun) problems.push(`exactly ${nfun} functions are required`);
  const solution = typeof r.solution === "string" ? r.solution : "";
  for (const f of functions) {
    if (!new RegExp(`^def ${f.name}\\(`, "m").test(solution)) {
      problems.push(`the solution does not define ${f.name} at module level`);
    }
  }
  const declared = new Set(functions.map((f) => f.name));
  const helpers = [...solution.matchAll(/^(?:async\s+)?(?:def|class)\s+(\w+)/gm)]
    .map((m) => m[1])
    .filter((name) => !declared.has(name));
  if (helpers.length) problems.push(`no module-level helpers allowed (${helpers.join(", ")})`);
  const calls = (Array.isArray(r.calls) ? r.calls : []).map((c) =>
    typeof c === "string" ? c : String((c as Record<string, unknown>)?.call ?? "")
  ).filter((c) => c.trim());
  if (!calls.length) problems.push("calls are missing");
  const readTargets: ReadTarget[] = (Array.isArray(r.read_targets) ? r.read_targets : []).map(
    (t) => {
      const o = (t ?? {}) as Record<string, unknown>;
      return { symbol: String(o.symbol ?? o.location ?? ""), why: String(o.why ?? "") };
    },
  );
  const requirement = [goal, ...functions.flatMap((f) => [f.returns, f.behaviour])].join("\n");
  const named = namedEvidence(requirement, evidence);
  if (named.length) problems.push(`the requirement names evidence symbol(s): ${named.join(", ")}`);
  if (problems.length) throw new Error(problems.join("; "));
  return { moduleName, goal, functions, solution, calls, readTargets };
}

/**
 * Asks the model for a turn's six blocks; an invalid reply is answered with its problems and
 * asked again, up to `maxInvalid` times. Throws when no valid draft comes back.
 */
export async function synthesize(
  client: ModelClient,
  input: SynthesisInput,
  opts: { maxInvalid?: number } = {},
): Promise<TurnDraft> {
  const nfun = input.nfun ?? 3;
  const messages: ChatMessage[] = [{ role: "user", content: synthesisPrompt(input) }];
  let last = "";
  for (let attempt = 0; attempt <= (opts.maxInvalid ?? 2); attempt++) {
    const text = await client.complete(
      messages,
      (t) => validateDraft(t, input.evidence.symbols, nfun),
    );
    try {
      return validateDraft(text, input.evidence.symbols, nfun);
    } catch (e) {
      last = (e as Error).message;
      messages.push(
        { role: "assistant", content: text },
        { role: "user", content: `Rejected: ${last}. Reply with the corrected STRICT JSON only.` },
      );
    }
  }
  throw new Error(`synthesis failed: ${last}`);
}
