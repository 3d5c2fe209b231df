/**
 * What individual shell commands print, simulated over the workspace: the source commands that
 * read files (`cat`, `nl`, `head`, `tail`, `sed`, `awk`, `grep`, `python -c`), the filters of a
 * pipeline, listings, and writes. Each output line carries the file line it shows, if any.
 *
 * @module
 */
import type { EventKind } from "../types.ts";
import { type Content, splitLines, UNKNOWN, type Workspace } from "../workspace.ts";
import { grepRegex } from "./regex.ts";
import { parseSed, runSed } from "./sed.ts";

/** One line of a command's output; `file`/`n` when it shows line `n` (1-based) of `file`. */
export interface OutLine {
  text: string;
  file?: string;
  n?: number;
}

/** How line numbers appear in an output (so they can be read back without the workspace). */
export interface Numbered {
  /** `nl`: `^\s*N\t`; `grep1`: `^N[:-]` of `file`; `grepN`: `^path[:-]N[:-]`. */
  style: "nl" | "grep1" | "grepN";
  file?: string;
}

/** A pipeline's output so far. */
export interface Stream {
  /** Simulated lines, or null when unknown. */
  lines: OutLine[] | null;
  numbered?: Numbered;
  /** A contiguous window of one file starting at `start` (and ending at `end` when known). */
  declared?: { file: string; start: number; end?: number; trailer?: number };
}

/** The result of one stage. */
export interface StageResult {
  stream: Stream;
  kind: EventKind;
  /** Files read, searched, listed or written (workspace-relative). */
  paths: string[];
  /** Paths named but outside the workspace (ignored). */
  outside?: string[];
  /** Known exit failure (missing file, no grep match). */
  failed?: boolean;
  writes?: { path: string; content: string | typeof UNKNOWN | null }[];
  /** Extracts listed/searched paths from the stage's own output text. */
  pathsFromOutput?: (text: string) => string[];
  /** For recursive grep: needs the observed output to know which files matched. */
  needsOutput?: boolean;
  /** Not interpretable. */
  other?: string;
  /** The stage that defines the pipeline's event (`… | xargs grep`). */
  primary?: boolean;
  /** New cwd (cd). `null` = outside the workspace. */
  cd?: string | null;
}

/** A command call with literal arguments. */
export interface Call {
  name: string;
  /** Literal arguments (undefined where an expansion makes it unknown). */
  args: (string | undefined)[];
  /** Arguments that are unquoted globs. */
  globs: boolean[];
  /** Pipe input (undefined for the first stage). */
  input?: Stream;
  /** Here-document or here-string text fed on stdin. */
  stdin?: string;
  ws: Workspace;
  cwd: string | undefined;
  /** stderr goes to /dev/null. */
  quietErrors: boolean;
  /** The observed output text of this command, when known (recursive grep). */
  observed?: string;
  /** File operands come from the pipe (`… | xargs grep`). */
  fromPipe?: boolean;
}

const NUM = /^\d+$/;

/** Resolves a path argument; undefined when outside the workspace. */
function resolve(c: Call, p: string): string | undefined {
  return c.ws.resolve(p, c.cwd);
}

interface FileArg {
  arg: string;
  rel?: string;
  content: Content;
}

function fileArgs(c: Call, names: string[]): { files: FileArg[]; outside: string[] } {
  const files: FileArg[] = [];
  const outside: string[] = [];
  for (const arg of names) {
    if (arg === "-" || arg === "/dev/null" || arg === "/dev/stdin") continue;
    const rel = resolve(c, arg);
    if (rel === undefined || rel === "") {
      if (rel === undefined) outside.push(arg);
      // outside the workspace: never read, never credited; its output is unknown
      files.push({ arg, rel, content: rel === undefined ? UNKNOWN : undefined });
      continue;
    }
    files.push({ arg, rel, content: c.ws.read(rel) });
  }
  return { files, outside };
}

/** Appends without spreading (arrays of a million lines exceed the argument limit). */
function append<T>(dst: T[], src: readonly T[]): void {
  for (let i = 0; i < src.length; i++) dst.push(src[i]);
}

const STARTS = new Map<string, number[]>();

/** Offsets where each line of a text starts (memoised for the last texts seen). */
function lineStarts(text: string): number[] {
  let s = STARTS.get(text);
  if (s) return s;
  s = [0];
  for (let i = text.indexOf("\n"); i >= 0 && i + 1 < text.length; i = text.indexOf("\n", i + 1)) {
    s.push(i + 1);
  }
  if (STARTS.size > 256) STARTS.clear();
  STARTS.set(text, s);
  return s;
}

const TAGGED = new Map<string, { text: string; lines: OutLine[] }>();

/** The lines of a file as output lines tagged with their numbers (memoised; never mutate). */
function tagged(rel: string, text: string): OutLine[] {
  const hit = TAGGED.get(rel);
  if (hit && hit.text === text) return hit.lines;
  const lines = splitLines(text).map((t, i) => ({ text: t, file: rel, n: i + 1 }));
  if (TAGGED.size > 1024) TAGGED.clear();
  TAGGED.set(rel, { text, lines });
  return lines;
}

function errLine(c: Call, cmd: string, arg: string): OutLine[] {
  return c.quietErrors ? [] : [{ text: `${cmd}: ${arg}: No such file or directory` }];
}

/** Reads file arguments into one stream (unknown when any content is unknown). */
function readAll(
  c: Call,
  cmd: string,
  files: FileArg[],
): { lines: OutLine[] | null; failed: boolean } {
  let lines: OutLine[] | null = [];
  let failed = false;
  for (const f of files) {
    if (f.content === undefined) {
      failed = true;
      if (lines) lines.push(...errLine(c, cmd, f.arg));
    } else if (f.content === UNKNOWN) lines = null;
    else if (lines) append(lines, tagged(f.rel!, f.content));
  }
  return { lines, failed };
}

function existing(files: FileArg[]): string[] {
  return [...new Set(files.filter((f) => f.rel && f.content !== undefined).map((f) => f.rel!))];
}

function numberLines(lines: OutLine[], all: boolean): OutLine[] {
  let k = 0;
  return lines.map((l) => {
    if (!all && l.text.trim() === "") return { ...l, text: "" };
    k++;
    return { ...l, text: `${String(k).padStart(6)}\t${l.text}` };
  });
}

/** Splits option arguments from operands (stops at `--`); `valued` options take the next argument. */
function splitOpts(
  args: (string | undefined)[],
  valued: Set<string>,
): { opts: [string, string | undefined][]; rest: (string | undefined)[]; bad: boolean } {
  const opts: [string, string | undefined][] = [];
  const rest: (string | undefined)[] = [];
  let bad = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) {
      rest.push(a);
      continue;
    }
    if (a === "--") {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (eq > 0) opts.push([name, a.slice(eq + 1)]);
      else if (valued.has(name)) opts.push([name, args[++i]]);
      else opts.push([name, undefined]);
    } else if (a.startsWith("-") && a.length > 1 && !NUM.test(a.slice(1))) {
      // clustered short options: -rn, -nC3, -A 3
      for (let j = 1; j < a.length; j++) {
        const o = "-" + a[j];
        if (valued.has(o)) {
          const v = a.slice(j + 1);
          if (v) opts.push([o, v]);
          else opts.push([o, args[++i]]);
          break;
        }
        if (/[0-9]/.test(a[j])) {
          // -C3-style digits after a flag: -n5 means context 5 in grep
          const m = a.slice(j).match(/^\d+/)!;
          opts.push(["-NUM", m[0]]);
          j += m[0].length - 1;
          continue;
        }
        opts.push([o, undefined]);
      }
    } else if (/^-\d+$/.test(a)) opts.push(["-NUM", a.slice(1)]);
    else rest.push(a);
  }
  if (rest.some((r) => r === undefined)) bad = true;
  return { opts, rest, bad };
}

function plain(stream: Stream | undefined): Stream {
  return stream ?? { lines: [] };
}

// ---------------------------------------------------------------- sources and filters

function cat(c: Call): StageResult {
  const { opts, rest, bad } = splitOpts(c.args, new Set());
  const number = opts.some(([o]) => o === "-n" || o === "-b" || o === "--number");
  const names = rest as string[];
  if (bad) return { stream: { lines: null }, kind: "read", paths: [], other: "unknown file name" };
  if (!names.length || names.every((n) => n === "-")) {
    const input: Stream = c.input ??
      { lines: c.stdin !== undefined ? splitLines(c.stdin).map((t) => ({ text: t })) : [] };
    if (!number) return { stream: input, kind: c.input ? "run" : "run", paths: [] };
    return {
      stream: { ...input, lines: input.lines && numberLines(input.lines, true) },
      kind: "run",
      paths: [],
    };
  }
  const { files, outside } = fileArgs(c, names);
  const { lines, failed } = readAll(c, "cat", files);
  const ex = existing(files);
  const single = ex.length === 1 && files.length === 1 ? ex[0] : undefined;
  const stream: Stream = {
    lines: lines && number ? numberLines(lines, !opts.some(([o]) => o === "-b")) : lines,
    numbered: number && single ? { style: "nl", file: single } : undefined,
    declared: !number && single ? { file: single, start: 1 } : undefined,
  };
  return { stream, kind: "read", paths: ex, outside, failed: failed && !ex.length };
}

function nl(c: Call): StageResult {
  const { opts, rest, bad } = splitOpts(c.args, new Set(["-b", "-w", "-s", "-v", "-i", "-n"]));
  if (bad) return { stream: { lines: null }, kind: "read", paths: [], other: "unknown file name" };
  const all = opts.some(([o, v]) => (o === "-b" && v === "a") || o === "--body-numbering");
  const ok = opts.every(([o]) =>
    ["-b", "-w", "-s", "-v", "-i", "-n", "--body-numbering"].includes(o)
  );
  const width = Number(opts.find(([o]) => o === "-w")?.[1] ?? 6);
  const sep = opts.find(([o]) => o === "-s")?.[1] ?? "\t";
  const fmt = (lines: OutLine[]) => {
    let k = 0;
    return lines.map((l) => {
      if (!all && l.text === "") return { ...l, text: "" };
      k++;
      return { ...l, text: `${String(k).padStart(width)}${sep}${l.text}` };
    });
  };
  const names = rest as string[];
  if (!names.length) {
    const input = plain(
      c.input ??
        (c.stdin !== undefined
          ? { lines: splitLines(c.stdin).map((t) => ({ text: t })) }
          : undefined),
    );
    return {
      stream: { ...input, lines: input.lines && ok ? fmt(input.lines) : null },
      kind: "run",
      paths: [],
    };
  }
  const { files, outside } = fileArgs(c, names);
  const { lines, failed } = readAll(c, "nl", files);
  const ex = existing(files);
  return {
    stream: {
      lines: lines && ok ? fmt(lines) : null,
      numbered: ex.length === 1 && sep === "\t" ? { style: "nl", file: ex[0] } : undefined,
    },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

function headTail(c: Call, tail: boolean): StageResult {
  const { opts, rest, bad } = splitOpts(c.args, new Set(["-n", "-c", "--lines", "--bytes"]));
  const cmd = tail ? "tail" : "head";
  let names = rest as string[];
  let count = 10;
  let fromStart = false; // tail -n +N
  let allBut = false; // head -n -N
  let bytes = false; // -c N: the lines the first/last N characters touch
  let unsupported = bad;
  for (const [o, v] of opts) {
    if (o === "-n" || o === "--lines" || o === "-NUM") {
      if (v === undefined) unsupported = true;
      else if (/^\+\d+$/.test(v)) {
        fromStart = tail;
        count = Number(v.slice(1));
        if (!tail) count = Number(v.slice(1));
      } else if (/^-\d+$/.test(v)) {
        allBut = !tail;
        count = Number(v.slice(1));
      } else if (NUM.test(v)) count = Number(v);
      else unsupported = true;
    } else if ((o === "-c" || o === "--bytes") && v !== undefined && /^\d+$/.test(v)) {
      bytes = true;
      count = Number(v);
    } else if (o === "-c" || o === "--bytes" || o === "-f" || o === "-F") unsupported = true;
    else if (o !== "-q" && o !== "-v" && o !== "--quiet" && o !== "--silent") unsupported = true;
  }
  // tail +N (obsolete form)
  if (tail && names.length && /^\+\d+$/.test(names[0])) {
    fromStart = true;
    count = Number(names[0].slice(1));
    names = names.slice(1);
  }
  const pick = (lines: OutLine[]): OutLine[] => {
    if (bytes) {
      if (count === 0) return [];
      // the partly shown end line keeps only the characters shown
      let used = 0, k = 0;
      if (!tail) {
        while (k < lines.length && used < count) used += lines[k++].text.length + 1;
        const out = lines.slice(0, k);
        const over = used - count;
        if (over > 1 && k) {
          out[k - 1] = { ...out[k - 1], text: out[k - 1].text.slice(0, -(over - 1)) };
        }
        return out;
      }
      k = lines.length;
      while (k > 0 && used < count) used += lines[--k].text.length + 1;
      const out = lines.slice(k);
      const over = used - count;
      if (over > 0 && out.length) out[0] = { ...out[0], text: out[0].text.slice(over) };
      return out;
    }
    if (!tail) {
      return allBut ? lines.slice(0, Math.max(0, lines.length - count)) : lines.slice(0, count);
    }
    if (fromStart) return lines.slice(Math.max(0, count - 1));
    return count === 0 ? [] : lines.slice(-count);
  };
  const window = (d: Stream["declared"]): Stream["declared"] => {
    if (!d || bytes) return undefined;
    if (!tail) {
      if (allBut) return d.end !== undefined ? { ...d, end: d.end - count } : undefined;
      const end = d.start + count - 1;
      return { ...d, end: d.end === undefined ? end : Math.min(d.end, end) };
    }
    if (fromStart) return { ...d, start: d.start + count - 1 };
    return d.end !== undefined ? { ...d, start: Math.max(d.start, d.end - count + 1) } : undefined;
  };
  if (!names.length) {
    const input = plain(c.input);
    if (unsupported) {
      return { stream: { lines: null, numbered: input.numbered }, kind: "run", paths: [] };
    }
    return {
      stream: {
        lines: input.lines && pick(input.lines),
        numbered: input.numbered,
        declared: window(input.declared),
      },
      kind: "run",
      paths: [],
    };
  }
  const { files, outside } = fileArgs(c, names);
  const ex = existing(files);
  if (unsupported) {
    return {
      stream: { lines: null },
      kind: "read",
      paths: ex,
      outside,
      other: `${cmd} options not understood`,
    };
  }
  let lines: OutLine[] | null = [];
  let failed = false;
  const headers = files.length > 1 && !opts.some(([o]) => o === "-q" || o === "--quiet");
  files.forEach((f, i) => {
    if (f.content === undefined) {
      failed = true;
      if (lines) lines.push(...errLine(c, cmd, f.arg));
      return;
    }
    if (f.content === UNKNOWN) {
      lines = null;
      return;
    }
    if (!lines) return;
    if (headers) {
      if (i > 0) lines.push({ text: "" });
      lines.push({ text: `==> ${f.arg} <==` });
    }
    append(lines, pick(tagged(f.rel!, f.content)));
  });
  const single = ex.length === 1 && files.length === 1 ? ex[0] : undefined;
  return {
    stream: { lines, declared: single ? window({ file: single, start: 1 }) : undefined },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

/** A numeric-only sed script `a,bp` / `ap` / `a,$p`: its window, for work without the workspace. */
function sedWindow(scripts: string[]): { start: number; end?: number } | undefined {
  if (scripts.length !== 1) return undefined;
  const m = scripts[0].trim().match(/^(\d+)(?:,(\d+|\$))?p;?$/);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : m[2] === "$" ? undefined : Number(m[2]);
  return { start, end };
}

function sed(c: Call): StageResult {
  const { opts, rest, bad } = splitOpts(
    c.args,
    new Set(["-e", "--expression", "-f", "--file", "-l"]),
  );
  let quiet = false, extended = false, inPlace = false, separate = false;
  const scripts: string[] = [];
  let unsupported = bad;
  for (const [o, v] of opts) {
    if (o === "-n" || o === "--quiet" || o === "--silent") quiet = true;
    else if (o === "-E" || o === "-r" || o === "--regexp-extended") extended = true;
    else if (o === "-i" || o === "--in-place") inPlace = true;
    else if (o === "-s" || o === "--separate") separate = true;
    else if (o === "-e" || o === "--expression") {
      if (v === undefined) unsupported = true;
      else scripts.push(v);
    } else if (o === "-u" || o === "-z" || o === "--posix" || o === "--debug") {
      if (o === "-z") unsupported = true;
    } else if (o.startsWith("-i")) inPlace = true;
    else unsupported = true;
  }
  const args = [...rest] as string[];
  if (!scripts.length) {
    const s = args.shift();
    if (s === undefined) unsupported = true;
    else scripts.push(s);
  }
  const script = unsupported ? undefined : parseSed(scripts, extended);
  const win = quiet ? sedWindow(scripts) : undefined;
  if (inPlace) {
    const { files, outside } = fileArgs(c, args);
    const writes: StageResult["writes"] = [];
    for (const f of files) {
      if (!f.rel) continue;
      if (f.content === undefined) continue;
      if (f.content === UNKNOWN || !script) {
        writes.push({ path: f.rel, content: UNKNOWN });
        continue;
      }
      const { edited } = runSed(script, splitLines(f.content), quiet);
      writes.push({ path: f.rel, content: edited.length ? edited.join("\n") + "\n" : "" });
    }
    return {
      stream: { lines: [] },
      kind: "write",
      paths: writes.map((w) => w.path),
      outside,
      writes,
    };
  }
  const apply = (lines: OutLine[]): OutLine[] => {
    if (win && win.start >= 1) {
      // sed -n 'a,bp': a slice (b < a prints line a only)
      return lines.slice(
        win.start - 1,
        win.end === undefined ? undefined : Math.max(win.start, win.end),
      );
    }
    const { out } = runSed(script!, lines.map((l) => l.text), quiet);
    return out.map((o) => o.n === undefined ? { text: o.text } : { ...lines[o.n], text: o.text });
  };
  if (!args.length) {
    const input = plain(c.input);
    const d = input.declared;
    const declared = d && win
      ? {
        file: d.file,
        start: d.start + win.start - 1,
        end: win.end === undefined ? d.end : Math.min(d.end ?? Infinity, d.start + win.end - 1),
      }
      : undefined;
    return {
      stream: {
        lines: input.lines && script ? apply(input.lines) : null,
        numbered: input.numbered,
        declared: declared && declared.end === Infinity
          ? { ...declared, end: undefined }
          : declared,
      },
      kind: "run",
      paths: [],
      other: script ? undefined : "sed script not understood",
    };
  }
  const { files, outside } = fileArgs(c, args);
  const ex = existing(files);
  if (!script) {
    return {
      stream: { lines: null },
      kind: "read",
      paths: ex,
      outside,
      other: "sed script not understood",
    };
  }
  let lines: OutLine[] | null = [];
  let failed = false;
  if (separate) {
    for (const f of files) {
      if (f.content === undefined) {
        failed = true;
        lines?.push(...errLine(c, "sed", f.arg));
      } else if (f.content === UNKNOWN) lines = null;
      else if (lines) append(lines, apply(tagged(f.rel!, f.content)));
    }
  } else {
    const all = readAll(c, "sed", files);
    failed = all.failed;
    // error lines are printed first by sed when a file is missing, ahead of the stream
    const errs = all.lines?.filter((l) => l.file === undefined) ?? [];
    const body = all.lines?.filter((l) => l.file !== undefined) ?? null;
    lines = body && [...errs, ...apply(body)];
  }
  const single = ex.length === 1 && files.length === 1 ? ex[0] : undefined;
  return {
    stream: {
      lines,
      declared: single && win ? { file: single, start: win.start, end: win.end } : undefined,
    },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

/** A printf format with `%d` (NR) and `%s` ($0) conversions applied to one line. */
function printf(fmt: string, nr: number, text: string): string | undefined {
  const args: (number | string)[] = [nr, text];
  let k = 0;
  let bad = false;
  const out = fmt.replace(/%(-?)(\d*)([ds%])/g, (_m, left: string, width: string, conv: string) => {
    if (conv === "%") return "%";
    const v = args[k++];
    if (v === undefined || (conv === "d") !== (typeof v === "number")) bad = true;
    const str = String(v);
    const w = Number(width || 0);
    return left ? str.padEnd(w) : str.padStart(w);
  }).replace(/\\n$/, "").replace(/\\t/g, "\t");
  return bad || k !== 2 ? undefined : out;
}

/**
 * awk programs that print a window of lines: a condition on `NR`/`FNR` (`NR>=a && NR<=b`,
 * `NR==n`, `a<=NR`, none) and an action printing the line, optionally numbered
 * (`print NR": "$0`, `print NR, $0`, `printf "%5d: %s\n", NR, $0`).
 */
function awkWindow(
  prog: string,
): { start: number; end?: number; format: (nr: number, text: string) => string } | undefined {
  const m = prog.trim().match(/^([^{]*?)\s*(\{\s*(.*?)\s*;?\s*\})?$/s);
  if (!m) return undefined;
  const cond = m[1].trim();
  const action = (m[3] ?? "print").trim();
  if (!cond && m[2] === undefined) return undefined;
  let format: (nr: number, text: string) => string;
  let pm: RegExpMatchArray | null;
  if (/^print(\s+\$0)?$/.test(action)) format = (_n, t) => t;
  else if ((pm = action.match(/^print\s+F?NR\s*(,|"([^"\\]*)")?\s*\$0$/))) {
    const sep = pm[1] === "," ? " " : pm[2] ?? "";
    format = (n, t) => `${n}${sep}${t}`;
  } else if ((pm = action.match(/^printf\s*\(?\s*"([^"]*)"\s*,\s*F?NR\s*,\s*\$0\s*\)?$/))) {
    const fmt = pm[1];
    if (printf(fmt, 1, "x") === undefined) return undefined;
    format = (n, t) => printf(fmt, n, t)!;
  } else return undefined;
  let start = 1;
  let end: number | undefined;
  const FLIP: Record<string, string> = { "==": "==", ">=": "<=", "<=": ">=", ">": "<", "<": ">" };
  for (const part of cond ? cond.split(/\s*&&\s*/) : []) {
    const p = part.replace(/^\(+|\)+$/g, "").trim();
    let op: string, n: number;
    const a = p.match(/^F?NR\s*(==|>=|<=|>|<)\s*(\d+)$/);
    const b = p.match(/^(\d+)\s*(==|>=|<=|>|<)\s*F?NR$/);
    if (a) [op, n] = [a[1], Number(a[2])];
    else if (b) [op, n] = [FLIP[b[2]], Number(b[1])];
    else return undefined;
    if (op === "==") {
      start = Math.max(start, n);
      end = Math.min(end ?? n, n);
    } else if (op === ">=") start = Math.max(start, n);
    else if (op === ">") start = Math.max(start, n + 1);
    else if (op === "<=") end = Math.min(end ?? n, n);
    else if (op === "<") end = Math.min(end ?? n - 1, n - 1);
  }
  return { start, end, format };
}

function awk(c: Call): StageResult {
  const { opts, rest, bad } = splitOpts(c.args, new Set(["-F", "-v", "-f"]));
  const args = [...rest] as string[];
  const prog = opts.some(([o]) => o === "-f") || bad ? undefined : args.shift();
  const win = prog === undefined ? undefined : awkWindow(prog);
  const pick = (lines: OutLine[]): OutLine[] =>
    lines.slice(
      win!.start - 1,
      win!.end === undefined ? undefined : Math.max(win!.start - 1, win!.end),
    )
      .map((l, i) => ({ ...l, text: win!.format(win!.start + i, l.text) }));
  if (!args.length) {
    const input = plain(c.input);
    if (!win) return { stream: { lines: null, numbered: input.numbered }, kind: "run", paths: [] };
    return {
      stream: { lines: input.lines && pick(input.lines), numbered: input.numbered },
      kind: "run",
      paths: [],
    };
  }
  const { files, outside } = fileArgs(c, args);
  const ex = existing(files);
  if (!win) return { stream: { lines: null }, kind: "run", paths: [], outside };
  const { lines, failed } = readAll(c, "awk", files);
  const single = ex.length === 1 && files.length === 1 ? ex[0] : undefined;
  return {
    stream: {
      lines: lines && pick(lines),
      declared: single ? { file: single, start: win.start, end: win.end } : undefined,
    },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

const GREP_VALUED = new Set([
  "-e",
  "-f",
  "-A",
  "-B",
  "-C",
  "-m",
  "--regexp",
  "--file",
  "--after-context",
  "--before-context",
  "--context",
  "--max-count",
  "--include",
  "--exclude",
  "--exclude-dir",
  "--color",
  "--colour",
  "-d",
  "-D",
]);

function grep(c: Call): StageResult {
  const { opts, rest, bad } = splitOpts(c.args, GREP_VALUED);
  let mode: "G" | "E" | "F" | "P" = c.name === "egrep" ? "E" : c.name === "fgrep" ? "F" : "G";
  let icase = false, word = false, line = false, invert = false, numbers = false;
  let recursive = false, names: "default" | "with" | "without" = "default";
  let listFiles: "" | "l" | "L" = "", countOnly = false, quiet = false, onlyMatching = false;
  let after = 0, before = 0, maxCount = Infinity;
  const patterns: string[] = [];
  let unsupported = bad;
  for (const [o, v] of opts) {
    switch (o) {
      case "-E":
      case "--extended-regexp":
        mode = "E";
        break;
      case "-F":
      case "--fixed-strings":
        mode = "F";
        break;
      case "-G":
      case "--basic-regexp":
        mode = "G";
        break;
      case "-P":
      case "--perl-regexp":
        mode = "P";
        break;
      case "-i":
      case "-y":
      case "--ignore-case":
        icase = true;
        break;
      case "-w":
      case "--word-regexp":
        word = true;
        break;
      case "-x":
      case "--line-regexp":
        line = true;
        break;
      case "-v":
      case "--invert-match":
        invert = true;
        break;
      case "-n":
      case "--line-number":
        numbers = true;
        break;
      case "-r":
      case "-R":
      case "--recursive":
      case "--dereference-recursive":
        recursive = true;
        break;
      case "-H":
      case "--with-filename":
        names = "with";
        break;
      case "-h":
      case "--no-filename":
        names = "without";
        break;
      case "-l":
      case "--files-with-matches":
        listFiles = "l";
        break;
      case "-L":
      case "--files-without-match":
        listFiles = "L";
        break;
      case "-c":
      case "--count":
        countOnly = true;
        break;
      case "-q":
      case "--quiet":
      case "--silent":
        quiet = true;
        break;
      case "-o":
      case "--only-matching":
        onlyMatching = true;
        break;
      case "-s":
      case "--no-messages":
      case "-a":
      case "--text":
      case "-I":
      case "--color":
      case "--colour":
      case "--include":
      case "--exclude":
      case "--exclude-dir":
      case "-Z":
      case "--null":
      case "--binary-files":
      case "-U":
      case "-d":
      case "-D":
        break;
      case "-A":
      case "--after-context":
        after = Number(v);
        break;
      case "-B":
      case "--before-context":
        before = Number(v);
        break;
      case "-C":
      case "--context":
      case "-NUM":
        after = before = Number(v);
        break;
      case "-m":
      case "--max-count":
        maxCount = Number(v);
        break;
      case "-e":
      case "--regexp":
        if (v === undefined) unsupported = true;
        else patterns.push(v);
        break;
      default:
        unsupported = true;
    }
  }
  if (!Number.isFinite(after) || !Number.isFinite(before) || Number.isNaN(maxCount)) {
    unsupported = true;
  }
  const args = [...rest] as string[];
  if (!patterns.length) {
    const p = args.shift();
    if (p === undefined) unsupported = true;
    else patterns.push(p);
  }
  const regexes = patterns.flatMap((p) => p.split("\n")).map((p) =>
    grepRegex(p, { mode, icase, word, line })
  );
  if (regexes.some((r) => !r)) unsupported = true;
  const single = regexes.length === 1 ? regexes[0] : undefined;
  // a literal pattern (most agent greps) is a substring test
  const flat = patterns.flatMap((p) => p.split("\n"));
  const literal = flat.length === 1 && !icase && !word && !line && !invert &&
      (mode === "F" || !(mode === "G" ? /[.[\]*^$\\]/ : /[.[\]*^$\\+?(){}|]/).test(flat[0]))
    ? flat[0]
    : undefined;
  const test = literal !== undefined
    ? (t: string) => t.includes(literal)
    : single
    ? (invert ? (t: string) => !single.test(t) : (t: string) => single.test(t))
    : (t: string) => regexes.some((r) => r!.test(t)) !== invert;
  const withContext = after > 0 || before > 0;

  /** grep over one file's (or stdin's) lines; `name` is the prefix or undefined. */
  const over = (
    lines: OutLine[],
    name: string | undefined,
    text?: string,
  ): { out: OutLine[]; matched: number } => {
    const hits: number[] = [];
    if (literal !== undefined && text !== undefined && !literal.includes("\n")) {
      // find the occurrences in the whole text, then their lines
      let at = text.indexOf(literal);
      if (at >= 0) {
        const starts = lineStarts(text);
        while (at >= 0 && hits.length < maxCount) {
          // the line holding offset `at`: binary search in the line starts
          let lo = 0, hi = starts.length - 1;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (starts[mid] <= at) lo = mid;
            else hi = mid - 1;
          }
          if (lo < lines.length) hits.push(lo);
          at = lo + 1 < starts.length ? text.indexOf(literal, starts[lo + 1]) : -1;
        }
      }
    } else {
      for (let i = 0; i < lines.length && hits.length < maxCount; i++) {
        if (test(lines[i].text)) hits.push(i);
      }
    }
    if (listFiles || countOnly || quiet) return { out: [], matched: hits.length };
    if (onlyMatching && !invert) {
      const out: OutLine[] = [];
      for (const h of hits) {
        const prefix = (name !== undefined ? name + ":" : "") +
          (numbers ? `${lines[h].n ?? h + 1}:` : "");
        for (const r of regexes) {
          const g = new RegExp(r!.source, r!.flags + "g");
          for (const m of lines[h].text.matchAll(g)) {
            if (m[0]) out.push({ ...lines[h], text: prefix + m[0] });
          }
        }
      }
      return { out, matched: hits.length };
    }
    const shown = new Map<number, boolean>(); // index → is match
    for (const h of hits) {
      for (let k = Math.max(0, h - before); k <= Math.min(lines.length - 1, h + after); k++) {
        if (!shown.has(k)) shown.set(k, false);
      }
      shown.set(h, true);
    }
    const out: OutLine[] = [];
    let prev = -2;
    for (const k of [...shown.keys()].sort((a, b) => a - b)) {
      if (withContext && prev >= -1 && k > prev + 1 && prev !== -2) out.push({ text: "--" });
      const sep = shown.get(k) ? ":" : "-";
      const prefix = (name !== undefined ? name + sep : "") +
        (numbers ? `${lines[k].n ?? k + 1}${sep}` : "");
      out.push({ ...lines[k], text: prefix + lines[k].text });
      prev = k;
    }
    return { out, matched: hits.length };
  };

  if (unsupported) {
    return {
      stream: { lines: null },
      kind: "search",
      paths: [],
      other: "grep options not understood",
    };
  }
  // stdin (a filter in a pipeline)
  if (!args.length && !recursive) {
    const input: Stream = c.input ??
      { lines: c.stdin !== undefined ? splitLines(c.stdin).map((t) => ({ text: t })) : [] };
    if (!input.lines) {
      return { stream: { lines: null, numbered: input.numbered }, kind: "run", paths: [] };
    }
    const { out, matched } = over(input.lines, undefined);
    return {
      stream: {
        lines: quiet ? [] : countOnly ? [{ text: String(matched) }] : out,
        numbered: input.numbered,
      },
      kind: "run",
      paths: [],
      failed: matched === 0,
    };
  }
  const targets = args.length ? args : ["."];
  const { files, outside } = fileArgs(c, targets);
  // grep -r on regular files only is a plain grep (no file names for a single file)
  if (
    recursive && files.every((f) =>
      f.rel !== undefined && f.rel !== "" &&
      (c.ws.exists(f.rel) === true || (c.ws.exists(f.rel) === undefined && /\.\w+$/.test(f.rel)))
    )
  ) recursive = false;
  const multi = names === "with" || (names === "default" && (recursive || files.length > 1));
  const numberedStyle: Numbered | undefined = numbers && !listFiles && !countOnly
    ? (multi
      ? { style: "grepN" }
      : files.length === 1 && files[0].rel
      ? { style: "grep1", file: files[0].rel }
      : undefined)
    : undefined;
  const searchedFromOutput = (text: string): string[] => {
    const out = new Set<string>();
    for (const l of splitLines(text)) {
      if (l === "--") continue;
      const p = listFiles ? l : prefixPath(c, l, numbers, files.map((f) => f.rel));
      if (p === undefined) continue;
      const rel = resolve(c, p);
      if (rel && c.ws.exists(rel) !== false) out.add(rel);
    }
    return [...out];
  };
  // operands searched (directories cannot be told from missing files through a FileSource)
  const operandPaths = [
    ...new Set(files.filter((f) => f.rel !== undefined).map((f) => shownPath(f.rel!))),
  ];
  if (recursive) {
    // which files matched is only known from the output; simulate over those files in order
    if (c.observed === undefined) {
      return {
        stream: { lines: null, numbered: numberedStyle },
        kind: "search",
        paths: c.fromPipe ? [] : operandPaths,
        outside,
        needsOutput: true,
        pathsFromOutput: c.fromPipe ? searchedFromOutput : undefined,
      };
    }
    const seen: { display: string; rel: string }[] = [];
    for (const l of splitLines(c.observed)) {
      if (l === "--") continue;
      const p = listFiles ? l : prefixPath(c, l, numbers, undefined);
      if (p === undefined) continue;
      const rel = resolve(c, p);
      if (!rel || !inside(rel, files.map((f) => f.rel))) continue;
      if (!seen.some((s) => s.display === p)) seen.push({ display: p, rel });
    }
    let lines: OutLine[] | null = [];
    let prevHad = false;
    for (const s of seen) {
      const content = c.ws.read(s.rel);
      if (content === undefined || content === UNKNOWN) {
        lines = null;
        break;
      }
      const { out, matched } = over(tagged(s.rel, content), multi ? s.display : undefined, content);
      if (listFiles === "l" && matched) lines.push({ text: s.display });
      if (countOnly) lines.push({ text: `${s.display}:${matched}` });
      if (out.length && withContext && prevHad) lines.push({ text: "--" });
      append(lines, out);
      if (out.length) prevHad = true;
    }
    return {
      stream: { lines: quiet ? [] : lines, numbered: numberedStyle },
      kind: "search",
      paths: c.fromPipe ? [...new Set(seen.map((s) => s.rel))] : operandPaths,
      outside,
      failed: seen.length === 0,
    };
  }
  let lines: OutLine[] | null = [];
  let matchedAny = false;
  let missing = false;
  let prevHad = false;
  for (const f of files) {
    if (f.content === undefined) {
      missing = true;
      if (lines) {
        lines.push(
          ...(c.quietErrors || opts.some(([o]) => o === "-s") ? [] : errLine(c, "grep", f.arg)),
        );
      }
      continue;
    }
    if (f.content === UNKNOWN) {
      lines = null;
      continue;
    }
    const { out, matched } = over(tagged(f.rel!, f.content), multi ? f.arg : undefined, f.content);
    if (matched) matchedAny = true;
    if (!lines) continue;
    if (listFiles === "l" && matched) lines.push({ text: f.arg });
    if (listFiles === "L" && !matched) lines.push({ text: f.arg });
    if (countOnly) lines.push({ text: multi ? `${f.arg}:${matched}` : String(matched) });
    if (out.length && withContext && prevHad) lines.push({ text: "--" });
    append(lines, out);
    if (out.length) prevHad = true;
  }
  const ex = existing(files);
  return {
    stream: { lines: quiet ? [] : lines, numbered: numberedStyle },
    kind: "search",
    paths: ex,
    outside,
    failed: (lines !== null && !matchedAny) || (missing && !ex.length),
  };
}

/**
 * ripgrep as grep: recursive, Rust regex (taken as Perl-like), no line numbers unless `-n`
 * (its output is not a terminal), `path:` prefixes; file-type and glob filters ignored (the
 * output names the files).
 */
function rg(c: Call): StageResult {
  const args: (string | undefined)[] = ["-r", "-P"];
  const skipValue = new Set([
    "-g",
    "--glob",
    "-t",
    "--type",
    "-T",
    "--type-not",
    "--max-columns",
    "-M",
    "-j",
    "--threads",
  ]);
  let fixed = false;
  for (let i = 0; i < c.args.length; i++) {
    const a = c.args[i];
    if (a !== undefined && skipValue.has(a)) {
      i++;
      continue;
    }
    if (a !== undefined && /^--(glob|type|type-not|max-columns|threads)=/.test(a)) continue;
    if (
      a === "-N" || a === "--no-line-number" || a === "--no-heading" || a === "-S" ||
      a === "--smart-case" || a === "--hidden" || a === "--no-ignore" || a === "-uu" ||
      a === "-u" || a === "--color=never"
    ) continue;
    if (a === "-F" || a === "--fixed-strings") fixed = true;
    args.push(a);
  }
  if (fixed) args.splice(1, 1);
  const operands = c.args.filter((a) => a === undefined || !a.startsWith("-")).length;
  if (c.input && operands <= 1) {
    return grep({
      ...c,
      name: "grep",
      args: args.filter((a) => a !== "-r"),
    });
  }
  return grep({ ...c, name: "grep", args });
}

function inside(rel: string, roots: (string | undefined)[]): boolean {
  return roots.some((r) => r !== undefined && (r === "" || rel === r || rel.startsWith(r + "/")));
}

/** The file-name prefix of a grep output line (`path:12:text`, `path-3-text`, `path:text`). */
function prefixPath(
  c: Call,
  line: string,
  numbers: boolean,
  roots: (string | undefined)[] | undefined,
): string | undefined {
  if (numbers) {
    const re = /[:-](\d+)[:-]/g;
    let m: RegExpExecArray | null;
    let first: string | undefined;
    while ((m = re.exec(line))) {
      const p = line.slice(0, m.index);
      first ??= p;
      const rel = resolve(c, p);
      if (rel && c.ws.exists(rel) === true && (!roots || inside(rel, roots))) return p;
      re.lastIndex = m.index + 1;
    }
    return c.ws.known ? undefined : first;
  }
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== ":" && line[i] !== "-") continue;
    const p = line.slice(0, i);
    const rel = resolve(c, p);
    if (rel && c.ws.exists(rel) === true) return p;
    if (!c.ws.known && line[i] === ":") return p;
  }
  return undefined;
}

/**
 * Files a script writes in ways the reader cannot reproduce (`open(p, "w")`, `Path(p).write_text`,
 * `shutil.copy(a, p)`): their content becomes unknown, so later reads fall back on the output.
 */
function scriptWrites(c: Call, code: string): StageResult["writes"] {
  const out: NonNullable<StageResult["writes"]> = [];
  const res = [
    /open\(\s*(?:r|f)?(['"])([^'"\n]+)\1\s*,\s*(?:mode\s*=\s*)?['"][wax+]/g,
    /Path\(\s*(['"])([^'"\n]+)\1\s*\)\s*\.write_(?:text|bytes)\(/g,
    /shutil\.(?:copy\w*|move)\([^,]+,\s*(['"])([^'"\n]+)\1/g,
  ];
  for (const re of res) {
    for (const m of code.matchAll(re)) {
      const rel = resolve(c, m[2]);
      if (rel) out.push({ path: rel, content: UNKNOWN });
    }
  }
  // the same through a variable: p = "x.py" … open(p, "w")
  const vars = new Map<string, string>();
  for (
    const m of code.matchAll(/^[ \t]*(\w+)\s*=\s*(?:Path\()?\s*(['"])([^'"\n]+)\2\s*\)?\s*$/gm)
  ) vars.set(m[1], m[3]);
  const viaVar = [
    /open\(\s*(\w+)\s*,\s*(?:mode\s*=\s*)?['"][wax+]/g,
    /\b(\w+)\.write_(?:text|bytes)\(/g,
    /Path\(\s*(\w+)\s*\)\s*\.write_(?:text|bytes)\(/g,
  ];
  for (const re of viaVar) {
    for (const m of code.matchAll(re)) {
      const v = vars.get(m[1]);
      const rel = v === undefined ? undefined : resolve(c, v);
      if (rel) out.push({ path: rel, content: UNKNOWN });
    }
  }
  return out;
}

function python(c: Call): StageResult {
  const i = c.args.indexOf("-c");
  const script = i >= 0 ? c.args[i + 1] : c.stdin !== undefined &&
      (c.args.includes("-") || !c.args.some((a) => a !== undefined && !a.startsWith("-")))
    ? c.stdin
    : undefined;
  const writes = script === undefined ? [] : scriptWrites(c, script)!;
  if (writes.length) {
    return { stream: { lines: null }, kind: "write", paths: writes.map((w) => w.path), writes };
  }
  const code = i >= 0 ? c.args[i + 1] : undefined;
  if (code === undefined) return { stream: { lines: null }, kind: "run", paths: [] };
  // print(open("f").read())  → the whole file (print adds a newline)
  const whole = code.match(
    /^\s*print\(\s*open\(\s*(['"])([^'"]+)\1\s*(?:,\s*['"]r['"]\s*)?\)\.read\(\)\s*\)\s*;?\s*$/,
  );
  if (whole) {
    const { files, outside } = fileArgs(c, [whole[2]]);
    const f = files[0];
    const lines = f.content === undefined ? null : f.content === UNKNOWN ? null : [
      ...tagged(f.rel!, f.content),
      ...(f.content === "" || f.content.endsWith("\n") ? [{ text: "" }] : []),
    ];
    return {
      stream: { lines, declared: f.rel ? { file: f.rel, start: 1, trailer: 1 } : undefined },
      kind: "read",
      paths: existing(files),
      outside,
      failed: f.content === undefined,
    };
  }
  // slices of readlines(): lines a+1 .. b
  const slice = code.match(
    /open\(\s*(['"])([^'"]+)\1[^)]*\)\.(?:readlines\(\)|read\(\)\.split(?:lines)?\([^)]*\))\s*\[\s*(\d*)\s*:\s*(\d*)\s*\]/,
  );
  if (slice) {
    const { files, outside } = fileArgs(c, [slice[2]]);
    const f = files[0];
    const start = Number(slice[3] || 0) + 1;
    const end = slice[4] ? Number(slice[4]) : undefined;
    return {
      stream: { lines: null, declared: f.rel ? { file: f.rel, start, end } : undefined },
      kind: "read",
      paths: existing(files),
      outside,
      failed: f.content === undefined,
    };
  }
  return { stream: { lines: null }, kind: "run", paths: [] };
}

function ls(c: Call): StageResult {
  const { rest } = splitOpts(c.args, new Set(["-I", "--ignore", "-w"]));
  const dirs = rest.filter((r) => r !== undefined) as string[];
  return operands(c, dirs.length ? dirs : ["."], "list");
}

/** The workspace directory "" shown as ".". */
export function shownPath(rel: string): string {
  return rel === "" ? "." : rel;
}

/** A listing or search of operands: Files counts each operand listed or searched. */
function operands(c: Call, targets: string[], kind: "list" | "search"): StageResult {
  const rels = targets.map((t) => resolve(c, t));
  const outside = targets.filter((_, i) => rels[i] === undefined);
  const paths = [
    ...new Set(
      rels.filter((r): r is string => r !== undefined).map(shownPath),
    ),
  ];
  return { stream: { lines: null }, kind, paths, outside };
}

function findCmd(c: Call): StageResult {
  const roots: string[] = [];
  for (const a of c.args) {
    if (a === undefined || a.startsWith("-") || a === "(" || a === "!") break;
    roots.push(a);
  }
  if (c.args.includes("-exec") || c.args.includes("-delete")) {
    const rels = (roots.length ? roots : ["."]).map((r) => resolve(c, r));
    if (c.args.includes("-delete")) return { stream: { lines: null }, kind: "run", paths: [] };
    const execIdx = c.args.indexOf("-exec");
    const tool = c.args[execIdx + 1];
    if (tool === "grep" || tool === "cat" || tool === "head" || tool === "sed") {
      return {
        stream: { lines: null },
        kind: tool === "grep" ? "search" : "read",
        paths: rels.filter((r): r is string => r !== undefined).map(shownPath),
        pathsFromOutput: (text) =>
          splitLines(text).map((l) => {
            const p = l.match(/^(\.?\/?[\w./-]+\.\w+):/)?.[1];
            return p ? resolve(c, p) : undefined;
          }).filter((p): p is string => !!p && rels.some((r) => r !== undefined && inside(p, [r]))),
      };
    }
  }
  return operands(c, roots.length ? roots : ["."], "list");
}

function tree(c: Call): StageResult {
  const dirs = c.args.filter((a): a is string => a !== undefined && !a.startsWith("-"));
  const rels = (dirs.length ? dirs : ["."]).map((d) => resolve(c, d)).filter((r): r is string =>
    r !== undefined
  );
  return { stream: { lines: null }, kind: "list", paths: rels.map(shownPath) };
}

function wc(c: Call): StageResult {
  const names = c.args.filter((a): a is string => a !== undefined && !a.startsWith("-"));
  if (!names.length) return { stream: { lines: null }, kind: "run", paths: [] };
  const { files, outside } = fileArgs(c, names);
  return { stream: { lines: null }, kind: "search", paths: existing(files), outside };
}

function cd(c: Call): StageResult {
  const target = c.args[0];
  if (target === undefined && c.args.length) {
    return { stream: { lines: [] }, kind: "run", paths: [], cd: null };
  }
  const rel = target === undefined || target === "~" ? null : resolve(c, target) ?? null;
  return { stream: { lines: [] }, kind: "run", paths: [], cd: rel };
}

function echo(c: Call): StageResult {
  const args = [...c.args];
  let newline = true;
  while (args.length && /^-[neE]+$/.test(args[0] ?? "")) {
    if (args[0]!.includes("n")) newline = false;
    args.shift();
  }
  if (args.some((a) => a === undefined)) return { stream: { lines: null }, kind: "run", paths: [] };
  const text = args.join(" ") + (newline ? "\n" : "");
  return { stream: { lines: splitLines(text).map((t) => ({ text: t })) }, kind: "run", paths: [] };
}

function cpMv(c: Call, move: boolean): StageResult {
  const names = c.args.filter((a) => a === undefined || !a.startsWith("-"));
  if (names.length !== 2 || names.some((n) => n === undefined)) {
    return { stream: { lines: [] }, kind: "write", paths: [] };
  }
  const [src, dst] = names as string[];
  const s = resolve(c, src);
  let d = resolve(c, dst);
  const writes: StageResult["writes"] = [];
  const content = s === undefined ? UNKNOWN : c.ws.read(s);
  if (d !== undefined && content !== undefined) {
    if (c.ws.exists(d) === undefined && dst.endsWith("/")) d = `${d}/${src.split("/").pop()}`;
    writes.push({ path: d, content });
  }
  if (move && s !== undefined && content !== undefined) writes.push({ path: s, content: null });
  return { stream: { lines: [] }, kind: "write", paths: writes.map((w) => w.path), writes };
}

function rm(c: Call): StageResult {
  const names = c.args.filter((a): a is string => a !== undefined && !a.startsWith("-"));
  const writes = names.map((n) => resolve(c, n)).filter((r): r is string => !!r).map((path) => ({
    path,
    content: null,
  }));
  return { stream: { lines: [] }, kind: "write", paths: writes.map((w) => w.path), writes };
}

function touch(c: Call): StageResult {
  const writes: StageResult["writes"] = [];
  for (const n of c.args) {
    if (n === undefined || n.startsWith("-")) continue;
    const rel = resolve(c, n);
    if (rel && c.ws.exists(rel) === false) writes.push({ path: rel, content: "" });
  }
  return { stream: { lines: [] }, kind: "write", paths: writes.map((w) => w.path), writes };
}

function tee(c: Call): StageResult {
  const input = plain(
    c.input ??
      (c.stdin !== undefined
        ? { lines: splitLines(c.stdin).map((t) => ({ text: t })) }
        : undefined),
  );
  const append = c.args.includes("-a");
  const text = input.lines ? input.lines.map((l) => l.text + "\n").join("") : undefined;
  const writes: StageResult["writes"] = [];
  for (const n of c.args) {
    if (n === undefined || n.startsWith("-")) continue;
    const rel = resolve(c, n);
    if (!rel) continue;
    const prev = c.ws.read(rel);
    const content = text === undefined
      ? UNKNOWN
      : append
      ? (typeof prev === "string" ? prev + text : prev === undefined ? text : UNKNOWN)
      : text;
    writes.push({ path: rel, content });
  }
  return { stream: input, kind: "write", paths: writes.map((w) => w.path), writes };
}

/** Commands that print nothing and change nothing the reader tracks. */
export const SILENT: ReadonlySet<string> = new Set([
  "export",
  "set",
  "unset",
  "true",
  ":",
  "source",
  ".",
  "alias",
  "shopt",
  "ulimit",
  "sleep",
  "mkdir",
  "chmod",
  "pushd",
  "popd",
  "hash",
  "umask",
]);

/** Filters whose output is unknown but whose line-number prefixes survive. */
const KEEP_NUMBERS = new Set(["sort", "uniq", "column", "fold", "tac"]);

/** Runs one stage. */
export function runStage(c: Call): StageResult {
  switch (c.name) {
    case "cat":
      return cat(c);
    case "more":
    case "less":
      // PAGER=cat in the harnesses: a pager on files prints them
      return c.args.some((a) => a !== undefined && !a.startsWith("-"))
        ? cat({ ...c, args: c.args.filter((a) => a === undefined || !a.startsWith("-")) })
        : { stream: c.input ?? { lines: null }, kind: "run", paths: [] };
    case "nl":
      return nl(c);
    case "head":
      return headTail(c, false);
    case "tail":
      return headTail(c, true);
    case "sed":
    case "gsed":
      return sed(c);
    case "awk":
    case "gawk":
    case "mawk":
      return awk(c);
    case "grep":
    case "egrep":
    case "fgrep":
      return grep(c);
    case "rg":
      return rg(c);
    case "python":
    case "python3":
      return python(c);
    case "ls":
      return ls(c);
    case "find":
      return findCmd(c);
    case "tree":
      return tree(c);
    case "wc":
      return c.input ? { stream: { lines: null }, kind: "run", paths: [] } : wc(c);
    case "cd":
      return cd(c);
    case "echo":
      return echo(c);
    case "cp":
      return cpMv(c, false);
    case "mv":
      return cpMv(c, true);
    case "rm":
      return rm(c);
    case "touch":
      return touch(c);
    case "tee":
      return tee(c);
  }
  if (SILENT.has(c.name)) return { stream: { lines: [] }, kind: "run", paths: [] };
  if (c.name === "perl" && c.args.some((a) => a !== undefined && /^-\w*i/.test(a))) {
    // perl -pi -e '…' files: in-place edits the reader does not reproduce
    const files = c.args.filter((a, k) =>
      a !== undefined && !a.startsWith("-") && c.args[k - 1] !== "-e"
    );
    const writes = files.map((f) => resolve(c, f!)).filter((r): r is string => !!r).map((path) => ({
      path,
      content: UNKNOWN as typeof UNKNOWN,
    }));
    return { stream: { lines: [] }, kind: "write", paths: writes.map((w) => w.path), writes };
  }
  if (c.name === "patch" || (c.name === "git" && c.args[0] === "apply")) {
    // the files a unified diff on stdin touches (+++ b/path)
    const writes: NonNullable<StageResult["writes"]> = [];
    for (const m of (c.stdin ?? "").matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) {
      const rel = resolve(c, m[1]);
      if (rel && m[1] !== "/dev/null") writes.push({ path: rel, content: UNKNOWN });
    }
    return {
      stream: { lines: null },
      kind: writes.length ? "write" : "run",
      paths: writes.map((w) => w.path),
      writes,
    };
  }
  if (KEEP_NUMBERS.has(c.name) && c.input) {
    return { stream: { lines: null, numbered: c.input.numbered }, kind: "run", paths: [] };
  }
  return { stream: { lines: null }, kind: "run", paths: [] };
}
