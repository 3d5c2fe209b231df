/**
 * Aider's LLM history (`--llm-history-file`, e.g. `.aider.llm.history`): every request is logged
 * whole as `TO LLM <ts>` followed by the messages (each opened by a `-------` line, every line
 * prefixed `SYSTEM ` / `USER ` / `ASSISTANT `), and every reply as `LLM RESPONSE <ts>`.
 *
 * Aider has no read tool: files added to the chat (and read-only files) are pasted whole into
 * every request (`<path>` then a fence, the text, the closing fence), so each pasted text is
 * credited whole, lines 1..n of what was pasted; the repo map shows excerpt lines of files
 * (`│` lines, `⋮` elisions, no numbers), credited where they are found in the workspace file
 * (unplaced without it); its bare file names are a listing of the repository. `/run` and
 * accepted shell commands come back as `I ran this command:` … `And got this output:` and go
 * through the shell analysis. A request repeats the earlier ones' content: each distinct view is
 * one action, at the step (request) where it first appeared.
 *
 * `.aider.chat.history.md` holds no file text (only which files were added): it cannot say which
 * lines the model saw, and is refused with a message saying so (see `detect.ts`).
 *
 * @module
 */
import type { Event, LogMeta } from "../types.ts";
import { makeEvent, outsideNote } from "../event.ts";
import { rangesOf } from "../ranges.ts";
import { analyzeShell } from "../shell/analyze.ts";
import { splitLines, TurnWorkspace } from "../workspace.ts";
import { type ReaderOptions, type ReaderResult, stripAnsi } from "./common.ts";
import type { LogReader } from "./reader.ts";
import { exists } from "./collect.ts";

/** True when a text is an Aider LLM history. */
export function looksAiderLlmHistory(text: string): boolean {
  return /^TO LLM \d{4}-\d\d-\d\dT/.test(text.trimStart().slice(0, 40));
}

/** True when a text is an Aider markdown chat history (`.aider.chat.history.md`). */
export function looksAiderChatHistory(text: string): boolean {
  return /^# aider chat started at \d{4}-\d\d-\d\d/m.test(text.slice(0, 4096));
}

/** One chat message of a request. */
export interface AiderMessage {
  role: string;
  text: string;
}

/** The requests of an LLM history: each a list of messages (replies are not views). */
export function aiderRequests(text: string): AiderMessage[][] {
  const out: AiderMessage[][] = [];
  let cur: AiderMessage[] | undefined;
  let msg: { role: string; lines: string[] } | undefined;
  const flush = () => {
    if (msg && cur) cur.push({ role: msg.role, text: msg.lines.join("\n") });
    msg = undefined;
  };
  for (const line of text.split("\n")) {
    if (/^TO LLM \d{4}-/.test(line)) {
      flush();
      cur = [];
      out.push(cur);
      continue;
    }
    if (/^LLM RESPONSE \d{4}-/.test(line)) {
      flush();
      cur = undefined;
      continue;
    }
    if (!cur) continue;
    if (line === "-------") {
      flush();
      continue;
    }
    const m = line.match(/^(SYSTEM|USER|ASSISTANT|TOOL)(?: |$)(.*)$/);
    if (!m) {
      // a line without a role prefix: part of the previous line's content (a stray \r)
      if (msg) msg.lines.push(line);
      continue;
    }
    const role = m[1].toLowerCase();
    if (!msg || msg.role !== role) {
      flush();
      msg = { role, lines: [] };
    }
    msg.lines.push(m[2]);
  }
  flush();
  return out;
}

const FENCES: [string, string][] = [
  ["````", "````"],
  ["```", "```"],
  ["<source>", "</source>"],
  ["<code>", "</code>"],
  ["<pre>", "</pre>"],
  ["<codeblock>", "</codeblock>"],
  ["<sourcecode>", "</sourcecode>"],
];

/**
 * Files pasted in a message: `<path>` line, fence line, text, closing fence (on its own line, or
 * right after the last line of a file without a final newline).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pastedFiles } from "./aider.ts";
 * const f = "`".repeat(3);
 * const msg = `I have *added these files to the chat*.\n\na.py\n${f}\nx = 1\ny = 2\n${f}\n\nb.py\n${f}\nz = 3${f}\n`;
 * assert.deepEqual(pastedFiles(msg), [{ path: "a.py", text: "x = 1\ny = 2" }, { path: "b.py", text: "z = 3" }]);
 * ```
 */
export function pastedFiles(text: string): { path: string; text: string }[] {
  const lines = text.split("\n");
  const out: { path: string; text: string }[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const fence = FENCES.find(([open]) => lines[i + 1] === open);
    const name = lines[i].trim();
    if (!fence || !name || /\s{2,}/.test(name) || name.startsWith("```")) continue;
    const body: string[] = [];
    let j = i + 2;
    let closed = false;
    for (; j < lines.length; j++) {
      if (lines[j] === fence[1]) {
        closed = true;
        break;
      }
      if (lines[j].endsWith(fence[1]) && j + 1 < lines.length && !lines[j + 1].trim()) {
        // a file without a final newline: the closing fence follows its last line
        body.push(lines[j].slice(0, -fence[1].length));
        closed = true;
        break;
      }
      body.push(lines[j]);
    }
    if (!closed) continue;
    out.push({ path: name, text: body.join("\n") });
    i = j;
  }
  return out;
}

/** The repo map: per file its name and the excerpt lines shown (`│` lines). */
export function repoMap(text: string): { path: string; runs: string[][] }[] {
  const out: { path: string; runs: string[][] }[] = [];
  let cur: { path: string; runs: string[][] } | undefined;
  const lines = text.split("\n");
  let started = false;
  for (const l of lines) {
    if (!started) {
      // the map follows the preamble's blank line
      if (l === "") started = true;
      continue;
    }
    if (l.startsWith("│")) {
      if (cur && !cur.runs.length) cur.runs.push([]);
      cur?.runs[cur.runs.length - 1].push(l.slice(1));
      continue;
    }
    if (l.startsWith("⋮")) {
      if (cur && (!cur.runs.length || cur.runs[cur.runs.length - 1].length)) cur.runs.push([]);
      continue;
    }
    if (l === "") continue;
    const name = l.endsWith(":") ? l.slice(0, -1) : l;
    cur = { path: name, runs: [] };
    out.push(cur);
  }
  return out;
}

const RUN_RE = /^I ran this command:\n\n([\s\S]*?)\n\nAnd got this output:\n\n([\s\S]*)$/;

interface Ctx {
  ws: TurnWorkspace;
  step: number;
  actions: Event[][];
  seen: Set<string>;
  /** The latest text of each file pasted in the chat (aider: "the true contents"). */
  current: Map<string, string>;
}

function once(ctx: Ctx, key: string): boolean {
  if (ctx.seen.has(key)) return false;
  ctx.seen.add(key);
  return true;
}

function pasted(ctx: Ctx, files: { path: string; text: string }[], tool: string): void {
  for (const f of files) {
    if (!once(ctx, `file\u0000${f.path}\u0000${f.text}`)) continue;
    const rel = ctx.ws.resolve(f.path, "");
    if (rel === undefined || rel === "") {
      ctx.actions.push([
        makeEvent(ctx.step, "read", tool, f.path, [], {}, outsideNote(f.path)),
      ]);
      continue;
    }
    const texts = splitLines(f.text.endsWith("\n") ? f.text : f.text + "\n");
    // a file pasted in the first request shows the workspace's text (checked like every read);
    // later pastes show the file as aider's edits (not replayed) and its editor model left it
    const first = ctx.step === 0 && !ctx.current.has(rel);
    ctx.current.set(rel, f.text);
    const c = first
      ? ctx.ws.credit(rel, texts.map((t, i) => [i + 1, t]))
      : { lines: texts.length ? [[1, texts.length]] as [number, number][] : [], placed: true };
    ctx.actions.push([
      makeEvent(
        ctx.step,
        "read",
        tool,
        f.path,
        [rel],
        c.lines.length ? { [rel]: c.lines } : {},
        c.note ? `pasted whole; ${c.note}` : "pasted whole",
        c.placed,
      ),
    ]);
  }
}

/** A repo-map line as shown: aider cuts lines at 100 characters. */
function same(fileLine: string, shown: string): boolean {
  return fileLine === shown || (shown.length >= 90 && fileLine.startsWith(shown));
}

/**
 * Line numbers of repo-map excerpt lines in the file: each run of lines between `⋮` elisions is
 * located as a block, in order (a line found alone when its block is not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locate } from "./aider.ts";
 * const file = "import x\n\nclass A:\n    def f(self):\n        pass\n";
 * assert.ok(locate(file, [["class A:", "    def f(self):"]]).join() === "3,4");
 * ```
 */
export function locate(content: string, runs: string[][]): number[] {
  const lines = splitLines(content);
  const out: number[] = [];
  let from = 0;
  for (const run of runs) {
    if (!run.length) continue;
    let at = -1;
    for (let k = from; k + run.length <= lines.length && at < 0; k++) {
      if (run.every((x, j) => same(lines[k + j], x))) at = k;
    }
    if (at >= 0) {
      for (let j = 0; j < run.length; j++) out.push(at + j + 1);
      from = at + run.length;
      continue;
    }
    for (const x of run) {
      if (!x.trim()) continue;
      for (let k = from; k < lines.length; k++) {
        if (same(lines[k], x)) {
          out.push(k + 1);
          from = k + 1;
          break;
        }
      }
    }
  }
  return out;
}

async function request(ctx: Ctx, messages: AiderMessage[]): Promise<void> {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const t = m.text;
    if (/^I have \*added these files to the chat\*/.test(t)) {
      pasted(ctx, pastedFiles(t), "chat-file");
    } else if (/^Here are some READ ONLY files/.test(t)) {
      pasted(ctx, pastedFiles(t), "read-only-file");
    } else if (
      /^(I am working with you on code in a git repository\.\n)?Here are summaries of some files present in my git repo/
        .test(t)
    ) {
      if (!once(ctx, `map\u0000${t}`)) continue;
      const entries = repoMap(t);
      const events: Event[] = [makeEvent(ctx.step, "list", "repo-map", "repo map", ["."], {})];
      for (const e of entries) {
        if (!e.runs.some((r) => r.length)) continue;
        const rel = ctx.ws.resolve(e.path, "");
        if (rel === undefined || rel === "") continue;
        const ws = ctx.ws.read(rel);
        const content = ctx.current.get(rel) ?? ws;
        const known = typeof content === "string";
        const nums = known ? locate(content, e.runs) : [];
        const note = known
          ? "repo-map excerpt"
          : "repo-map excerpt: no line numbers without the workspace";
        const lines = nums.length ? { [rel]: rangesOf(nums) } : {};
        events.push(makeEvent(ctx.step, "read", "repo-map", e.path, [rel], lines, note, known));
      }
      ctx.actions.push(events);
    } else {
      const run = t.match(RUN_RE);
      if (!run || !once(ctx, `run\u0000${t}`)) continue;
      // strip ANSI colours aider keeps in the captured output
      const output = stripAnsi(run[2]);
      ctx.actions.push(
        await analyzeShell(run[1].trim(), { ws: ctx.ws, cwd: "", step: ctx.step, tool: "run" }, {
          output: output.endsWith("\n") ? output : output + "\n",
        }),
      );
    }
  }
}

/** Reads an Aider LLM history text. Paths are relative to the git root (the workspace root). */
export async function readAider(text: string, opts: ReaderOptions): Promise<ReaderResult> {
  const ctx: Ctx = {
    ws: new TurnWorkspace(opts.files, opts.cwd ?? ""),
    step: 0,
    actions: [],
    seen: new Set(),
    current: new Map(),
  };
  const reqs = aiderRequests(text.replace(/\r\n/g, "\n"));
  for (let i = 0; i < reqs.length; i++) {
    ctx.step = i;
    await request(ctx, reqs[i]);
  }
  const meta: LogMeta = { steps: reqs.length };
  const stamps = [...text.matchAll(/^(?:TO LLM|LLM RESPONSE) (\S+)$/gm)].map((m) =>
    Date.parse(m[1])
  ).filter((t) => Number.isFinite(t));
  if (stamps.length >= 2) meta.seconds = (Math.max(...stamps) - Math.min(...stamps)) / 1000;
  return { format: "aider-llm-history", actions: ctx.actions, meta };
}

/** The Aider reader (registry entry). */
export const reader: LogReader = {
  name: "aider",
  harness: "Aider",
  harnessNames: ["aider"],
  formats: ["aider-llm-history"],
  files: ["--llm-history-file <file>"],
  detect: (input) => looksAiderLlmHistory(input.text) ? "aider-llm-history" : undefined,
  read: (input, _format, opts) => readAider(input.text, opts),
  run: {
    name: "aider",
    harness: "aider",
    command:
      `aider --message-file {prompt_file} --yes-always --no-git --no-auto-commits --no-stream --no-pretty --no-check-update --no-show-model-warnings --llm-history-file {log_dir}/log.llm.history --chat-history-file {scratch}/aider.chat.history.md --input-history-file {scratch}/aider.input.history`,
    help: `aider --message-file <prompt file> --yes-always --no-git --no-auto-commits
--llm-history-file <turn dir>/log.llm.history …  → log.llm.history`,
    env: () => ({}),
    async collect(c) {
      return (await exists(`${c.turnDir}/log.llm.history`)) ? ["log.llm.history"] : [];
    },
  },
  doc: {
    versions:
      "`--llm-history-file` (`TO LLM` / `LLM RESPONSE` blocks, every line prefixed `SYSTEM`/`USER`/`ASSISTANT`), 2024–2026",
    read:
      "files added to the chat and read-only files are **pasted whole** into every request: each distinct pasted text credits its lines 1..n once; the repo map shows excerpt lines (`│`), credited where found in the file (the text last pasted, else the workspace; unplaced without either); `/run` outputs (`I ran this command: … And got this output:`) via the shell analysis",
    search: "only inside `/run` output",
    listing: "the repo map's bare file names: a listing of the repository root",
    refused:
      "**`.aider.chat.history.md` holds no file text** (only which files were added): it is refused, asking for `--llm-history-file`; the model sees whole files, so Lines are whole files, not the parts it looked at; aider's edits (SEARCH/REPLACE blocks) are not replayed, later pastes show the edited text",
    log:
      "`aider --llm-history-file <file>` (aider scripting docs: `--message-file`, `--yes-always`, `--no-auto-commits`). Preset `aider`: `aider --message-file <prompt file> --yes-always --no-git --no-auto-commits --no-stream --no-pretty --no-check-update --no-show-model-warnings --llm-history-file <turn>/log.llm.history …` (no git in the prepared workspace, so no repo map)",
  },
};
