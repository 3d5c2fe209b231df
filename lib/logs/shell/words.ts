/**
 * Literal values of tree-sitter-bash argument nodes (quotes removed, escapes resolved).
 *
 * @module
 */
import type { Node } from "../../util/mod.ts";

/**
 * The literal string an argument node stands for, or undefined when it depends on expansions
 * (`$X`, `$(…)`) the reader cannot know.
 */
export function wordValue(n: Node): string | undefined {
  switch (n.type) {
    case "word":
      return n.text.replace(/\\(.)/gs, "$1");
    case "number":
      return n.text;
    case "raw_string":
      return n.text.slice(1, -1);
    case "ansi_c_string":
      return n.text.slice(2, -1).replace(/\\n/g, "\n").replace(/\\t/g, "\t").replace(
        /\\(.)/g,
        "$1",
      );
    case "string": {
      let out = "";
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.type !== "string_content") return undefined;
      }
      const inner = n.text.slice(1, -1);
      out = inner.replace(/\\(["\\$`])/g, "$1").replace(/\\\n/g, "");
      return out;
    }
    case "concatenation": {
      let out = "";
      for (const c of n.children) {
        if (!c) continue;
        const v = wordValue(c);
        if (v === undefined) return undefined;
        out += v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** True when an unquoted word carries glob characters (`*`, `?`, `[`). */
export function isGlob(n: Node): boolean {
  if (n.type === "word") return /(^|[^\\])[*?[]/.test(n.text);
  if (n.type === "concatenation") return n.children.some((c) => c !== null && isGlob(c));
  return false;
}
