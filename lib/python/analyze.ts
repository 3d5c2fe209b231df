/**
 * Analysing a whole package directory: its `.py` files are listed (lib/python/files.ts), each
 * summarised (phase 1) from the cache or by the parser pool (lib/python/parsing.ts), and the
 * summaries form a {@link Project} (phase 2, lazy). This module only decides what comes from
 * where.
 *
 * Cache (under `cacheDir`, default `$REPOREUSE_CACHE_DIR` …), all content-addressed: a per-file
 * summary entry, a package entry holding every file's definitions (lib/python/summary_cache.ts),
 * and `python-graph-v<N>/`, the resolved edges of that package's key. A warm run with nothing
 * changed reads and hashes the files, loads definitions and edges, and parses nothing.
 *
 * Never crashes on bad input: binary and non-UTF-8 files are skipped and reported, symbolic links
 * leading outside the package are not followed (reported), files tree-sitter cannot fully parse are
 * analysed as far as it recovers and their errors kept (see `Project.graph().errors`).
 *
 * @example
 * ```ts
 * import { analyzePackage } from "./analyze.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/pkg`);
 * await Deno.writeTextFile(`${dir}/pkg/__init__.py`, "def f():\n    return g()\n\ndef g():\n    pass\n");
 * const project = await analyzePackage(`${dir}/pkg`, { cache: false, workers: 1 });
 * console.assert(project.callees("pkg.f")[0] === "pkg.g");
 * ```
 * @module
 */
import { Cache, cacheRoot, eachLimited, existsSync } from "../util/mod.ts";
import { Project, RESOLVER_VERSION } from "./project.ts";
import { decodeSource, listPackageFiles, type PackageFile, readSource } from "./files.ts";
import { type ParseOptions, Parsing, Results } from "./parsing.ts";
import { type ModuleSummary, SUMMARY_VERSION } from "./summary_format.ts";
import {
  packageKey as packageKeyOf,
  packagePath,
  readPackageEntry,
  readRestSync,
  readSummaryText,
  type Rest,
  summaryKey,
  summaryPath,
  writePackageEntry,
} from "./summary_cache.ts";
import type { AnalysisError } from "./types.ts";

/** Options of {@link analyzePackage}. */
export interface AnalyzeOptions extends ParseOptions {
  /** Use the content-hash cache (default true). */
  cache?: boolean;
  /** Cache root (default: `cacheRoot()`, i.e. `$REPOREUSE_CACHE_DIR` …). */
  cacheDir?: string;
  /** Module id prefix of the package (default: the directory's own name). */
  name?: string;
}

/** What {@link summarizeFiles} returns. */
export interface SummarizedFiles {
  /** Summaries without `scopes`/`uses`/`defScopes`: `rest()` supplies those, in order. */
  summaries: ModuleSummary[];
  errors: AnalysisError[];
  /** Hash of every file's key: names the package-level cache entries. */
  packageKey: string;
  /** Parses the resolution data of `summaries`, in order (call once). */
  rest: () => Rest[];
}

/** Summaries of the given files (cache, then workers), plus the problems met. */
export async function summarizeFiles(
  files: PackageFile[],
  opts: AnalyzeOptions = {},
): Promise<SummarizedFiles> {
  const useCache = opts.cache ?? true;
  const cacheDir = cacheRoot(opts.cacheDir);
  const errors: AnalysisError[] = [];
  const got = new Results(files.length);
  const keys: string[] = new Array(files.length).fill("");
  const sources: (string | undefined)[] = new Array(files.length);
  const parsing = new Parsing(files, opts, useCache ? cacheDir : undefined, got);
  try {
    // first pass: read, decode and hash every file; one with no entry of its own (which a package
    // entry needs too) is sure to need parsing, and goes to the workers at once
    await eachLimited(files, async (f, index) => {
      let bytes: Uint8Array;
      if (f.bytes) bytes = f.bytes;
      else {
        try {
          const read = await readSource(f.path);
          if ("skip" in read) {
            errors.push({ file: f.file, line: null, message: read.skip });
            return;
          }
          bytes = read.bytes;
        } catch (e) {
          errors.push({ file: f.file, line: null, message: `cannot read: ${e}` });
          return;
        }
      }
      const decoded = decodeSource(bytes);
      if ("skip" in decoded) {
        errors.push({ file: f.file, line: null, message: decoded.skip });
        return;
      }
      const key = keys[index] = summaryKey(bytes, f.file, f.module);
      sources[index] = decoded.text;
      if (!useCache || !existsSync(summaryPath(cacheDir, key))) {
        parsing.add(index, decoded.text, key);
      }
    });
    errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    // the whole package unchanged: one file holds every summary's meta, the per-file entries the rest
    const packageKey = packageKeyOf(files, keys);
    const packageFile = packagePath(cacheDir, packageKey);
    const hit = useCache && !parsing.any ? await readPackageEntry(cacheDir, packageFile) : null;
    if (hit) {
      return {
        summaries: hit.metas,
        errors: [...errors, ...hit.errors],
        packageKey,
        rest: () => hit.keys.map((k) => readRestSync(cacheDir, k)),
      };
    }
    // second pass: the per-file entries of the others (one that cannot be used is parsed again)
    await eachLimited(files, async (_f, index) => {
      const source = sources[index];
      if (source === undefined || parsing.has(index)) return;
      const entry = useCache ? await readSummaryText(cacheDir, keys[index]) : undefined;
      if (entry) got.put(index, entry, entry.parsed);
      else parsing.add(index, source, keys[index]);
    });
    await parsing.finish();
    const kept = got.indexes();
    // a package entry only when every summary is in its per-file entry (where its rest is read)
    if (useCache && kept.every((i) => got.sizes[i] !== undefined)) {
      await writePackageEntry(packageFile, {
        metaTexts: kept.map((i) => got.metaTexts[i]!),
        errors,
        keys: kept.map((i) => keys[i]),
        sizes: kept.map((i) => got.sizes[i]!),
      }).catch(() => {}); // a cache that cannot be written only costs time
    }
    return {
      summaries: kept.map((i) => got.metas[i]),
      errors,
      packageKey,
      rest: () => kept.map((i) => got.rests[i]),
    };
  } finally {
    parsing.close();
  }
}

/** Builds (workers on all cores + content-hash cache) the project of a package directory. */
export async function analyzePackage(
  packageDir: string,
  opts: AnalyzeOptions = {},
): Promise<Project> {
  const dir = packageDir.replace(/\/+$/, "") || "/";
  const stat = await Deno.stat(dir).catch((e) => {
    // a missing path is "not a directory" below; any other failure (permission) says what it is
    if (e instanceof Deno.errors.NotFound) return null;
    throw new Error(`${packageDir}: ${e.message}`);
  });
  if (!stat?.isDirectory) throw new Error(`${packageDir}: not a directory`);
  const name = opts.name ?? (await Deno.realPath(dir)).split("/").pop()!;
  const errors: AnalysisError[] = [];
  const files = await listPackageFiles(dir, name, errors);
  const done = await summarizeFiles(files, opts);
  const project = Project.lazy(done.summaries, [...errors, ...done.errors], done.rest);
  if ((opts.cache ?? true) && done.packageKey) {
    const graphs = new Cache(
      "python-graph",
      SUMMARY_VERSION * 1000 + RESOLVER_VERSION,
      cacheRoot(opts.cacheDir),
    );
    project.useGraphCache(`${graphs.dir}/${done.packageKey}.edges.json`);
  }
  return project;
}
