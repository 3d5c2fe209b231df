/**
 * The format of the code model's summary cache (under the cache root, content-addressed):
 * - `python-summary-v<N>/`: one entry per file ({@link summaryPath}), keyed by the SHA-256 of the
 *   file's bytes + path + module id + analyser version ({@link summaryKey}); the entry is the
 *   summary's two JSON texts ({@link SummaryText}), `meta` then `rest`, on two lines;
 * - `python-package-v<N>.<M>/`: keyed by the hash of every file key ({@link packageKey}), the
 *   whole package's definitions and module facts in one file, and the key and size of each
 *   file's entry above, whose larger resolution data loads from there only when needed (it is not
 *   stored twice) — {@link readPackageEntry}, {@link writePackageEntry}.
 *
 * An entry of another shape, version or size is a miss (the file is parsed again); nothing here
 * decides what to parse (lib/python/analyze.ts does).
 *
 * @example
 * ```ts
 * import { readSummaryText, summaryKey, summaryText, writeSummaryText } from "./summary_cache.ts";
 * import { summarize } from "./summary.ts";
 * const dir = await Deno.makeTempDir();
 * const bytes = new TextEncoder().encode("def f():\n    pass\n");
 * const key = summaryKey(bytes, "m.py", "pkg.m");
 * const s = await summarize(new TextDecoder().decode(bytes), "m.py", "pkg.m");
 * await writeSummaryText(dir, key, summaryText(s));
 * const back = await readSummaryText(dir, key);
 * console.assert(back?.parsed.meta.definitions[0].id === "pkg.m.f");
 * console.assert(await readSummaryText(dir, summaryKey(bytes, "n.py", "pkg.n")) === undefined);
 * ```
 * @module
 */
import { eachLimited, sha256, writeFileAtomic, writeFileAtomicSync } from "../util/mod.ts";
import type { PackageFile } from "./files.ts";
import { type ModuleSummary, SUMMARY_VERSION } from "./summary_format.ts";
import type { AnalysisError } from "./types.ts";

/** Cache key of a file's summary. */
export function summaryKey(bytes: Uint8Array, file: string, module: string): string {
  return sha256(`${sha256(bytes)}\0${file}\0${module}\0python-summary-v${SUMMARY_VERSION}`);
}

/** The resolution data of a summary, loaded only when needed. */
export type Rest = Pick<ModuleSummary, "scopes" | "uses" | "defScopes">;

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
export function readRestSync(cacheDir: string, key: string): Rest {
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
    // not JSON (cut short, damaged): a miss, the file is parsed again
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
    // no entry, or one that cannot be read: a miss, the file is parsed again
    return undefined;
  }
}

/**
 * A file's summary from the per-file cache (the entries {@link analyzePackage}-style callers
 * read and write), or undefined on a miss: no entry, one of another shape or version, or one
 * recorded for another file or module.
 */
export async function cachedSummary(
  cacheDir: string,
  source: string | Uint8Array,
  file: string,
  module: string,
): Promise<ModuleSummary | undefined> {
  const hit = await readSummaryText(cacheDir, summaryKey(bytesOf(source), file, module));
  const summary: ModuleSummary | undefined = hit && { ...hit.parsed.meta, ...hit.parsed.rest };
  return summary && summary.module === module && summary.file === file ? summary : undefined;
}

/**
 * Stores a file's summary in the per-file cache (written all or nothing), where
 * {@link cachedSummary} finds it; resolves to the entry's size in bytes. A failure is the
 * caller's to report (a failed write only costs a parse later).
 */
export function storeSummary(
  cacheDir: string,
  source: string | Uint8Array,
  file: string,
  module: string,
  summary: ModuleSummary,
): Promise<number> {
  return writeSummaryText(
    cacheDir,
    summaryKey(bytesOf(source), file, module),
    summaryText(summary),
  );
}

const bytesOf = (source: string | Uint8Array) =>
  typeof source === "string" ? new TextEncoder().encode(source) : source;

const decoder = new TextDecoder();

/**
 * A package entry of the cache: the summaries' `meta` parts, the file-level errors, and the key
 * and size of each summary's per-file entry, from which the `rest` parts are read when needed
 * (they are not stored twice).
 */
export interface PackageEntry {
  metas: ModuleSummary[];
  errors: AnalysisError[];
  keys: string[];
  sizes: number[];
}

/** Version of the package entries' layout (see {@link PackageEntry}). */
const PACKAGE_VERSION = 2;

/**
 * The package entry at `file`, or undefined when there is none or it cannot be used: it is used
 * only whole, with summaries of this version and every per-file entry it names of the size it
 * recorded (their rests are read later, when needed).
 */
export async function readPackageEntry(
  cacheDir: string,
  file: string,
): Promise<PackageEntry | undefined> {
  let hit: PackageEntry;
  try {
    hit = JSON.parse(await Deno.readTextFile(file));
  } catch {
    // no package entry, or a damaged one: the per-file entries are used
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
    // a per-file entry gone: the package entry is not used
    const st = await Deno.stat(summaryPath(cacheDir, k)).catch(() => null);
    if (!st?.isFile || st.size !== hit.sizes[i]) same = false;
  });
  return same ? hit : undefined;
}

/**
 * The key of a whole package's entry: the hash of every file's path, module id and per-file key,
 * in order (an unreadable file has the key `""`).
 */
export function packageKey(files: readonly PackageFile[], keys: readonly string[]): string {
  return sha256(
    files.map((f, i) => `${f.file}\0${f.module}\0${keys[i]}`).join("\n") +
      `\0python-package-v${SUMMARY_VERSION}`,
  );
}

/** Path of a package entry in the cache directory. */
export function packagePath(cacheDir: string, key: string): string {
  return `${cacheDir}/python-package-v${SUMMARY_VERSION}.${PACKAGE_VERSION}/${key}.json`;
}

/**
 * Writes a package entry (atomically): the summaries' meta texts as they are, the file-level
 * errors, and the key and size of each summary's per-file entry.
 */
export async function writePackageEntry(
  path: string,
  entry: { metaTexts: string[]; errors: AnalysisError[]; keys: string[]; sizes: number[] },
): Promise<void> {
  const text = `{"metas":[${entry.metaTexts.join(",")}],"errors":${
    JSON.stringify(entry.errors)
  },"keys":${JSON.stringify(entry.keys)},"sizes":${JSON.stringify(entry.sizes)}}`;
  await writeFileAtomic(path, text);
}
