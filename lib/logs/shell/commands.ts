/**
 * What individual shell commands print, simulated over the workspace: the dispatcher of the
 * commands agents use — readers (see print.ts, grep.ts), `python -c`, listings, writes — each
 * output line tagged with the file line it shows, if any.
 *
 * @module
 */
import { splitLines, UNKNOWN } from "../workspace.ts";
import { grep, rg } from "./grep.ts";
import { awk, cat, headTail, nl, sed } from "./print.ts";
import {
  type Call,
  existing,
  fileArgs,
  inside,
  plain,
  resolve,
  shownPath,
  splitOpts,
  type StageResult,
  tagged,
} from "./stream.ts";

export type { Call, Numbered, OutLine, StageResult, Stream } from "./stream.ts";
export { shownPath } from "./stream.ts";
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
  if (code === undefined) return opaque();
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
  return opaque();
}

function ls(c: Call): StageResult {
  const { rest } = splitOpts(c.args, new Set(["-I", "--ignore", "-w"]));
  const dirs = rest.filter((r) => r !== undefined) as string[];
  return operands(c, dirs.length ? dirs : ["."], "list");
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
    if (c.args.includes("-delete")) return opaque();
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

/** `rg --files [dir…]`: a listing of its operands (glob and type filter values skipped). */
function rgFiles(c: Call): StageResult {
  const { rest } = splitOpts(
    c.args,
    new Set(["-g", "--glob", "-t", "--type", "-T", "--type-not", "--iglob", "-j", "--threads"]),
  );
  const dirs = rest.filter((r) => r !== undefined) as string[];
  return operands(c, dirs.length ? dirs : ["."], "list");
}

function tree(c: Call): StageResult {
  const { rest } = splitOpts(c.args, new Set(["-I", "-P", "-L", "--filelimit", "-o"]));
  const dirs = rest.filter((a): a is string => a !== undefined && !a.startsWith("-"));
  const rels = (dirs.length ? dirs : ["."]).map((d) => resolve(c, d)).filter((r): r is string =>
    r !== undefined
  );
  return { stream: { lines: null }, kind: "list", paths: rels.map(shownPath) };
}

function wc(c: Call): StageResult {
  const names = c.args.filter((a): a is string => a !== undefined && !a.startsWith("-"));
  if (!names.length) return opaque();
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
  if (args.some((a) => a === undefined)) return opaque();
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

/** A stage the reader does not simulate: it runs, and what it prints is not known. */
function opaque(): StageResult {
  return { stream: { lines: null }, kind: "run", paths: [] };
}

/** The simulated commands (aliases share one stage). */
const STAGES = new Map<string, (c: Call) => StageResult>([
  ["cat", cat],
  ["more", pager],
  ["less", pager],
  ["nl", nl],
  ["head", (c) => headTail(c, false)],
  ["tail", (c) => headTail(c, true)],
  ["sed", sed],
  ["gsed", sed],
  ["awk", awk],
  ["gawk", awk],
  ["mawk", awk],
  ["grep", grep],
  ["egrep", grep],
  ["fgrep", grep],
  ["rg", (c) => c.args.includes("--files") ? rgFiles(c) : rg(c)],
  ["python", python],
  ["python3", python],
  ["ls", ls],
  ["find", findCmd],
  ["tree", tree],
  ["wc", (c) => c.input ? opaque() : wc(c)],
  ["cd", cd],
  ["echo", echo],
  ["cp", (c) => cpMv(c, false)],
  ["mv", (c) => cpMv(c, true)],
  ["rm", rm],
  ["touch", touch],
  ["tee", tee],
]);

/** `more` / `less`: PAGER=cat in the harnesses, so a pager on files prints them. */
function pager(c: Call): StageResult {
  return c.args.some((a) => a !== undefined && !a.startsWith("-"))
    ? cat({ ...c, args: c.args.filter((a) => a === undefined || !a.startsWith("-")) })
    : { stream: c.input ?? { lines: null }, kind: "run", paths: [] };
}

/** Runs one stage. */
export function runStage(c: Call): StageResult {
  const stage = STAGES.get(c.name);
  if (stage) return stage(c);
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
  return opaque();
}
