/**
 * A small Python syntax highlighter on the project's tree-sitter parser (the tree-sitter-python
 * grammar the code model parses with, wasm build): keywords, strings, comments, numbers,
 * constants, names being defined, decorators, calls, builtins and `self`/`cls`.
 *
 * The result is a compact token list (not markup), so that the viewer's pages can share one copy
 * of each file and the browser builds the spans with `textContent` — code never becomes HTML.
 * {@link tokensToHtml} renders the same tokens as escaped markup for the notebook display.
 *
 * Tokens are a flat list of quadruples `[lineDelta, column, length, class]`: the line (0-based) as
 * a difference from the previous token's line, the column and length in UTF-16 code units (what
 * JavaScript strings index) and an index into {@link TOKEN_CLASSES}. A token never spans lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { highlightPython, TOKEN_CLASSES, tokenSpans } from "./highlight.ts";
 * const text = 'def f(x):\n    return "é" + 1  # hi\n';
 * const spans = tokenSpans(await highlightPython(text)).map(([l, c, n, k]) =>
 *   [text.split("\n")[l].slice(c, c + n), TOKEN_CLASSES[k]]);
 * assert.deepEqual(spans, [
 *   ["def", "kw"], ["f", "def"], ["return", "kw"], ['"é"', "str"],
 *   ["1", "num"], ["# hi", "com"],
 * ]);
 * ```
 * @module
 */
import { language, type Parser, parserFor, Query } from "../../util/mod.ts";
import { BUILTINS } from "../../python/mod.ts";
import { esc } from "./html.ts";

/** Token classes (CSS class names `t-<name>`), indexed by the last number of a token. */
export const TOKEN_CLASSES = [
  "kw",
  "str",
  "com",
  "num",
  "const",
  "def",
  "dec",
  "call",
  "builtin",
  "self",
] as const;
/** A token class of {@link TOKEN_CLASSES}. */
export type TokenClass = typeof TOKEN_CLASSES[number];

/** Bump when the tokens of a text change (the viewer's content addresses include it). */
export const HIGHLIGHT_VERSION = 1;

/** Files larger than this are shown without highlighting (a page must stay responsive). */
export const MAX_HIGHLIGHT_CHARS = 2_000_000;

const KEYWORDS = [
  "as",
  "assert",
  "async",
  "await",
  "break",
  "case",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "exec",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "match",
  "nonlocal",
  "not",
  "and",
  "or",
  "pass",
  "print",
  "raise",
  "return",
  "try",
  "type",
  "while",
  "with",
  "yield",
];

/**
 * The highlighting query (tree-sitter's query language, in the manner of the grammar's own
 * queries/highlights.scm): one capture per token class; captures come back in source order
 * from one call, which is several times faster than walking every node from JavaScript.
 */
const QUERY = `
(comment) @com
(string_start) @str
(string_content) @str
(string_end) @str
[(integer) (float)] @num
[(none) (true) (false) (ellipsis)] @const
(function_definition name: (identifier) @def)
(class_definition name: (identifier) @def)
(decorator) @dec
(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))
((identifier) @self (#any-of? @self "self" "cls"))
[${KEYWORDS.map((k) => JSON.stringify(k)).join(" ")}] @kw
`;

const CLASS_OF = Object.fromEntries(TOKEN_CLASSES.map((c, i) => [c, i])) as Record<
  TokenClass,
  number
>;

let setup: Promise<{ parser: Parser; query: Query }> | undefined;

/**
 * Tokens of a Python source (see the module doc for their shape); `[]` for an empty text, a
 * text over {@link MAX_HIGHLIGHT_CHARS}, or one the parser cannot take. Never throws.
 */
export async function highlightPython(text: string): Promise<number[]> {
  if (!text || text.length > MAX_HIGHLIGHT_CHARS) return [];
  let tree;
  let query: Query;
  try {
    setup ??= (async () => {
      const parser = await parserFor("python");
      return { parser, query: new Query(await language("python"), QUERY) };
    })();
    const s = await setup;
    query = s.query;
    tree = s.parser.parse(text);
  } catch {
    // highlighting is cosmetic: code that cannot be parsed is shown plain
    return [];
  }
  if (!tree) return [];
  try {
    const spans: [number, number, TokenClass][] = [];
    for (const { name, node } of query.captures(tree.rootNode)) {
      let cls = name as TokenClass;
      if (cls === "call" && BUILTINS.has(node.text)) cls = "builtin";
      spans.push([node.startIndex, node.endIndex, cls]);
    }
    return tokensOf(spans, text);
  } catch {
    // highlighting is cosmetic: code that cannot be parsed is shown plain
    return [];
  } finally {
    tree.delete();
  }
}

/** The token list of captured spans (in source order; a span inside an earlier one is dropped). */
function tokensOf(spans: [number, number, TokenClass][], text: string): number[] {
  const out: number[] = [];
  let line = 0, lineStart = 0, lastLine = 0, covered = 0;
  const newline = (from: number) => {
    const i = text.indexOf("\n", from);
    return i < 0 ? text.length : i;
  };
  let lineEnd = newline(0);
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  for (const [start, end, cls] of spans) {
    if (start < covered) continue; // inside a decorator, say: the outer span wins
    covered = end;
    for (let s = start; s < end;) {
      while (lineEnd < s) {
        line++;
        lineStart = lineEnd + 1;
        lineEnd = newline(lineStart);
      }
      const stop = Math.min(end, lineEnd);
      if (stop > s) {
        const k = CLASS_OF[cls], n = out.length;
        // a token right after one of the same class on the same line extends it ('"', 'abc', '"')
        if (
          n && out[n - 1] === k && lastLine === line && out[n - 3] + out[n - 2] === s - lineStart
        ) {
          out[n - 2] += stop - s;
        } else {
          out.push(line - lastLine, s - lineStart, stop - s, k);
          lastLine = line;
        }
      }
      s = stop + 1; // past the newline
    }
  }
  return out;
}

/**
 * Absolute `[line, column, length, class]` spans of a token list (lines 0-based).
 */
export function tokenSpans(tokens: readonly number[]): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  let line = 0;
  for (let i = 0; i + 3 < tokens.length; i += 4) {
    line += tokens[i];
    out.push([line, tokens[i + 1], tokens[i + 2], tokens[i + 3]]);
  }
  return out;
}

/**
 * The lines of a text as escaped HTML with `<span class="t-…">` around tokens (for output that
 * cannot run scripts: the notebook display). Lines are split on `\n`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokensToHtml } from "./highlight.ts";
 * assert.deepEqual(tokensToHtml('x = "<b>"', [0, 4, 5, 1]), ['x = <span class="t-str">&quot;&lt;b&gt;&quot;</span>']);
 * ```
 */
export function tokensToHtml(text: string, tokens: readonly number[]): string[] {
  const lines = text.split("\n");
  const spans = tokenSpans(tokens);
  const out: string[] = [];
  let k = 0;
  for (let l = 0; l < lines.length; l++) {
    const s = lines[l];
    let html = "", at = 0;
    while (k < spans.length && spans[k][0] === l) {
      const [, col, len, cls] = spans[k++];
      if (col < at || col + len > s.length) continue;
      html += esc(s.slice(at, col)) +
        `<span class="t-${TOKEN_CLASSES[cls]}">${esc(s.slice(col, col + len))}</span>`;
      at = col + len;
    }
    out.push(html + esc(s.slice(at)));
  }
  return out;
}
