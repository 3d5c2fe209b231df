/**
 * Commands that print file lines: `cat`, `nl`, `head`, `tail`, `sed`, `awk`.
 *
 * @module
 */
import { splitLines, UNKNOWN } from "../workspace.ts";
import { parseSed, runSed } from "./sed.ts";
import {
  append,
  type Call,
  errLine,
  existing,
  fileArgs,
  NUM,
  numberLines,
  type OutLine,
  plain,
  readAll,
  splitOpts,
  type StageResult,
  type Stream,
  tagged,
} from "./stream.ts";

export function cat(c: Call): StageResult {
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

const NUMBERED = new Map<string, { text: string; lines: OutLine[] }>();

export function nl(c: Call): StageResult {
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
  // one file: its numbered lines are memoised (agents view the same file window after window)
  const one = files.length === 1 && typeof files[0].content === "string" ? files[0] : undefined;
  const key = one && `${one.rel}\u0000${all}\u0000${width}\u0000${sep}`;
  let shown: OutLine[] | null = null;
  if (lines && ok) {
    const hit = key ? NUMBERED.get(key) : undefined;
    if (hit && hit.text === one!.content) shown = hit.lines;
    else {
      shown = fmt(lines);
      if (key) {
        if (NUMBERED.size > 256) NUMBERED.clear();
        NUMBERED.set(key, { text: one!.content as string, lines: shown });
      }
    }
  }
  return {
    stream: {
      lines: shown,
      numbered: ex.length === 1 && sep === "\t" ? { style: "nl", file: ex[0] } : undefined,
    },
    kind: "read",
    paths: ex,
    outside,
    failed: failed && !ex.length,
  };
}

export function headTail(c: Call, tail: boolean): StageResult {
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

export function sed(c: Call): StageResult {
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

export function awk(c: Call): StageResult {
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
