/**
 * One side of an audit — a commit's tree or the working tree — as an index of its functions: for
 * every def, where it is, its callees and resolved uses (the code model, lib/python) and its
 * shape (lib/audit/shape.ts).
 *
 * Files come from git (`ls-tree`, `cat-file --batch`) or, for the working tree, from disk; they
 * are copied into a private temporary directory for the code model, never read in place by it.
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
  type PackageFile,
  Project,
  summarizeFiles,
  SUMMARY_VERSION,
} from "../python/mod.ts";
import { RESOLVER_VERSION } from "../python/project.ts";
import { REUSE_KINDS } from "../metrics/targets.ts";
import { Cache, cacheRoot, sha256 } from "../util/cache.ts";
import { listTree, listWorktree, readBlobs, type TreeFile } from "./git.ts";
import { type DefShape, fileShapes, SHAPE_VERSION } from "./shape.ts";
import {
  type Context,
  duplicatedModules,
  fileContext,
  generatedFile,
  isTestClass,
  isTestName,
} from "./context.ts";

/** Version of the side index; part of its cache key. */
export const SIDE_VERSION = 5;

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
  /** Problems met (skipped files, syntax errors), with repository-relative paths. */
  errors: AnalysisError[];
}

/** Options of {@link loadSide}. */
export interface SideOptions {
  /** Cache root (default `cacheRoot()`). */
  cacheDir?: string;
  /** Use the caches (default true). */
  cache?: boolean;
  /** Code-model workers (default: all cores). */
  workers?: number;
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
  const hit = await cache?.get<DefShape[]>(oid);
  if (hit) return hit;
  const b = await bytes();
  if (!b) return null;
  const decoded = decodeSource(b);
  if ("skip" in decoded) return null;
  let shapes: DefShape[];
  try {
    shapes = await fileShapes(decoded.text);
  } catch {
    return null;
  }
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
  let files: TreeFile[];
  let worktree: Map<string, Uint8Array> | undefined;
  if (rev === null) {
    const w = await listWorktree(repo);
    files = w.files;
    worktree = w.contents;
  } else files = await listTree(repo, rev);
  const modules = moduleIds(files.map((f) => f.path));
  const key = sideKey(files, modules);
  const sides = new Cache("audit-side", SIDE_VERSION, root);
  const featFile = `${sides.dir}/${key.slice(0, 2)}/${key}.features.bin`;
  if (useCache) {
    const packed = await sides.get<PackedSide>(key);
    const hit = packed && unpack(packed);
    const feats = hit && await Deno.readFile(featFile).catch(() => undefined);
    if (hit && feats) {
      const bytes = feats.byteOffset % 4 ? feats.slice() : feats;
      const all = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
      let at = 1;
      if (all[0] === hit.defs.length) {
        for (const d of hit.defs) {
          const n = all[at++];
          d.features = all.subarray(at, at + n);
          at += n;
        }
        if (at === all.length) return { ...hit, rev: rev ?? "WORKTREE" };
      }
    }
  }
  let blobs = worktree;
  const contents = async () => (blobs ??= await readBlobs(repo, files.map((f) => f.oid)));
  const side = await buildSide(repo, rev, files, modules, contents, {
    ...opts,
    cacheDir: root,
    cache: useCache,
  });
  if (useCache) {
    // features apart, as one binary array: [defs, n, f…, n, f…] (JSON would be most of the index)
    let size = 1;
    for (const d of side.defs) size += 1 + d.features.length;
    const all = new Uint32Array(size);
    let at = 0;
    all[at++] = side.defs.length;
    for (const d of side.defs) {
      all[at++] = d.features.length;
      all.set(d.features, at);
      at += d.features.length;
    }
    const plain = pack(side);
    try {
      await Deno.mkdir(featFile.slice(0, featFile.lastIndexOf("/")), { recursive: true });
      const tmp = `${featFile}.${crypto.randomUUID()}.tmp`;
      await Deno.writeFile(tmp, new Uint8Array(all.buffer));
      await Deno.rename(tmp, featFile);
      await sides.set(key, plain);
    } catch {
      // a failing cache never costs a result
    }
  }
  return side;
}

/**
 * A side as stored: strings interned in one table, each def a tuple of table indexes and numbers
 * (a large package's index is mostly the same ids repeated as callees).
 */
interface PackedSide extends Omit<Side, "defs"> {
  table: string[];
  /**
   * [id, kind (0 function, 1 method), file, start, end, signature, params[], hash, size, callees[],
   * uses[], context, test (0/1)]
   */
  packed: (number | number[] | string | null)[][];
}

function pack(side: Side): PackedSide {
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
  return { ...rest, table, packed };
}

function unpack(p: PackedSide): Side | undefined {
  if (!Array.isArray(p.table) || !Array.isArray(p.packed)) return undefined;
  const t = p.table;
  const defs: SideDef[] = p.packed.map((r) => {
    const id = t[r[0] as number];
    return {
      id,
      kind: r[1] === 1 ? "method" : "function",
      file: t[r[2] as number],
      start: r[3] as number,
      end: r[4] as number,
      name: id.slice(id.lastIndexOf(".") + 1),
      signature: t[r[5] as number],
      params: (r[6] as number[]).map((i) => t[i]),
      hash: r[7] as string | null,
      size: r[8] as number,
      features: [],
      callees: (r[9] as number[]).map((i) => t[i]),
      uses: (r[10] as number[]).map((i) => t[i]),
      context: r[11] as Context,
      test: r[12] === 1,
    };
  });
  const { table: _t, packed: _p, ...rest } = p;
  return { ...rest, defs };
}

async function buildSide(
  _repo: string,
  rev: string | null,
  files: TreeFile[],
  modules: Map<string, string>,
  contents: () => Promise<Map<string, Uint8Array>>,
  opts: SideOptions & { cacheDir: string; cache: boolean },
): Promise<Side> {
  const blobs = await contents();
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-audit-" });
  try {
    const pkgFiles: PackageFile[] = [];
    const dirs = new Set<string>();
    for (const f of files) {
      const bytes = blobs.get(f.oid);
      if (!bytes) continue;
      const abs = `${tmp}/${f.path}`;
      const dir = abs.slice(0, abs.lastIndexOf("/"));
      if (!dirs.has(dir)) {
        await Deno.mkdir(dir, { recursive: true });
        dirs.add(dir);
      }
      await Deno.writeFile(abs, bytes);
      pkgFiles.push({ path: abs, file: f.path, module: modules.get(f.path)! });
    }
    const done = await summarizeFiles(pkgFiles, {
      cache: opts.cache,
      cacheDir: opts.cacheDir,
      workers: opts.workers,
    });
    const project = Project.lazy(done.summaries, done.errors, done.rest);
    const errors: AnalysisError[] = [...done.errors];
    for (const s of done.summaries) errors.push(...s.errors);
    const shapeCache = opts.cache
      ? new Cache("audit-shape", SHAPE_VERSION, opts.cacheDir)
      : undefined;
    const oidOf = new Map(files.map((f) => [f.path, f.oid]));
    const contexts = fileContexts(files.map((f) => f.path));
    for (const f of files) {
      const bytes = blobs.get(f.oid);
      if (contexts.get(f.path) === "code" && bytes && generatedFile(f.path, bytes)) {
        contexts.set(f.path, "generated");
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
          callees: project.calleeKeys(d.id),
          uses: [...(usesOf.get(d.id) ?? [])].sort(),
          context: fileCtx === "code" && (inTestClass || (testName && d.kind === "function"))
            ? "test"
            : fileCtx,
          test: testName && (fileCtx === "test" || inTestClass || d.kind === "function"),
        });
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
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
