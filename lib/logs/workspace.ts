/**
 * The workspace as a reader sees it during one turn: the files of W_{t-1} (a {@link FileSource})
 * plus an overlay of what the agent wrote earlier in the turn, and the mapping of harness paths
 * (`/testbed/x.py`, `../x`) to workspace-relative posix paths. Paths outside the workspace map
 * to `undefined` and are never read.
 *
 * @module
 */
import type { FileSource, Ranges } from "./types.ts";
import { rangesOf } from "./ranges.ts";

const rangesOfLines = (ns: number[]): [number, number][] => rangesOf(ns);

/**
 * A {@link FileSource} that also collects the absolute paths a {@link TurnWorkspace} over it found
 * outside its root (at most {@link MAX_OUTSIDE}); `parseLog` uses them to tell a wrong `cwd`.
 */
export interface TrackedSource extends FileSource {
  outside?: Set<string>;
}

/** At most this many outside paths are collected per log. */
export const MAX_OUTSIDE = 4096;

/**
 * One line a tool call or command showed the model: its 1-based number in the file and the text
 * shown for it (without the harness's number prefix), or `undefined` when the text cannot be told
 * (a line count or window only). `printed`, when given, is what the line prints as through the
 * command that showed it (the shell simulation's output line, e.g. `a.py:3:x` for `grep -n`): the
 * text shown must then be exactly that.
 */
export type ShownLine = readonly [n: number, text: string | undefined, printed?: string];

/** What a read is credited with after {@link TurnWorkspace.credit} checked it. */
export interface Credit {
  /** The lines credited, as merged ranges. */
  lines: [number, number][];
  /** False when some line shown could not be credited. */
  placed: boolean;
  /** Why lines were not credited, when some were not. */
  note?: string;
}

/** The suffixes harnesses append to a line they cut (Gemini `... [truncated]`, Claude `…`). */
const CUT_MARK = /\s*(?:\.\.\. \[truncated\]|\[truncated\]|\u2026|\.\.\.)$/;

/**
 * True when `shown` is what a harness shows of file line `line`: the same text (trailing blanks
 * and a CR aside), or a prefix of at least 80 characters of a longer line (harnesses cut long
 * lines: Claude Code `Read` at 2,000 characters, Codex `read_file` at 500, Gemini CLI with
 * `... [truncated]`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameLine } from "./workspace.ts";
 * assert.ok(sameLine("x = 1", "x = 1") && sameLine("x = 1  ", "x = 1") && !sameLine("x = 1", "x = 2"));
 * const long = "y".repeat(3000);
 * assert.ok(sameLine(long, "y".repeat(2000)) && sameLine(long, "y".repeat(500) + "... [truncated]"));
 * assert.ok(!sameLine(long, "y"));
 * ```
 */
export function sameLine(line: string, shown: string): boolean {
  if (line === shown) return true;
  const a = line.trimEnd(), b = shown.trimEnd();
  if (a === b) return true;
  const cut = b.replace(CUT_MARK, "");
  return cut.length >= 80 && a.length > cut.length && a.startsWith(cut);
}

/** Content of a file the agent changed in a way the reader could not reproduce. */
export const UNKNOWN: unique symbol = Symbol("unknown content");
/** File content: text, {@link UNKNOWN}, or `undefined` when the file does not exist. */
export type Content = string | typeof UNKNOWN | undefined;

/**
 * Normalises a posix path made of segments (no leading slash) and returns undefined when `..`
 * climbs above the start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeRelative } from "./workspace.ts";
 * assert.ok(normalizeRelative("a/./b/../c.py") === "a/c.py");
 * assert.ok(normalizeRelative("../x") === undefined);
 * ```
 */
export function normalizeRelative(path: string): string | undefined {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/**
 * A Windows absolute path in posix form — drive letter upper-cased, `\` turned into `/`
 * (`c:\Users\x\proj\a.py`, `C:/Users/x/proj/a.py` and mixed separators all give
 * `C:/Users/x/proj/a.py`; `\\server\share\a` gives `//server/share/a`; the `\\?\` prefix is
 * dropped) —, or undefined when `path` is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowsPath } from "./workspace.ts";
 * assert.equal(windowsPath("c:\\Users\\x\\proj/src\\a.py"), "C:/Users/x/proj/src/a.py");
 * assert.equal(windowsPath("\\\\?\\D:\\w\\b.py"), "D:/w/b.py");
 * assert.equal(windowsPath("/home/x/a.py"), undefined);
 * assert.equal(windowsPath("C:"), undefined);
 * ```
 */
export function windowsPath(path: string): string | undefined {
  let p = path.startsWith("\\\\?\\") || path.startsWith("//?/") ? path.slice(4) : path;
  if (/^[A-Za-z]:[\\/]/.test(p)) {
    p = p[0].toUpperCase() + p.slice(1);
  } else if (!/^\\\\[^\\/]/.test(p)) return undefined;
  return p.replaceAll("\\", "/").replace(/(?<=.)\/{2,}/g, "/");
}

/**
 * The workspace of one turn as a log reader sees it: a base {@link FileSource} (W_{t-1}, or none)
 * plus the agent's writes during the turn.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TurnWorkspace } from "./workspace.ts";
 * const ws = new TurnWorkspace((p) => p === "a.py" ? "x = 1\n" : undefined, "/testbed");
 * assert.ok(ws.resolve("/testbed/pkg/../a.py", "") === "a.py");
 * assert.ok(ws.resolve("/etc/passwd", "") === undefined);
 * ws.write("b.py", "y = 2\n");
 * assert.ok(ws.read("b.py") === "y = 2\n" && ws.read("a.py") === "x = 1\n");
 * ```
 */
export class TurnWorkspace {
  /** Absolute harness directory that is the workspace root (`/testbed`), without trailing slash. */
  readonly root: string;
  /** True when the base files are known (a FileSource was given). */
  readonly known: boolean;
  readonly #base?: FileSource;
  /** The workspace this one was forked from (reads fall through to it). */
  readonly #parent?: TurnWorkspace;
  readonly #overlay = new Map<string, string | null | typeof UNKNOWN>();
  readonly #cache = new Map<string, string | undefined>();
  readonly #resolved = new Map<string, string | undefined>();

  constructor(base: FileSource | undefined, root: string, parent?: TurnWorkspace) {
    this.#base = base;
    this.#parent = parent;
    this.known = base !== undefined;
    const win = windowsPath(root);
    this.#windows = win !== undefined;
    this.root = (win ?? root).replace(/\/+$/, "");
  }

  /** True when the root is a Windows path (`C:/Users/x/proj`): paths compare case-insensitively. */
  readonly #windows: boolean;

  /** True when the root is a Windows path (the harness ran on Windows). */
  get windows(): boolean {
    return this.#parent ? this.#parent.windows : this.#windows;
  }

  /**
   * Workspace-relative path of `path` as a command run in `cwd` (workspace-relative directory,
   * or undefined when outside) sees it; undefined when it lies outside the workspace.
   */
  resolve(path: string, cwd: string | undefined): string | undefined {
    if (this.#parent) return this.#parent.resolve(path, cwd);
    const key = `${cwd ?? "\u0001"}\u0000${path}`;
    if (this.#resolved.has(key)) return this.#resolved.get(key);
    const rel = this.#resolve(path, cwd);
    if (this.#resolved.size > 8192) this.#resolved.clear();
    this.#resolved.set(key, rel);
    return rel;
  }

  #resolve(path: string, cwd: string | undefined): string | undefined {
    if (!path || path.includes("\0")) return undefined;
    if (path.startsWith("~")) return undefined;
    // a Windows absolute path (`C:\…`, `c:/…`, `\\server\share`) is absolute, never a name
    // joined onto the root; under a Windows root, `\` separates relative paths too
    const win = windowsPath(path);
    if (win !== undefined || path.startsWith("/")) {
      const abs = win ?? path;
      const root = this.root;
      const same = (a: string, b: string) =>
        this.#windows ? a.toLowerCase() === b.toLowerCase() : a === b;
      if (root && same(abs, root)) return "";
      if (!root || !same(abs.slice(0, root.length + 1), root + "/")) {
        const seen = (this.#base as TrackedSource | undefined)?.outside;
        if (seen && seen.size < MAX_OUTSIDE) seen.add(abs);
        return undefined;
      }
      return normalizeRelative(abs.slice(root.length + 1));
    }
    if (cwd === undefined) return undefined;
    const rel = this.#windows ? path.replaceAll("\\", "/") : path;
    return normalizeRelative(cwd ? `${cwd}/${rel}` : rel);
  }

  /** Absolute harness path of a workspace-relative path. */
  absolute(rel: string): string {
    return rel ? `${this.root}/${rel}` : this.root;
  }

  #own(rel: string): string | null | typeof UNKNOWN | undefined {
    const o = this.#overlay.get(rel);
    if (o !== undefined) return o;
    return this.#parent ? this.#parent.#own(rel) : undefined;
  }

  #baseRead(rel: string): string | undefined {
    if (this.#parent) return this.#parent.#baseRead(rel);
    if (this.#cache.has(rel)) return this.#cache.get(rel);
    let text: string | undefined;
    try {
      const t = this.#base!(rel);
      // CRLF line endings read as LF, like the log's own texts (parse.ts): same line numbers
      text = typeof t === "string"
        ? (t.includes("\r\n") ? t.replaceAll("\r\n", "\n") : t)
        : undefined;
    } catch {
      text = undefined;
    }
    this.#cache.set(rel, text);
    return text;
  }

  /** Content of a workspace-relative file as it is now in the turn. */
  read(rel: string): Content {
    const o = this.#own(rel);
    if (o !== undefined) return o === null ? undefined : o;
    if (!this.#base) return UNKNOWN;
    return this.#baseRead(rel);
  }

  /**
   * The lines of a file's content: split once per distinct text in this thread and kept
   * ({@link splitLinesCached}), so that W0's files, read again by every turn a worker parses, are
   * not split again for each.
   */
  linesOf(text: string): readonly string[] {
    return splitLinesCached(text);
  }

  /** True/false when known whether the file exists now, undefined when not known. */
  exists(rel: string): boolean | undefined {
    const c = this.read(rel);
    if (c === UNKNOWN) return this.#own(rel) !== undefined ? true : undefined;
    return c !== undefined;
  }

  /**
   * The lines of a read of `rel` that may be credited: the one check every reader's reads go
   * through (issue 22, item 8). With the workspace known, a line is credited only when the file
   * is a regular file inside the workspace (absent, outside, or not a regular file: nothing is),
   * the line exists (a read clipped to a shorter file credits no line past its end), and the text
   * shown for it, when known, is the file's line ({@link sameLine}). Without the workspace, or
   * for a file whose content the reader could not reproduce, the numbers shown are credited as
   * they are (nothing to check against). Lines not credited make the read unplaced.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { TurnWorkspace } from "./workspace.ts";
   * const ws = new TurnWorkspace((p) => (p === "a.py" ? "x = 1\ny = 2\n" : undefined), "/r");
   * assert.deepEqual(ws.credit("a.py", [[1, "x = 1"], [2, "y = 2"]]), { lines: [[1, 2]], placed: true });
   * const bad = ws.credit("a.py", [[1, "x = 1"], [2, "rm -rf /"], [3, "z"]]);
   * assert.deepEqual(bad.lines, [[1, 1]]);
   * assert.ok(!bad.placed && bad.note === "2 of 3 lines shown do not match a.py (2 lines): not credited");
   * assert.deepEqual(ws.credit("gone.py", [[1, "root:x:0:0"]]).lines, []);
   * ```
   */
  credit(rel: string, shown: readonly ShownLine[]): Credit {
    const content = this.read(rel);
    if (content === UNKNOWN) return { lines: rangesOfLines(shown.map(([n]) => n)), placed: true };
    if (content === undefined) {
      return shown.length
        ? {
          lines: [],
          placed: false,
          note: `${rel} is not a regular file in the workspace: nothing credited`,
        }
        : { lines: [], placed: true };
    }
    const file = this.linesOf(content);
    const ok: number[] = [];
    let bad = 0;
    for (const [n, text, printed] of shown) {
      const line = n >= 1 && n <= file.length ? file[n - 1] : undefined;
      const same = text === undefined ||
        (printed !== undefined ? text === printed : line !== undefined && sameLine(line, text));
      if (line !== undefined && same) ok.push(n);
      else bad++;
    }
    if (!bad) return { lines: rangesOfLines(ok), placed: true };
    return {
      lines: rangesOfLines(ok),
      placed: false,
      note: `${bad} of ${shown.length} lines shown do not match ${rel} (${file.length} lines): ` +
        `not credited`,
    };
  }

  /**
   * {@link credit} for the lines a read or search showed of several files: the lines credited
   * per file (files with none left out), false `placed` when any file's were not all credited,
   * and the notes saying why, in file order.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { TurnWorkspace } from "./workspace.ts";
   * const ws = new TurnWorkspace((p) => (p === "a.py" ? "x = 1\ny = 2\n" : undefined), "/r");
   * const c = ws.creditFiles(new Map([["a.py", [[2, "y = 2"]] as const], ["gone.py", [[1, "z"]] as const]]));
   * assert.deepEqual(c.lines, { "a.py": [[2, 2]] });
   * assert.ok(!c.placed && c.notes[0] === "gone.py is not a regular file in the workspace: nothing credited");
   * ```
   */
  creditFiles(shown: Iterable<readonly [string, readonly ShownLine[]]>): {
    lines: Ranges;
    placed: boolean;
    notes: string[];
  } {
    const lines: Ranges = {};
    const notes: string[] = [];
    let placed = true;
    for (const [rel, list] of shown) {
      const c = this.credit(rel, list);
      if (c.lines.length) lines[rel] = c.lines;
      if (!c.placed) {
        placed = false;
        if (c.note) notes.push(c.note);
      }
    }
    return { lines, placed, notes };
  }

  /** Records a write (text, or UNKNOWN when the new content cannot be reproduced). */
  write(rel: string, content: string | typeof UNKNOWN): void {
    this.#overlay.set(rel, content);
  }

  /** Records a deletion. */
  remove(rel: string): void {
    this.#overlay.set(rel, null);
  }

  /** A cheap layer over this workspace: its writes stay in the layer until {@link adopt}ed. */
  fork(): TurnWorkspace {
    return new TurnWorkspace(this.#base, this.root, this);
  }

  /** Takes over the writes of a layer forked from this workspace. */
  adopt(fork: TurnWorkspace): void {
    for (const [k, v] of fork.#overlay) this.#overlay.set(k, v);
  }

  /** Paths written in the overlay (created or changed), sorted. */
  written(): string[] {
    const out = new Set(this.#parent?.written() ?? []);
    for (const k of this.#overlay.keys()) out.add(k);
    return [...out].sort();
  }
}

/** Lines of a text: split on `\n`, without the empty element after a final newline. */
export function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Texts whose lines {@link splitLinesCached} keeps, in characters (the least recently used leave). */
const MAX_CACHED_LINES_CHARS = 2 * 1024 * 1024;
const cachedLines = new Map<string, readonly string[]>();
let cachedLinesChars = 0;

/**
 * {@link splitLines}, remembered per text in this thread for the texts used most recently (up to
 * 2 Mi characters of texts): a workspace's files are the same texts turn after turn, while the
 * texts seen once (a turn's own writes) leave first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitLinesCached } from "./workspace.ts";
 * const a = splitLinesCached("x = 1\ny = 2\n");
 * assert.deepEqual(a, ["x = 1", "y = 2"]);
 * assert.equal(splitLinesCached("x = 1\ny = 2\n"), a); // the same array: not split again
 * ```
 */
export function splitLinesCached(text: string): readonly string[] {
  const hit = cachedLines.get(text);
  if (hit) {
    // most recently used last: Map keeps insertion order
    cachedLines.delete(text);
    cachedLines.set(text, hit);
    return hit;
  }
  const lines = splitLines(text);
  if (text.length > MAX_CACHED_LINES_CHARS) return lines;
  cachedLinesChars += text.length;
  for (const [t] of cachedLines) {
    if (cachedLinesChars <= MAX_CACHED_LINES_CHARS) break;
    cachedLines.delete(t);
    cachedLinesChars -= t.length;
  }
  cachedLines.set(text, lines);
  return lines;
}

/**
 * A {@link FileSource} over a directory on disk that never reads outside it: the path must be
 * relative without `..`, and its real path (symlinks resolved) must lie inside the real root.
 * Files larger than `maxBytes` (default 32 MB) or not regular files read as absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dirSource } from "./workspace.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.py`, "x = 1\n");
 * const src = dirSource(dir);
 * assert.ok(src("a.py") === "x = 1\n" && src("../etc/passwd") === undefined);
 * ```
 */
export function dirSource(root: string, maxBytes = 32 * 1024 * 1024): FileSource {
  const realRoot = Deno.realPathSync(root);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return (path: string) => {
    const rel = normalizeRelative(path);
    if (rel === undefined || rel === "" || path.startsWith("/")) return undefined;
    try {
      const real = Deno.realPathSync(`${realRoot}/${rel}`);
      if (!real.startsWith(realRoot + "/")) return undefined;
      const info = Deno.statSync(real);
      if (!info.isFile || info.size > maxBytes) return undefined;
      return decoder.decode(Deno.readFileSync(real));
    } catch {
      // a file gone, unreadable or not a file: its content is unknown
      return undefined;
    }
  };
}
