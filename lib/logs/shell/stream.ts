/**
 * The data model of the shell simulation: output lines tagged with the file line they show,
 * streams through a pipeline, stage results, and the helpers every command uses (path
 * resolution, file operands, option splitting).
 *
 * @module
 */
import type { EventKind } from "../types.ts";
import { type Content, splitLines, type TurnWorkspace, UNKNOWN } from "../workspace.ts";

/** One line of a command's output; `file`/`n` when it shows line `n` (1-based) of `file`. */
export interface OutLine {
  text: string;
  file?: string;
  n?: number;
}

/** How line numbers appear in an output (so they can be read back without the workspace). */
export interface Numbered {
  /**
   * `nl`: `^\s*N\t`; `grep1`: `^N[:-]` of `file`; `grepN`: `^path[:-]N[:-]`; `sls`:
   * PowerShell `Select-String`'s `[> |  ]path:N:`; `agent`: numbers a script printed before each
   * line of `file` (`   12: text`, `12 | text`, `12\ttext`).
   */
  style: "nl" | "grep1" | "grepN" | "sls" | "agent";
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
  ws: TurnWorkspace;
  cwd: string | undefined;
  /** stderr goes to /dev/null. */
  quietErrors: boolean;
  /** The observed output text of this command, when known (recursive grep). */
  observed?: string;
  /** File operands come from the pipe (`… | xargs grep`). */
  fromPipe?: boolean;
}

export const NUM = /^\d+$/;

/** Resolves a path argument; undefined when outside the workspace. */
export function resolve(c: Call, p: string): string | undefined {
  return c.ws.resolve(p, c.cwd);
}

export interface FileArg {
  arg: string;
  rel?: string;
  content: Content;
}

export function fileArgs(c: Call, names: string[]): { files: FileArg[]; outside: string[] } {
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
export function append<T>(dst: T[], src: readonly T[]): void {
  for (let i = 0; i < src.length; i++) dst.push(src[i]);
}

const STARTS = new Map<string, number[]>();

/** Offsets where each line of a text starts (memoised for the last texts seen). */
export function lineStarts(text: string): number[] {
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
export function tagged(rel: string, text: string): OutLine[] {
  const hit = TAGGED.get(rel);
  if (hit && hit.text === text) return hit.lines;
  const lines = splitLines(text).map((t, i) => ({ text: t, file: rel, n: i + 1 }));
  if (TAGGED.size > 1024) TAGGED.clear();
  TAGGED.set(rel, { text, lines });
  return lines;
}

export function errLine(c: Call, cmd: string, arg: string): OutLine[] {
  return c.quietErrors ? [] : [{ text: `${cmd}: ${arg}: No such file or directory` }];
}

/** Reads file arguments into one stream (unknown when any content is unknown). */
export function readAll(
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

export function existing(files: FileArg[]): string[] {
  return [...new Set(files.filter((f) => f.rel && f.content !== undefined).map((f) => f.rel!))];
}

export function numberLines(lines: OutLine[], all: boolean): OutLine[] {
  let k = 0;
  return lines.map((l) => {
    if (!all && l.text.trim() === "") return { ...l, text: "" };
    k++;
    return { ...l, text: `${String(k).padStart(6)}\t${l.text}` };
  });
}

/** Splits option arguments from operands (stops at `--`); `valued` options take the next argument. */
export function splitOpts(
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

export function plain(stream: Stream | undefined): Stream {
  return stream ?? { lines: [] };
}

// ---------------------------------------------------------------- sources and filters
/** The workspace directory "" shown as ".". */
export function shownPath(rel: string): string {
  return rel === "" ? "." : rel;
}

export function inside(rel: string, roots: (string | undefined)[]): boolean {
  return roots.some((r) => r !== undefined && (r === "" || rel === r || rel.startsWith(r + "/")));
}
