/**
 * Helpers of the `run --agent` presets' `collect` (see {@link RunPreset}): finding the session
 * files a harness wrote during a turn and copying them into the turn's run directory.
 *
 * @module
 */
import { readBounded, realDirUnder, writeFresh } from "../../util/mod.ts";
import { MAX_LOG_BYTES } from "../files.ts";
export { exists } from "../../util/mod.ts";

/** The prompt as a preset passes it on the command line (`"$(cat {prompt_file})"`). */
export const PROMPT = `"$(cat {prompt_file})"`;

/** Modification time of a path in epoch milliseconds, undefined when it cannot be read. */
export async function statMs(p: string): Promise<number | undefined> {
  try {
    const s = await Deno.stat(p);
    return s.mtime?.getTime();
  } catch {
    // a file gone or unreadable has no modification time to sort by
    return undefined;
  }
}

/**
 * Files under `dir` (recursive, at most `depth` levels) whose name matches `re`, sorted by name
 * at each level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findFiles } from "./collect.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/a/b`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/a/b/s.jsonl`, "{}\n");
 * assert.deepEqual(await findFiles(dir, /\.jsonl$/), [`${dir}/a/b/s.jsonl`]);
 * assert.deepEqual(await findFiles(dir, /\.jsonl$/, 0), []);
 * ```
 */
export async function findFiles(dir: string, re: RegExp, depth = 6): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, left: number) => {
    let entries: Deno.DirEntry[] = [];
    try {
      for await (const e of Deno.readDir(d)) entries.push(e);
    } catch {
      // a directory that cannot be listed holds no log to collect
      return;
    }
    entries = entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = `${d}/${e.name}`;
      if (e.isFile && re.test(e.name)) out.push(p);
      else if (e.isDirectory && left > 0) await walk(p, left - 1);
    }
  };
  await walk(dir, depth);
  return out;
}

/** Files written since the turn started (one second of slack for coarse clocks). */
export async function since(files: string[], startedMs: number): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const m = await statMs(f);
    if (m !== undefined && m >= startedMs - 1000) out.push(f);
  }
  return out;
}

/**
 * Copies the session file `src` to `rel` (plain segments) in the turn directory: only a regular
 * file (a link the agent left in its home, or a device, is not copied) of at most
 * {@link MAX_LOG_BYTES}, written as a new file in real directories (never through a link planted
 * in the turn directory).
 */
export async function copyInto(src: string, turnDir: string, rel: string): Promise<void> {
  if (!(await Deno.lstat(src)).isFile) {
    throw new Error(`${src}: not a regular file (a link or device is not copied)`);
  }
  await writeInto(turnDir, rel, readBounded(src, MAX_LOG_BYTES));
}

/** Writes `rel` (plain segments) in the turn directory as a new file, never through a link. */
export async function writeInto(
  turnDir: string,
  rel: string,
  data: string | Uint8Array,
): Promise<void> {
  const slash = rel.lastIndexOf("/");
  const dir = slash < 0 ? turnDir : await realDirUnder(turnDir, rel.slice(0, slash));
  await writeFresh(`${dir}/${rel.slice(slash + 1)}`, data);
}

/** The first `bytes` of a file as text ("" when it cannot be read). */
export async function head(path: string, bytes = 65536): Promise<string> {
  try {
    // a FIFO would wait for a writer: regular files only
    if (!(await Deno.stat(path)).isFile) return "";
    const f = await Deno.open(path);
    try {
      const buf = new Uint8Array(bytes);
      const n = await f.read(buf) ?? 0;
      return new TextDecoder().decode(buf.subarray(0, n));
    } finally {
      f.close();
    }
  } catch {
    // an unreadable file has no head to sniff: it is not taken for a log
    return "";
  }
}

/** The agent's home directory. */
export function home(env: Record<string, string | undefined>): string {
  return env.HOME ?? Deno.env.get("HOME") ?? "/root";
}

/** Lower-case hex SHA-256 of a string. */
export async function sha256Hex(s: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes the JSON object lines a harness printed on stdout (its stream output; banner and other
 * lines dropped) to `log.jsonl` in the turn directory, when one of them is the harness's own
 * (`own`); returns the files written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { saveStream } from "./collect.ts";
 * const dir = await Deno.makeTempDir();
 * const out = 'starting\n{"type":"a"}\n[1]\n{"type":"b"}\n';
 * assert.deepEqual(await saveStream(out, dir, (v) => (v as { type?: string }).type === "b"), ["log.jsonl"]);
 * assert.equal(await Deno.readTextFile(`${dir}/log.jsonl`), '{"type":"a"}\n{"type":"b"}\n');
 * assert.deepEqual(await saveStream("no json", dir, () => true), []);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function saveStream(
  stdout: string,
  turnDir: string,
  own: (value: unknown) => boolean,
): Promise<string[]> {
  const kept: string[] = [];
  let mine = false;
  for (const l of stdout.split("\n")) {
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      continue; // not a JSON line (the harness's own progress text): not part of the stream
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) continue;
    kept.push(l);
    mine ||= own(v);
  }
  if (!mine) return [];
  await writeInto(turnDir, "log.jsonl", kept.join("\n") + "\n");
  return ["log.jsonl"];
}
