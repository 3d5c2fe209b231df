/**
 * Escaping text for the formats the toolkit writes: CSV fields (RFC 4180) and HTML / XML text and
 * attribute values.
 *
 * ```ts
 * import { csvField, escapeHtml } from "./text.ts";
 * console.assert(csvField('say "hi", bye') === '"say ""hi"", bye"');
 * console.assert(csvField(null) === "" && csvField(1.5) === "1.5");
 * console.assert(shellQuote("it's") === `'it'"'"'s'`);
 * console.assert(escapeHtml('<a href="x">&</a>') === "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * ```
 *
 * @module
 */

/** Shell-quotes a value for bash as one single-quoted word. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

/** RFC 4180 field quoting (null and undefined become an empty field). */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Escapes text for HTML or XML (`&`, `<`, `>` and `"`). */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
