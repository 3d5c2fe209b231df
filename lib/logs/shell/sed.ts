/**
 * A small sed interpreter covering what agents use to print or edit files: addresses (`N`, `$`,
 * `/re/`, `N,M`, `N,$`, `/a/,/b/`, `N,+K`, `0,/re/`, `!`), and the commands `p`, `d`, `q`, `Q`,
 * `=`, `s///` (flags g, p, i, N) and `{…}` blocks. Anything else is reported as unsupported.
 *
 * @module
 */
import { posixToJs } from "./regex.ts";

type Addr =
  | { t: "line"; n: number }
  | { t: "last" }
  | { t: "re"; re: RegExp }
  | { t: "plus"; n: number }
  | { t: "step"; n: number };

interface Cmd {
  a1?: Addr;
  a2?: Addr;
  neg: boolean;
  op: "p" | "d" | "q" | "Q" | "=" | "s" | "block";
  sub?: { re: RegExp; rep: string; global: boolean; nth: number; print: boolean };
  block?: Cmd[];
  // range state
  active?: boolean;
  end?: number;
}

/** A parsed sed script. */
export interface SedScript {
  cmds: Cmd[];
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  peek(): string {
    return this.s[this.i];
  }
  eof(): boolean {
    return this.i >= this.s.length;
  }
  ws(): void {
    while (!this.eof() && /[ \t]/.test(this.peek())) this.i++;
  }
  /** Reads up to an unescaped delimiter; returns the raw text. */
  until(delim: string): string | undefined {
    let out = "";
    while (!this.eof()) {
      const c = this.s[this.i++];
      if (c === "\\" && !this.eof()) {
        const d = this.s[this.i++];
        out += d === delim ? (delim === "/" ? "\\/" : d) : "\\" + d;
        continue;
      }
      if (c === delim) return out;
      out += c;
    }
    return undefined;
  }
}

function regex(src: string, extended: boolean, flags: string): RegExp | undefined {
  const js = posixToJs(src, extended);
  if (js === undefined) return undefined;
  try {
    return new RegExp(js, flags);
  } catch {
    // a pattern JavaScript cannot compile: the sed script is not simulated
    return undefined;
  }
}

function parseAddr(r: Reader, extended: boolean, second: boolean): Addr | undefined | null {
  const c = r.peek();
  if (c === undefined) return null;
  if (/[0-9]/.test(c)) {
    let n = "";
    while (!r.eof() && /[0-9]/.test(r.peek())) n += r.s[r.i++];
    if (r.peek() === "~") {
      r.i++;
      let m = "";
      while (!r.eof() && /[0-9]/.test(r.peek())) m += r.s[r.i++];
      return second ? { t: "step", n: Number(m) } : undefined;
    }
    return { t: "line", n: Number(n) };
  }
  if (c === "$") {
    r.i++;
    return { t: "last" };
  }
  if (second && (c === "+" || c === "~")) {
    r.i++;
    let n = "";
    while (!r.eof() && /[0-9]/.test(r.peek())) n += r.s[r.i++];
    if (!n) return undefined;
    return c === "+" ? { t: "plus", n: Number(n) } : { t: "step", n: Number(n) };
  }
  if (c === "/" || c === "\\") {
    r.i++;
    let delim = "/";
    if (c === "\\") delim = r.s[r.i++];
    const src = r.until(delim);
    if (src === undefined) return undefined;
    let flags = "";
    while (r.peek() === "I" || r.peek() === "M") {
      if (r.s[r.i++] === "I") flags += "i";
    }
    const re = regex(src, extended, flags);
    return re ? { t: "re", re } : undefined;
  }
  return null;
}

function parseCmds(r: Reader, extended: boolean, inBlock: boolean): Cmd[] | undefined {
  const cmds: Cmd[] = [];
  for (;;) {
    while (!r.eof() && /[ \t\n;]/.test(r.peek())) r.i++;
    if (r.eof()) return inBlock ? undefined : cmds;
    if (r.peek() === "}") {
      if (!inBlock) return undefined;
      r.i++;
      return cmds;
    }
    if (r.peek() === "#") {
      while (!r.eof() && r.peek() !== "\n") r.i++;
      continue;
    }
    const a1 = parseAddr(r, extended, false);
    if (a1 === undefined) return undefined;
    let a2: Addr | undefined | null = null;
    r.ws();
    if (a1 && r.peek() === ",") {
      r.i++;
      r.ws();
      a2 = parseAddr(r, extended, true);
      if (!a2) return undefined;
    }
    r.ws();
    let neg = false;
    while (r.peek() === "!") {
      neg = !neg;
      r.i++;
      r.ws();
    }
    const op = r.s[r.i++];
    const cmd: Cmd = { a1: a1 ?? undefined, a2: a2 ?? undefined, neg, op: "p" };
    if (op === "p" || op === "d" || op === "=") cmd.op = op;
    else if (op === "q" || op === "Q") {
      cmd.op = op;
      r.ws();
      while (!r.eof() && /[0-9]/.test(r.peek())) r.i++;
    } else if (op === "{") {
      const block = parseCmds(r, extended, true);
      if (!block) return undefined;
      cmd.op = "block";
      cmd.block = block;
    } else if (op === "s") {
      const delim = r.s[r.i++];
      if (!delim || delim === "\n" || delim === "\\") return undefined;
      const pat = r.until(delim);
      const rep = r.until(delim);
      if (pat === undefined || rep === undefined) return undefined;
      let global = false, print = false, icase = false, nth = 1;
      while (!r.eof() && /[gpiI0-9]/.test(r.peek())) {
        const f = r.s[r.i++];
        if (f === "g") global = true;
        else if (f === "p") print = true;
        else if (f === "i" || f === "I") icase = true;
        else nth = Number(f);
      }
      const re = regex(pat, extended, icase ? "g" + "i" : "g");
      if (!re) return undefined;
      cmd.op = "s";
      cmd.sub = { re, rep: replacement(rep), global, nth, print };
    } else return undefined;
    cmds.push(cmd);
  }
}

/** Converts a sed replacement (`\1`, `&`, `\n`) to a JS replacement string. */
function replacement(rep: string): string {
  let out = "";
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c === "\\" && i + 1 < rep.length) {
      const d = rep[++i];
      if (/[0-9]/.test(d)) out += d === "0" ? "$&" : "$" + d;
      else if (d === "n") out += "\n";
      else if (d === "t") out += "\t";
      else if (d === "&") out += "&";
      else if (d === "$") out += "$$";
      else out += d;
    } else if (c === "&") out += "$&";
    else if (c === "$") out += "$$";
    else out += c;
  }
  return out;
}

/**
 * Parses sed script texts (one per `-e`, or the single script); undefined when unsupported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSed, runSed } from "./sed.ts";
 * const s = parseSed(["10,12p;20p"], false)!;
 * const lines = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
 * assert.ok(runSed(s, lines, true).out.map((o) => o.n! + 1).join() === "10,11,12,20");
 * ```
 */
export function parseSed(scripts: string[], extended: boolean): SedScript | undefined {
  const cmds: Cmd[] = [];
  for (const s of scripts) {
    const c = parseCmds(new Reader(s), extended, false);
    if (!c) return undefined;
    cmds.push(...c);
  }
  return { cmds };
}

/** One output line of sed: its text, and the input line it came from (undefined for `=`). */
export interface SedOut {
  text: string;
  /** 0-based index of the input line printed, or undefined for generated lines (`=`). */
  n?: number;
}

function matches(a: Addr, line: string, idx: number, total: number): boolean {
  if (a.t === "line") return idx + 1 === a.n;
  if (a.t === "last") return idx === total - 1;
  if (a.t === "re") return a.re.test(line);
  return false;
}

function selected(c: Cmd, line: string, idx: number, total: number): boolean {
  let hit: boolean;
  if (!c.a1) hit = true;
  else if (!c.a2) hit = matches(c.a1, line, idx, total);
  else if (c.active) {
    hit = true;
    const a2 = c.a2;
    if (a2.t === "line") c.active = idx + 1 < a2.n;
    else if (a2.t === "plus") c.active = idx < c.end!;
    else if (a2.t === "last") c.active = idx < total - 1;
    else if (a2.t === "re") c.active = !a2.re.test(line);
    else if (a2.t === "step") c.active = (idx + 1) % a2.n !== 0;
    if (a2.t === "line" && idx + 1 >= a2.n) c.active = false;
  } else {
    const a2 = c.a2;
    const zero = c.a1.t === "line" && c.a1.n === 0;
    if (zero ? idx === 0 : matches(c.a1, line, idx, total)) {
      hit = true;
      if (zero) c.active = !(a2.t === "re" && a2.re.test(line));
      else if (a2.t === "line") c.active = a2.n > idx + 1;
      else if (a2.t === "plus") {
        c.end = idx + a2.n;
        c.active = a2.n > 0;
      } else if (a2.t === "last") c.active = idx < total - 1;
      else if (a2.t === "step") c.active = a2.n > 0 && (idx + 1) % a2.n !== 0;
      else c.active = true;
    } else hit = false;
  }
  return c.neg ? !hit : hit;
}

function reset(cmds: Cmd[]): void {
  for (const c of cmds) {
    c.active = false;
    c.end = undefined;
    if (c.block) reset(c.block);
  }
}

/**
 * Runs a script over lines. `quiet` is `-n`. Returns the printed lines (with their source line)
 * and `text`, the pattern-space results per input line (for `sed -i`).
 */
export function runSed(
  script: SedScript,
  lines: string[],
  quiet: boolean,
): { out: SedOut[]; edited: string[] } {
  reset(script.cmds);
  const out: SedOut[] = [];
  const edited: string[] = [];
  const total = lines.length;
  let stop = false;
  for (let idx = 0; idx < total && !stop; idx++) {
    let space = lines[idx];
    let deleted = false;
    const exec = (cmds: Cmd[]): boolean => {
      for (const c of cmds) {
        if (!selected(c, space, idx, total)) continue;
        switch (c.op) {
          case "p":
            out.push({ text: space, n: idx });
            break;
          case "=":
            out.push({ text: String(idx + 1) });
            break;
          case "d":
            deleted = true;
            return false;
          case "q":
            stop = true;
            return false;
          case "Q":
            deleted = true;
            stop = true;
            return false;
          case "s": {
            const s = c.sub!;
            let count = 0;
            let did = false;
            s.re.lastIndex = 0;
            space = space.replace(s.re, (...m) => {
              count++;
              if (s.global ? count >= s.nth : count === s.nth) {
                did = true;
                const groups = m.slice(1, -2);
                return s.rep.replace(
                  /\$(\$|&|\d)/g,
                  (_x, g) =>
                    g === "$" ? "$" : g === "&" ? m[0] : String(groups[Number(g) - 1] ?? ""),
                );
              }
              return m[0];
            });
            if (did && s.print) out.push({ text: space, n: idx });
            break;
          }
          case "block":
            if (!exec(c.block!)) return false;
        }
      }
      return true;
    };
    exec(script.cmds);
    if (!deleted) {
      if (!quiet) out.push({ text: space, n: idx });
      edited.push(space);
    }
  }
  return { out, edited };
}
