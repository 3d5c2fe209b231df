/**
 * POSIX regular expressions (grep/sed BRE and ERE) translated to JavaScript `RegExp`.
 *
 * @module
 */

const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
  cntrl: "\\x00-\\x1f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e",
};

/** Copies a bracket expression starting at `i` (the `[`); returns [js, next index]. */
function bracket(re: string, i: number): [string, number] | undefined {
  let j = i + 1;
  let out = "[";
  if (re[j] === "^") {
    out += "^";
    j++;
  }
  if (re[j] === "]") {
    out += "\\]";
    j++;
  }
  while (j < re.length && re[j] !== "]") {
    if (re.startsWith("[:", j)) {
      const end = re.indexOf(":]", j + 2);
      if (end < 0) return undefined;
      const cls = CLASSES[re.slice(j + 2, end)];
      if (cls === undefined) return undefined;
      out += cls;
      j = end + 2;
      continue;
    }
    const c = re[j];
    out += c === "\\" || c === "[" ? "\\" + c : c;
    j++;
  }
  if (j >= re.length) return undefined;
  return [out + "]", j + 1];
}

/**
 * Translates a POSIX regex to JS source. `extended` selects ERE (grep -E, sed -E); otherwise BRE
 * with GNU extensions (`\|`, `\+`, `\?`). Returns undefined when it cannot be translated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { posixToJs } from "./regex.ts";
 * assert.ok(posixToJs("def \\(foo\\|bar\\)(", false) === "def (foo|bar)\\(");
 * assert.ok(posixToJs("[[:space:]]+x", true) === "[ \\t\\n\\r\\f\\v]+x");
 * ```
 */
export function posixToJs(re: string, extended: boolean): string | undefined {
  let out = "";
  for (let i = 0; i < re.length;) {
    const c = re[i];
    if (c === "[") {
      const b = bracket(re, i);
      if (!b) return undefined;
      out += b[0];
      i = b[1];
      continue;
    }
    if (c === "\\") {
      const d = re[i + 1];
      i += 2;
      if (d === undefined) return undefined;
      if (d === "<" || d === ">") out += "\\b";
      else if ("wWsSbB".includes(d)) out += "\\" + d;
      else if (/[1-9]/.test(d)) out += "\\" + d;
      else if (!extended && "(){}|+?".includes(d)) out += d;
      else if (d === "n") out += "\\n";
      else if (d === "t") out += "\\t";
      else out += /[A-Za-z0-9]/.test(d) ? d : "\\" + d;
      continue;
    }
    if (!extended && "(){}|+?".includes(c)) {
      out += "\\" + c;
    } else if (c === "*" && (out === "" || out === "^" || (!extended && out.endsWith("\\(")))) {
      out += "\\*";
    } else if (c === "/") out += "\\/";
    else out += c;
    i++;
  }
  return out;
}

/**
 * A JS RegExp for a grep pattern, or undefined when it cannot be translated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grepRegex } from "./regex.ts";
 * const re = grepRegex("def foo", { mode: "G", icase: false, word: false, line: false })!;
 * assert.ok(re.test("    def foo(x):") && !re.test("def bar"));
 * assert.ok(grepRegex("a.b", { mode: "F", icase: false, word: false, line: false })!.test("xa.by"));
 * ```
 */
export function grepRegex(
  pattern: string,
  o: { mode: "G" | "E" | "F" | "P"; icase: boolean; word: boolean; line: boolean },
): RegExp | undefined {
  let src: string | undefined;
  if (o.mode === "F") src = pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  else if (o.mode === "P") src = pattern;
  else src = posixToJs(pattern, o.mode === "E");
  if (src === undefined) return undefined;
  if (o.word) src = `(?<![\\w])(?:${src})(?![\\w])`;
  if (o.line) src = `^(?:${src})$`;
  try {
    return new RegExp(src, o.icase ? "i" : "");
  } catch {
    // a pattern JavaScript cannot compile: the search is not simulated
    return undefined;
  }
}
