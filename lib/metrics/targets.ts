/**
 * Per-turn scoring of targets (paper §3.3.1–3.3.2): which targets the reference solution of a turn
 * induces, and for each target whether the agent read it (eq. 2), reused it (eq. 1) or
 * re-implemented it.
 *
 * Works on any {@link CodeModel} (the `Project` of lib/python satisfies it), so it needs no file
 * system and no parsing.
 *
 * @module
 */
import type { Ranges } from "../logs/mod.ts";
import { CALL_KINDS, type Definition, type ModuleInfo, type Use } from "../python/mod.ts";
import { type Body, isRead } from "./recall.ts";
import { isReimplemented } from "./redundancy.ts";

/** What the scorer needs of a resolved project (lib/python `Project`). */
export interface CodeModel {
  definition(id: string): Definition | undefined;
  resolveModule(module: string): ModuleInfo;
  callees(id: string): string[];
}

/** A reuse target of a turn. */
export interface Target {
  /** Qualified id, e.g. `seaborn._core.rules.categorical_order`. */
  id: string;
  kind: "repo" | "self";
}

/**
 * Use kinds that are reuse edges (eq. 1, "a real call edge … through value-reference name
 * matching"): a `call` or a `reference` names the function; a `decorator` applied names it too
 * (`@cache` is `cache(f)`); a `dunder` that call syntax runs on a known class (`C()` →
 * `C.__init__`) or instance (`obj()` → `__call__`) counts, as a class instantiation counts as a
 * use of its `__init__`: the agent chose the class or object to call. `implicit` uses (`C()` →
 * `C.__new__`; a dunder that `for`, `with` or `raise` runs on a value of known class) make no
 * target and no reuse. Calls, decorators and dunders ({@link CALL_KINDS}) are what a function
 * calls, in re-implementation overlaps. See docs/run-logs.md.
 */
export const REUSE_KINDS: ReadonlySet<Use["kind"]> = new Set([
  "call",
  "decorator",
  "dunder",
  "reference",
]);

/** Definition kinds that can be targets ("functions present in the original repository"). */
const CALLABLE = new Set(["function", "method"]);

function ownerModule(id: string, modules: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const m of modules) {
    if (id.startsWith(m + ".") && (!best || m.length > best.length)) best = m;
  }
  return best;
}

/**
 * Targets of turn t (§3.3.1): the functions and methods the reference solution calls or
 * references through a resolved edge, resolved against W0 plus the reference modules of turns < t.
 * Repo targets are definitions of W0; self targets are definitions of an earlier turn's module.
 * Each target appears once; sorted by kind (repo first) then id.
 *
 * @param reference project of W0 + reference modules of turns 1..t
 * @param module the module id of turn t
 * @param w0 project of W0 alone
 * @param earlier the module ids of turns 1..t−1
 */
export function extractTargets(
  reference: CodeModel,
  module: string,
  w0: Pick<CodeModel, "definition">,
  earlier: readonly string[],
): Target[] {
  const found = new Map<string, Target>();
  for (const use of reference.resolveModule(module).uses) {
    if (!use.resolved || !REUSE_KINDS.has(use.kind) || found.has(use.target)) continue;
    if (use.target === module || use.target.startsWith(module + ".")) continue;
    const def = reference.definition(use.target);
    if (!def || !CALLABLE.has(def.kind)) continue;
    if (ownerModule(def.id, earlier)) found.set(def.id, { id: def.id, kind: "self" });
    else if (w0.definition(def.id)) found.set(def.id, { id: def.id, kind: "repo" });
  }
  return [...found.values()].sort((a, b) =>
    a.kind !== b.kind ? (a.kind === "repo" ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
  );
}

/** The decisions on one target (a `targets` frame row without its keys). */
export interface TargetScore extends Target {
  /** Self target: the agent's earlier module defines it (repo targets: always true). */
  implemented: boolean;
  read: boolean;
  reused: boolean;
  reimplemented: boolean;
  /** Submission function with the largest callee overlap, when re-implemented. */
  reimplemented_by: string | null;
  /** The target's body (workspace-relative file, lines `bodyStart..end`) when it exists. */
  body: Body | null;
  /** Line of the target's `def` keyword, when it exists. */
  defStart: number | null;
  callees: number;
  callee_overlap: number | null;
}

/** Inputs of {@link scoreTargets}. */
export interface TurnModels {
  /** W0 + the agent's submissions of turns < t + its submission of turn t (when any). */
  agent: CodeModel;
  /**
   * W0 alone: definitions and callees of repo targets (the agent's new modules cannot change how
   * W0 resolves; sharing one W0 model across turns shares its memoised resolution).
   */
  w0: Pick<CodeModel, "definition" | "callees">;
  /** Module id of turn t. */
  module: string;
  /** Whether the agent submitted a file at turn t. */
  submitted: boolean;
  /** Module id → workspace path of the agent's submissions of turns < t. */
  earlier: ReadonlyMap<string, string>;
  /** Workspace path of a W0 definition, e.g. `seaborn/` + def.file. */
  w0Path: (def: Definition) => string;
  /** Lines the turn's read and search actions showed. */
  reads: Ranges;
}

/**
 * The source body of a definition: from the first line of its body block to its last line
 * (`bodyStart..end`), so that the `def` line alone (as printed by `grep -n "def "`) does not
 * count as reading the body, while a docstring does.
 */
export function bodyOf(def: Definition, file: string): Body {
  return { file, start: def.bodyStart, end: def.end };
}

/** What a submission uses, as the rules of {@link scoreTargets} read it. */
export interface SubmissionUses {
  /** Resolved ids it uses through a {@link REUSE_KINDS} edge (reuse, eq. 1). */
  used: Set<string>;
  /** Everything it calls ({@link CALL_KINDS}), anywhere in the file (re-implementation). */
  calls: Set<string>;
  /** Each function or method it defines, with what its own body (nested defs included) calls. */
  byScope: { def: Definition; calls: Set<string> }[];
}

/**
 * The uses of a submission's module (resolved against W_{t-1} + the submission): what counts as
 * reuse, what it calls, and what each of its functions calls (the viewer shows these beside the
 * rule's decision).
 */
export function submissionUses(info: ModuleInfo): SubmissionUses {
  const used = new Set<string>();
  const calls = new Set<string>();
  const byScope: { def: Definition; calls: Set<string> }[] = [];
  for (const u of info.uses) {
    if (u.resolved && REUSE_KINDS.has(u.kind)) used.add(u.target);
    if (CALL_KINDS.has(u.kind)) calls.add(u.target);
  }
  for (const def of info.definitions.filter((d) => CALLABLE.has(d.kind))) {
    const own = new Set<string>();
    for (const u of info.uses) {
      if (CALL_KINDS.has(u.kind) && (u.scope === def.id || u.scope.startsWith(def.id + "."))) {
        own.add(u.target);
      }
    }
    byScope.push({ def, calls: own });
  }
  return { used, calls, byScope };
}

/**
 * Scores every target of a turn: reuse (a resolved call/reference edge from the submission to the
 * target id; a local redefinition under the same name resolves to the submission's own def, so it
 * does not count), recall (reads overlap the body — repo targets in W0's files, self targets in
 * the agent's own earlier file; a self function the agent never wrote has no body and is not
 * read), and re-implementation ({@link isReimplemented} on the whole submission's calls; the
 * callees of a self target are those of the agent's own version — a self function the agent never
 * wrote has none, so it is never re-implemented).
 */
export function scoreTargets(targets: readonly Target[], m: TurnModels): TargetScore[] {
  const { used, calls, byScope } = m.submitted
    ? submissionUses(m.agent.resolveModule(m.module))
    : { used: new Set<string>(), calls: new Set<string>(), byScope: [] };
  return targets.map((t) => {
    let def: Definition | undefined;
    let file: string | undefined;
    if (t.kind === "repo") {
      def = m.w0.definition(t.id);
      if (def) file = m.w0Path(def);
    } else {
      const owner = ownerModule(t.id, [...m.earlier.keys()]);
      if (owner) {
        def = m.agent.definition(t.id);
        if (def) file = m.earlier.get(owner)!;
      }
    }
    const implemented = t.kind === "repo" ? true : def !== undefined && file !== undefined;
    const body = def && file ? bodyOf(def, file) : null;
    // a self function the agent never wrote is not in the workspace: nothing to duplicate
    const calleeIds = !def || !implemented
      ? []
      : t.kind === "repo"
      ? m.w0.callees(t.id)
      : m.agent.callees(t.id);
    const reused = m.submitted && used.has(t.id);
    const r = isReimplemented(reused, calleeIds, calls);
    let by: string | null = null;
    if (r.reimplemented) {
      let best = -1;
      for (const s of byScope) {
        let n = 0;
        for (const c of new Set(calleeIds)) if (s.calls.has(c)) n++;
        if (n > best) {
          best = n;
          by = s.def.id;
        }
      }
    }
    return {
      ...t,
      implemented,
      read: isRead(body, m.reads),
      reused,
      reimplemented: r.reimplemented,
      reimplemented_by: by,
      body,
      defStart: body && def ? def.start : null,
      callees: new Set(calleeIds).size,
      callee_overlap: r.overlap,
    };
  });
}
