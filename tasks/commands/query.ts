/**
 * `deno task reporeuse query "<SQL>"` — SQL over a scored directory (tables + ready-made views).
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { isAbsolute, resolve } from "node:path";
import {
  type Format,
  formatFrame,
  FORMATS,
  openScored,
  QueryError,
  type TableInfo,
} from "../../lib/query/mod.ts";

/** Where `score`/`reproduce` write the scored frames by default. */
export const DEFAULT_SCORED = "out/scored";

/** One line for `reporeuse --help`. */
export const summary = "run SQL over scored runs (tables, views; --schema lists them)";

/** Full help text. */
export const help = `Usage: deno task reporeuse query "<SQL>" [options]
       deno task reporeuse query --schema [--scored <dir>]

Runs one Polars SQL query over the frames \`score\` wrote (turns, targets, events, tests, configs,
errors) and the ready-made views (missed_targets, reimplementations, flips, event_paths,
target_reads). See docs/queries.md.

Options:
  --scored <dir>     scored directory (default: ${DEFAULT_SCORED})
  --format <f>       table | csv | json | md (default: table)
  --limit <N>        print at most N rows (the row count goes to stderr)
  --file <path>      read the query from a file ('-' for stdin)
  --schema           list tables and views with their columns and types
  -h, --help         this text

Examples:
  deno task reporeuse query "SELECT model, class, COUNT(*) AS n FROM missed_targets GROUP BY model, class ORDER BY model, class"
  deno task reporeuse query --format csv "SELECT * FROM reimplementations WHERE body_lines > 50" > long.csv`;

/** `--schema` text: each table and view with its columns and types. */
export function schemaText(tables: TableInfo[]): string {
  const out: string[] = [];
  for (const t of tables) {
    out.push(`${t.kind} ${t.name}` + (t.kind === "table" ? `  (${t.source})` : ""));
    if (t.doc) out.push(`  -- ${t.doc}`);
    const width = Math.max(...t.columns.map((c) => c.name.length));
    for (const c of t.columns) out.push(`  ${c.name.padEnd(width)}  ${c.type}`);
    out.push("");
  }
  return out.join("\n").trimEnd();
}

/**
 * A path the user typed, resolved against the directory they ran `deno task` from (`INIT_CWD`;
 * deno task itself runs in the project root). The default `out/scored` stays project-relative.
 */
function userPath(path: string): string {
  const from = Deno.env.get("INIT_CWD");
  return path === DEFAULT_SCORED || !from || isAbsolute(path) ? path : resolve(from, path);
}

function fail(message: string, code = 1): number {
  console.error(`query: ${message}`);
  return code;
}

async function readQuery(file: string): Promise<string> {
  if (file === "-") return await new Response(Deno.stdin.readable).text();
  return await Deno.readTextFile(file);
}

/** Runs the command; returns the exit code (0 ok, 1 query/data error, 2 usage error). */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("query", {
    args,
    allowPositionals: true,
    options: {
      scored: { type: "string", default: DEFAULT_SCORED },
      format: { type: "string", default: "table" },
      limit: { type: "string" },
      file: { type: "string" },
      schema: { type: "boolean", default: false },
    },
  }, " (see --help)");
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const format = values.format as Format;
  if (!FORMATS.includes(format)) {
    return fail(`unknown format '${values.format}'; use one of ${FORMATS.join(", ")}`, 2);
  }
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 0) {
      return fail(`--limit wants a non-negative integer, got '${values.limit}'`, 2);
    }
  }
  let query = positionals.join(" ");
  if (values.file !== undefined) {
    if (query) return fail("give the query either as an argument or with --file, not both", 2);
    try {
      query = await readQuery(values.file);
    } catch (e) {
      return fail(`cannot read query file '${values.file}': ${(e as Error).message}`, 2);
    }
  }
  if (!values.schema && !query.trim()) {
    return fail('no query given; usage: deno task reporeuse query "<SQL>" (or --schema)', 2);
  }
  try {
    const q = await openScored(userPath(values.scored!));
    if (values.schema) {
      console.log(schemaText(q.schema()));
      return 0;
    }
    const df = q.sql(query);
    const shown = limit !== undefined && df.height > limit ? df.head(limit) : df;
    const text = formatFrame(shown, format);
    await Deno.stdout.write(new TextEncoder().encode(text.endsWith("\n") ? text : text + "\n"));
    if (format === "table" || format === "md" || shown.height < df.height) {
      const of = shown.height < df.height ? ` of ${df.height}` : "";
      console.error(`(${shown.height}${of} row${df.height === 1 ? "" : "s"})`);
    }
    return 0;
  } catch (e) {
    if (e instanceof QueryError) {
      const defaulted = !args.some((a) => a === "--scored" || a.startsWith("--scored="));
      const hint = defaulted && e.message.startsWith("scored directory")
        ? `; or name one with --scored <dir>`
        : "";
      return fail(e.message + hint);
    }
    return fail(`unexpected error: ${String((e as Error)?.message ?? e).split("\n")[0]}`);
  }
}
