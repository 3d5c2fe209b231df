/**
 * Test cases (`tests.json`), per-case results (pytest JUnit XML or the simple JSON form) and
 * `meta.json` of a run turn, as documented in `docs/run-logs.md`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchResults, parseResults } from "./results.ts";
 * const xml = `<testsuites><testsuite name="pytest">
 *   <testcase classname="test_turn1" name="test_case[case_01]"/>
 *   <testcase classname="test_turn1" name="test_case[case_02]"><failure message="boom"/></testcase>
 * </testsuite></testsuites>`;
 * const results = parseResults(xml, "results.xml");
 * const outcome = matchResults(["case_01", "case_02", "case_03"], results);
 * assert(outcome.map((c) => c.passed).join() === "true,false,false");
 * ```
 * @module
 */
import { XMLParser } from "fast-xml-parser";
import { type CaseResult, META_FIELDS, type TestCase, type TurnMeta } from "./types.ts";

/** An input file that cannot be used; the message names the file and what is wrong. */
export class LayoutError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "LayoutError";
  }
}

/** Parses JSON, throwing a LayoutError naming the file and the position of the syntax error. */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new LayoutError(path, `invalid JSON (${(e as Error).message})`);
  }
}

/** A plain object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The cases of a tests.json (`{ "cases": [{ "id": ... }, ...] }`); ids must be unique strings. */
export function parseTests(text: string, path: string): TestCase[] {
  const data = parseJson(text, path);
  const cases = isObject(data) ? data.cases : undefined;
  if (!Array.isArray(cases)) throw new LayoutError(path, `expected an object with a "cases" array`);
  const seen = new Set<string>();
  return cases.map((c, i) => {
    if (!isObject(c) || typeof c.id !== "string" || c.id === "") {
      throw new LayoutError(path, `cases[${i}] must be an object with a non-empty string "id"`);
    }
    if (seen.has(c.id)) throw new LayoutError(path, `duplicate case id "${c.id}"`);
    seen.add(c.id);
    return c as TestCase;
  });
}

/**
 * Per-case results of a results file, by content: XML (pytest `--junitxml`) when it starts with
 * `<`, else the simple JSON form `{ "cases": [{ "id", "passed", "message"? }] }` (a bare array
 * of such objects is accepted too).
 *
 * JUnit: each `<testcase>` is a case named by its `name` attribute; it passed when it has no
 * `<failure>`, `<error>` or `<skipped>` child, whose `message` attribute (else its text, else its
 * element name) is the case's message. Character references (`&#10;`) are decoded.
 */
export function parseResults(text: string, path: string): CaseResult[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("<")) return parseJUnit(trimmed, path);
  const data = parseJson(text, path);
  const cases = Array.isArray(data) ? data : isObject(data) ? data.cases : undefined;
  if (!Array.isArray(cases)) {
    throw new LayoutError(path, `expected an object with a "cases" array (or JUnit XML)`);
  }
  return cases.map((c, i) => {
    if (!isObject(c) || typeof c.id !== "string" || typeof c.passed !== "boolean") {
      throw new LayoutError(
        path,
        `cases[${i}] must be an object with a string "id" and a boolean "passed"`,
      );
    }
    const r: CaseResult = { id: c.id, passed: c.passed };
    if (typeof c.message === "string") r.message = c.message;
    return r;
  });
}

const ARRAYS = new Set(["testsuites.testsuite", "testsuite.testsuite", "testcase"]);

function parseJUnit(text: string, path: string): CaseResult[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    htmlEntities: true,
    isArray: (name, jpath) =>
      name === "testcase" || name === "testsuite" || ARRAYS.has(String(jpath)),
  });
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text, true) as Record<string, unknown>;
  } catch (e) {
    throw new LayoutError(path, `invalid XML (${(e as Error).message})`);
  }
  const out: CaseResult[] = [];
  let suites = 0;
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    for (const tc of (node.testcase as unknown[] | undefined) ?? []) {
      if (!isObject(tc)) {
        // `<testcase name="x"/>` with attributes only still parses as an object; a bare string is text
        continue;
      }
      const name = typeof tc.name === "string" ? tc.name : undefined;
      if (!name) continue;
      const bad = ["failure", "error", "skipped"].find((k) => k in tc);
      const r: CaseResult = { id: name, passed: !bad };
      if (bad) {
        const detail = tc[bad];
        const text = isObject(detail) ? detail.message ?? detail["#text"] : detail;
        r.message = text === undefined || text === null || text === "" ? bad : String(text);
      }
      out.push(r);
    }
    if (node.testsuite !== undefined) {
      suites++;
      walk(node.testsuite);
    }
  };
  if (doc.testsuites !== undefined) walk(doc.testsuites);
  else if (doc.testsuite !== undefined) {
    suites++;
    walk(doc.testsuite);
  }
  if (suites === 0) throw new LayoutError(path, "no <testsuites> or <testsuite> element");
  return out;
}

/** Whether a result name designates the case id: equal, `test_<id>`, or a parametrized `…[<id>]`. */
export function resultMatches(name: string, id: string): boolean {
  return name === id || name === `test_${id}` || name.endsWith(`[${id}]`);
}

/**
 * Outcome of every case of tests.json, in its order: a case passes when a result designating it
 * passed ({@link resultMatches}); a case without a result counts as failed.
 */
export function matchResults(ids: string[], results: CaseResult[]): CaseResult[] {
  const exact = new Map(results.map((r) => [r.id, r] as const));
  return ids.map((id) => {
    const r = exact.get(id) ?? exact.get(`test_${id}`) ??
      results.find((x) => resultMatches(x.id, id));
    if (!r) return { id, passed: false, message: "no result" };
    return { ...r, id };
  });
}

/** meta.json: the optional numeric figures of {@link META_FIELDS} (`cost`, `steps`, `seconds`, …). */
export function parseMeta(text: string, path: string): TurnMeta {
  const data = parseJson(text, path);
  if (!isObject(data)) throw new LayoutError(path, "expected a JSON object");
  const meta: TurnMeta = {};
  const wrong: string[] = [];
  for (const key of META_FIELDS) {
    const v = data[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      wrong.push(`"${key}" must be a non-negative number`);
    } else meta[key] = v;
  }
  if (wrong.length) throw new LayoutError(path, wrong.join("; "));
  return meta;
}
