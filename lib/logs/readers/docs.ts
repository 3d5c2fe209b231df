/**
 * The reader tables of docs/harnesses.md, rendered from the registry: one row per reader (its
 * {@link DocRow}), and the formats recognised but not read. `deno task harness-docs` writes them
 * between the `<!-- readers:begin -->` / `<!-- readers:end -->` markers; a test checks that the
 * page equals the registry.
 *
 * @module
 */
import type { LogReader, Unsupported } from "./reader.ts";

/** The markers around the generated part of docs/harnesses.md. */
export const DOC_BEGIN =
  "<!-- readers:begin (generated from lib/logs/readers/: deno task harness-docs) -->";
export const DOC_END = "<!-- readers:end -->";

const HEADER = [
  "Harness",
  "Formats (`--format`)",
  "Versions / formats covered",
  "Read",
  "Search (grep)",
  "Listing",
  "Refused, or cannot be known from its log",
  "How to get the log (`run --agent` preset)",
];

/** A Markdown table cell: pipes escaped, no line breaks. */
function cell(s: string): string {
  return s.replace(/\r?\n/g, " ").replace(/(?<!\\)\|/g, "\\|");
}

function table(rows: string[][]): string {
  return rows.map((r, i) =>
    [`| ${r.map(cell).join(" | ")} |`, ...(i === 0 ? [`|${r.map(() => " --- ").join("|")}|`] : [])]
      .join("\n")
  ).join("\n");
}

/**
 * The generated Markdown: the readers' table, then the formats recognised but not read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderReaders } from "./docs.ts";
 * import { READERS } from "./index.ts";
 * import { UNSUPPORTED } from "./unsupported.ts";
 * const md = renderReaders(READERS, UNSUPPORTED);
 * assert.match(md, /^\| \*\*Claude Code\*\* \| `claude-code` \|/m);
 * ```
 */
export function renderReaders(
  readers: readonly LogReader[],
  unsupported: readonly Unsupported[],
): string {
  const rows = readers.map((r) => [
    `**${r.harness}**`,
    r.formats.map((f) => `\`${f}\``).join(", "),
    r.doc.versions,
    r.doc.read,
    r.doc.search,
    r.doc.listing,
    r.doc.refused,
    r.doc.log,
  ]);
  const refused = unsupported.map((u) =>
    `- ${u.looksLike}${u.reason ? `: ${u.reason}` : ": no reader yet"}.`
  );
  return [
    table([HEADER, ...rows]),
    "",
    'Recognised but not read — such a log is refused with "unsupported log format: looks like …",',
    "never read as another format:",
    "",
    ...refused,
  ].join("\n");
}

/** The cells of the Markdown table rows of a text (trimmed; separator rows dropped). */
export function tableCells(md: string): string[][] {
  return md.split("\n").filter((l) => l.startsWith("|") && !/^\|[\s|:-]+\|$/.test(l)).map((l) =>
    l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim())
  );
}

/** The generated part of a docs page (between the markers), or undefined without them. */
export function generatedPart(page: string): string | undefined {
  const a = page.indexOf(DOC_BEGIN);
  const b = page.indexOf(DOC_END);
  if (a < 0 || b < a) return undefined;
  return page.slice(a + DOC_BEGIN.length, b).trim();
}

/** The page with its generated part replaced. */
export function withGenerated(page: string, md: string): string {
  const a = page.indexOf(DOC_BEGIN);
  const b = page.indexOf(DOC_END);
  if (a < 0 || b < a) throw new Error(`docs page without the ${DOC_BEGIN} markers`);
  return `${page.slice(0, a + DOC_BEGIN.length)}\n\n${md}\n\n${page.slice(b)}`;
}
