/**
 * Turning Polars SQL failures into one clear line that names what is wrong and lists what exists.
 *
 * @module
 */

/** A query or scored-directory problem; `message` is one line, fit for a terminal. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QueryError";
  }
}

/** What the context holds: table or view name → its column names. */
export type Catalog = Record<string, string[]>;

/** Levenshtein distance (small strings only). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** ` (did you mean 'x'?)` when a candidate is close to `name`, else "". */
export function suggest(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.ceil(name.length / 3))
    ? ` (did you mean '${best}'?)`
    : "";
}

/** Removes comments and string literals (keeping their length) so names can be scanned safely. */
function blank(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, (m) => " ".repeat(m.length))
    .replace(/\/\*[\s\S]*?\*\//g, (m) => " ".repeat(m.length))
    .replace(/'(?:[^']|'')*'/g, (m) => "'" + " ".repeat(m.length - 2) + "'");
}

const IDENT = String.raw`("[^"]+"|[A-Za-z_][A-Za-z0-9_]*)`;
const unquote = (s: string) => s.startsWith('"') ? s.slice(1, -1) : s;
/** Words that may follow a table name but are not its alias. */
const KEYWORDS = [
  "where",
  "join",
  "inner",
  "left",
  "right",
  "full",
  "cross",
  "semi",
  "anti",
  "on",
  "using",
  "group",
  "order",
  "limit",
  "union",
  "having",
  "natural",
  "offset",
  "except",
  "intersect",
  "window",
  "qualify",
].join("|");

/** Names the query reads after FROM/JOIN, with the alias each is given (alias → table). */
export function relations(sql: string): { names: string[]; aliases: Record<string, string> } {
  const text = blank(sql);
  const names: string[] = [];
  const aliases: Record<string, string> = {};
  const re = new RegExp(
    String.raw`\b(?:FROM|JOIN)\s+${IDENT}(?:\s+(?:AS\s+)?(?!(?:${KEYWORDS})\b)${IDENT})?`,
    "gi",
  );
  for (const m of text.matchAll(re)) {
    const name = unquote(m[1]);
    // `FROM (` subqueries and `UNNEST(` table functions are not names.
    if (/^\s*\(/.test(text.slice(m.index! + m[0].length)) && !m[2]) continue;
    if (/^from/i.test(m[0]) && fromOfExpression(text, m.index!)) continue;
    names.push(name);
    if (m[2]) aliases[unquote(m[2])] = name;
    aliases[name] ??= name;
  }
  return { names, aliases };
}

/** Functions whose arguments use FROM: `EXTRACT(year FROM d)`, `TRIM(x FROM s)`, `SUBSTRING(s FROM 2)`. */
const FROM_FUNCTIONS = /\b(extract|trim|substring|substr|position|overlay)\s*$/i;

/** True when the FROM at `at` is part of an expression rather than a clause. */
function fromOfExpression(text: string, at: number): boolean {
  if (/\bdistinct\s*$/i.test(text.slice(0, at))) return true; // IS [NOT] DISTINCT FROM
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (text[i] === ")") depth++;
    else if (text[i] === "(") {
      if (depth === 0) return FROM_FUNCTIONS.test(text.slice(0, i));
      depth--;
    }
  }
  return false;
}

/** Names defined by `WITH name AS (…)` / `, name AS (…)` common table expressions. */
function cteNames(sql: string): Set<string> {
  const text = blank(sql);
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(String.raw`(?:\bWITH|,)\s*${IDENT}\s+AS\s*\(`, "gi"))) {
    out.add(unquote(m[1]));
  }
  return out;
}

/**
 * Checks the relations a query reads before Polars runs it: an unknown name (not a table, view
 * or CTE) is a {@link QueryError} listing what exists; a known but unavailable one (a table whose
 * file is missing, a view that does not fit the frames) says why. `EXTRACT(… FROM col)`-like expressions and
 * `IS DISTINCT FROM` are not relations.
 */
export function checkTables(
  sql: string,
  catalog: Catalog,
  views: Iterable<string> = [],
  unavailable: Record<string, string> = {},
): void {
  const ctes = cteNames(sql);
  for (const name of relations(sql).names) {
    if (name in catalog || ctes.has(name)) continue;
    if (name in unavailable) throw new QueryError(unavailable[name]);
    if (name.toLowerCase() === "unnest") continue;
    throw unknownTable(name, catalog, views);
  }
}

function listing(catalog: Catalog, views: Iterable<string>): string {
  const v = new Set(views);
  const tables = Object.keys(catalog).filter((n) => !v.has(n)).sort();
  const vs = Object.keys(catalog).filter((n) => v.has(n)).sort();
  return `tables: ${tables.join(", ")}` + (vs.length ? `; views: ${vs.join(", ")}` : "");
}

function unknownTable(name: string, catalog: Catalog, views: Iterable<string>): QueryError {
  return new QueryError(
    `unknown table '${name}'${suggest(name, Object.keys(catalog))}; ${listing(catalog, views)}`,
  );
}

function unknownColumn(col: string, table: string | undefined, catalog: Catalog): QueryError {
  if (table && catalog[table]) {
    return new QueryError(
      `unknown column '${col}' in table '${table}'${suggest(col, catalog[table])}; ` +
        `its columns: ${catalog[table].join(", ")}`,
    );
  }
  return new QueryError(`unknown column '${col}'`);
}

/**
 * Rewrites a Polars SQL error message as one line naming the wrong table or column and listing
 * what exists.
 *
 * @example
 * ```ts
 * import { explainError } from "./errors.ts";
 * const e = explainError("relation 'turn' was not found", "SELECT * FROM turn", { turns: ["chain"] });
 * if (!e.message.startsWith("unknown table 'turn' (did you mean 'turns'?)")) throw new Error(e.message);
 * ```
 */
export function explainError(
  message: string,
  sql: string,
  catalog: Catalog,
  views: Iterable<string> = [],
): QueryError {
  const first = message.split("\n")[0].trim();
  const { names, aliases } = relations(sql);
  let m: RegExpMatchArray | null;
  if ((m = first.match(/relation '([^']+)' was not found/))) {
    return unknownTable(m[1], catalog, views);
  }
  if ((m = first.match(/no column named '([^']+)' found in table '([^']+)'/))) {
    return unknownColumn(m[1], aliases[m[2]] ?? m[2], catalog);
  }
  if ((m = first.match(/no table or struct column named '([^']+)' found/))) {
    const aliased = new Set(Object.entries(aliases).filter(([a, t]) => a !== t).map(([, t]) => t));
    const known = Object.entries(aliases)
      .filter(([a, t]) => a !== t || !aliased.has(t))
      .map(([a, t]) => a === t ? t : `${a} (= ${t})`);
    return new QueryError(
      `unknown table or alias '${m[1]}'; this query names: ${[...new Set(known)].join(", ")}`,
    );
  }
  if ((m = first.match(/unable to find column "([^"]+)"; valid columns: \[(.*)\]/))) {
    const valid = [...m[2].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
    const own = [...new Set(names)].filter((n) => catalog[n]);
    const table = own.find((n) => valid.every((c) => catalog[n].includes(c))) ??
      (own.length === 1 ? own[0] : undefined);
    if (table) return unknownColumn(m[1], table, catalog);
    return new QueryError(
      `unknown column '${m[1]}'${suggest(m[1], valid)}; columns here: ${valid.join(", ")}`,
    );
  }
  if ((m = first.match(/^sql parser error: (.*)$/))) {
    return new QueryError(`SQL syntax error: ${m[1]}`);
  }
  if ((m = first.match(/^unsupported function '([^']+)'/))) {
    return new QueryError(`Polars SQL has no function '${m[1]}'`);
  }
  return new QueryError(`query failed: ${first}`);
}
