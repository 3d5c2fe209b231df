/**
 * Safe HTML for the viewer's pages: a tagged template whose interpolations are escaped unless
 * they are {@link Html} already, and JSON data blocks that no text can break out of.
 *
 * File names, code, commands and log text are hostile: every page is built with {@link html},
 * never by concatenating strings, so a `<script>` in a file name prints as text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { html, jsonBlock } from "./html.ts";
 * const name = '<img src=x onerror="alert(1)">';
 * assert.equal(String(html`<td title="${name}">${name}</td>`),
 *   '<td title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</td>');
 * assert.ok(!String(jsonBlock("d", { s: "</script><script>alert(1)</script>" })).includes("</script><"));
 * ```
 * @module
 */
import { escapeHtml } from "../../util/mod.ts";

/** Markup that is already safe (built by {@link html} or {@link raw}). */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A value an {@link html} template accepts: text (escaped), markup, or a list of either. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

/** Escapes text for an HTML text node or a quoted attribute value (`'` too). */
export function esc(s: string): string {
  return escapeHtml(s).replaceAll("'", "&#39;");
}

function part(v: Part): string {
  if (v === null || v === undefined || v === false) return "";
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(part).join("");
  return esc(String(v));
}

/** The template tag: interpolations are escaped (lists joined, null/undefined/false omitted). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup, as is (only for constants of this code, never for data). */
export function raw(s: string): Html {
  return new Html(s);
}

/**
 * JSON that is safe inside a `<script>` element or a `.js` file: `<`, `>`, `&` and the line
 * separators U+2028/2029 are written as `\u` escapes, so no string can close the element or
 * open a comment.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A `<script type="application/json">` data block (never executed; read with JSON.parse). */
export function jsonBlock(id: string, value: unknown): Html {
  return html`<script type="application/json" id="${id}">${raw(safeJson(value))}</script>`;
}
