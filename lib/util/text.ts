/**
 * Escaping text for the formats the toolkit writes: CSV fields (RFC 4180, with spreadsheet
 * formulas neutralised), Markdown text and code spans, and HTML / XML text and attribute values.
 * Every writer of those formats escapes through here, so each rule lives in one place.
 *
 * ```ts
 * import { csvField, escapeHtml, escapeMarkdown, markdownCode, shellQuote } from "./text.ts";
 * console.assert(csvField('say "hi", bye') === '"say ""hi"", bye"');
 * console.assert(csvField(null) === "" && csvField(1.5) === "1.5" && csvField(-2) === "-2");
 * console.assert(csvField("=HYPERLINK(\"http://x\")") === `"'=HYPERLINK(""http://x"")"`);
 * console.assert(csvField("-0.5") === "-0.5"); // a number written as text stays a number
 * console.assert(shellQuote("it's") === `'it'"'"'s'`);
 * console.assert(escapeHtml('<a href="x">&</a>') === "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * console.assert(escapeMarkdown("<script>|*x*\n") === "&lt;script&gt;\\|\\*x\\* ");
 * console.assert(escapeMarkdown("c_dup _x_") === "c_dup \\_x\\_");
 * console.assert(markdownCode("a`b") === "`` a`b ``");
 * ```
 *
 * @module
 */

/** Shell-quotes a value for bash as one single-quoted word. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

/** A number as text: what a spreadsheet reads as a plain number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Whether a spreadsheet would take a text cell for a formula (CSV injection, CWE-1236): it
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's list) and is not a plain
 * number such as `-0.5`.
 */
export function isFormulaLike(s: string): boolean {
  return /^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s);
}

/** A text cell made inert for spreadsheets: a formula-like one gets a leading `'` (OWASP). */
export function spreadsheetSafe(s: string): string {
  return isFormulaLike(s) ? `'${s}` : s;
}

/**
 * One CSV field: RFC 4180 quoting (null and undefined become an empty field); text a spreadsheet
 * would run as a formula is prefixed with `'` and quoted (OWASP's advice); numbers stay numbers.
 */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  if (typeof v === "string" && isFormulaLike(s)) return `"'${s.replaceAll('"', '""')}"`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * Text from data (configuration names, paths, cells) for a Markdown line or GFM table cell:
 * line breaks become spaces, `&`, `<` and `>` become entities (no raw HTML gets through:
 * `<script>` shows as text), and the characters that start inline Markdown or end a cell
 * (`\\`, `` ` ``, `*`, `[`, `]`, `~`, `|`, and `_` at a word's edge: `c_dup` stays as it is) are
 * backslash-escaped.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(/\r\n|[\r\n]/g, " ").replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replace(/[\\`*[\]~|]/g, (c) => `\\${c}`)
    // `_` inside a word never starts emphasis (GFM): only one at a word's edge is escaped
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_");
}

/**
 * Text as one Markdown code span: a fence longer than the longest run of backticks inside (the
 * CommonMark rule), line breaks as spaces; `inTable`: `|` escaped, as a GFM table cell needs.
 */
export function markdownCode(s: string, inTable = false): string {
  let text = s.replace(/\r\n|[\r\n]/g, " ");
  if (inTable) text = text.replaceAll("|", "\\|");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(" ") || text.endsWith(" ") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Escapes text for HTML or XML (`&`, `<`, `>` and `"`). */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
