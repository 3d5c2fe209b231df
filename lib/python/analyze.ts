/**
 * Analysing a whole package directory: every `.py` file is summarised (phase 1) in Web Workers on
 * all cores; the summaries form a {@link Project} (phase 2, lazy).
 *
 * Cache (under `cacheDir`, default `$REPOREUSE_CACHE_DIR` …), all content-addressed:
 * - `python-summary-v<N>/`: one entry per file, keyed by the SHA-256 of the file's bytes + path +
 *   module id + analyser version — a changed file is re-parsed, the others are not;
 * - `python-package-v<N>.<M>/`: keyed by the hash of every file key, the whole package's
 *   definitions and module facts in one file, and the key and size of each file's entry above,
 *   whose larger resolution data loads from there only when needed (it is not stored twice);
 * - `python-graph-v<N>/`: the resolved edges of that package key.
 * A warm run with nothing changed reads and hashes the files, loads definitions and edges, and
 * parses nothing.
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
import { existsSync, isDirectory, writeFileAtomic, writeFileAtomicSync } from "../util/fs.ts";
import { eachLimited } from "../util/each.ts";
import { WorkerPool } from "../util/pool.ts";
import { moduleName } from "./names.ts";
import { Project, RESOLVER_VERSION } from "./project.ts";
import type { NativeFiles } from "./native_build.ts";
import { builtNativeParser, nativeForPackage, useNativeSummaries } from "./parser_choice.ts";
import { pythonParser } from "./direct.ts";
import {
  MAX_SOURCE_BYTES,
  type ModuleSummary,
  summarizeWith,
  SUMMARY_VERSION,
  tooLargeMessage,
} from "./summary.ts";
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
  /**
   * The native parser (lib/python/parser_choice.ts): `"auto"` (default) uses it when built and
   * builds it first when there is much source to parse; `"off"` never.
   */
  native?: "auto" | "off";
}

/**
 * A `.py` file of a package: where it is read (`path`), its package-relative name (`file`, which
 * the summaries and errors carry) and module id; `bytes`, when given, are its content, and `path`
 * is then not read (the audit analyses blobs from git in memory, never under their own names).
 */
export interface PackageFile {
  path: string;
  file: string;
  module: string;
  bytes?: Uint8Array;
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
          if (e.name.endsWith(".py") || (await isDirectory(real))) {
            errors.push({
              file: childRel,
              line: null,
              message: `symbolic link leads outside the package (${real}), not followed`,
            });
          }
          continue;
        }
        // links inside the package: files are read, directories are not walked twice
        if (e.name.endsWith(".py") && !(await isDirectory(real))) {
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

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a Python source file, or returns the reason it is skipped (larger than
 * {@link MAX_SOURCE_BYTES}, binary, not UTF-8).
 */
export function decodeSource(bytes: Uint8Array): { text: string } | { skip: string } {
  if (bytes.length > MAX_SOURCE_BYTES) return { skip: tooLargeMessage(bytes.length) };
  if (bytes.includes(0)) return { skip: "binary file (NUL bytes), skipped" };
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    return { skip: "not valid UTF-8, skipped" };
  }
}

/**
 * Reads a Python source file, or returns the reason it is skipped: not a regular file (a FIFO or
 * a device is never read), or larger than {@link MAX_SOURCE_BYTES} (checked before reading, so a
 * huge file costs nothing). Reading errors throw.
 */
export async function readSource(path: string): Promise<{ bytes: Uint8Array } | { skip: string }> {
  // opening a FIFO would wait for a writer: only a regular file is opened
  if (!(await Deno.stat(path)).isFile) return { skip: "not a regular file, skipped" };
  using file = await Deno.open(path);
  const st = await file.stat();
  if (!st.isFile) return { skip: "not a regular file, skipped" };
  if (st.size > MAX_SOURCE_BYTES) return { skip: tooLargeMessage(st.size) };
  const bytes = new Uint8Array(st.size);
  let at = 0;
  while (at < bytes.length) {
    const n = await file.read(bytes.subarray(at));
    if (n === null) break;
    at += n;
  }
  // a file that grew meanwhile is cut at its size when opened; the rest is not read
  return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at) };
}

/** Cache key of a file's summary. */
export function summaryKey(bytes: Uint8Array, file: string, module: string): string {
  return sha256(`${sha256(bytes)}\0${file}\0${module}\0python-summary-v${SUMMARY_VERSION}`);
}

type Rest = Pick<ModuleSummary, "scopes" | "uses" | "defScopes">;

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

/**
 * A summary as two JSON texts: `meta` (module facts, definitions) and `rest` (scopes, uses),
 * kept apart so that definitions load without the larger resolution data. The per-file cache
 * stores `meta + "\n" + rest` (JSON texts hold no raw newline).
 */
export interface SummaryText {
  meta: string;
  rest: string;
  /** Size in bytes of its per-file cache entry, when it is known to be in the cache. */
  bytes?: number;
}

/** Splits a summary into its two JSON texts. */
export function summaryText(s: ModuleSummary): SummaryText {
  const { scopes, uses, defScopes, ...meta } = s;
  return { meta: JSON.stringify(meta), rest: JSON.stringify({ scopes, uses, defScopes }) };
}

/** Path of a file's summary in the cache directory of namespace `python-summary`. */
export function summaryPath(cacheDir: string, key: string): string {
  return `${cacheDir}/python-summary-v${SUMMARY_VERSION}/${key.slice(0, 2)}/${key}.txt`;
}

const madeDirs = new Set<string>();

/**
 * {@link writeSummaryText} done synchronously, for workers (a worker has nothing else to do
 * meanwhile; sync writes and remembering made directories cost less CPU than async ones).
 */
export function writeSummaryTextSync(cacheDir: string, key: string, t: SummaryText): number {
  const bytes = entryBytes(t);
  writeFileAtomicSync(summaryPath(cacheDir, key), bytes, madeDirs);
  return bytes.length;
}

/** Stores a summary text under its key (atomically); returns the entry's size in bytes. */
export async function writeSummaryText(
  cacheDir: string,
  key: string,
  t: SummaryText,
): Promise<number> {
  const bytes = entryBytes(t);
  await writeFileAtomic(summaryPath(cacheDir, key), bytes);
  return bytes.length;
}

const encoder = new TextEncoder();

/** A summary's per-file cache entry: `meta`, a newline, `rest` (see {@link SummaryText}). */
function entryBytes(t: SummaryText): Uint8Array {
  return encoder.encode(`${t.meta}\n${t.rest}`);
}

/**
 * The `rest` of a per-file cache entry, read now (a package entry's rests are read when first
 * needed; the entries' sizes were checked when the package entry was taken).
 */
function readRestSync(cacheDir: string, key: string): Rest {
  const path = summaryPath(cacheDir, key);
  const text = Deno.readTextFileSync(path);
  let rest: unknown;
  try {
    rest = JSON.parse(text.slice(text.indexOf("\n") + 1));
  } catch {
    // below
  }
  if (!isRest(rest)) {
    throw new Error(`${path}: a summary cache entry changed while in use (run again)`);
  }
  return rest;
}

/** Whether a parsed JSON value has the shape of a summary's `rest`. */
function isRest(v: unknown): v is Rest {
  const r = v as Rest | undefined;
  return Array.isArray(r?.scopes) && Array.isArray(r.uses) && Array.isArray(r.defScopes);
}

/** A summary's two JSON texts parsed: its module facts and definitions, and its `rest`. */
export interface ParsedSummary {
  meta: ModuleSummary;
  rest: Rest;
}

/**
 * The two parts of a summary read back from its JSON texts, or undefined when they are not a
 * summary of the current version (a cache entry of another shape counts as missing).
 */
function parseSummaryText(t: SummaryText): ParsedSummary | undefined {
  try {
    const meta = JSON.parse(t.meta), rest = JSON.parse(t.rest);
    const ok = meta?.version === SUMMARY_VERSION && typeof meta.module === "string" &&
      typeof meta.file === "string" && Array.isArray(meta.definitions) &&
      Array.isArray(meta.errors) && isRest(rest);
    return ok ? { meta, rest } : undefined;
  } catch {
    return undefined;
  }
}

/** The cached summary of a key (per-file entry): its texts and their parse, or undefined. */
export async function readSummaryText(
  cacheDir: string,
  key: string,
): Promise<(SummaryText & { parsed: ParsedSummary }) | undefined> {
  try {
    const raw = await Deno.readFile(summaryPath(cacheDir, key));
    const text = decoder.decode(raw);
    const nl = text.indexOf("\n");
    if (nl < 0) return undefined;
    const t = { meta: text.slice(0, nl), rest: text.slice(nl + 1), bytes: raw.length };
    // an entry of another shape (or cut short) is a miss: the file is parsed again
    const parsed = parseSummaryText(t);
    return parsed && { ...t, parsed };
  } catch {
    return undefined;
  }
}

const decoder = new TextDecoder();

/**
 * A package entry of the cache: the summaries' `meta` parts, the file-level errors, and the key
 * and size of each summary's per-file entry, from which the `rest` parts are read when needed
 * (they are not stored twice).
 */
interface PackageEntry {
  metas: ModuleSummary[];
  errors: AnalysisError[];
  keys: string[];
  sizes: number[];
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
    const packageKey = sha256(
      files.map((f, i) => `${f.file}\0${f.module}\0${keys[i]}`).join("\n") +
        `\0python-package-v${SUMMARY_VERSION}`,
    );
    const packageFile =
      `${cacheDir}/python-package-v${SUMMARY_VERSION}.${PACKAGE_VERSION}/${packageKey}.json`;
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
      const text = `{"metas":[${kept.map((i) => got.metaTexts[i]).join(",")}],"errors":${
        JSON.stringify(errors)
      },"keys":${JSON.stringify(kept.map((i) => keys[i]))},"sizes":${
        JSON.stringify(kept.map((i) => got.sizes[i]))
      }}`;
      await writeFileAtomic(packageFile, text).catch(() => {});
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

/**
 * The summaries of {@link summarizeFiles} as they arrive, by file index: each is parsed back at
 * once (the main thread is idle while the workers parse); for the package entry, each one's meta
 * text and the size of its per-file entry (when written).
 */
class Results {
  readonly metaTexts: (string | undefined)[];
  readonly sizes: (number | undefined)[];
  readonly metas: ModuleSummary[];
  readonly rests: Rest[];

  constructor(n: number) {
    this.metaTexts = new Array(n);
    this.sizes = new Array(n);
    this.metas = new Array(n);
    this.rests = new Array(n);
  }

  put(index: number, t: SummaryText, parsed?: ParsedSummary): void {
    this.metaTexts[index] = t.meta;
    this.sizes[index] = t.bytes;
    this.metas[index] = parsed?.meta ?? JSON.parse(t.meta);
    this.rests[index] = parsed?.rest ?? JSON.parse(t.rest);
  }

  /** The indexes of the files summarised, in order. */
  indexes(): number[] {
    return this.metaTexts.flatMap((t, i) => t !== undefined ? [i] : []);
  }
}

/** Files from which the workers pay off (fewer are parsed on the calling thread). */
const POOL_FILES = 4;

/**
 * The files of {@link summarizeFiles} to parse: each goes to the workers as soon as it is known
 * (largest first among those waiting, so the workers finish together), from the fourth on and
 * once the parser is settled — at once when the native parser is built, else when every file is
 * known (`finish`), since how much source there is decides whether to build it. A job a worker
 * could not do is done on the calling thread.
 */
class Parsing {
  #jobs = new Map<number, { source: string; key: string }>();
  #waiting: number[] = [];
  #running: Promise<void>[] = [];
  /** Files parsed on the calling thread: too few for the workers, or failed in one. */
  #here: number[] = [];
  /**
   * The native parser's files, undefined for the wasm parser, null while undecided. Asked for
   * when the first file is to be parsed (a warm run never asks); when it is not built yet, `finish`
   * decides by how much source there is.
   */
  #native: NativeFiles | undefined | null = null;
  #asked = false;
  #pool?: WorkerPool<SummaryJob, SummaryText>;
  readonly #workers: number;

  constructor(
    readonly files: PackageFile[],
    readonly opts: AnalyzeOptions,
    /** The cache root the workers write per-file entries to, when caching. */
    readonly cacheDir: string | undefined,
    readonly got: Results,
  ) {
    this.#workers = opts.workers ?? navigator.hardwareConcurrency ?? 1;
    if (!cacheDir) this.#startPool();
  }

  /** Whether any file is to be parsed. */
  get any(): boolean {
    return this.#jobs.size > 0;
  }

  has(index: number): boolean {
    return this.#jobs.has(index);
  }

  add(index: number, source: string, key: string): void {
    this.#jobs.set(index, { source, key });
    this.#waiting.push(index);
    this.#startPool();
    if (!this.#asked) {
      this.#asked = true;
      if (this.opts.native === "off") this.#native = undefined;
      else this.#native = builtNativeParser() ?? null;
    }
    if (this.#pool && this.#jobs.size >= POOL_FILES && this.#native !== null) this.#dispatch();
  }

  /** Parses what is left; resolves when every file is summarised. */
  async finish(): Promise<void> {
    if (this.#native === null) {
      this.#native = await nativeForPackage([...this.#jobs.values()], this.opts.native);
    }
    if (this.#pool && this.#jobs.size >= POOL_FILES) this.#dispatch();
    else this.#here.push(...this.#waiting.splice(0));
    // a job may fail in its worker: wait for every one, then do those here
    await Promise.all(this.#running);
    this.close();
    if (!this.#here.length) return;
    const fp = await pythonParser();
    if (this.#native && !fp.native) useNativeSummaries(fp, this.#native);
    for (const index of this.#here.sort((a, b) => a - b)) {
      const f = this.files[index], job = this.#jobs.get(index)!;
      const text = summaryText(summarizeWith(fp, job.source, f.file, f.module));
      if (this.cacheDir) {
        text.bytes = await writeSummaryText(this.cacheDir, job.key, text).catch(() => undefined);
      }
      this.got.put(index, text);
    }
  }

  /** Stops the workers (they are started only when some file is to be parsed). */
  close(): void {
    this.#pool?.close();
  }

  #startPool(): void {
    if (this.#pool || this.#workers <= 0 || this.files.length < POOL_FILES) return;
    this.#pool = new WorkerPool(new URL("./worker.ts", import.meta.url), this.#workers);
    this.#pool.start();
  }

  /** Sends the waiting files to the workers, each as a job of priority its size. */
  #dispatch(): void {
    const pool = this.#pool!;
    for (const index of this.#waiting.splice(0)) {
      const f = this.files[index], { source, key } = this.#jobs.get(index)!;
      const job = {
        source,
        file: f.file,
        module: f.module,
        key,
        cacheDir: this.cacheDir,
        native: this.#native ?? undefined,
      };
      this.#running.push(
        pool.run(job, source.length).then(
          (r) => this.got.put(index, r),
          () => void this.#here.push(index),
        ),
      );
    }
  }
}

/** Version of the package entries' layout (see {@link PackageEntry}). */
const PACKAGE_VERSION = 2;

/**
 * The package entry at `file`, or undefined when there is none or it cannot be used: it is used
 * only whole, with summaries of this version and every per-file entry it names of the size it
 * recorded (their rests are read later, when needed).
 */
async function readPackageEntry(
  cacheDir: string,
  file: string,
): Promise<PackageEntry | undefined> {
  let hit: PackageEntry;
  try {
    hit = JSON.parse(await Deno.readTextFile(file));
  } catch {
    return undefined;
  }
  const ok = Array.isArray(hit?.metas) && Array.isArray(hit.errors) && Array.isArray(hit.keys) &&
    Array.isArray(hit.sizes) && hit.keys.length === hit.metas.length &&
    hit.sizes.length === hit.metas.length &&
    hit.metas.every((s) => s?.version === SUMMARY_VERSION) &&
    hit.keys.every((k) => typeof k === "string" && /^[0-9a-f]{64}$/.test(k));
  if (!ok) return undefined;
  let same = true;
  await eachLimited(hit.keys, async (k, i) => {
    if (!same) return;
    const st = await Deno.stat(summaryPath(cacheDir, k)).catch(() => null);
    if (!st?.isFile || st.size !== hit.sizes[i]) same = false;
  });
  return same ? hit : undefined;
}

/** A summary job of the package workers (lib/python/worker.ts). */
export interface SummaryJob {
  source: string;
  file: string;
  module: string;
  /** Cache entry to write in the worker (key and root), when caching. */
  key?: string;
  cacheDir?: string;
  /** The native parser's files, when it is used (lib/python/native_build.ts). */
  native?: NativeFiles;
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
