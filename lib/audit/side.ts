/**
 * One side of an audit — a commit's tree or the working tree — as an index of its functions: for
 * every def, where it is, its callees and resolved uses (the code model, lib/python) and its
 * shape (lib/audit/shape.ts).
 *
 * Files come from git (`ls-tree`, `cat-file --batch`) or, for the working tree, from disk, and are
 * analysed in memory: nothing of the repository is written anywhere, under any name (entries whose
 * names the audit does not use are listed, lib/audit/git.ts). A cached index is used only when it
 * has the stored shape, is the index of the listed files and its binary parts are the ones its
 * signed entry names (their hashes, below); otherwise it is built again — and a tokens part that
 * fails later, as it is read, makes the audit rebuild the side and run again ({@link TokensLost}).
 * Everything is content-addressed: file summaries by the code model's cache (only changed files
 * are parsed again), shapes by git blob id, and the whole index by the hash of every
 * (path, module, blob id) — a side seen before loads in one read.
 *
 * Module ids follow Python's packages: a file's module is its path from the highest directory
 * reached through `__init__.py` files (`src/requests/utils.py` → `requests.utils`,
 * `tests/test_x.py` → `test_x`); two files that would share an id keep their full dotted paths.
 *
 * @example
 * ```ts
 * import { moduleIds } from "./side.ts";
 * const ids = moduleIds(["src/pkg/__init__.py", "src/pkg/util.py", "tests/test_util.py", "setup.py"]);
 * console.assert(ids.get("src/pkg/util.py") === "pkg.util");
 * console.assert(ids.get("src/pkg/__init__.py") === "pkg");
 * console.assert(ids.get("tests/test_util.py") === "test_util");
 * ```
 * @module
 */
import {
  type AnalysisError,
  decodeSource,
  moduleName,
  type ModuleSummary,
  type PackageFile,
  Project,
  RESOLVER_VERSION,
  summarizeFiles,
  SUMMARY_VERSION,
  tooLargeMessage,
} from "../python/mod.ts";
import { REUSE_KINDS } from "../metrics/mod.ts";
import {
  Cache,
  cacheRoot,
  openRegular,
  openRegularSync,
  readRegular,
  sha256,
} from "../util/mod.ts";
import {
  listTree,
  listWorktree,
  readBlobs,
  type RejectedFile,
  type SideListing,
  type TreeFile,
} from "./git.ts";
import { type DefShape, fileShapes, SHAPE_VERSION } from "./shape.ts";
import {
  type Context,
  CONTEXTS,
  duplicatedModules,
  fileContext,
  generatedFile,
  isTestClass,
  isTestName,
  type ModuleImports,
  testInfrastructure,
  vendoredFile,
} from "./context.ts";

/**
 * Version of the side index; part of its cache key (13: the tokens part of v12 and the imports of
 * the other v12 together; 14: the signed entry holds the hashes of its binary parts; 15: callee
 * keys leave out the methods of regular expressions and their matches; 16: sources declaring
 * another encoding, PEP 263, are read in it rather than skipped).
 */
export const SIDE_VERSION = 16;

/** A function or method of a side. */
export interface SideDef {
  id: string;
  kind: "function" | "method";
  file: string;
  start: number;
  end: number;
  name: string;
  signature: string;
  /** Parameter names (without `self`/`cls` of methods). */
  params: string[];
  /** Code hash without name, comments, docstring (null when the shape could not be taken). */
  hash: string | null;
  size: number;
  /** Shape features (see lib/audit/shape.ts); cached sides hold views of one binary array. */
  features: ArrayLike<number>;
  /**
   * Normalised token codes (lib/audit/shape.ts: identifiers and literals abstracted, attribute and
   * keyword-argument names kept), for copied blocks (lib/audit/block.ts). A side read from the
   * cache leaves them on disk until {@link loadTokens} reads them (views of one array each read).
   * Absent otherwise: the def takes no part in block matching.
   */
  tokens?: ArrayLike<number>;
  /** The line of each token of `tokens`. */
  tokenLines?: ArrayLike<number>;
  /**
   * Non-builtin callees as keys no local name changes (`Project.calleeKeys` of lib/python):
   * resolved ids, canonical external names, `.attr` for methods of values of unknown type.
   */
  callees: string[];
  /** Every resolved target this def's own scope uses as reuse (`REUSE_KINDS` of lib/metrics). */
  uses: string[];
  /** Where it lives (lib/audit/context.ts): the project's code, tests, vendored or generated. */
  context: Context;
  /** A test (a `test…` function or method in test code): run, never called, so never a target. */
  test: boolean;
}

/** The index of one side (see module doc). */
export interface Side {
  /** Commit id, or `WORKTREE`. */
  rev: string;
  files: TreeFile[];
  /** Path → module id. */
  modules: Record<string, string>;
  defs: SideDef[];
  /** Ids of every definition (functions, methods, classes). */
  ids: string[];
  /** Problems met (skipped files, syntax errors, rejected entries), with repository paths. */
  errors: AnalysisError[];
  /**
   * `.py` entries not analysed (a name the audit does not use, too large: lib/audit/git.ts), each
   * also in `errors`. Not part of the cached index: they come from the listing every time.
   */
  rejected?: RejectedFile[];
}

/** The problem of a blob the repository does not hold (e.g. a partial clone's). */
const MISSING = "is missing from the repository, skipped";

/** Options of {@link loadSide}. */
export interface SideOptions {
  /** Cache root (default `cacheRoot()`). */
  cacheDir?: string;
  /** Use the caches (default true). */
  cache?: boolean;
  /** Code-model workers (default: all cores). */
  workers?: number;
  /**
   * Build the index even when one is cached (the cached entry and parts are replaced; the code
   * model's summaries and the shapes still come from their caches): how an audit recovers from a
   * cached side whose tokens part fails as it is read ({@link TokensLost}).
   */
  rebuild?: boolean;
}

/**
 * Package-relative module ids of a set of `.py` paths: a file's path from the highest directory
 * reached through `__init__.py` files (two files may share one; {@link moduleIds} tells them apart).
 */
export function packageModules(paths: readonly string[]): Map<string, string> {
  const set = new Set(paths);
  const out = new Map<string, string>();
  for (const path of paths) {
    const parts = path.split("/");
    let k = parts.length - 1;
    while (k > 0 && set.has([...parts.slice(0, k), "__init__.py"].join("/"))) k--;
    out.set(path, moduleName(parts.slice(k).join("/")));
  }
  return out;
}

/** Module ids of a set of `.py` paths (see module doc). */
export function moduleIds(paths: readonly string[]): Map<string, string> {
  const out = packageModules(paths);
  const seen = new Map<string, number>();
  for (const id of out.values()) seen.set(id, (seen.get(id) ?? 0) + 1);
  for (const [path, id] of out) {
    if ((seen.get(id) ?? 0) > 1) out.set(path, moduleName(path));
  }
  return out;
}

/**
 * The context of every file of a side by its path (lib/audit/context.ts); generated files are
 * added by the caller, which has their bytes.
 */
export function fileContexts(paths: readonly string[]): Map<string, Context> {
  const set = new Set(paths);
  const twice = duplicatedModules(packageModules(paths));
  const out = new Map<string, Context>();
  for (const p of paths) {
    const c = fileContext(p, set);
    out.set(p, c === "code" && twice.has(p) ? "vendored" : c);
  }
  return out;
}

/**
 * The modules of the side (`known`) a module imports, in any scope: `import a.b` (and the dotted
 * uses of the name it binds, `a.b.c.f()` → `a.b.c` when that is a module), `from m import n` (`m.n`
 * when it is a module, else `m`), `from m import *`; each with its parent packages, which Python
 * imports first. Its own module aside.
 */
export function moduleImports(s: ModuleSummary, known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  const add = (dotted: string) => {
    // the longest prefix that is a module of the side, and its parent packages
    const parts = dotted.split(".");
    let k = parts.length;
    while (k > 0 && !known.has(parts.slice(0, k).join("."))) k--;
    for (; k > 0; k--) {
      const m = parts.slice(0, k).join(".");
      if (known.has(m)) out.add(m);
    }
  };
  const bound = new Map<string, string>();
  for (const scope of s.scopes) {
    for (const [name, list] of Object.entries(scope.bindings)) {
      for (const b of list) {
        if (b.k === "module") {
          add(b.module);
          if (!bound.has(name)) bound.set(name, b.module);
        } else if (b.k === "from") add(`${b.module}.${b.name}`);
      }
    }
    for (const st of scope.stars ?? []) add(st.module);
  }
  for (const [, text] of s.uses) {
    const dot = text.indexOf(".");
    const m = dot > 0 ? bound.get(text.slice(0, dot)) : undefined;
    if (m !== undefined) add(m + text.slice(dot).replace(/\(.*$/, ""));
  }
  out.delete(s.module);
  return [...out];
}

/** Parameter names of a def header (`def f(self, x: int = 1, *a, **k)` → x, a, k for methods). */
export function paramNames(signature: string, method: boolean): string[] {
  const open = signature.indexOf("(");
  if (open < 0) return [];
  let depth = 0, cur = "";
  const parts: string[] = [];
  for (let i = open + 1; i < signature.length; i++) {
    const ch = signature[i];
    if ("([{".includes(ch)) depth++;
    if (")]}".includes(ch)) {
      if (depth === 0) break;
      depth--;
    }
    if (ch === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  const names = parts.map((p) => p.split(/[:=]/)[0].replace(/^\*+/, "").trim())
    .filter((p) => p && p !== "/" && p !== "*");
  return method && names.length && (names[0] === "self" || names[0] === "cls")
    ? names.slice(1)
    : names;
}

function sideKey(files: TreeFile[], modules: Map<string, string>): string {
  return sha256(
    files.map((f) => `${f.path}\0${modules.get(f.path)}\0${f.oid}`).join("\n") +
      `\0audit-side-v${SIDE_VERSION}-s${SUMMARY_VERSION}-r${RESOLVER_VERSION}-sh${SHAPE_VERSION}`,
  );
}

/** Shapes of one blob, from the cache or computed (null when the bytes are not UTF-8 text). */
async function shapesOf(
  oid: string,
  bytes: () => Promise<Uint8Array | undefined>,
  cache: Cache | undefined,
): Promise<DefShape[] | null> {
  const hit = await cache?.get(oid, isDefShapes);
  if (hit) return hit;
  const b = await bytes();
  if (!b) return null;
  const decoded = decodeSource(b);
  if ("skip" in decoded) return null;
  let shapes: DefShape[];
  try {
    shapes = await fileShapes(decoded.text);
  } catch {
    // a file whose shapes cannot be computed takes no part in clone matching (its callee findings stand)
    return null;
  }
  // the shape cache is an optimisation: a failed write costs a recomputation
  await cache?.set(oid, shapes).catch(() => {});
  return shapes;
}

/**
 * The index of a side: `rev` a commit id, or `null` for the working tree (as on disk, uncommitted
 * changes included).
 */
export async function loadSide(
  repo: string,
  rev: string | null,
  opts: SideOptions = {},
): Promise<Side> {
  const useCache = opts.cache ?? true;
  const root = cacheRoot(opts.cacheDir);
  const listing: SideListing = rev === null ? await listWorktree(repo) : await listTree(repo, rev);
  const { files, rejected } = listing;
  const worktree = listing.contents;
  // rejected entries are listed with the side's problems, whether the index comes from the cache
  const withRejected = (side: Side): Side => ({
    ...side,
    rejected,
    errors: [
      ...side.errors,
      ...rejected.map((r) => ({ file: r.path, line: null, message: r.reason })),
    ],
  });
  const modules = moduleIds(files.map((f) => f.path));
  const key = sideKey(files, modules);
  const sides = new Cache("audit-side", SIDE_VERSION, root);
  const stem = `${sides.dir}/${key.slice(0, 2)}/${key}`;
  const featFile = `${stem}.features.bin`, tokenFile = `${stem}.tokens.bin`;
  if (useCache && !opts.rebuild) {
    const packed = await sides.get<PackedSide>(key);
    const hit = packed && unpack(packed, files);
    // a part missing, not a regular file, of another shape or not the one the signed entry names:
    // the cached side is rebuilt
    const feats = hit && await readRegular(featFile);
    const tokens = hit && feats && sha256(feats) === hit.parts.features &&
      readFeatures(feats, hit.side.defs) && await openTokens(tokenFile, hit.side.defs, hit.parts);
    if (hit && tokens) {
      tokenParts.set(hit.side.defs, tokens);
      return withRejected({ ...hit.side, rev: rev ?? "WORKTREE" });
    }
  }
  const contents = async () =>
    worktree
      ? { blobs: worktree, tooLarge: new Map() }
      : await readBlobs(repo, files.map((f) => f.oid));
  const side = await buildSide(repo, rev, files, modules, contents, {
    ...opts,
    cacheDir: root,
    cache: useCache,
  });
  // an index with a blob missing (a partial clone) is not kept: the blob may be fetched later
  if (useCache && !side.errors.some((e) => e.message.endsWith(MISSING))) {
    try {
      await Deno.mkdir(stem.slice(0, stem.lastIndexOf("/")), { recursive: true });
      // the parts before the entry, which holds their hashes: an entry is used only with both
      // parts beside it, each the one it names
      const tokens = tokenPart(side.defs);
      const feats = featurePart(side.defs);
      await writePart(tokenFile, tokens.words);
      await writePart(featFile, feats);
      const parts: PartHashes = {
        features: sha256(bytesOf(feats)),
        head: tokens.head,
        pieces: tokens.pieces,
        tokens: tokens.hashes,
      };
      await sides.set(key, pack(side, parts));
    } catch {
      // a failing cache never costs a result
    }
  }
  return withRejected(side);
}

// ---- the binary parts of a cached side ----------------------------------------------------------
// Features and tokens are kept apart from the JSON (they would be most of it), as arrays of 32-bit
// words: the features part `[defs, then per def n, f…]` is read with the side; the tokens part
// `[defs, offset₀ … offset_defs, then per def t… l…]` (each def's m tokens and their m lines, at
// its offset in words from the end of the header) only for the defs a block search needs
// ({@link loadTokens}): most audits need the tokens of the functions they changed, not of all.
//
// The signed JSON entry binds both parts ({@link PartHashes}): the SHA-256 of the features part,
// checked as it is read; of the tokens part's header, checked when the side is read; and of each
// piece of the tokens part — a run of consecutive defs of one file, at most PIECE_WORDS words
// unless one def is larger — checked as the piece is read. A part that is not the one its entry
// names (edited, cut, swapped for another side's) is as good as missing. Each part is opened only
// when `lstat` says it is a regular file, and only if the opened file is that one
// (lib/util/fs.ts `openRegular`): a FIFO or a link planted at its path is missing too.

/** What binds a cached side's binary parts to its signed entry (SHA-256s, hex). */
interface PartHashes {
  /** Of the whole features part. */
  features: string;
  /** Of the tokens part's header (the number of defs and their offsets). */
  head: string;
  /** Where each piece of the tokens part starts: def indexes, ascending from 0 (none without defs). */
  pieces: number[];
  /** Of each piece's words, in the order of `pieces`. */
  tokens: string[];
}

/** Largest piece of a tokens part, in words (a larger def is a piece of its own). */
const PIECE_WORDS = 1 << 15;

/** The bytes of a part's words. */
function bytesOf(words: Uint32Array): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
}

/** Writes a part atomically (a temporary file renamed: over whatever stood at its path). */
async function writePart(file: string, words: Uint32Array): Promise<void> {
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  await Deno.writeFile(tmp, bytesOf(words), { createNew: true });
  await Deno.rename(tmp, file);
}

/** The tokens of a def as stored (none unless each token has its line). */
function storedTokens(d: SideDef): ArrayLike<number> {
  return d.tokens && d.tokenLines?.length === d.tokens.length ? d.tokens : [];
}

function featurePart(defs: readonly SideDef[]): Uint32Array {
  let size = 1;
  for (const d of defs) size += 1 + d.features.length;
  const all = new Uint32Array(size);
  let at = 0;
  all[at++] = defs.length;
  for (const d of defs) {
    all[at++] = d.features.length;
    all.set(d.features, at);
    at += d.features.length;
  }
  return all;
}

/** Sets each def's features from a features part; false when the part is not of their shape. */
function readFeatures(bytes: Uint8Array, defs: SideDef[]): boolean {
  const b = bytes.byteOffset % 4 ? bytes.slice() : bytes;
  const all = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  if (all[0] !== defs.length) return false;
  let at = 1;
  for (const d of defs) {
    const n = all[at++];
    if (!(at + n <= all.length)) return false;
    d.features = all.subarray(at, at + n);
    at += n;
  }
  return at === all.length && b.byteLength % 4 === 0;
}

/** A tokens part's words, with the hashes of its header and pieces ({@link PartHashes}). */
function tokenPart(
  defs: readonly SideDef[],
): { words: Uint32Array; head: string; pieces: number[]; hashes: string[] } {
  let words = 0;
  for (const d of defs) words += 2 * storedTokens(d).length;
  const head = defs.length + 2;
  const all = new Uint32Array(head + words);
  all[0] = defs.length;
  let at = 0;
  const pieces: number[] = [];
  const hashes: string[] = [];
  const hashPiece = (from: number, to: number) =>
    hashes.push(sha256(bytesOf(all.subarray(head + from, head + to))));
  let pieceAt = 0;
  defs.forEach((d, k) => {
    const t = storedTokens(d);
    // a new piece at each file, and when this def would take the piece past PIECE_WORDS
    if (k === 0 || d.file !== defs[k - 1].file || at + 2 * t.length - pieceAt > PIECE_WORDS) {
      if (k > 0) hashPiece(pieceAt, at);
      pieces.push(k);
      pieceAt = at;
    }
    all[1 + k] = at;
    all.set(t, head + at);
    if (t.length) all.set(d.tokenLines!, head + at + t.length);
    at += 2 * t.length;
  });
  if (defs.length) hashPiece(pieceAt, at);
  all[1 + defs.length] = at;
  return { words: all, head: sha256(bytesOf(all.subarray(0, head))), pieces, hashes };
}

/** A cached side's tokens part, read piece by piece as needed ({@link loadTokens}). */
interface TokenPart {
  path: string;
  /** Where each def's words start, in words from `data` (one more than the defs: the end). */
  offsets: Uint32Array;
  /** Byte offset of the first def's words in the file. */
  data: number;
  defs: readonly SideDef[];
  /** The first def of each piece, and each piece's hash ({@link PartHashes}). */
  pieces: readonly number[];
  hashes: readonly string[];
  /** Def → its index (made on the first partial read). */
  index: Map<SideDef, number> | null;
  loaded: Uint8Array;
  /** Defs not read yet. */
  left: number;
}

/** Token parts of cached sides not read in full yet, by the side's `defs` array. */
const tokenParts = new WeakMap<readonly SideDef[], TokenPart>();

/**
 * A tokens part's header, checked against the signed entry's hash and the defs it is for (their
 * number, offsets in order and even, the file's size); undefined when it is missing, not a
 * regular file or of another shape (the side is rebuilt).
 */
async function openTokens(
  path: string,
  defs: readonly SideDef[],
  parts: PartHashes,
): Promise<TokenPart | undefined> {
  const file = await openRegular(path);
  if (!file) return undefined;
  try {
    const size = (await file.stat()).size;
    const data = 4 * (defs.length + 2);
    if (size < data) return undefined;
    const head = new Uint32Array(defs.length + 2);
    await readFully(file, 0, bytesOf(head));
    if (sha256(bytesOf(head)) !== parts.head) return undefined;
    if (head[0] !== defs.length || head[1] !== 0) return undefined;
    const offsets = head.subarray(1);
    for (let k = 0; k < defs.length; k++) {
      const m = offsets[k + 1] - offsets[k];
      if (m < 0 || m % 2) return undefined;
    }
    if (data + 4 * offsets[defs.length] !== size) return undefined;
    return {
      path,
      offsets,
      data,
      defs,
      pieces: parts.pieces,
      hashes: parts.tokens,
      index: null,
      loaded: new Uint8Array(defs.length),
      left: defs.length,
    };
  } catch {
    // an unreadable part: the side is rebuilt
    return undefined;
  } finally {
    file.close();
  }
}

async function readFully(file: Deno.FsFile, at: number, into: Uint8Array): Promise<void> {
  await file.seek(at, Deno.SeekMode.Start);
  for (let n = 0; n < into.length;) {
    const got = await file.read(into.subarray(n));
    if (got === null) throw new Error("short read");
    n += got;
  }
}

function readFullySync(file: Deno.FsFile, at: number, into: Uint8Array): void {
  file.seekSync(at, Deno.SeekMode.Start);
  for (let n = 0; n < into.length;) {
    const got = file.readSync(into.subarray(n));
    if (got === null) throw new Error("short read");
    n += got;
  }
}

/**
 * Thrown by {@link loadTokens} when a cached side's tokens part cannot give what its signed entry
 * says it holds — removed, replaced (another side's part renamed over it), cut short, edited or
 * swapped for a FIFO or a link since the side was read. The side it names is then built again
 * (`rebuild` of {@link SideOptions}) and the change audited again: `auditReport` and
 * `auditHistory` do so (lib/audit/report.ts `auditSides`), so the findings are those of an audit
 * with no cache.
 *
 * Why a rebuild, not a part's file kept open from the side's read until its tokens are all read:
 * an open file survives removal and renaming-over, but not a part cut short or rewritten in place,
 * nor a piece that fails its hash — those need the rebuild anyway, and one path handles every
 * case. It holds no file open across a history of thousands of commits (a side's part is opened
 * for each read and closed at once); and it is rare — a cache cleared or damaged under a running
 * audit (another audit writing the same entry writes the same bytes, which pass the hashes).
 */
export class TokensLost extends Error {
  constructor(readonly side: Side, path: string, why: string) {
    super(`${path}: the side's tokens part is not the one it was (${why}); the side is rebuilt`);
    this.name = "TokensLost";
  }
}

/** The piece of a tokens part that holds def `k` (the last piece starting at or before it). */
function pieceOf(pieces: readonly number[], k: number): number {
  let lo = 0, hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Gives the defs of a side read from the cache their `tokens` and `tokenLines` (all its defs when
 * `defs` is omitted), reading from the side's tokens part only the pieces (a file's run of defs)
 * not read before, each checked against its hash in the signed entry; a side built in this
 * process, or read in full, has them already (nothing is done). Synchronous, so that the pure
 * audit (lib/audit/change.ts) asks for them where it needs them. Throws {@link TokensLost} when
 * the part is not what the entry says (the caller rebuilds the side and audits again).
 */
export function loadTokens(side: Side, defs?: Iterable<SideDef>): void {
  const part = tokenParts.get(side.defs);
  if (!part) return;
  const want = new Set<number>();
  if (defs === undefined) {
    for (let k = 0; k < part.defs.length; k++) if (!part.loaded[k]) want.add(k);
  } else {
    part.index ??= new Map(part.defs.map((d, k) => [d, k]));
    for (const d of defs) {
      const k = part.index.get(d);
      if (k !== undefined && !part.loaded[k]) want.add(k);
    }
  }
  if (want.size === 0) return;
  // the pieces holding them, in order
  const ps = [...new Set([...want].map((k) => pieceOf(part.pieces, k)))].sort((a, b) => a - b);
  const lost = (why: string) => new TokensLost(side, part.path, why);
  const file = openRegularSync(part.path);
  if (!file) throw lost("missing or not a regular file");
  try {
    const end = (p: number) => p + 1 < part.pieces.length ? part.pieces[p + 1] : part.defs.length;
    // one read per run of consecutive pieces (a file's defs are consecutive)
    for (let i = 0; i < ps.length;) {
      let j = i;
      while (j + 1 < ps.length && ps[j + 1] === ps[j] + 1) j++;
      const from = part.offsets[part.pieces[ps[i]]], to = part.offsets[end(ps[j])];
      const words = new Uint32Array(to - from);
      try {
        readFullySync(file, part.data + 4 * from, bytesOf(words));
      } catch (e) {
        throw lost(e instanceof Error ? e.message : String(e));
      }
      for (let x = i; x <= j; x++) {
        const p = ps[x], first = part.pieces[p], last = end(p);
        const piece = words.subarray(part.offsets[first] - from, part.offsets[last] - from);
        if (sha256(bytesOf(piece)) !== part.hashes[p]) throw lost(`piece ${p} changed`);
        for (let k = first; k < last; k++) {
          if (part.loaded[k]) continue;
          const d = part.defs[k] as SideDef;
          const a = part.offsets[k] - from, m = (part.offsets[k + 1] - part.offsets[k]) >> 1;
          d.tokens = words.subarray(a, a + m);
          d.tokenLines = words.subarray(a + m, a + 2 * m);
          part.loaded[k] = 1;
          part.left--;
        }
      }
      i = j + 1;
    }
  } finally {
    file.close();
  }
  if (part.left === 0) tokenParts.delete(side.defs);
}

/**
 * Gives `d`, a def of a side read from the cache whose tokens are still on disk, the tokens of
 * `twin` — the same def in another side, its file unchanged (the same blob has the same tokens) —
 * instead of reading them. Does nothing to a def that has its tokens or is not of a cached side.
 */
export function adoptTokens(side: Side, d: SideDef, twin: SideDef): void {
  const part = tokenParts.get(side.defs);
  if (!part || d.tokens !== undefined || twin.tokens === undefined) return;
  part.index ??= new Map(part.defs.map((x, k) => [x, k]));
  const k = part.index.get(d);
  if (k === undefined || part.loaded[k]) return;
  d.tokens = twin.tokens;
  d.tokenLines = twin.tokenLines;
  part.loaded[k] = 1;
  if (--part.left === 0) tokenParts.delete(side.defs);
}

/**
 * A side as stored: strings interned in one table, each def a tuple of table indexes and numbers
 * (a large package's index is mostly the same ids repeated as callees).
 */
interface PackedSide extends Omit<Side, "defs"> {
  /** What binds the binary parts to this entry. */
  parts: PartHashes;
  table: string[];
  /**
   * [id, kind (0 function, 1 method), file, start, end, signature, params[], hash, size, callees[],
   * uses[], context, test (0/1)]
   */
  packed: (number | number[] | string | null)[][];
}

function pack(side: Side, parts: PartHashes): PackedSide {
  const table: string[] = [];
  const index = new Map<string, number>();
  const at = (x: string) => {
    let i = index.get(x);
    if (i === undefined) index.set(x, i = table.push(x) - 1);
    return i;
  };
  const packed = side.defs.map((d) => [
    at(d.id),
    d.kind === "method" ? 1 : 0,
    at(d.file),
    d.start,
    d.end,
    at(d.signature),
    d.params.map(at),
    d.hash,
    d.size,
    d.callees.map(at),
    d.uses.map(at),
    d.context,
    d.test ? 1 : 0,
  ]);
  const { defs: _defs, ...rest } = side;
  return { ...rest, parts, table, packed };
}

/** Thrown by the checks of {@link unpack}: the entry is not of the stored shape. */
class BadEntry extends Error {}

function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether `v` is an array of problems (`AnalysisError`s). */
function isErrors(v: unknown): v is AnalysisError[] {
  return Array.isArray(v) &&
    v.every((e) =>
      isObject(e) && isString(e.file) && (e.line === null || isInt(e.line)) && isString(e.message)
    );
}

/**
 * The side of a stored entry, or undefined when the entry is not of the stored shape (a hand
 * edit, a cut write, valid JSON of another shape) or is not the index of `files` (the listing it
 * was looked up by): every table index is checked while unpacking, so a bad entry is a miss and
 * the side is built again, never a crash or a changed report.
 */
function unpack(
  p: unknown,
  files: readonly TreeFile[],
): { side: Side; parts: PartHashes } | undefined {
  if (
    !isObject(p) || !isPartHashes(p.parts, p.packed) || !Array.isArray(p.table) ||
    !Array.isArray(p.packed) || !isString(p.rev) ||
    !Array.isArray(p.files) || p.files.length !== files.length || !isObject(p.modules) ||
    !Array.isArray(p.ids) || !p.ids.every(isString) || !isErrors(p.errors) ||
    !Object.values(p.modules).every(isString)
  ) return undefined;
  for (const [i, f] of (p.files as unknown[]).entries()) {
    if (!isObject(f) || f.path !== files[i].path || f.oid !== files[i].oid) return undefined;
  }
  const t = p.table as unknown[];
  // an index is good when it names a string of the table (anything else reads undefined or
  // a non-string: a negative, fractional or out-of-range number, a key such as "length")
  const str = (i: unknown): string => {
    const s = t[i as number];
    if (typeof s !== "string") throw new BadEntry();
    return s;
  };
  const strs = (v: unknown): string[] => {
    if (!Array.isArray(v)) throw new BadEntry();
    const out = new Array<string>(v.length);
    for (let k = 0; k < v.length; k++) out[k] = str(v[k]);
    return out;
  };
  const int = (v: unknown): number => {
    if (!isInt(v)) throw new BadEntry();
    return v;
  };
  const packed = p.packed as unknown[];
  const defs = new Array<SideDef>(packed.length);
  try {
    for (let k = 0; k < packed.length; k++) {
      const r = packed[k];
      if (!Array.isArray(r) || r.length !== 13) throw new BadEntry();
      const id = str(r[0]);
      if (
        (r[1] !== 0 && r[1] !== 1) || (r[7] !== null && !isString(r[7])) ||
        !CONTEXTS.includes(r[11] as Context) || (r[12] !== 0 && r[12] !== 1)
      ) throw new BadEntry();
      defs[k] = {
        id,
        kind: r[1] === 1 ? "method" : "function",
        file: str(r[2]),
        start: int(r[3]),
        end: int(r[4]),
        name: id.slice(id.lastIndexOf(".") + 1),
        signature: str(r[5]),
        params: strs(r[6]),
        hash: r[7],
        size: int(r[8]),
        features: [],
        callees: strs(r[9]),
        uses: strs(r[10]),
        context: r[11] as Context,
        test: r[12] === 1,
      };
    }
  } catch (e) {
    if (e instanceof BadEntry) return undefined;
    throw e;
  }
  const side = {
    rev: p.rev,
    files: p.files as TreeFile[],
    modules: p.modules as Record<string, string>,
    ids: p.ids as string[],
    errors: p.errors as AnalysisError[],
    defs,
  };
  return { side, parts: p.parts as PartHashes };
}

function isHash(v: unknown): v is string {
  return typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
}

/**
 * Whether `v` is the {@link PartHashes} of an entry of `packed` defs: hashes of the right form,
 * one per piece, pieces starting at def 0 and ascending within the defs (none without defs).
 */
function isPartHashes(v: unknown, packed: unknown): v is PartHashes {
  if (
    !isObject(v) || !Array.isArray(packed) || !isHash(v.features) || !isHash(v.head) ||
    !Array.isArray(v.pieces) || !Array.isArray(v.tokens) || !v.tokens.every(isHash) ||
    v.tokens.length !== v.pieces.length || (packed.length > 0) !== (v.pieces.length > 0)
  ) return false;
  const pieces = v.pieces as unknown[];
  return pieces.every((k, i) =>
    isInt(k) && (i === 0 ? k === 0 : k > (pieces[i - 1] as number)) && k < packed.length
  );
}

/** Whether a cached value is a list of {@link DefShape}s (features: [feature, count] pairs). */
export function isDefShapes(v: unknown): v is DefShape[] {
  return Array.isArray(v) &&
    v.every((d) =>
      isObject(d) && isInt(d.line) && isString(d.name) && isString(d.hash) && isInt(d.size) &&
      Array.isArray(d.features) && d.features.length % 2 === 0 && d.features.every(isInt) &&
      Array.isArray(d.tokens) && Array.isArray(d.lines) && d.tokens.length === d.lines.length &&
      d.tokens.every(isInt) && d.lines.every(isInt)
    );
}

async function buildSide(
  _repo: string,
  rev: string | null,
  files: TreeFile[],
  modules: Map<string, string>,
  contents: () => Promise<{ blobs: Map<string, Uint8Array>; tooLarge: Map<string, number> }>,
  opts: SideOptions & { cacheDir: string; cache: boolean },
): Promise<Side> {
  const { blobs, tooLarge } = await contents();
  // analysed in memory: nothing of the repository is written to disk, under any name
  const pkgFiles: PackageFile[] = [];
  const missing: AnalysisError[] = [];
  for (const f of files) {
    const bytes = blobs.get(f.oid);
    if (bytes) {
      pkgFiles.push({ path: f.path, file: f.path, module: modules.get(f.path)!, bytes });
      continue;
    }
    const size = tooLarge.get(f.oid);
    missing.push({
      file: f.path,
      line: null,
      message: size === undefined ? `blob ${f.oid} ${MISSING}` : tooLargeMessage(size),
    });
  }
  {
    const done = await summarizeFiles(pkgFiles, {
      cache: opts.cache,
      cacheDir: opts.cacheDir,
      workers: opts.workers,
    });
    const project = Project.lazy(done.summaries, done.errors, done.rest);
    const errors: AnalysisError[] = [...missing, ...done.errors];
    for (const s of done.summaries) errors.push(...s.errors);
    const shapeCache = opts.cache
      ? new Cache("audit-shape", SHAPE_VERSION, opts.cacheDir)
      : undefined;
    const oidOf = new Map(files.map((f) => [f.path, f.oid]));
    const contexts = fileContexts(files.map((f) => f.path));
    for (const f of files) {
      const bytes = blobs.get(f.oid);
      if (contexts.get(f.path) === "code" && bytes) {
        if (generatedFile(f.path, bytes)) contexts.set(f.path, "generated");
        else if (vendoredFile(bytes)) contexts.set(f.path, "vendored");
      }
    }
    const defs: SideDef[] = [];
    const ids: string[] = [];
    for (const s of done.summaries) {
      const fnDefs = s.definitions.filter((d) => d.kind === "function" || d.kind === "method");
      for (const d of s.definitions) ids.push(d.id);
      if (fnDefs.length === 0) continue;
      const oid = oidOf.get(s.file)!;
      const shapes = await shapesOf(oid, () => Promise.resolve(blobs.get(oid)), shapeCache) ?? [];
      const byLine = new Map<number, DefShape[]>();
      for (const sh of shapes) {
        const list = byLine.get(sh.line);
        if (list) list.push(sh);
        else byLine.set(sh.line, [sh]);
      }
      const info = project.resolveModule(s.module);
      const usesOf = new Map<string, Set<string>>();
      for (const u of info.uses) {
        // what the benchmark counts as reuse (eq. 1): calls, decorators, dunders, references
        if (!u.resolved || u.target.startsWith("builtins.") || !REUSE_KINDS.has(u.kind)) continue;
        let set = usesOf.get(u.scope);
        if (!set) usesOf.set(u.scope, set = new Set());
        set.add(u.target);
      }
      // test classes of this file: by name, by a TestCase-like base, or by a test class base
      const testClasses = new Set<string>();
      s.definitions.forEach((d, i) => {
        if (d.kind !== "class") return;
        const name = d.id.slice(d.id.lastIndexOf(".") + 1);
        const bases = s.scopes[s.defScopes[i]]?.bases ?? [];
        if (isTestClass(name, bases, testClasses)) testClasses.add(name).add(d.id);
      });
      const fileCtx = contexts.get(s.file) ?? "code";
      for (const d of fnDefs) {
        const shape = byLine.get(d.start)?.shift();
        const name = d.id.slice(d.id.lastIndexOf(".") + 1);
        const owner = d.id.slice(0, d.id.lastIndexOf("."));
        const inTestClass = testClasses.has(owner);
        const testName = isTestName(name);
        defs.push({
          id: d.id,
          kind: d.kind as "function" | "method",
          file: d.file,
          start: d.start,
          end: d.end,
          name,
          signature: d.signature,
          params: paramNames(d.signature, d.kind === "method"),
          hash: shape?.hash ?? null,
          size: shape?.size ?? 0,
          features: shape?.features ?? [],
          tokens: Uint32Array.from(shape?.tokens ?? []),
          tokenLines: Uint32Array.from(shape?.lines ?? []),
          callees: project.calleeKeys(d.id),
          uses: [...(usesOf.get(d.id) ?? [])].sort(),
          context: fileCtx === "code" && (inTestClass || (testName && d.kind === "function"))
            ? "test"
            : fileCtx,
          test: testName && (fileCtx === "test" || inTestClass || d.kind === "function"),
        });
      }
    }
    // test infrastructure outside the test layouts (lib/audit/context.ts): test code by who
    // imports it; its defs are test code, its `test…` functions tests
    const known = new Set(done.summaries.map((s) => s.module));
    const holdsTest = new Set<string>();
    for (const d of defs) if (d.context === "test") holdsTest.add(d.file);
    const infra = testInfrastructure(
      done.summaries.map((s): ModuleImports => ({
        module: s.module,
        file: s.file,
        imports: moduleImports(s, known),
        holdsTest: holdsTest.has(s.file),
      })),
      contexts,
    );
    if (infra.size) {
      for (const d of defs) {
        if (infra.has(d.file)) {
          d.context = "test";
          d.test = isTestName(d.name);
        }
      }
    }
    return {
      rev: rev ?? "WORKTREE",
      files,
      modules: Object.fromEntries(modules),
      defs,
      ids,
      errors,
    };
  }
}
