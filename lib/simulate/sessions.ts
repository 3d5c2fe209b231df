/**
 * Rendering planned actions as Claude Code session transcripts and Codex CLI rollouts, in the
 * shapes the real harnesses write (see lib/logs/readers/claude.ts and codex.ts, and the real
 * sessions under tests/fixtures/logs/).
 *
 * - Claude Code: `Read` with 1-based offset/limit and `     N→` (≤ 2.1.85) or `N\t` (≥ 2.1.86)
 *   prefixes (whole-file reads print the empty line after the final newline, as the harness
 *   does), unchanged re-reads answered with the "File unchanged" stub (≥ 2.1.86), `Grep` content
 *   mode, `Glob`, `Bash`, `Write`; streamed responses as one line per content block; a `Task`
 *   sub-agent doing some of the reading — inline `isSidechain` lines (1.0.x) or a
 *   `subagents/agent-<id>.jsonl` file with the parent's `progress` copies (2.x).
 * - Codex CLI: `exec_command` / `shell_command` (envelope) or `shell` with argv and JSON output
 *   (pre-envelope) through the shell, the experimental `read_file` (`L<n>: `), `apply_patch`
 *   writes, parallel calls whose outputs follow both calls.
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { type Action, grepHits, type SimWorkspace } from "./reads.ts";
import { bashFor, pyUnder } from "./shell.ts";
import type { LogContext } from "./formats.ts";

/** A rendered session: the log and its sub-agent files (name → text, for `subagents/`). */
export interface RenderedSession {
  log: string;
  subagents: Map<string, string>;
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

function hex(rng: Rng, n: number): string {
  let s = "";
  while (s.length < n) s += rng.next().toString(16).padStart(8, "0");
  return s.slice(0, n);
}

function uuid(rng: Rng): string {
  const h = hex(rng, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${
    h.slice(20, 32)
  }`;
}

/** True when a dotted version is at least `min`. */
function atLeast(version: string, min: number[]): boolean {
  const v = version.split(".").map(Number);
  for (let i = 0; i < min.length; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i];
  }
  return true;
}

/** True when a Claude Code version prints the compact `N\t` Read prefix (2.1.86+). */
function compactPrefix(version: string): boolean {
  return atLeast(version, [2, 1, 86]);
}

function numberedLines(lines: string[], start: number, compact: boolean): string {
  return lines.map((t, i) =>
    compact ? `${start + i}\t${t}` : `${String(start + i).padStart(6)}\u2192${t}`
  ).join("\n");
}

interface ClaudeTool {
  name: string;
  input: Record<string, unknown>;
  content: string;
  isError?: boolean;
  toolUseResult?: unknown;
}

function claudeTool(
  rng: Rng,
  ws: SimWorkspace,
  a: Action,
  dir: string,
  version: string,
  seen: Map<string, string>,
): ClaudeTool | undefined {
  const abs = (p: string) => (p === "" ? dir : `${dir}/${p}`);
  const compact = compactPrefix(version);
  const bash = (): ClaudeTool => {
    const r = bashFor(rng, ws, a, dir);
    const out = r.output.replace(/\n$/, "");
    return {
      name: "Bash",
      input: { command: r.command, description: "Inspect the repository" },
      content: r.returncode === 0
        ? (out || "(Bash completed with no output)")
        : `Exit code ${r.returncode}\n${out}`,
      isError: r.returncode !== 0,
      toolUseResult: { stdout: r.output, stderr: "", interrupted: false, isImage: false },
    };
  };
  switch (a.kind) {
    case "list": {
      if (a.how !== "glob") return bash();
      const files = pyUnder(ws, a.path).map(abs);
      return {
        name: "Glob",
        input: { pattern: "**/*.py", path: abs(a.path) },
        content: files.length ? files.join("\n") : "No files found",
        toolUseResult: { filenames: files, numFiles: files.length, truncated: false },
      };
    }
    case "view": {
      const lines = ws.files.get(a.path);
      if (rng.chance(0.15) && (lines?.join("\n").length ?? 0) < 25000) return bash();
      if (!lines) {
        return {
          name: "Read",
          input: { file_path: abs(a.path) },
          content: "<tool_use_error>File does not exist.</tool_use_error>",
          isError: true,
        };
      }
      const n = lines.length;
      const whole = a.a === 1 && a.b >= n;
      const input: Record<string, unknown> = { file_path: abs(a.path) };
      if (!whole) {
        input.offset = a.a;
        input.limit = a.b - a.a + 1;
      }
      const key = JSON.stringify(input);
      const text = lines.join("\n");
      if (compact && seen.get(key) === text) {
        return {
          name: "Read",
          input,
          content:
            "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current \u2014 refer to that instead of re-reading.",
          toolUseResult: { type: "file_unchanged", file: { filePath: abs(a.path) } },
        };
      }
      seen.set(key, text);
      if (a.a > n) {
        return {
          name: "Read",
          input,
          content:
            `<system-reminder>Warning: the file exists but is shorter than the provided offset (${a.a}). The file has ${n} lines.</system-reminder>`,
        };
      }
      const b = Math.min(a.b, n);
      // a read to the end of the file prints the empty line after its final newline
      const shown = b === n ? [...lines.slice(a.a - 1, b), ""] : lines.slice(a.a - 1, b);
      let content = numberedLines(shown, a.a, compact);
      if (!atLeast(version, [2, 1, 126])) {
        // the per-file malware reminder, dropped in 2.1.126
        content +=
          "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n";
      }
      return {
        name: "Read",
        input,
        content,
        toolUseResult: {
          type: "text",
          file: {
            filePath: abs(a.path),
            content: lines.slice(a.a - 1, b).join("\n"),
            numLines: b - a.a + 1,
            startLine: a.a,
            totalLines: n,
          },
        },
      };
    }
    case "grep": {
      if (rng.chance(0.25)) return bash();
      const hits = grepHits(ws, a);
      const input: Record<string, unknown> = {
        pattern: a.pattern.replace(/[()[\]{}.*+?^$|\\]/g, "\\$&"),
        path: abs(a.path),
        output_mode: "content",
        "-n": true,
      };
      if (a.after) input["-A"] = a.after;
      if (a.before) input["-B"] = a.before;
      if (a.recursive) input.glob = "*.py";
      const out: string[] = [];
      for (const [file, h] of hits) {
        const lines = ws.files.get(file)!;
        const hitSet = new Set(h.hits);
        let prev = -1;
        for (const k of h.shown) {
          if (prev !== -1 && k !== prev + 1) out.push("--");
          const sep = hitSet.has(k) ? ":" : "-";
          out.push(`${a.recursive ? `${abs(file)}${sep}` : ""}${k}${sep}${lines[k - 1]}`);
          prev = k;
        }
      }
      return {
        name: "Grep",
        input,
        content: out.length ? out.join("\n") : "No matches found",
        toolUseResult: { mode: "content", numFiles: hits.size, numLines: out.length },
      };
    }
    case "write":
      return {
        name: "Write",
        input: { file_path: abs(a.path), content: a.text },
        content: `File created successfully at: ${abs(a.path)}`,
        toolUseResult: { type: "create", filePath: abs(a.path), content: a.text },
      };
    case "run": {
      const r = bashFor(rng, ws, a, dir);
      return {
        name: "Bash",
        input: { command: r.command, description: "Check the new module" },
        content: r.output.replace(/\n$/, "") || "(Bash completed with no output)",
        toolUseResult: { stdout: r.output, stderr: "", interrupted: false, isImage: false },
      };
    }
    case "submit":
      return undefined;
  }
}

/**
 * What real 2.x sessions hold around the tool calls besides the calls themselves; off in the
 * simulated corpus (which they would change), on in the log-reading benchmark
 * (tasks/bench/logs.ts), whose sessions must weigh what real ones weigh.
 */
export interface ClaudeExtras {
  /** A `thinking` block with this text (and a signature) streamed before each tool call. */
  thinking?: string;
  /** A `PostToolUse` hook's `progress` line after each tool call. */
  hooks?: boolean;
  /** A `file-history-snapshot` line before every this many tool calls. */
  snapshotEvery?: number;
}

/**
 * A Claude Code session transcript (`version` picks prefixes and the sub-agent layout); `extras`
 * adds what {@link ClaudeExtras} says (none by default).
 */
export function renderClaude(
  rng: Rng,
  ws: SimWorkspace,
  actions: Action[],
  ctx: LogContext & { version: string; repo: string },
  extras: ClaudeExtras = {},
): RenderedSession {
  const s = new ClaudeSession(rng, ws, actions.length, ctx, extras);
  s.out.push({ type: "summary", summary: "Implement the requested module", leafUuid: uuid(rng) });
  s.push(s.out, "user", { message: { role: "user", content: ctx.prompt } }, false);
  const sub = subAgentRun(rng, actions);
  for (let i = 0; i < actions.length; i++) {
    if (sub && i === sub[0]) {
      s.task(actions.slice(sub[0], sub[1] + 1));
      i = sub[1];
      continue;
    }
    const t = claudeTool(rng, ws, actions[i], s.dir, ctx.version, s.seen);
    if (!t) continue;
    s.toolPair(s.out, t, false, undefined, rng.chance(0.4) ? "Let me look at this." : undefined);
  }
  s.reply([{
    type: "text",
    text: ctx.submitted ? "The module is written." : "I could not finish the module.",
  }]);
  return { log: jsonl(s.out), subagents: s.subagents };
}

/** The actions a `Task` sub-agent does, when one does: a run of 1–3 reads in the first half. */
function subAgentRun(rng: Rng, actions: Action[]): [number, number] | undefined {
  const reads = actions.map((a, i) => [a, i] as const).filter(([a]) =>
    a.kind === "view" || a.kind === "grep" || a.kind === "list"
  );
  if (reads.length < 3 || !rng.chance(0.4)) return undefined;
  const at = reads[rng.int(0, Math.floor(reads.length / 2))][1];
  let end = at;
  while (
    end + 1 < actions.length && end - at < 2 &&
    ["view", "grep", "list"].includes(actions[end + 1].kind)
  ) end++;
  return [at, end];
}

type Line = Record<string, unknown>;

/**
 * One Claude Code session being written: its lines (`out`), sub-agent files, the Reads seen (for
 * the "File unchanged" stub), its clock and the main chain's last line (each line's parent).
 */
class ClaudeSession {
  readonly dir: string;
  readonly out: Line[] = [];
  readonly subagents = new Map<string, string>();
  readonly seen = new Map<string, string>();
  readonly #base: Line;
  readonly #inline: boolean;
  readonly #perStep: number;
  #now: number;
  #parent: string | null = null;
  #calls = 0;

  constructor(
    readonly rng: Rng,
    readonly ws: SimWorkspace,
    actions: number,
    readonly ctx: LogContext & { version: string; repo: string },
    readonly extras: ClaudeExtras,
  ) {
    this.dir = `/workspace/${ctx.repo}`;
    const sessionId = uuid(rng);
    this.#inline = ctx.version.startsWith("1.");
    this.#now = ctx.start;
    this.#perStep = ctx.seconds * 1000 / Math.max(1, actions + 1);
    this.#base = {
      userType: "external",
      cwd: this.dir,
      sessionId,
      version: ctx.version,
      gitBranch: "main",
    };
  }

  #stamp(): string {
    return new Date(this.#now += Math.floor(this.#perStep * (0.5 + this.rng.float())))
      .toISOString();
  }

  /** Appends an envelope line to `into` (the main chain's lines set the next line's parent). */
  push(into: Line[], type: string, extra: Line, sidechain: boolean, agentId?: string): Line {
    const uuidNow = uuid(this.rng);
    const line: Line = {
      parentUuid: sidechain ? null : this.#parent,
      isSidechain: sidechain,
      ...this.#base,
      ...(agentId ? { agentId } : {}),
      type,
      ...extra,
      uuid: uuidNow,
      timestamp: this.#stamp(),
    };
    into.push(line);
    if (!sidechain) this.#parent = uuidNow;
    return line;
  }

  /** A tool call and its result (with a text block before the call when `text` is given). */
  toolPair(into: Line[], t: ClaudeTool, sidechain: boolean, agentId?: string, text?: string) {
    const { rng, extras } = this;
    const id = `toolu_01${hex(rng, 22)}`;
    const msgId = `msg_01${hex(rng, 22)}`;
    const message = (content: unknown[]) => ({
      model: this.ctx.model,
      id: msgId,
      type: "message",
      role: "assistant",
      content,
      stop_reason: null,
      usage: { input_tokens: 4, output_tokens: 80 + rng.int(0, 200) },
    });
    if (extras.snapshotEvery && !sidechain && this.#calls++ % extras.snapshotEvery === 0) {
      into.push({
        type: "file-history-snapshot",
        messageId: uuid(rng),
        snapshot: { trackedFileBackups: {} },
        isSnapshotUpdate: false,
      });
    }
    // a streamed response: one line per content block
    if (extras.thinking) {
      const signature = `Eo${hex(rng, 598)}`;
      const block = { type: "thinking", thinking: extras.thinking, signature };
      this.push(into, "assistant", { message: message([block]) }, sidechain, agentId);
    }
    if (text) {
      const block = { type: "text", text };
      this.push(into, "assistant", { message: message([block]) }, sidechain, agentId);
    }
    const use = { type: "tool_use", id, name: t.name, input: t.input };
    this.push(into, "assistant", { message: message([use]) }, sidechain, agentId);
    if (extras.hooks) {
      const data = {
        type: "hook_progress",
        hookEvent: "PostToolUse",
        hookName: `PostToolUse:${t.name}`,
        command: "true",
      };
      this.push(into, "progress", { data, parentToolUseID: id, toolUseID: id }, sidechain, agentId);
    }
    const result = {
      tool_use_id: id,
      type: "tool_result",
      content: t.content,
      is_error: !!t.isError,
    };
    this.push(
      into,
      "user",
      {
        message: { role: "user", content: [result] },
        ...(t.toolUseResult === undefined ? {} : { toolUseResult: t.toolUseResult }),
      },
      sidechain,
      agentId,
    );
  }

  /** A main-chain assistant message (no usage figures) with the given content blocks. */
  reply(content: unknown[]): Line {
    const message = {
      model: this.ctx.model,
      id: `msg_01${hex(this.rng, 22)}`,
      type: "message",
      role: "assistant",
      content,
    };
    return this.push(this.out, "assistant", { message }, false);
  }

  /**
   * A `Task` sub-agent doing `actions`: its lines inline as a sidechain (1.0.x) or in its own
   * `subagents/agent-<id>.jsonl` file with the parent's `progress` copies (2.x), then its report.
   */
  task(actions: Action[]): void {
    const { rng, out } = this;
    const agentId = hex(rng, 7);
    const inner: Line[] = [];
    const prompt = "Find the code relevant to the requirement and report what it does.";
    this.push(inner, "user", { message: { role: "user", content: prompt } }, true, agentId);
    for (const a of actions) {
      const t = claudeTool(rng, this.ws, a, this.dir, this.ctx.version, this.seen);
      if (t) this.toolPair(inner, t, true, agentId);
    }
    const taskId = `toolu_01${hex(rng, 22)}`;
    const report = "The relevant functions are in the files above.";
    this.reply([{
      type: "tool_use",
      id: taskId,
      name: "Task",
      input: { subagent_type: "Explore", description: "Explore the package", prompt },
    }]);
    if (this.#inline) out.push(...inner);
    else {
      // the parent's progress copies of the sub-agent's messages
      for (const m of inner) {
        this.push(out, "progress", {
          data: {
            type: "agent_progress",
            agentId,
            prompt,
            message: { type: m.type, timestamp: m.timestamp, message: m.message },
          },
          parentToolUseID: taskId,
          toolUseID: `agent_msg_${hex(rng, 12)}`,
        }, false);
      }
      this.subagents.set(`agent-${agentId}.jsonl`, jsonl(inner));
    }
    const text = [{ type: "text", text: report }, { type: "text", text: `agentId: ${agentId}` }];
    this.push(out, "user", {
      message: {
        role: "user",
        content: [{ tool_use_id: taskId, type: "tool_result", content: text }],
      },
      toolUseResult: {
        status: "completed",
        prompt,
        agentId,
        content: [{ type: "text", text: report }],
      },
    }, false);
  }
}

function codexOutput(r: { output: string; returncode: number }, era: string, rng: Rng): string {
  if (era === "pre") {
    return JSON.stringify({
      output: r.output,
      metadata: { exit_code: r.returncode, duration_seconds: Math.round(rng.float() * 100) / 100 },
    });
  }
  if (era === "shell_command") {
    return `Exit code: ${r.returncode}\nWall time: ${
      (rng.float()).toFixed(1)
    } seconds\nOutput:\n${r.output}`;
  }
  return `Chunk ID: ${hex(rng, 6)}\nWall time: ${
    rng.float().toFixed(4)
  } seconds\nProcess exited with code ${r.returncode}\nOriginal token count: ${
    Math.ceil(r.output.length / 4)
  }\nOutput:\n${r.output}`;
}

/**
 * A Codex CLI rollout: `era` "pre" (pre-envelope, `shell` argv + JSON output), "shell_command"
 * or "exec" (envelope, unified exec).
 */
export function renderCodex(
  rng: Rng,
  ws: SimWorkspace,
  actions: Action[],
  ctx: LogContext & { version: string; repo: string; era: "pre" | "shell_command" | "exec" },
): string {
  const dir = `/workspace/${ctx.repo}`;
  const id = uuid(rng);
  let now = ctx.start;
  const perStep = ctx.seconds * 1000 / Math.max(1, actions.length + 1);
  const stamp = () => new Date(now += Math.floor(perStep * (0.5 + rng.float()))).toISOString();
  const pre = ctx.era === "pre";
  const out: unknown[] = [];
  const item = (payload: Record<string, unknown>) =>
    out.push(pre ? payload : { timestamp: stamp(), type: "response_item", payload });
  if (pre) {
    out.push({ id, timestamp: stamp(), instructions: null, git: { branch: "main" } });
    out.push({ record_type: "state" });
  } else {
    out.push({
      timestamp: stamp(),
      type: "session_meta",
      payload: {
        id,
        timestamp: stamp(),
        cwd: dir,
        originator: "codex_exec",
        cli_version: ctx.version,
        source: "exec",
        model_provider: "openai",
      },
    });
    out.push({
      timestamp: stamp(),
      type: "turn_context",
      payload: { turn_id: uuid(rng), cwd: dir, approval_policy: "never", model: ctx.model },
    });
  }
  item({
    type: "message",
    role: "user",
    content: [{
      type: "input_text",
      text:
        `<environment_context>\n  <cwd>${dir}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
    }],
  });
  item({ type: "message", role: "user", content: [{ type: "input_text", text: ctx.prompt }] });
  const call = (
    a: Action,
  ): { calls: Record<string, unknown>[]; outputs: Record<string, unknown>[] } => {
    const callId = `call_${hex(rng, 24)}`;
    if (a.kind === "write" && !pre) {
      const body = a.text.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n");
      return {
        calls: [{
          type: "custom_tool_call",
          status: "completed",
          call_id: callId,
          name: "apply_patch",
          input: `*** Begin Patch\n*** Add File: ${a.path}\n${body}\n*** End Patch\n`,
        }],
        outputs: [{
          type: "custom_tool_call_output",
          call_id: callId,
          output:
            `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA ${a.path}\n`,
        }],
      };
    }
    if (a.kind === "view" && !pre && ws.files.has(a.path) && rng.chance(0.15)) {
      const lines = ws.files.get(a.path)!;
      const b = Math.min(a.b, lines.length);
      const shown = lines.slice(a.a - 1, b).map((t, k) => `L${a.a + k}: ${t}`).join("\n");
      return {
        calls: [{
          type: "function_call",
          name: "read_file",
          arguments: JSON.stringify({
            file_path: `${dir}/${a.path}`,
            offset: a.a,
            limit: a.b - a.a + 1,
          }),
          call_id: callId,
        }],
        outputs: [{ type: "function_call_output", call_id: callId, output: shown }],
      };
    }
    const r = bashFor(rng, ws, a, dir);
    const args = pre
      ? { command: ["bash", "-lc", r.command], workdir: dir, timeout_ms: 120000 }
      : ctx.era === "shell_command"
      ? { command: r.command, workdir: dir, timeout_ms: 120000 }
      : { cmd: r.command, workdir: dir, yield_time_ms: 1000, max_output_tokens: 12000 };
    const name = pre ? "shell" : ctx.era === "shell_command" ? "shell_command" : "exec_command";
    return {
      calls: [{ type: "function_call", name, arguments: JSON.stringify(args), call_id: callId }],
      outputs: [{
        type: "function_call_output",
        call_id: callId,
        output: codexOutput(r, ctx.era, rng),
      }],
    };
  };
  let i = 0;
  while (i < actions.length) {
    const a = actions[i];
    if (a.kind === "submit") {
      i++;
      continue;
    }
    // now and then two reads in one response (parallel calls; outputs after both calls)
    const group = !pre && a.kind === "view" && actions[i + 1]?.kind === "view" && rng.chance(0.3)
      ? [a, actions[i + 1]]
      : [a];
    i += group.length;
    item({
      type: "reasoning",
      summary: [],
      content: null,
      encrypted_content: `gAAAA${hex(rng, 40)}`,
    });
    const rendered = group.map(call);
    for (const r of rendered) for (const c of r.calls) item(c);
    for (const r of rendered) for (const o of r.outputs) item(o);
    if (!pre) {
      out.push({
        timestamp: stamp(),
        type: "event_msg",
        payload: { type: "token_count", info: null },
      });
    }
  }
  item({
    type: "message",
    role: "assistant",
    content: [{
      type: "output_text",
      text: ctx.submitted ? "The module is written." : "I could not finish the module.",
    }],
  });
  return jsonl(out);
}
