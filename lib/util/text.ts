/**
 * Escaping text for the formats the toolkit writes: CSV fields (RFC 4180, with spreadsheet
 * formulas neutralised), HTML / XML text and attribute values, Markdown (GitHub-flavoured: inline
 * text, code spans, table cells), URI paths, and terminal text. Every string a repository, a log
 * or an agent chose (file names, ids, branch names, messages) goes through one of these before it
 * is rendered, so each rule lives in one place.
 *
 * ```ts
 * import { csvField, escapeHtml, mdCode, mdText, shellQuote, uriPath, visible } from "./text.ts";
 * console.assert(csvField('say "hi", bye') === '"say ""hi"", bye"');
 * console.assert(csvField(null) === "" && csvField(1.5) === "1.5" && csvField(-2) === "-2");
 * console.assert(csvField("=HYPERLINK(\"http://x\")") === `"'=HYPERLINK(""http://x"")"`);
 * console.assert(csvField("-0.5") === "-0.5"); // a number written as text stays a number
 * console.assert(shellQuote("it's") === `'it'"'"'s'`);
 * console.assert(escapeHtml('<a href="x">&</a>') === "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * console.assert(visible("a\nb\u001b[31m") === "a\\nb\\x1b[31m");
 * console.assert(mdCode("x`y") === "``x`y``" && mdCode("a|b", { table: true }) === "`a\\|b`");
 * console.assert(mdText("<img src=x> *hi* @team") === "&lt;img src=x&gt; \\*hi\\* @\u200bteam");
 * console.assert(uriPath("dir/sör #1.py") === "dir/s%C3%B6r%20%231.py");
 * console.assert(mdText("c_dup 0.45 [0.40, 0.50] _x_ www.x.io") === "c_dup 0.45 \\[0.40, 0.50\\] \\_x\\_ www\\.x.io");
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

/** Escapes text for HTML or XML (`&`, `<`, `>` and `"`). */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

// C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text
// (bidirectional overrides and isolates, zero-width characters, line and paragraph separators)
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text with every control and invisible formatting character shown as an escape (`\n`, `\x1b`,
 * `\u202e`): what a terminal, a log or a rendered page shows is then what the string holds (no
 * line breaks, terminal escape sequences or right-to-left overrides from a hostile name).
 */
export function visible(s: string): string {
  return s.replace(INVISIBLE, (c) => {
    const code = c.charCodeAt(0);
    return NAMED[c] ??
      (code < 0x100
        ? `\\x${code.toString(16).padStart(2, "0")}`
        : `\\u${code.toString(16).padStart(4, "0")}`);
  });
}

/**
 * A Markdown code span showing `s` literally (CommonMark: a fence longer than any run of
 * backticks inside, padded when the text starts or ends with a backtick or space), after
 * {@link visible} — so no line break, heading, link, HTML or mention can come out of it. In a
 * table cell (`table`), `|` is escaped as `\|` (GFM tables split cells before code spans).
 */
export function mdCode(s: string, opts: { table?: boolean } = {}): string {
  let text = visible(s);
  if (opts.table) text = text.replaceAll("|", "\\|");
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Plain Markdown text showing `s` literally: {@link visible} (no line break can start a block),
 * `&`, `<` and `>` as entities (no raw HTML, even in the Markdown source), a zero-width space
 * after `@` (a backslash does not stop a mention), and backslash escapes for what GFM reads as
 * syntax: `` \ ` * [ ] | ~ $ `` everywhere, `_` at a word's edge (`c_dup` stays as it is), the
 * `:` of `://` and the `.` of `www.` (autolinks), and a list or heading marker or indentation at
 * the start.
 * Other punctuation (`.`, `,`, `;`, `-`, `+`, `(`, `)`, `=`, quotes, …) is kept, so numbers,
 * intervals, prose and paths read as they are.
 */
export function mdText(s: string): string {
  return visible(s)
    .replace(/[&<>@\\`*[\]|~$]/g, (c) => MD_TEXT[c] ?? `\\${c}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    .replace(/:(?=\/\/)/g, "\\:")
    .replace(/(www)\./gi, "$1\\.")
    // a block marker at the start: list (`- `, `+ `, `1. `), heading (`# `), setext underline
    .replace(/^(?:[-+](?=\s|$)|#{1,6}(?=\s|$)|[=-]+(?=\s*$))/, (m) => `\\${m}`)
    .replace(/^(\d{1,9})(?=[.)](?:\s|$))/, "$1\\")
    .replace(/^ /, "&#32;"); // leading spaces would indent a code block
}

const MD_TEXT: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "@\u200b" };

/** A relative path as a URI reference: each segment percent-encoded (RFC 3986), `/` kept. */
export function uriPath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
