/**
 * Logs spread over several files, gathered into one text for the readers: an OpenHands
 * conversation directory (V1 `events/event-NNNNN-<id>.json` plus `subagents/`, or V0
 * `events/<n>.json`), and a Gemini CLI session with its sub-agent sessions
 * (`chats/<sessionId>/*.json(l)` next to `chats/session-<ts>-<id8>.json(l)`).
 *
 * @module
 */
import { LogFormatError } from "./errors.ts";
import { jsonlValues } from "./readers/jsonl.ts";
import { checkTotal, type LogBudget, logBudget, readLogHead, readLogText } from "./files.ts";

/**
 * The key of the one-record text {@link bundleLog} builds from an OpenHands conversation
 * directory (`{ [OPENHANDS_DIR_KEY]: { events, subagents } }`); the OpenHands reader reads it.
 */
export const OPENHANDS_DIR_KEY = "openhands_conversation_dir";

/**
 * The key of the one-record text {@link bundleLog} builds when sub-agent session files sit next
 * to a Gemini CLI session (`{ [GEMINI_BUNDLE_KEY]: { main, subagents } }`); the Gemini reader
 * reads it.
 */
export const GEMINI_BUNDLE_KEY = "gemini_session_bundle";

async function isDir(p: string): Promise<boolean> {
  try {
    return (await Deno.stat(p)).isDirectory;
  } catch {
    // what cannot be stat'ed is no directory of a bundle
    return false;
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isFile) out.push(e.name);
  } catch {
    // unreadable: none
  }
  return out;
}

function readJson(path: string, budget: LogBudget): unknown {
  const text = readLogText(path, budget);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new LogFormatError(path, `invalid JSON (${e instanceof Error ? e.message : e})`);
  }
}

const V1_EVENT = /^event-(\d+)-.*\.json$/;
const V0_EVENT = /^(\d+)\.json$/;

/** The event files of a directory (or of its `events/`), in stream order. */
async function eventFiles(dir: string): Promise<string[] | undefined> {
  for (const d of [`${dir}/events`, dir]) {
    const files = await names(d);
    const v1 = files.filter((f) => V1_EVENT.test(f));
    const v0 = files.filter((f) => V0_EVENT.test(f));
    const pick = v1.length ? v1 : v0;
    const re = v1.length ? V1_EVENT : V0_EVENT;
    if (pick.length) {
      pick.sort((a, b) => Number(a.match(re)![1]) - Number(b.match(re)![1]));
      return pick.map((f) => `${d}/${f}`);
    }
    // other spellings of an events directory: every JSON file, in name order
    const other = files.filter((f) => f.endsWith(".json")).sort();
    if (d.endsWith("/events") && other.length) return other.map((f) => `${d}/${f}`);
  }
  return undefined;
}

/** Sub-agent conversations under `<dir>/subagents/` (any depth), each with its event files. */
async function subagentDirs(dir: string): Promise<string[]> {
  const root = `${dir}/subagents`;
  if (!(await isDir(root))) return [];
  const out: string[] = [];
  const walk = async (d: string, depth: number) => {
    if (depth > 4) return;
    if ((await names(`${d}/events`)).some((f) => V1_EVENT.test(f))) out.push(d);
    try {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory && e.name !== "events") await walk(`${d}/${e.name}`, depth + 1);
      }
    } catch {
      // unreadable: skipped
    }
  };
  await walk(root, 0);
  return out.sort();
}

async function openHandsDir(dir: string): Promise<string | undefined> {
  const files = await eventFiles(dir);
  if (!files) return undefined;
  // every event file counts against one log's limit (a 571 MB directory is refused, not a crash)
  const budget = logBudget(dir);
  const subs: [string, string[]][] = [];
  for (const s of await subagentDirs(dir)) subs.push([s, (await eventFiles(s)) ?? []]);
  checkTotal([...files, ...subs.flatMap(([, f]) => f)], budget);
  const events = [];
  for (const f of files) events.push(readJson(f, budget));
  const subagents = [];
  for (const [s, sfiles] of subs) {
    const evs = [];
    for (const f of sfiles) evs.push(readJson(f, budget));
    subagents.push({ id: s.slice(dir.length + 1), events: evs });
  }
  return JSON.stringify({ [OPENHANDS_DIR_KEY]: { events, subagents } });
}

/** A Gemini CLI session file: one JSON record (≤ v0.38) or JSONL (≥ v0.39). */
function parseGemini(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return jsonlValues(text, file, "a Gemini CLI session");
  }
}

async function geminiWithSubagents(path: string): Promise<string | undefined> {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const m = base.match(/^session-.*-([0-9a-f]{8})\.jsonl?$/i);
  if (!m) return undefined;
  const dir = path.slice(0, path.lastIndexOf("/") + 1) || "./";
  let subdir: string | undefined;
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory && e.name.toLowerCase().startsWith(m[1].toLowerCase())) subdir = e.name;
    }
  } catch {
    // no readable session directory: the log is read without its bundle
    return undefined;
  }
  if (!subdir) return undefined;
  // the session file is read like any log (a FIFO or /dev/zero under a session's name is refused)
  const id = readLogHead(path, 4096).match(/"sessionId"\s*:\s*"([^"]+)"/)?.[1];
  if (!id || id !== subdir) return undefined;
  const subs = (await names(`${dir}${subdir}`)).filter((f) => /\.jsonl?$/.test(f)).sort();
  if (!subs.length) return undefined;
  const budget = logBudget(path);
  const text = readLogText(path, budget);
  const subagents = [];
  for (const f of subs) {
    const p = `${dir}${subdir}/${f}`;
    subagents.push(parseGemini(readLogText(p, budget), p));
  }
  return JSON.stringify({ [GEMINI_BUNDLE_KEY]: { main: parseGemini(text, path), subagents } });
}

/**
 * One text for a log made of several files, or undefined when `path` is an ordinary single
 * log. Throws {@link LogFormatError} naming a part that cannot be read.
 */
export async function bundleLog(path: string): Promise<string | undefined> {
  if (await isDir(path)) return await openHandsDir(path.replace(/\/+$/, ""));
  return await geminiWithSubagents(path);
}
