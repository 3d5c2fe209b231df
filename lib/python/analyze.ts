/**
 * Analysing a whole package directory: every `.py` file is summarised (phase 1) in Web Workers on
 * all cores, each summary cached under the SHA-256 of the file's bytes + module id + path +
 * analyser version, so a warm run only reads, hashes and loads JSON; then the summaries form a
 * {@link Project} (phase 2, lazy).
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
import { Cache, cacheRoot, sha256 } from "../util/cache.ts";
import { moduleName } from "./names.ts";
import { Project, RESOLVER_VERSION } from "./project.ts";
import { type ModuleSummary, summarize, SUMMARY_VERSION } from "./summary.ts";
import type { AnalysisError } from "./types.ts";

/** Options of {@link analyzePackage}. */
export interface AnalyzeOptions {
  /** Use the content-hash cache (default true). */
  cache?: boolean;
  /** Number of workers (default `navigator.hardwareConcurrency`); 0 = parse on this thread. */
  workers?: number;
  /** Cache root (default: `cacheRoot()`, i.e. `$REPOREUSE_CACHE_DIR` …). */
  cacheDir?: string;
  /** Module id prefix of the package (default: the directory's own name). */
  name?: string;
}

/** A `.py` file of a package: its package-relative path and module id. */
export interface PackageFile {
  path: string;
  file: string;
  module: string;
}

/** Lists the `.py` files of a package directory (sorted), reporting links that lead outside. */
export async function listPackageFiles(
  dir: string,
  name: string,
  errors: AnalysisError[],
): Promise<PackageFile[]> {
  const root = await Deno.realPath(dir);
  const out: PackageFile[] = [];
  const walk = async (abs: string, rel: string) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const e of Deno.readDir(abs)) entries.push(e);
    } catch (e) {
      errors.push({ file: rel || ".", line: null, message: `cannot read directory: ${e}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const childAbs = `${abs}/${e.name}`;
      if (e.isSymlink) {
        let real: string;
        try {
          real = await Deno.realPath(childAbs);
        } catch {
          errors.push({ file: childRel, line: null, message: "broken symbolic link, skipped" });
          continue;
        }
        if (real !== root && !real.startsWith(root + "/")) {
          if (e.name.endsWith(".py") || (await isDir(real))) {
            errors.push({
              file: childRel,
              line: null,
              message: `symbolic link leads outside the package (${real}), not followed`,
            });
          }
          continue;
        }
        // links inside the package: files are read, directories are not walked twice
        if (e.name.endsWith(".py") && !(await isDir(real))) {
          out.push({ path: childAbs, file: childRel, module: moduleName(`${name}/${childRel}`) });
        }
        continue;
      }
      if (e.isDirectory) {
        if (!e.name.startsWith(".") && e.name !== "__pycache__") await walk(childAbs, childRel);
      } else if (e.isFile && e.name.endsWith(".py")) {
        out.push({ path: childAbs, file: childRel, module: moduleName(`${name}/${childRel}`) });
      }
    }
  };
  await walk(root, "");
  return out;
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a Python source file, or returns the reason it is skipped (binary, not UTF-8).
 */
export function decodeSource(bytes: Uint8Array): { text: string } | { skip: string } {
  if (bytes.includes(0)) return { skip: "binary file (NUL bytes), skipped" };
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return { skip: "not valid UTF-8, skipped" };
  }
}

/** Cache key of a file's summary. */
export function summaryKey(bytes: Uint8Array, file: string, module: string): string {
  return sha256(`${sha256(bytes)}\0${file}\0${module}\0python-summary-v${SUMMARY_VERSION}`);
}

type Rest = Pick<ModuleSummary, "scopes" | "uses" | "defScopes">;
interface PackageEntry {
  metas: ModuleSummary[];
  errors: AnalysisError[];
}

/** What {@link summarizeFiles} returns. */
export interface SummarizedFiles {
  /** Summaries; without `scopes`/`uses`/`defScopes` when `rest` is set (package cache hit). */
  summaries: ModuleSummary[];
  errors: AnalysisError[];
  /** Hash of every file's key: names the package-level cache entries. */
  packageKey: string;
  /** Loads the missing parts of `summaries`, in order. */
  rest?: () => Rest[];
}

/** Writes the package-level entry: definitions apart from the (larger) resolution data. */
async function writePackageEntry(
  packages: Cache,
  key: string,
  summaries: ModuleSummary[],
  errors: AnalysisError[],
): Promise<void> {
  const metas = summaries.map(({ scopes: _s, uses: _u, defScopes: _d, ...meta }) => meta);
  const rest = summaries.map(({ scopes, uses, defScopes }) => ({ scopes, uses, defScopes }));
  await Deno.mkdir(packages.dir, { recursive: true });
  const tmp = `${packages.dir}/${key}.rest.json.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(rest));
  await Deno.rename(tmp, `${packages.dir}/${key}.rest.json`);
  await packages.set(key, { metas, errors });
}

/** Summaries of the given files (cache, then workers), plus the problems met. */
export async function summarizeFiles(
  files: PackageFile[],
  opts: AnalyzeOptions = {},
): Promise<SummarizedFiles> {
  const useCache = opts.cache ?? true;
  const cacheDir = opts.cacheDir ?? cacheRoot();
  const cache = new Cache("python-summary", SUMMARY_VERSION, cacheDir);
  const errors: AnalysisError[] = [];
  const summaries: (ModuleSummary | undefined)[] = new Array(files.length);
  const todo: { index: number; source: string; key: string }[] = [];
  const keys: string[] = new Array(files.length).fill("");
  const sources: (string | undefined)[] = new Array(files.length);
  // first pass: read, decode and hash every file
  await Promise.all(files.map(async (f, index) => {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(f.path);
    } catch (e) {
      errors.push({ file: f.file, line: null, message: `cannot read: ${e}` });
      return;
    }
    const decoded = decodeSource(bytes);
    if ("skip" in decoded) {
      errors.push({ file: f.file, line: null, message: decoded.skip });
      return;
    }
    keys[index] = summaryKey(bytes, f.file, f.module);
    sources[index] = decoded.text;
  }));
  // the whole package unchanged: one entry holds every summary
  const packageKey = sha256(
    files.map((f, i) => `${f.file}\0${f.module}\0${keys[i]}`).join("\n") +
      `\0python-package-v${SUMMARY_VERSION}`,
  );
  const packages = new Cache("python-package", SUMMARY_VERSION, cacheDir);
  if (useCache) {
    const hit = await packages.get<PackageEntry>(packageKey);
    const restFile = `${packages.dir}/${packageKey}.rest.json`;
    if (
      hit && Array.isArray(hit.metas) && hit.metas.every((s) => s.version === SUMMARY_VERSION) &&
      (await Deno.stat(restFile).then((st) => st.isFile, () => false))
    ) {
      return {
        summaries: hit.metas,
        errors: [...errors, ...hit.errors],
        packageKey,
        rest: () => JSON.parse(Deno.readTextFileSync(restFile)),
      };
    }
  }
  await Promise.all(files.map(async (_f, index) => {
    const source = sources[index];
    if (source === undefined) return;
    const key = keys[index];
    if (useCache) {
      const hit = await cache.get<ModuleSummary>(key);
      if (hit && hit.version === SUMMARY_VERSION) {
        summaries[index] = hit;
        return;
      }
    }
    todo.push({ index, source, key });
  }));
  const n = Math.min(todo.length, opts.workers ?? navigator.hardwareConcurrency ?? 1);
  if (n <= 0 || todo.length < 4) {
    for (const t of todo) {
      const f = files[t.index];
      summaries[t.index] = await summarize(t.source, f.file, f.module);
      if (useCache) await cache.set(t.key, summaries[t.index]).catch(() => {});
    }
  } else {
    // largest files first, so the workers finish together
    todo.sort((a, b) => b.source.length - a.source.length);
    await runWorkers(n, todo, files, summaries, useCache ? cacheDir : undefined);
  }
  errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const done = summaries.filter((s): s is ModuleSummary => !!s);
  if (useCache) await writePackageEntry(packages, packageKey, done, errors).catch(() => {});
  return { summaries: done, errors, packageKey };
}

async function runWorkers(
  n: number,
  todo: { index: number; source: string; key: string }[],
  files: PackageFile[],
  summaries: (ModuleSummary | undefined)[],
  cacheDir: string | undefined,
): Promise<void> {
  let next = 0;
  const failed: number[] = [];
  const url = new URL("./worker.ts", import.meta.url).href;
  const one = () =>
    new Promise<void>((resolve) => {
      const worker = new Worker(url, { type: "module" });
      const send = () => {
        if (next >= todo.length) {
          worker.terminate();
          resolve();
          return;
        }
        const t = todo[next++];
        const f = files[t.index];
        worker.postMessage({
          id: next - 1,
          source: t.source,
          file: f.file,
          module: f.module,
          key: t.key,
          cacheDir,
        });
      };
      worker.onmessage = (e: MessageEvent) => {
        const t = todo[e.data.id];
        if (e.data.summary) summaries[t.index] = e.data.summary;
        else failed.push(e.data.id);
        send();
      };
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        worker.terminate();
        resolve();
      };
      send();
    });
  await Promise.all(Array.from({ length: n }, one));
  // anything a worker could not do (or left when it died) is done here
  for (const [k, t] of todo.entries()) {
    if (summaries[t.index] && !failed.includes(k)) continue;
    const f = files[t.index];
    summaries[t.index] = await summarize(t.source, f.file, f.module);
  }
}

/** Builds (workers on all cores + content-hash cache) the project of a package directory. */
export async function analyzePackage(
  packageDir: string,
  opts: AnalyzeOptions = {},
): Promise<Project> {
  const dir = packageDir.replace(/\/+$/, "") || "/";
  const stat = await Deno.stat(dir).catch(() => null);
  if (!stat?.isDirectory) throw new Error(`${packageDir}: not a directory`);
  const name = opts.name ?? (await Deno.realPath(dir)).split("/").pop()!;
  const errors: AnalysisError[] = [];
  const files = await listPackageFiles(dir, name, errors);
  const done = await summarizeFiles(files, opts);
  const all = [...errors, ...done.errors];
  const project = done.rest
    ? Project.lazy(done.summaries, all, done.rest)
    : Project.fromSummaries(done.summaries, all);
  if ((opts.cache ?? true) && done.packageKey) {
    const graphs = new Cache(
      "python-graph",
      SUMMARY_VERSION * 1000 + RESOLVER_VERSION,
      opts.cacheDir ?? cacheRoot(),
    );
    project.useGraphCache(`${graphs.dir}/${done.packageKey}.edges.json`);
  }
  return project;
}
