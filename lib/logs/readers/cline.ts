/**
 * Cline, Roo Code and Kilo Code (legacy, a Roo fork) task histories: `api_conversation_history.json`
 * in `<globalStorage>/<extension id>/tasks/<taskId>/` (Cline standalone/CLI: `~/.cline/data/tasks/`),
 * the Anthropic messages the extension sent (`{role, content: string | blocks[], ts?}`). Checked
 * against cline/cline `ReadFileToolHandler.ts`, `ToolResultUtils.ts`, `prompts/responses.ts`,
 * `services/ripgrep/index.ts`, `integrations/terminal/CommandOrchestrator.ts` (v3.0–v3.89) and
 * RooCodeInc/Roo-Code `core/tools/ReadFileTool.ts`, `integrations/misc/extract-text.ts`
 * (`addLineNumbers`), `services/ripgrep/index.ts`, `core/tools/ExecuteCommandTool.ts`.
 *
 * - A tool call is an XML element in the assistant's text (`<read_file>\n<path>a.py</path>
 *   </read_file>`; one tool per message, the first) or a native `tool_use` block. Its result is
 *   the next user message's `tool_result` (by id), or a text block `[read_file for 'a.py'] Result:`
 *   followed by the result (in the same block, or the next one in Cline ≤ 3.20 and Roo's XML era).
 * - `read_file` shows `N | line` labels (Cline ≥ 3.77; Roo, padded), Roo's `<files><file><path>…
 *   <content lines="a-b">` and `File: p` forms for several files, or (Cline ≤ 3.76) the file text
 *   with no numbers: lines 1… of the text. Every line goes through `TurnWorkspace.credit`.
 * - `search_files`: Roo prints `# path` then `  N | line` (credited); Cline prints the matched lines
 *   without numbers (`│line`): not placed. `list_files` and `list_code_definition_names` are
 *   listings; `execute_command` goes through the shell analysis (PowerShell on a Windows
 *   workspace) with the output after `Output:`; writes (`write_to_file`, `replace_in_file`,
 *   `apply_diff`, …) take the `<final_file_content>` the result shows, else an unknown content.
 *
 * The workspace root is the `# Current Working Directory (…)` (Cline) / `# Current Workspace
 * Directory (…)` (Roo) of the first `<environment_details>`. `ui_messages.json` (the chat UI) holds
 * no file text and is refused (unsupported.ts).
 *
 * @module
 */
import type { Event, EventKind, LogMeta } from "../types.ts";
import { makeEvent, pathNote } from "../event.ts";
import { analyzeShell, type ShellObservation } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import type { Json, ReaderOptions, ReaderResult } from "./common.ts";
import { arr, contentText, num, obj, spanSeconds, str } from "./common.ts";
import { type LogInput, type LogReader, NOT_JSON } from "./reader.ts";

/** Tools of the Cline family whose calls the reader knows (XML element names and native names). */
const READ_TOOLS = new Set(["read_file", "read_files"]);
const LIST_TOOLS = new Set(["list_files", "list_code_definition_names"]);
const SEARCH_TOOLS = new Set(["search_files", "codebase_search"]);
const WRITE_TOOLS = new Set([
  "write_to_file",
  "replace_in_file",
  "apply_diff",
  "insert_content",
  "search_and_replace",
  "edit_file",
  "apply_patch",
  "write_file",
  "new_rule",
]);
const RUN_TOOLS = new Set([
  "browser_action",
  "use_mcp_tool",
  "access_mcp_resource",
  "ask_followup_question",
  "attempt_completion",
  "new_task",
  "plan_mode_respond",
  "act_mode_respond",
  "load_mcp_documentation",
  "switch_mode",
  "update_todo_list",
  "fetch_instructions",
  "web_fetch",
  "web_search",
  "condense",
  "summarize_task",
  "report_bug",
  "focus_chain",
  "use_subagents",
  "use_skill",
  "run_slash_command",
  "generate_image",
  "generate_explanation",
]);
const ALL_TOOLS = [
  ...READ_TOOLS,
  ...LIST_TOOLS,
  ...SEARCH_TOOLS,
  ...WRITE_TOOLS,
  ...RUN_TOOLS,
  "execute_command",
];
const XML_TOOL = new RegExp(`<(${ALL_TOOLS.join("|")})>`, "g");

/** One tool call of an assistant message. */
interface Call {
  name: string;
  params: Json;
  /** Native `tool_use` id. */
  id?: string;
  step: number;
  /** The call as written (XML text or JSON input). */
  text: string;
}

/** The value of `<name>…</name>` in an XML tool body (long texts: up to the last closing tag). */
function xmlParam(body: string, name: string, last = false): string | undefined {
  const open = `<${name}>`;
  const a = body.indexOf(open);
  if (a < 0) return undefined;
  const close = `</${name}>`;
  const b = last ? body.lastIndexOf(close) : body.indexOf(close, a + open.length);
  if (b < a) return undefined;
  return body.slice(a + open.length, b);
}

const LONG = new Set(["content", "diff", "result", "patch"]);

/** The first complete XML tool call of an assistant text (Cline runs one tool per message). */
export function xmlCall(text: string): { name: string; params: Json; text: string } | undefined {
  XML_TOOL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XML_TOOL.exec(text))) {
    const name = m[1];
    const close = `</${name}>`;
    const end = WRITE_TOOLS.has(name) ? text.lastIndexOf(close) : text.indexOf(close, m.index);
    if (end < m.index) continue;
    const body = text.slice(m.index + m[0].length, end);
    const params: Json = {};
    for (const p of body.matchAll(/<([a-z_]+)>/g)) {
      const key = p[1];
      if (key in params || key === "file" || key === "args") continue;
      const v = xmlParam(body, key, LONG.has(key));
      if (v === undefined) continue;
      params[key] = LONG.has(key) ? v.replace(/^\n/, "").replace(/\n$/, "") : v.trim();
    }
    // Roo: <args><file><path>p</path><line_range>1-50</line_range></file>…</args>
    const files = [...body.matchAll(/<file>([\s\S]*?)<\/file>/g)].map((f) => ({
      path: xmlParam(f[1], "path")?.trim(),
      line_ranges: [...f[1].matchAll(/<line_range>([\s\S]*?)<\/line_range>/g)].map((r) =>
        r[1].trim()
      ),
    }));
    if (files.length) params.files = files;
    return { name, params, text: text.slice(m.index, end + close.length) };
  }
  return undefined;
}

/** The text of a `tool_result` content (a string or blocks). */
function resultContent(c: unknown): string {
  if (typeof c === "string") return c;
  return arr(c).map((b) => str(obj(b)?.text) ?? "").filter((t) => t !== "").join("\n");
}

const RESULT_HEAD = /^\[([\w-]+)(?: for [\s\S]*?)?\] Result:/;

/** A result without its `[tool for 'x'] Result:` description line. */
function stripHead(text: string): string {
  const m = text.match(RESULT_HEAD);
  return m ? text.slice(m[0].length).replace(/^\n/, "") : text;
}

/** The results of a user message: by tool_use id, and the described text results in order. */
function resultsOf(
  content: unknown,
): { byId: Map<string, string>; texts: { name: string; text: string }[] } {
  const byId = new Map<string, string>();
  const texts: { name: string; text: string }[] = [];
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : arr(content);
  for (let i = 0; i < blocks.length; i++) {
    const b = obj(blocks[i]);
    const type = str(b?.type);
    if (type === "tool_result") {
      const id = str(b!.tool_use_id);
      if (id) byId.set(id, stripHead(resultContent(b!.content)));
      continue;
    }
    if (type !== "text") continue;
    const t = str(b!.text) ?? "";
    const m = t.match(RESULT_HEAD);
    if (!m) continue;
    let rest = t.slice(m[0].length).replace(/^\n/, "");
    if (!rest.trim()) {
      // Cline ≤ 3.20 and Roo's XML era: the result is the next text block
      const next = obj(blocks[i + 1]);
      const nt = str(next?.text);
      if (
        str(next?.type) === "text" && nt !== undefined && !RESULT_HEAD.test(nt) &&
        !nt.startsWith("<environment_details>")
      ) {
        rest = nt;
        i++;
      }
    }
    texts.push({ name: m[1], text: rest });
  }
  return { byId, texts };
}

const NUMBERED = /^\s*(\d+) \| ?(.*)$/;

/**
 * The `N | line` lines of a text with increasing numbers (Roo's indentation mode shows several
 * ranges; a number lower than the last is not a label). Each is checked against its file later.
 */
function numberedShown(text: string): ShownLine[] {
  const out: ShownLine[] = [];
  let last = 0;
  for (const line of text.split("\n")) {
    const m = line.match(NUMBERED);
    if (!m) continue;
    const n = Number(m[1]);
    if (n <= last) continue;
    out.push([n, m[2]]);
    last = n;
  }
  return out;
}
const FAILED =
  /^(?:The user denied this operation|The tool execution failed|Error reading file|Error:|File not found|Missing value for required parameter|Tool \S+ is not available|\[.*\] Result: Error)/;

/** The lines a read result shows of one file: numbered labels, else (old Cline) the text itself. */
function shownLines(text: string, start: number): { lines: ShownLine[]; numbered: boolean } {
  const numbered = numberedShown(text);
  if (numbered.length) return { lines: numbered, numbered: true };
  // Cline ≤ 3.76: the file's text (from line 1, or the requested start)
  const body = text.replace(/\n$/, "");
  if (!body) return { lines: [], numbered: false };
  return { lines: body.split("\n").map((t, k) => [start + k, t] as ShownLine), numbered: false };
}

interface Ctx {
  ws: TurnWorkspace;
  cwd: string;
  actions: Event[][];
}

function ev(
  call: Call,
  kind: EventKind,
  paths: string[],
  lines: Event["lines"],
  note?: string,
  placed = true,
): Event {
  return makeEvent(call.step, kind, call.name, call.text, paths, lines, note, placed);
}

/** Credits the lines shown of one file; the event of that file. */
function readEvent(
  ctx: Ctx,
  call: Call,
  raw: string | undefined,
  shown: ShownLine[],
  note?: string,
): Event {
  const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, ctx.cwd);
  if (rel === undefined || rel === "") return ev(call, "read", [], {}, pathNote(raw));
  if (!shown.length) return ev(call, "read", [rel], {}, note ?? "no lines shown");
  const c = ctx.ws.creditFiles([[rel, shown]]);
  return ev(
    call,
    "read",
    [rel],
    c.lines,
    [note, ...c.notes].filter(Boolean).join("; ") || undefined,
    c.placed,
  );
}

function readFile(ctx: Ctx, call: Call, text: string): Event[] {
  const p = call.params;
  // Roo: several files, each with its path
  if (/<file><path>/.test(text)) {
    const out: Event[] = [];
    for (const f of text.matchAll(/<file><path>([\s\S]*?)<\/path>([\s\S]*?)<\/file>/g)) {
      const body = f[2].match(/<content[^>]*>\n?([\s\S]*?)<\/content>/)?.[1] ?? "";
      const shown = numberedShown(body);
      out.push(
        readEvent(
          ctx,
          call,
          f[1].trim(),
          shown,
          /<error>/.test(f[2]) ? "read failed: nothing shown" : undefined,
        ),
      );
    }
    return out;
  }
  if (/^File: /m.test(text)) {
    const out: Event[] = [];
    for (const chunk of text.split(/^(?=File: )/m)) {
      const m = chunk.match(/^File: (.+)\n?([\s\S]*)$/);
      if (!m) continue;
      const shown = numberedShown(m[2]);
      out.push(
        readEvent(
          ctx,
          call,
          m[1].trim(),
          shown,
          /^(?:Error|Status: Denied)/m.test(m[2]) ? "read failed: nothing shown" : undefined,
        ),
      );
    }
    return out;
  }
  const path = str(p.path) ?? str(obj(arr(p.files)[0])?.path);
  // Cline's notes before the content ([File already read] …, [DUPLICATE READ] …) and Roo's
  // truncation warning at the top are not file lines
  const body = text.replace(/^\[(?:File already read|DUPLICATE READ)\][^\n]*\n/, "");
  const requested = Number(p.start_line ?? 1);
  const start = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const { lines, numbered } = shownLines(body, start);
  return [
    readEvent(
      ctx,
      call,
      path,
      lines,
      numbered ? undefined : "text shown without line numbers (Cline ≤ 3.76)",
    ),
  ];
}

function searchFiles(ctx: Ctx, call: Call, text: string): Event[] {
  const raw = str(call.params.path) ?? ".";
  const rel = ctx.ws.resolve(raw, ctx.cwd);
  if (rel === undefined) return [ev(call, "search", [], {}, pathNote(raw))];
  const shown = new Map<string, ShownLine[]>();
  let file: string | undefined;
  for (const line of text.split("\n")) {
    const h = line.match(/^# (.+)$/);
    if (h) {
      // Roo: paths relative to the workspace directory
      file = ctx.ws.resolve(h[1].trim(), ctx.cwd);
      continue;
    }
    const m = line.match(NUMBERED);
    if (m && file) {
      const l = shown.get(file) ?? [];
      l.push([Number(m[1]), m[2]]);
      shown.set(file, l);
    }
  }
  const credited = ctx.ws.creditFiles(shown);
  const { lines, notes } = credited;
  let placed = credited.placed;
  if (!shown.size && /^│/m.test(text)) {
    placed = false;
    notes.push("matched lines are shown without line numbers (Cline): not placed");
  }
  return [ev(call, "search", [shownPath(rel)], lines, notes.join("; ") || undefined, placed)];
}

const CUT = "\n... (output truncated) ...\n";

/** What a command result showed: the output after `Output:`, and the exit code. */
export function commandObservation(text: string): ShellObservation {
  const code = text.match(/exit code:? (-?\d+)/i) ??
    text.match(/^Command failed with exit code (-?\d+)/m);
  const at = text.indexOf("Output:\n");
  let output = at >= 0
    ? text.slice(at + "Output:\n".length).replace(/\nFull output saved to: [^\n]*$/, "")
    : "";
  const returncode = code ? Number(code[1]) : undefined;
  // Cline (TerminalManager.processOutput): the lines joined with "\n" and trimmed (blank lines at
  // either end are not shown); over the line limit, the first and last halves around a marker
  const cut = output.indexOf(CUT);
  if (cut >= 0) {
    return { head: output.slice(0, cut), tail: output.slice(cut + CUT.length) + "\n", returncode };
  }
  if (output && !output.endsWith("\n")) output += "\n";
  return { output, returncode };
}

async function handle(ctx: Ctx, call: Call, result: string | undefined): Promise<Event[]> {
  const name = call.name;
  const kind: EventKind = READ_TOOLS.has(name)
    ? "read"
    : SEARCH_TOOLS.has(name)
    ? "search"
    : LIST_TOOLS.has(name)
    ? "list"
    : WRITE_TOOLS.has(name)
    ? "write"
    : "run";
  if (!ALL_TOOLS.includes(name)) {
    return [makeEvent(call.step, "other", name, call.text, [], {}, `unknown tool: ${name}`)];
  }
  if (result === undefined) {
    return [ev(call, kind, [], {}, "no tool result in the log: nothing shown")];
  }
  const failed = FAILED.test(result.trim());
  if (name === "execute_command") {
    const command = str(call.params.command);
    if (command === undefined) return [ev(call, "other", [], {}, "command not given")];
    const wd = str(call.params.cwd);
    const cwd = wd === undefined ? ctx.cwd : ctx.ws.resolve(wd, ctx.cwd);
    // a failed or denied command showed its error, not files; a running one its output so far
    return await analyzeShell(command, {
      ws: ctx.ws,
      cwd,
      step: call.step,
      tool: name,
      dialect: ctx.ws.windows ? "powershell" : undefined,
    }, failed ? undefined : commandObservation(result));
  }
  if (failed) {
    if (kind === "write") return [ev(call, "write", [], {}, "failed or denied: nothing written")];
    return [ev(call, kind, [], {}, "failed or denied: nothing shown")];
  }
  if (kind === "read") return readFile(ctx, call, result);
  if (kind === "search") return searchFiles(ctx, call, result);
  if (kind === "list") {
    const raw = str(call.params.path) ?? ".";
    const rel = ctx.ws.resolve(raw, ctx.cwd);
    return [
      rel === undefined
        ? ev(call, "list", [], {}, pathNote(raw))
        : ev(call, "list", [shownPath(rel)], {}),
    ];
  }
  if (kind === "write") {
    const raw = str(call.params.path) ?? str(call.params.file_path);
    const rel = raw === undefined ? undefined : ctx.ws.resolve(raw, ctx.cwd);
    if (rel === undefined || rel === "") return [ev(call, "write", [], {}, pathNote(raw))];
    // the result shows the saved file (Cline: <final_file_content path="…">)
    const fin = result.match(
      /<final_file_content path="[^"]*">\n([\s\S]*?)\n?<\/final_file_content>/,
    );
    ctx.ws.write(rel, fin ? fin[1] + "\n" : UNKNOWN);
    return [ev(call, "write", [rel], {})];
  }
  return [ev(call, "run", [], {})];
}

/** The workspace directory an `<environment_details>` names. */
function envCwd(text: string): string | undefined {
  return text.match(/# Current (?:Working|Workspace) Directory \(([^\n]+?)\) Files/)?.[1];
}

/** Reads a Cline / Roo Code / Kilo Code `api_conversation_history.json`. */
export async function readCline(messages: unknown[], opts: ReaderOptions): Promise<ReaderResult> {
  let root = opts.cwd;
  const stamps: number[] = [];
  for (const m of messages) {
    const t = num(obj(m)?.ts);
    if (t !== undefined) stamps.push(t);
    if (root === undefined && str(obj(m)?.role) === "user") {
      root = envCwd(contentText(obj(m)!.content) ?? "");
    }
  }
  const ws = new TurnWorkspace(opts.files, root ?? "");
  const ctx: Ctx = { ws, cwd: "", actions: [] };
  let step = -1;
  let pending: Call[] = [];
  const flush = async (results?: ReturnType<typeof resultsOf>) => {
    const texts = results ? [...results.texts] : [];
    for (const call of pending) {
      let r: string | undefined = call.id !== undefined ? results?.byId.get(call.id) : undefined;
      if (r === undefined) {
        const k = texts.findIndex((t) =>
          t.name === call.name || (t.name === "subagents" && call.name === "use_subagents")
        );
        if (k >= 0) r = texts.splice(k, 1)[0].text;
      }
      ctx.actions.push(await handle(ctx, call, r));
    }
    pending = [];
  };
  for (const m of messages) {
    const o = obj(m);
    if (!o) continue;
    const role = str(o.role);
    if (role === "assistant") {
      if (pending.length) await flush();
      step++;
      const blocks = typeof o.content === "string"
        ? [{ type: "text", text: o.content }]
        : arr(o.content);
      const native = blocks.map(obj).filter((b): b is Json => str(b?.type) === "tool_use");
      if (native.length) {
        for (const b of native) {
          const input = obj(b.input) ?? {};
          pending.push({
            name: str(b.name) ?? "?",
            params: input,
            id: str(b.id),
            step,
            text: JSON.stringify(input),
          });
        }
      } else {
        const text = blocks.map((b) => str(obj(b)?.text) ?? "").join("\n");
        const x = xmlCall(text);
        if (x) pending.push({ ...x, step });
      }
    } else if (role === "user" && pending.length) {
      await flush(resultsOf(o.content));
    }
  }
  await flush();
  const meta: LogMeta = { steps: step + 1 };
  const s = spanSeconds(stamps, true);
  if (s !== undefined) meta.seconds = s;
  return { format: "cline", actions: ctx.actions, meta };
}

/** A Cline-family message (Anthropic `MessageParam`). */
function isMessage(v: unknown): boolean {
  const o = obj(v);
  if (!o || !["user", "assistant"].includes(str(o.role) ?? "")) return false;
  return typeof o.content === "string" || Array.isArray(o.content);
}

const MARK =
  /<environment_details>|^\[[a-z_]+ for '.*'\] Result:|^\[[a-z_]+\] Result:|<task>|# Current (?:Working|Workspace) Directory/m;

/**
 * True when a parsed log is a Cline-family task history: a list of `{role, content}` messages
 * where some message carries the extension's own markers (`<environment_details>`, `<task>`,
 * `[tool for '…'] Result:`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isClineHistory } from "./cline.ts";
 * assert.ok(isClineHistory([{ role: "user", content: [{ type: "text", text: "<task>\nx\n</task>" }] }]));
 * assert.ok(!isClineHistory([{ role: "user", content: "hello" }, { role: "assistant", content: "hi" }]));
 * ```
 */
export function isClineHistory(v: unknown): boolean {
  if (!Array.isArray(v) || !v.length || !v.every(isMessage)) return false;
  return v.some((m) => {
    const c = obj(m)!.content;
    if (
      arr(c).some((b) =>
        str(obj(b)?.type) === "tool_result" && RESULT_HEAD.test(resultContent(obj(b)!.content))
      )
    ) {
      return true;
    }
    return MARK.test(contentText(c) ?? "");
  });
}

/** The Cline / Roo Code / Kilo Code reader (registry entry). */
export const reader: LogReader = {
  name: "cline",
  harness: "Cline / Roo Code / Kilo Code",
  harnessNames: ["cline", "roocode", "roo", "kilocode", "kilo"],
  formats: ["cline"],
  files: [
    "<globalStorage>/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json",
    "<globalStorage>/rooveterinaryinc.roo-cline/tasks/<taskId>/api_conversation_history.json",
    "<globalStorage>/kilocode.kilo-code/tasks/<taskId>/api_conversation_history.json",
    "~/.cline/data/tasks/<taskId>/api_conversation_history.json",
  ],
  detect: (input: LogInput) => {
    const v = input.json();
    return v !== NOT_JSON && isClineHistory(v) ? "cline" : undefined;
  },
  read: (input, _format, opts) => {
    const v = input.json();
    return readCline(Array.isArray(v) ? v : [], opts);
  },
  doc: {
    versions:
      "`api_conversation_history.json` (Anthropic messages) of Cline 3.x, Roo Code 3.x and Kilo Code ≤ 7.1 (Roo fork): XML tool calls in the assistant's text (one per message) and native `tool_use`; results as `tool_result` or `[tool for 'x'] Result:` text (reader: see `lib/logs/readers/`)",
    read:
      "`read_file`: `N | line` labels (Cline ≥ 3.77, Roo), Roo's `<files><file><path>` / `File: p` forms for several files, the bare file text (Cline ≤ 3.76); `execute_command` via the shell analysis (PowerShell on a Windows workspace)",
    search: "`search_files` (Roo's `# path` + `N | line`; Cline prints no numbers: not placed)",
    listing: "`list_files`, `list_code_definition_names`",
    refused:
      "`ui_messages.json` (what the chat UI showed) holds no file text: refused, read `api_conversation_history.json`; Cline ≥ 4.0 SDK sessions and Kilo ≥ 7.2 (an OpenCode fork, SQLite) are other formats; `@`-mentioned files pasted by the user are not agent reads",
    log:
      "VS Code `globalStorage/<extension id>/tasks/<taskId>/api_conversation_history.json` (Cline `saoudrizwan.claude-dev`, Roo `rooveterinaryinc.roo-cline`, Kilo `kilocode.kilo-code`; Cline standalone `~/.cline/data/tasks/`). No preset: the harnesses run inside the editor",
  },
};
