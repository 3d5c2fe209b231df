/**
 * Execution verification of a synthesized turn (paper §3.1 "Verification"): expected values come
 * from actually running the reference solution's calls in a Python subprocess (twice; a call that
 * raises or whose repr differs between the runs is dropped); too few remaining cases (or a
 * declared function left uncovered) rejects the turn so that it is regenerated; finally the
 * reference must pass every hidden test, an empty implementation must fail, and the resolver
 * must confirm that the reference really calls each evidence symbol.
 *
 * @module
 */
import { runCalls } from "./calls.ts";
import { exists, removeIfPresent } from "../util/mod.ts";
import type { FunctionSpec } from "./types.ts";
import { type CaseResult, runHiddenTests, type TestCase } from "../protocol/mod.ts";

/** The part of a turn verification needs. */
export interface TurnUnderTest {
  module: string;
  /** Submission path relative to the workspace root. */
  path: string;
  functions: FunctionSpec[];
  solution: string;
  calls: string[];
}

/** Returns the symbol ids the module's functions call (directly or through each other). */
export type CalledSymbols = (
  workspace: string,
  turn: TurnUnderTest,
) => Promise<Set<string>>;

/** Options of {@link verifyTurn}. */
export interface VerifyOptions {
  /** Reference workspace: W0 plus the verified reference solutions of earlier turns. */
  workspace: string;
  /** Evidence symbols the reference must call. */
  evidence: string[];
  /** Resolver-based reuse check (see `calledSymbols` in reuse.ts). */
  calledSymbols: CalledSymbols;
  python?: string;
  /** Fewest cases that must survive (default 5). */
  minCases?: number;
  /** Timeout of one execution of all calls (default 120 s). */
  timeoutMs?: number;
}

/** Outcome of {@link verifyTurn}. */
export interface VerifyOutcome {
  ok: boolean;
  cases: TestCase[];
  dropped: { call: string; reason: string }[];
  /** Why the turn was rejected (empty when ok). */
  problems: string[];
}

/** Whether a call expression calls the function `name`. */
export function callsFunction(call: string, name: string): boolean {
  return new RegExp(`(^|[^\\w.])${name.replace(/[^\w]/g, "")}\\s*\\(`).test(call);
}

/** A module with the declared functions present but doing nothing (returning None). */
export function emptyImplementation(functions: FunctionSpec[]): string {
  return functions.map((f) => `def ${f.name}(*args, **kwargs):\n    return None\n`).join("\n");
}

/**
 * Verifies a turn. When ok, the reference solution stays installed at its path in the reference
 * workspace (written back for later turns); otherwise it is removed.
 */
export async function verifyTurn(turn: TurnUnderTest, opts: VerifyOptions): Promise<VerifyOutcome> {
  const file = `${opts.workspace}/${turn.path}`;
  if (await exists(file)) {
    return {
      ok: false,
      cases: [],
      dropped: [],
      problems: [`${turn.path} already exists in the repository: choose another module name`],
    };
  }
  await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(file, turn.solution);
  const outcome = await verifyInstalled(turn, opts, file).catch((e) => ({
    ok: false,
    cases: [],
    dropped: [],
    problems: [(e as Error).message],
  }));
  // a failed solution must not stay where the next turns would find it
  if (!outcome.ok) await removeIfPresent(file);
  else await Deno.writeTextFile(file, turn.solution);
  return outcome;
}

async function verifyInstalled(
  turn: TurnUnderTest,
  opts: VerifyOptions,
  file: string,
): Promise<VerifyOutcome> {
  const names = turn.functions.map((f) => f.name);
  const dropped: { call: string; reason: string }[] = [];
  const fail = (problem: string, cases: TestCase[] = []): VerifyOutcome => ({
    ok: false,
    cases,
    dropped,
    problems: [problem],
  });

  // The resolver: the reference must really call every evidence symbol.
  const called = await opts.calledSymbols(opts.workspace, turn);
  const missing = opts.evidence.filter((e) => !called.has(e));
  if (missing.length) {
    return fail(`reference does not call evidence symbol(s): ${missing.join(", ")}`);
  }

  // Candidate calls: single-line, distinct, calling one of the turn's functions.
  const calls: string[] = [];
  for (const raw of turn.calls) {
    const call = raw.trim();
    if (!call || call.includes("\n")) dropped.push({ call, reason: "not a single-line call" });
    else if (calls.includes(call)) dropped.push({ call, reason: "duplicate" });
    else if (!names.some((n) => callsFunction(call, n))) {
      dropped.push({ call, reason: "calls none of the turn's functions" });
    } else calls.push(call);
  }
  const runOpts = { python: opts.python, timeoutMs: opts.timeoutMs };
  const first = await runCalls(opts.workspace, turn.module, names, calls, runOpts);
  if (first.importError) return fail(`reference does not import: ${first.importError}`);
  const second = await runCalls(opts.workspace, turn.module, names, calls, runOpts);
  const cases: TestCase[] = [];
  calls.forEach((call, i) => {
    const a = first.outcomes[i], b = second.outcomes[i];
    if (!a.ok) dropped.push({ call, reason: `raised ${a.error}` });
    else if (!b.ok) dropped.push({ call, reason: `raised on the second run: ${b.error}` });
    else if (a.repr !== b.repr) dropped.push({ call, reason: "unstable repr across runs" });
    else {
      cases.push({
        id: `case_${String(cases.length + 1).padStart(2, "0")}`,
        call,
        expected: a.repr,
      });
    }
  });
  const minCases = opts.minCases ?? 5;
  const uncovered = names.filter((n) => !cases.some((c) => callsFunction(c.call, n)));
  if (cases.length < minCases || uncovered.length) {
    const why = uncovered.length ? `; uncovered: ${uncovered.join(", ")}` : "";
    return fail(`too few verified cases (${cases.length} of ${calls.length} kept${why})`, cases);
  }

  // The reference passes all cases, an empty implementation fails.
  const reference = await runHiddenTests(opts.workspace, turn.module, names, cases, runOpts);
  const failing = reference.results.filter((r: CaseResult) => !r.passed);
  if (failing.length) {
    return fail(`reference fails its own tests: ${failing.map((r) => r.id).join(", ")}`, cases);
  }
  await Deno.writeTextFile(file, emptyImplementation(turn.functions));
  const empty = await runHiddenTests(opts.workspace, turn.module, names, cases, runOpts);
  if (empty.results.every((r) => r.passed)) {
    return fail("an empty implementation passes every case", cases);
  }
  return { ok: true, cases, dropped, problems: [] };
}
