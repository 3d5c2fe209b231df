/**
 * `grep` (BRE/ERE/fixed/Perl patterns, -n/-r/-l/-c/-o/-v/-A/-B/-C/-m, several files, recursive
 * searches sized from the observed output) and `rg`.
 *
 * @module
 */
import { splitLines, UNKNOWN } from "../workspace.ts";
import { grepRegex } from "./regex.ts";
import {
  append,
  type Call,
  errLine,
  existing,
  fileArgs,
  inside,
  lineStarts,
  type Numbered,
  type OutLine,
  resolve,
  shownPath,
  splitOpts,
  type StageResult,
  type Stream,
  tagged,
} from "./stream.ts";

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

/** Matched lines per (file, literal) for the file's current text (repeated searches are common). */
const HITS = new Map<string, { text: string; hits: number[] }>();

export function grep(c: Call): StageResult {
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
      const memoKey = `${lines[0]?.file ?? ""}\u0000${literal}`;
      const memo = HITS.get(memoKey);
      const known = memo?.text === text ? memo.hits : undefined;
      let at = known ? -1 : text.indexOf(literal);
      if (known) { for (const h of known) if (hits.length < maxCount) hits.push(h); }
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
      if (!known && maxCount === Infinity) {
        if (HITS.size > 4096) HITS.clear();
        HITS.set(memoKey, { text, hits: [...hits] });
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
export function rg(c: Call): StageResult {
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
