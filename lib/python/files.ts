/**
 * The Python files of a package directory: listing them (sorted; symbolic links followed only
 * inside the package, others reported) and decoding a file's bytes (binary and non-UTF-8 files are
 * skipped with the reason). Phase 0 of the code model, before any parsing.
 *
 * @example
 * ```ts
 * import { decodeSource, listPackageFiles } from "./files.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/pkg/sub`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/pkg/__init__.py`, "");
 * await Deno.writeTextFile(`${dir}/pkg/sub/m.py`, "x = 1\n");
 * const files = await listPackageFiles(`${dir}/pkg`, "pkg", []);
 * console.assert(files.map((f) => f.module).join() === "pkg,pkg.sub.m");
 * console.assert("skip" in decodeSource(new Uint8Array([0x78, 0, 0x79])));
 * ```
 * @module
 */
import { isDirectory } from "../util/mod.ts";
import { moduleName } from "./names.ts";
import type { AnalysisError } from "./types.ts";
import { MAX_SOURCE_BYTES, tooLargeMessage } from "./summary_format.ts";

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

/** PEP 263's encoding declaration: a comment line naming `coding: x` or `coding=x`. */
const CODING = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;
/** A line that lets the declaration be on the next one: blank, or only a comment. */
const BLANK_OR_COMMENT = /^[ \t\f]*(?:#.*)?$/;

/**
 * The encoding a Python source declares (PEP 263: a `coding` comment on its first line, or on its
 * second when the first is blank or a comment), as Python normalises it (`utf-8` for `UTF_8`,
 * `utf8-…`; `iso-8859-1` for `latin-1`, `iso-latin-1`, `iso_8859_1`…), else the name lower-cased;
 * null when none is declared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { declaredEncoding } from "./files.ts";
 * const enc = (s: string) => declaredEncoding(new TextEncoder().encode(s));
 * assert.equal(enc("#!/usr/bin/env python\n# -*- coding: Latin-1 -*-\nx = 1\n"), "iso-8859-1");
 * assert.equal(enc("# vim: set fileencoding=utf_8 :\n"), "utf-8");
 * assert.equal(enc("import os\n# coding: latin-1\n"), null);
 * ```
 */
export function declaredEncoding(bytes: Uint8Array): string | null {
  // the first two lines, as bytes below 0x80 read alike in every encoding a declaration may name
  let end = 0;
  for (let lines = 0; end < bytes.length && end < 1024 && lines < 2; end++) {
    if (bytes[end] === 10) lines++;
  }
  const head = String.fromCharCode(...bytes.subarray(0, end)).split(/\r?\n|\r/);
  const first = CODING.exec(head[0] ?? "");
  const hit = first ??
    (BLANK_OR_COMMENT.test(head[0] ?? "") ? CODING.exec(head[1] ?? "") : null);
  if (!hit) return null;
  // Python's tokenizer (get_normal_name): the first 12 characters, `_` read as `-`
  const name = hit[1].toLowerCase().replaceAll("_", "-");
  const twelve = name.slice(0, 12);
  if (twelve === "utf-8" || twelve.startsWith("utf-8-")) return "utf-8";
  if (
    ["latin-1", "iso-8859-1", "iso-latin-1"].some((n) => twelve === n || twelve.startsWith(`${n}-`))
  ) return "iso-8859-1";
  return name;
}

/**
 * Decodes a Python source file, or returns the reason it is skipped (larger than
 * {@link MAX_SOURCE_BYTES}, binary, not valid in its encoding). The encoding is UTF-8 unless the
 * file declares another (PEP 263, {@link declaredEncoding}): `# -*- coding: latin-1 -*-`, as
 * Python 2-era sources do, is read as Latin-1 (WHATWG's `windows-1252`, which agrees on every
 * letter); an encoding no decoder here knows, or one Python reads no source in (UTF-16), is skipped
 * with its name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeSource } from "./files.ts";
 * const latin1 = new Uint8Array([...new TextEncoder().encode("# coding: latin-1\ns = '"), 0xe9, 0x27]);
 * assert.deepEqual(decodeSource(latin1), { text: "# coding: latin-1\ns = '\u00e9'" });
 * assert.ok("skip" in decodeSource(new TextEncoder().encode("# coding: utf-16\nx = 1\n")));
 * assert.ok("skip" in decodeSource(new TextEncoder().encode("# coding: klingon\nx = 1\n")));
 * ```
 */
export function decodeSource(bytes: Uint8Array): { text: string } | { skip: string } {
  if (bytes.length > MAX_SOURCE_BYTES) return { skip: tooLargeMessage(bytes.length) };
  if (bytes.includes(0)) return { skip: "binary file (NUL bytes), skipped" };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const declared = bom ? "utf-8" : declaredEncoding(bytes);
  if (declared === null || declared === "utf-8") {
    try {
      return { text: UTF8.decode(bytes) };
    } catch {
      return { skip: "not valid UTF-8, skipped" };
    }
  }
  // Python reads source only in an encoding that keeps ASCII as it is (no UTF-16 or UTF-32)
  if (/^(utf-?16|utf-?32|ucs-?2|ucs-?4)/.test(declared)) {
    return { skip: `declares ${declared}, in which Python reads no source, skipped` };
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared, { fatal: true });
  } catch {
    return { skip: `declares an encoding this reader does not know (${declared}), skipped` };
  }
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    return { skip: `not valid ${declared}, skipped` };
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
