/**
 * Codex CLI code mode (`exec`, codex-rs `core/src/tools/code_mode/`): the model writes a
 * JavaScript cell that calls tools (`await tools.exec_command({cmd: "…"})`) and prints with
 * `text(v)`. The rollout holds the cell's source (`custom_tool_call.input`) and what it printed
 * (`custom_tool_call_output.output`: a header item `Script completed\nWall time …\nOutput:\n`,
 * then one text item per `text()`); the nested calls' own results went to the script, not to the
 * model, so only what was printed was shown.
 *
 * This module finds the nested calls whose arguments are literals in the source, and the printed
 * items that are a nested shell call's result: `shell_command`'s text (`Exit code: …\nOutput:`)
 * or `exec_command`'s result object printed as JSON (`{"wall_time_seconds":…,"exit_code":0,
 * "output":"…"}`; `ExecCommandToolOutput::code_mode_result`). The reader pairs them in order.
 *
 * @module
 */
import { obj, str } from "./common.ts";

/** A nested tool call of a cell, with its arguments when they are literals. */
export interface CellCall {
  /** Tool name (`exec_command`, `shell_command`, `apply_patch`, `mcp__x__y`, …). */
  name: string;
  /** The argument (an object or a string) when it is a literal; undefined otherwise. */
  arg?: unknown;
  /** The source text of the call. */
  text: string;
}

/** Reads a JavaScript literal (object, array, string, number, boolean, null) at `i`. */
class Lit {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    for (;;) {
      while (/\s/.test(this.s[this.i] ?? "")) this.i++;
      if (this.s.startsWith("//", this.i)) {
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      } else if (this.s.startsWith("/*", this.i)) {
        const e = this.s.indexOf("*/", this.i + 2);
        this.i = e < 0 ? this.s.length : e + 2;
      } else return;
    }
  }
  value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"' || c === "'" || c === "`") return this.string();
    const m = this.s.slice(this.i).match(/^(?:-?\d+(?:\.\d+)?|true|false|null)\b/);
    if (m) {
      this.i += m[0].length;
      return JSON.parse(m[0]);
    }
    throw new Error("not a literal");
  }
  string(): string {
    const q = this.s[this.i++];
    let out = "";
    while (this.i < this.s.length) {
      const c = this.s[this.i++];
      if (c === q) return out;
      if (q === "`" && c === "$" && this.s[this.i] === "{") throw new Error("template expression");
      if (c === "\\") {
        const e = this.s[this.i++];
        if (e === "u") {
          const hex = this.s[this.i] === "{"
            ? this.s.slice(this.i + 1, this.s.indexOf("}", this.i))
            : this.s.slice(this.i, this.i + 4);
          this.i += this.s[this.i] === "{" ? hex.length + 2 : 4;
          out += String.fromCodePoint(parseInt(hex, 16));
        } else if (e === "x") {
          out += String.fromCharCode(parseInt(this.s.slice(this.i, this.i + 2), 16));
          this.i += 2;
        } else if (e === "\n") continue;
        else out += { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" }[e] ?? e;
      } else out += c;
    }
    throw new Error("unterminated string");
  }
  object(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return out;
      }
      let key: string;
      const c = this.s[this.i];
      if (c === '"' || c === "'") key = this.string();
      else {
        const m = this.s.slice(this.i).match(/^[A-Za-z_$][\w$]*/);
        if (!m) throw new Error("bad key");
        key = m[0];
        this.i += key.length;
      }
      this.ws();
      if (this.s[this.i] !== ":") throw new Error("shorthand property");
      this.i++;
      out[key] = this.value();
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") throw new Error("bad object");
    }
  }
  array(): unknown[] {
    this.i++;
    const out: unknown[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === "]") {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "]") throw new Error("bad array");
    }
  }
}

/** The end of a balanced `( … )` starting at `i` (strings and templates skipped). */
function closeParen(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '"' || c === "'" || c === "`") {
      for (j++; j < s.length && s[j] !== c; j++) if (s[j] === "\\") j++;
    } else if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return s.length;
}

/**
 * The nested tool calls of a cell, in source order: `tools.NAME(ARG)` and `tools["NAME"](ARG)`,
 * with ARG when it is a literal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cellCalls } from "./codex_cells.ts";
 * const c = cellCalls(`const r = await tools.exec_command({cmd: 'sed -n "1,5p" a.py', workdir: "/w"}); text(r.output);\nawait tools.wait_agent(x)`);
 * assert.deepEqual(c.map((x) => [x.name, x.arg]), [["exec_command", { cmd: 'sed -n "1,5p" a.py', workdir: "/w" }], ["wait_agent", undefined]]);
 * ```
 */
export function cellCalls(source: string): CellCall[] {
  const out: CellCall[] = [];
  const re = /\btools\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'])([^"']+)\2\s*\])\s*\(/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    const open = m.index + m[0].length - 1;
    const end = closeParen(source, open);
    const inner = source.slice(open + 1, end - 1);
    let arg: unknown;
    try {
      const lit = new Lit(inner);
      const v = lit.value();
      lit.ws();
      if (lit.i === inner.length || inner.slice(lit.i).trim() === ",") arg = v;
    } catch {
      arg = undefined;
    }
    out.push({ name: m[1] ?? m[3], arg, text: source.slice(m.index, end) });
    re.lastIndex = end;
  }
  return out;
}

/** The text items a cell printed, without the script-status header; the status itself. */
export interface CellOutput {
  /** `Script completed`, `Script failed`, `Script running with cell ID …`, `Script terminated`. */
  status?: string;
  /** Each `text()` item, in order. */
  items: string[];
}

/** The items of a `custom_tool_call_output` of `exec` (a string output is one item). */
export function cellOutput(output: unknown): CellOutput {
  const texts = Array.isArray(output)
    ? output.map((p) => str(obj(p)?.text)).filter((t): t is string => t !== undefined)
    : typeof output === "string"
    ? [output]
    : [str(obj(output)?.content) ?? ""];
  let status: string | undefined;
  const head = texts[0]?.match(/^(Script [^\n]*)\nWall time [^\n]*\nOutput:\n?/);
  if (head) {
    status = head[1];
    const rest = texts[0].slice(head[0].length);
    texts.splice(0, 1, ...(rest ? [rest] : []));
  }
  return { status, items: texts };
}

/** A printed item that is a nested shell call's result: the text in the rollout's own forms. */
export function shellResultText(item: string): string | undefined {
  if (/^(?:Exit code: -?\d+|Chunk ID: |Command: |Wall time: )[^\n]*\n/.test(item)) return item;
  if (item.startsWith("{")) {
    try {
      const j = obj(JSON.parse(item));
      const output = str(j?.output);
      if (j && output !== undefined && ("wall_time_seconds" in j || "exit_code" in j)) {
        // the unified-exec result object: as its model-facing text
        const code = typeof j.exit_code === "number"
          ? `Process exited with code ${j.exit_code}\n`
          : "";
        const running = j.session_id !== undefined
          ? `Process running with session ID ${j.session_id}\n`
          : "";
        return `Wall time: ${
          j.wall_time_seconds ?? 0
        } seconds\n${code}${running}Output:\n${output}`;
      }
    } catch {
      // not JSON
    }
  }
  return undefined;
}
