/**
 * Assembling one turn page ({@link TurnPage}) from what the scorer decided (the frames' rows) and
 * what the library re-reads (the log's events with their line ranges, the workspace W_{t-1}):
 * the tree with each file's share of lines seen, the targets with their outcome classes, the
 * events, the submission beside the reference, and the re-implementations. Every text shown is put
 * in the site's content store once.
 *
 * @module
 */
import { basename } from "node:path";
import { countLines, type Format, mergeRanges, readLog, type ReadsResult } from "../../logs/mod.ts";
import { listWorkspace, type WorkspaceFiles } from "./workspace.ts";
import type { EventRow, TargetRow, TestRow, TurnKeys, TurnRow } from "../../metrics/mod.ts";
import {
  type CodeRef,
  eventVia,
  type EventView,
  type FileEntry,
  type Reimplementation,
  type TargetView,
  type TurnPage,
  viewOutcome,
} from "./model.ts";
import { lineCount, type TextStore } from "./store.ts";

/**
 * What a re-implementation looks like in the code models (see corpus.ts): a
 * {@link Reimplementation} before its code is put in the store.
 */
export interface ReimplementationFacts extends Omit<Reimplementation, "g" | "f"> {
  /** G's file and lines (workspace-relative), null when unknown. */
  g: { path: string; start: number; end: number } | null;
  /** F's lines in the submission, null when unknown. */
  f: { start: number; end: number } | null;
}

/** Inputs of {@link buildTurnPage}. */
export interface TurnInputs {
  href: string;
  title: string;
  keys: TurnKeys | null;
  simulated: boolean;
  log: string | null;
  /** The log re-read against W_{t-1} (null: only the frames are known). */
  reads: ReadsResult | null;
  /** The scorer's rows of the turn (absent for a single log). */
  row?: TurnRow | null;
  targets?: readonly TargetRow[];
  tests?: readonly TestRow[];
  /** The scorer's events rows, to check the re-read log against (and to show without a log). */
  frameEvents?: readonly EventRow[];
  /** W0 (or the workspace given with --root); absent when unknown. */
  workspace?: WorkspaceFiles;
  /** The agent's earlier submissions (path → text): W_{t-1} = W0 + these. */
  overlays?: Readonly<Record<string, string>>;
  submission?: { path: string; text: string } | null;
  reference?: { path: string; text: string } | null;
  reimplementations?: readonly ReimplementationFacts[];
  nav?: TurnPage["nav"];
  warnings?: string[];
}

/**
 * Characters of a command shown on a page; a longer one (a heredoc writing a file, say) is cut
 * there and its whole text is put in the content store, loaded when asked for.
 */
export const MAX_COMMAND_CHARS = 600;

/** Which log, read against which workspace (`reporeuse reads`' options). */
export interface LogSource {
  /** A log file or session directory (any format lib/logs reads). */
  log: string;
  /** The workspace as it was when the turn began (commands are evaluated against it). */
  root?: string;
  /** The harness's working directory that is the workspace root. */
  cwd?: string;
  /** Read as this format instead of detecting it. */
  format?: Format;
}

/** The inputs of a single log's page: the log read against its workspace, nothing scored. */
export async function logInputs(src: LogSource): Promise<TurnInputs> {
  const reads = await readLog(src.log, { root: src.root, cwd: src.cwd, format: src.format });
  const workspace = src.root ? await listWorkspace(src.root) : undefined;
  return {
    href: "index.html",
    title: basename(src.log),
    keys: null,
    simulated: false,
    log: src.log,
    reads,
    workspace,
    warnings: [
      ...(reads.problems ?? []),
      ...(src.root ? [] : [
        "No workspace given (--root): lines are placed from the log alone and no code is shown.",
      ]),
      ...(workspace?.truncated ? ["The workspace has more files than the tree lists."] : []),
    ],
  };
}

/** A W0 file's address and line count, memoised per workspace (W0 is shared by many turns). */
export class FileAddresses {
  readonly #store: TextStore;
  readonly #memo = new Map<string, Promise<{ hash: string | null; lines: number }>>();

  constructor(store: TextStore) {
    this.#store = store;
  }

  readonly #manifests = new Map<string, Promise<string>>();

  /**
   * The address of a workspace's file list (`{ p: paths, h: addresses, n: lines }`), stored once
   * and shared by every turn page on it.
   */
  manifest(ws: WorkspaceFiles): Promise<string> {
    let hit = this.#manifests.get(ws.root);
    if (!hit) {
      hit = (async () => {
        const entries = await Promise.all(
          ws.files.map((path) => this.of(`${ws.root}\u0000${path}`, path, () => ws.text(path))),
        );
        return await this.#store.putData({
          p: ws.files,
          h: entries.map((e) => e.hash),
          n: entries.map((e) => e.lines),
        });
      })();
      this.#manifests.set(ws.root, hit);
    }
    return hit;
  }

  /** Address and lines of a text known by a key (e.g. `w0 root \0 path`). */
  of(key: string, path: string, text: () => string | undefined) {
    let hit = this.#memo.get(key);
    if (!hit) {
      hit = (async () => {
        const t = text();
        if (t === undefined) return { hash: null, lines: 0 };
        return { hash: await this.#store.put(path, t), lines: lineCount(t) };
      })();
      this.#memo.set(key, hit);
    }
    return hit;
  }
}

/** Lines of `ranges` at or below `limit` (lines past a file's end are never credited). */
function seenLines(ranges: [number, number][] | undefined, limit: number | null): number {
  if (!ranges) return 0;
  let n = 0;
  for (const [a, b] of mergeRanges(ranges)) {
    const hi = limit === null ? b : Math.min(b, limit);
    if (hi >= a) n += hi - a + 1;
  }
  return n;
}

/** The command as shown: at most {@link MAX_COMMAND_CHARS} characters. */
export function shownCommand(command: string): string {
  return command.length <= MAX_COMMAND_CHARS ? command : `${command.slice(0, MAX_COMMAND_CHARS)}…`;
}

/** Builds a turn page; every text it shows goes to `store` (once per distinct text). */
export async function buildTurnPage(
  inp: TurnInputs,
  store: TextStore,
  addresses: FileAddresses,
): Promise<TurnPage> {
  const warnings = [...(inp.warnings ?? [])];
  const reads = inp.reads?.reads ?? {};
  // events: re-read from the log (with lines), else the frames' rows (without)
  const events: EventView[] = inp.reads
    ? inp.reads.events.map((e, idx) => ({
      ...(e.command.length > MAX_COMMAND_CHARS ? { chars: e.command.length, full: e.command } : {}),
      idx,
      step: e.step,
      kind: e.kind,
      tool: e.tool,
      command: shownCommand(e.command),
      paths: e.paths,
      lines: e.lines,
      placed: e.placed,
      ...(e.note ? { note: e.note } : {}),
      via: eventVia(e),
    }))
    : (inp.frameEvents ?? []).map((e) => ({
      ...(e.command.length > MAX_COMMAND_CHARS ? { chars: e.command.length, full: e.command } : {}),
      idx: e.idx,
      step: e.step,
      kind: e.kind,
      tool: e.tool,
      command: shownCommand(e.command),
      paths: e.paths,
      lines: {},
      placed: e.placed,
      via: eventVia(e),
    }));
  // long commands: their whole text goes to the store, loaded on demand
  for (const e of events as (EventView & { full?: string })[]) {
    if (e.full !== undefined) {
      e.more = await store.put("command.txt", e.full);
      delete e.full;
    }
  }
  if (inp.reads && inp.frameEvents) warnings.push(...disagreements(inp.reads, inp.frameEvents));
  if (inp.reads && inp.row) {
    if (inp.reads.lines !== inp.row.lines || inp.reads.files !== inp.row.files) {
      warnings.push(
        `The log read now shows ${inp.reads.lines} lines in ${inp.reads.files} files; the scored frames say ${inp.row.lines} lines in ${inp.row.files} files (scored with another version of the scorer, or the corpus changed since).`,
      );
    }
  }

  // the tree: W0, the agent's earlier files over it, the files of this turn
  const tree = new Map<string, FileEntry>();
  const ws = inp.workspace;
  const treeBase = ws ? await addresses.manifest(ws) : null;
  const overlays = inp.overlays ?? {};
  if (ws) {
    await Promise.all(ws.files.map(async (path) => {
      if (Object.hasOwn(overlays, path)) return;
      const a = await addresses.of(`${ws.root}\u0000${path}`, path, () => ws.text(path));
      tree.set(path, { path, lines: a.lines, seen: 0, hash: a.hash, origin: "w0" });
    }));
  }
  for (const [path, text] of Object.entries(overlays)) {
    tree.set(path, {
      path,
      lines: lineCount(text),
      seen: 0,
      hash: await store.put(path, text),
      origin: "earlier",
    });
  }
  let submission: CodeRef | null = null;
  if (inp.submission) {
    const { path, text } = inp.submission;
    const hash = await store.put(path, text);
    submission = { path, hash, start: 1, end: lineCount(text) };
    const before = tree.get(path);
    tree.set(path, {
      path,
      lines: lineCount(text),
      seen: 0,
      hash,
      origin: before ? before.origin : "turn",
    });
  }
  for (const e of events) {
    if (e.kind !== "write") continue;
    for (const p of e.paths) {
      if (!tree.has(p)) tree.set(p, { path: p, lines: 0, seen: 0, hash: null, origin: "turn" });
    }
  }
  for (const p of Object.keys(reads)) {
    if (!tree.has(p)) tree.set(p, { path: p, lines: 0, seen: 0, hash: null, origin: "turn" });
  }
  for (const f of tree.values()) {
    f.seen = seenLines(reads[f.path], f.hash === null ? null : f.lines);
  }
  let reference: CodeRef | null = null;
  if (inp.reference) {
    const { path, text } = inp.reference;
    reference = { path, hash: await store.put(path, text), start: 1, end: lineCount(text) };
  }

  const targets: TargetView[] = (inp.targets ?? []).map((t) => ({
    target: t.target,
    kind: t.kind,
    implemented: t.implemented,
    read: t.read,
    reused: t.reused,
    reimplemented: t.reimplemented,
    reimplemented_by: t.reimplemented_by,
    file: t.file,
    start: t.start,
    body_start: t.body_start,
    end: t.end,
    body_lines: t.body_lines,
    callees: t.callees,
    callee_overlap: t.callee_overlap,
    outcome: viewOutcome(t),
  }));
  const reimplementations: Reimplementation[] = (inp.reimplementations ?? []).map((r) => ({
    ...r,
    g: r.g ? { ...r.g, hash: tree.get(r.g.path)?.hash ?? null } : null,
    f: r.f && submission ? { path: submission.path, hash: submission.hash, ...r.f } : null,
  }));

  const row = inp.row ?? null;
  return {
    href: inp.href,
    title: inp.title,
    keys: inp.keys,
    simulated: inp.simulated,
    log: inp.log,
    format: inp.reads?.format ?? null,
    row,
    totals: inp.reads
      ? { files: inp.reads.files, lines: inp.reads.lines, coverage: inp.reads.coverage }
      : { files: row?.files ?? 0, lines: row?.lines ?? 0, coverage: row?.coverage ?? 0 },
    targets,
    events,
    treeBase,
    tree: [...tree.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    reads,
    submission,
    reference,
    reimplementations,
    tests: (inp.tests ?? []).map((t) => ({ case: t.case, passed: t.passed })),
    warnings,
    nav: inp.nav ?? {},
  };
}

/** Where the events re-read from the log differ from the scored events rows. */
function disagreements(reads: ReadsResult, rows: readonly EventRow[]): string[] {
  if (reads.events.length !== rows.length) {
    return [
      `The log read now has ${reads.events.length} events; the scored frames have ${rows.length} (scored with another version of the scorer, or the log changed since).`,
    ];
  }
  const bad = reads.events.findIndex((e, i) =>
    e.kind !== rows[i].kind || e.command !== rows[i].command ||
    countLines(e.lines) !== rows[i].lines_read
  );
  return bad < 0 ? [] : [
    `Event #${bad} of the log read now differs from the scored frames' (scored with another version of the scorer, or the log changed since).`,
  ];
}
