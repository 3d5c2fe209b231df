/**
 * Rendering planned actions as real run-log shapes: mini-SWE-agent trajectories
 * (`mini-swe-agent-1`, text actions in a bash block; `mini-swe-agent-1.1`, tool calls with
 * `extra.actions`) and `opencode export` sessions (native read/grep/glob/list/write/bash tool
 * parts; read output in the pre-1.2 `00001| ` form with 0-based offsets or the 1.2+ `N: ` form
 * with 1-based offsets).
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { type Action, ELIDE_KEEP, ELIDE_LIMIT, grepHits, type SimWorkspace } from "./reads.ts";
import { bashFor, entries, pyUnder } from "./shell.ts";

/** What a log needs besides its actions. */
export interface LogContext {
  prompt: string;
  model: string;
  submitted: boolean;
  /** Cost of the turn in dollars. */
  cost: number;
  /** Wall-clock start, ms since the epoch. */
  start: number;
  seconds: number;
}

const THOUGHTS: Record<Action["kind"], string[]> = {
  list: [
    "Let me look at the repository layout first.",
    "I'll check which modules exist in this package.",
    "Let me see the files in this directory.",
  ],
  view: [
    "Let me read this part of the implementation.",
    "I need to see how this function handles its inputs.",
    "Let me look at the rest of this module.",
    "I'll inspect the relevant function before writing mine.",
  ],
  grep: [
    "Let me search for where this is defined.",
    "I'll grep for the relevant definitions.",
    "Let me find the imports used here.",
  ],
  write: ["Now I'll write the new module.", "I have what I need; writing the module now."],
  run: [
    "Let me check that the module imports and behaves as required.",
    "Quick sanity check of the new functions.",
  ],
  submit: ["The module is in place and works. Submitting."],
};

const MINI_SYSTEM =
  "You are a helpful assistant that can interact multiple times with a computer shell to solve programming tasks.\nYour response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).";

/** A mini-SWE-agent trajectory (v1 `mini-swe-agent-1` or v2 `mini-swe-agent-1.1`) as JSON text. */
export function renderMini(
  rng: Rng,
  ws: SimWorkspace,
  actions: Action[],
  ctx: LogContext,
  v2: boolean,
): string {
  const cwd = "/testbed";
  const all: Action[] = [...actions];
  if (ctx.submitted) all.push({ kind: "submit" });
  const messages: Record<string, unknown>[] = [];
  let ts = ctx.start / 1000;
  const stamp =
    () => (ts += 1 + rng.float() * (ctx.seconds / Math.max(1, all.length)),
      Math.round(ts * 100) / 100);
  messages.push({ role: "system", content: MINI_SYSTEM, ...(v2 ? {} : { timestamp: stamp() }) });
  messages.push({ role: "user", content: ctx.prompt, ...(v2 ? {} : { timestamp: stamp() }) });
  const costEach = ctx.cost / Math.max(1, all.length);
  let calls = 0;
  let i = 0;
  let formatErrorDone = false;
  while (i < all.length) {
    // v2: occasionally two read-only actions in one response (parallel tool calls)
    const group: Action[] = [all[i]];
    if (
      v2 && i + 1 < all.length && all[i].kind !== "write" && all[i + 1].kind === "view" &&
      all[i].kind === "view" && rng.chance(0.25)
    ) group.push(all[i + 1]);
    i += group.length;
    calls++;
    const thought = rng.pick(THOUGHTS[group[0].kind]);
    if (!v2 && !formatErrorDone && rng.chance(0.03)) {
      // a malformed response (no bash block) and the harness's format-error reply
      formatErrorDone = true;
      messages.push({
        role: "assistant",
        content: `THOUGHT: ${thought}\n\nI will now look at the code.`,
        timestamp: stamp(),
        extra: { response: { id: `chatcmpl-${rng.next().toString(16)}` } },
      });
      messages.push({
        role: "user",
        content: "Please always provide EXACTLY ONE action in triple backticks, found 0 actions.",
        timestamp: stamp(),
      });
      calls++;
    }
    if (v2 && !formatErrorDone && rng.chance(0.03)) {
      // v2: the response has no tool call; it is kept without `extra.actions`
      formatErrorDone = true;
      messages.push({
        content: `${thought} I will look at the code now.`,
        role: "assistant",
        tool_calls: null,
        function_call: null,
        provider_specific_fields: null,
        extra: { cost: Math.round(costEach * 1e6) / 1e6, timestamp: stamp() },
      });
      messages.push({
        role: "user",
        content:
          "No tool calls found in the response. Every response MUST include at least one tool call.",
        extra: { interrupt_type: "FormatError", timestamp: stamp() },
      });
      calls++;
    }
    const rendered = group.map((a) => bashFor(rng, ws, a, cwd));
    // now and then two reads chained in one command (`… && sed -n …`): outputs concatenate
    if (
      group.length === 1 && i < all.length && chainable(ws, group[0]) && chainable(ws, all[i]) &&
      rng.chance(0.12)
    ) {
      const next = bashFor(rng, ws, all[i], cwd);
      const output = rendered[0].output + next.output;
      if (output.length < ELIDE_LIMIT && rendered[0].returncode === 0 && next.returncode === 0) {
        const second = next.command.replace(/^cd \S+ && /, "");
        rendered[0] = { command: `${rendered[0].command} && ${second}`, output, returncode: 0 };
        i++;
      }
    }
    if (!v2) {
      const r = rendered[0];
      messages.push({
        role: "assistant",
        content: `THOUGHT: ${thought}\n\n\`\`\`bash\n${r.command}\n\`\`\``,
        timestamp: stamp(),
        extra: {
          response: {
            id: `chatcmpl-${rng.next().toString(16)}`,
            usage: { prompt_tokens: 2000 + calls * 900, completion_tokens: 60 + rng.int(0, 300) },
          },
        },
      });
      if (group[0].kind === "submit") break;
      messages.push({
        role: "user",
        content: observation(r.returncode, r.output),
        timestamp: stamp(),
      });
      continue;
    }
    const ids = group.map(() => `call_${rng.next().toString(36)}${rng.next().toString(36)}`);
    messages.push({
      content: thought,
      role: "assistant",
      tool_calls: rendered.map((r, k) => ({
        index: k,
        id: ids[k],
        type: "function",
        function: { name: "bash", arguments: JSON.stringify({ command: r.command }) },
      })),
      function_call: null,
      provider_specific_fields: null,
      extra: {
        actions: rendered.map((r, k) => ({ command: r.command, tool_call_id: ids[k] })),
        cost: Math.round(costEach * 1e6) / 1e6,
        timestamp: stamp(),
      },
    });
    if (group[0].kind === "submit") break;
    rendered.forEach((r, k) => {
      messages.push({
        content: observation(r.returncode, r.output),
        tool_call_id: ids[k],
        role: "tool",
        extra: {
          raw_output: r.output,
          returncode: r.returncode,
          timestamp: stamp(),
          exception_info: "",
        },
      });
    });
  }
  const exitStatus = ctx.submitted ? "Submitted" : "LimitsExceeded";
  if (v2) {
    messages.push({
      role: "exit",
      content: "",
      extra: { exit_status: exitStatus, submission: "" },
    });
  } else messages.push({ role: "user", content: ctx.submitted ? "" : "", timestamp: stamp() });
  const info = {
    model_stats: { instance_cost: Math.round(ctx.cost * 1e4) / 1e4, api_calls: calls },
    config: {
      agent: { step_limit: 120, cost_limit: 5.0 },
      agent_type: v2
        ? "minisweagent.agents.default.DefaultAgent"
        : "minisweagent.agents.default.DefaultAgent",
      model: { model_name: ctx.model, model_kwargs: { temperature: 0.0 } },
      model_type: "minisweagent.models.litellm_model.LitellmModel",
      environment: { cwd, timeout: 120 },
      environment_type: "minisweagent.environments.local.LocalEnvironment",
    },
    mini_version: v2 ? rng.pick(["2.2.7", "2.3.0"]) : rng.pick(["1.15.0", "1.17.3"]),
    exit_status: exitStatus,
    submission: "",
  };
  return JSON.stringify(
    { info, messages, trajectory_format: v2 ? "mini-swe-agent-1.1" : "mini-swe-agent-1" },
    null,
    1,
  );
}

/** Whether an action can be chained with `&&` (a read of an existing file that succeeds). */
function chainable(ws: SimWorkspace, a: Action): boolean {
  if (a.kind === "view") return !a.elide && ws.files.has(a.path);
  return a.kind === "grep" && !a.recursive && grepHits(ws, a).size > 0;
}

function observation(rc: number, output: string): string {
  if (output.length < ELIDE_LIMIT) {
    return `<returncode>${rc}</returncode>\n<output>\n${output}</output>`;
  }
  // mini-SWE-agent's observation template for long outputs: first and last 5 000 characters
  return `<returncode>${rc}</returncode>\n<warning>\nThe output of your last command was too long.\nPlease try a different command that produces less output.\nIf you're looking at a file you can try use head, tail or sed to view a smaller number of lines selectively.\n</warning>\n<output_head>\n${
    output.slice(0, ELIDE_KEEP)
  }\n</output_head>\n<elided_chars>\n${
    output.length - 2 * ELIDE_KEEP
  } characters elided\n</elided_chars>\n<output_tail>\n${
    output.slice(-ELIDE_KEEP)
  }\n</output_tail>`;
}

/** One rendered OpenCode tool call. */
interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  output: string;
  title: string;
  metadata: Record<string, unknown>;
  /** Set when the tool call failed (`state.status: "error"`). */
  error?: string;
}

/** An `edit` tool call replacing one string of a file the agent just wrote. */
interface EditAction {
  kind: "edit";
  path: string;
  old: string;
  new: string;
}

function editTool(a: EditAction, dir: string): ToolCall {
  const filePath = `${dir}/${a.path}`;
  return {
    tool: "edit",
    input: { filePath, oldString: a.old, newString: a.new },
    output: "Edit applied successfully.",
    title: a.path,
    metadata: {
      diagnostics: {},
      diff: `@@ -1 +1 @@\n-${a.old}\n+${a.new}\n`,
      filediff: { file: filePath, additions: 1, deletions: 1 },
    },
  };
}

/** OpenCode's `apply_patch` tool adding a file (`*** Add File:` patch). */
function applyPatch(path: string, text: string, dir: string): ToolCall {
  const body = text.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n");
  const lines = text.replace(/\n$/, "").split("\n").length;
  return {
    tool: "apply_patch",
    input: { patchText: `*** Begin Patch\n*** Add File: ${path}\n${body}\n*** End Patch` },
    output: `Success. Updated the following files:\nA ${path}`,
    title: `Success. Updated the following files:\nA ${path}`,
    metadata: {
      diff: "",
      files: [{
        filePath: `${dir}/${path}`,
        relativePath: path,
        type: "add",
        before: "",
        after: text,
        additions: lines,
        deletions: 0,
      }],
      diagnostics: {},
    },
  };
}

/** OpenCode read-output dialect by version. */
type Dialect = "old" | "new" | "newer";

/** An `opencode export` session as JSON text. `version` picks the read dialect. */
export function renderOpenCode(
  rng: Rng,
  ws: SimWorkspace,
  actions: Action[],
  ctx: LogContext & {
    version: string;
    repo: string;
    /** How the agent creates files: the `write` tool, or `apply_patch` (OpenCode's GPT tool set). */
    writer?: "write" | "apply_patch";
    /** Write a draft first line, then fix it with the `edit` tool (the final file is unchanged). */
    editFix?: boolean;
  },
): string {
  const dir = `/workspace/${ctx.repo}`;
  const dialect: Dialect = ctx.version.startsWith("1.1") || ctx.version.startsWith("0.")
    ? "old"
    : ctx.version.startsWith("1.2")
    ? "new"
    : "newer";
  // OpenCode ids are ascending: a time-like hex prefix, a counter, a per-session random tail
  const idBase = Math.floor(ctx.start / 1000) * 4096;
  const idTail = (rng.next().toString(36) + rng.next().toString(36)).padEnd(12, "0").slice(0, 12);
  let idSeq = 0;
  const idc = (p: string) => `${p}_${(idBase + idSeq++).toString(16).padStart(14, "0")}${idTail}`;
  const sessionID = idc("ses");
  let now = ctx.start;
  const tick = (ms: number) => (now += ms + Math.floor(rng.float() * ms), now);
  const userID = idc("msg");
  const messages: unknown[] = [];
  const created = now;
  messages.push({
    info: {
      id: userID,
      sessionID,
      role: "user",
      time: { created: tick(5) },
      agent: "build",
      model: { providerID: "gateway", modelID: ctx.model },
    },
    parts: [{ type: "text", text: ctx.prompt, id: idc("prt"), sessionID, messageID: userID }],
  });
  const perStep = ctx.seconds * 1000 / Math.max(1, actions.length);
  const costEach = ctx.cost / Math.max(1, Math.ceil(actions.length / 1.5));
  let i = 0;
  while (i <= actions.length) {
    const last = i === actions.length;
    const group = last
      ? []
      : actions.slice(i, i + (actions[i].kind === "view" && rng.chance(0.35) ? 2 : 1));
    i += last ? 1 : group.length;
    const msgID = idc("msg");
    const t0 = tick(perStep / 2);
    const parts: Record<string, unknown>[] = [{
      type: "step-start",
      snapshot: rng.next().toString(16).padStart(8, "0") + "0a1b2c3d",
      id: idc("prt"),
      sessionID,
      messageID: msgID,
    }];
    if (rng.chance(0.5) || last) {
      parts.push({
        type: "text",
        text: last
          ? (ctx.submitted
            ? "The module is written and its functions behave as required."
            : "I ran out of time before writing the module.")
          : rng.pick(THOUGHTS[group[0].kind]),
        time: { start: t0, end: t0 + 5 },
        id: idc("prt"),
        sessionID,
        messageID: msgID,
      });
    }
    const expanded: (Action | EditAction)[] = [];
    for (const a of group) {
      if (a.kind === "write" && ctx.editFix) {
        const [first, ...rest] = a.text.split("\n");
        const draft = first.replace(/\."""$/, '"""').replace(/: /, " — ");
        if (draft !== first) {
          expanded.push({ ...a, text: [draft, ...rest].join("\n") });
          expanded.push({ kind: "edit", path: a.path, old: draft, new: first });
          continue;
        }
      }
      expanded.push(a);
    }
    for (const a of expanded) {
      const tool = a.kind === "write" && ctx.writer === "apply_patch"
        ? applyPatch(a.path, a.text, dir)
        : a.kind === "edit"
        ? editTool(a, dir)
        : toolFor(rng, ws, a as Action, dir, dialect);
      const ts = tick(perStep / 2);
      parts.push({
        type: "tool",
        callID: `call_${rng.next().toString(36)}`,
        tool: tool.tool,
        state: tool.error === undefined
          ? {
            status: "completed",
            input: tool.input,
            output: tool.output,
            title: tool.title,
            metadata: tool.metadata,
            time: { start: ts, end: ts + 3 + rng.int(0, 40) },
          }
          : {
            status: "error",
            input: tool.input,
            error: tool.error,
            time: { start: ts, end: ts + 2 },
          },
        id: idc("prt"),
        sessionID,
        messageID: msgID,
      });
    }
    const tokens = {
      total: 0,
      input: 3000 + i * 800,
      output: 80 + rng.int(0, 400),
      reasoning: rng.int(0, 200),
      cache: { read: i * 700, write: 0 },
    };
    tokens.total = tokens.input + tokens.output;
    const cost = Math.round(costEach * 1e6) / 1e6;
    parts.push({
      type: "step-finish",
      reason: last ? "stop" : "tool-calls",
      snapshot: rng.next().toString(16),
      cost,
      tokens,
      id: idc("prt"),
      sessionID,
      messageID: msgID,
    });
    messages.push({
      info: {
        id: msgID,
        sessionID,
        role: "assistant",
        parentID: userID,
        time: { created: t0, completed: tick(20) },
        modelID: ctx.model,
        providerID: "gateway",
        mode: "build",
        agent: "build",
        path: { cwd: dir, root: dir },
        cost,
        tokens,
        finish: last ? "stop" : "tool-calls",
      },
      parts,
    });
  }
  const info: Record<string, unknown> = {
    id: sessionID,
    slug: `${rng.pick(["jolly", "brave", "quiet", "swift"])}-${
      rng.pick(["eagle", "otter", "falcon", "maple"])
    }`,
    projectID: (rng.next().toString(16) + rng.next().toString(16) + rng.next().toString(16)).padEnd(
      40,
      "0",
    ).slice(0, 40),
    directory: dir,
    title: "Implement the requested module",
    version: ctx.version,
    time: { created, updated: now },
  };
  if (dialect !== "old") {
    info.summary = { additions: 0, deletions: 0, files: ctx.submitted ? 1 : 0 };
  }
  return JSON.stringify({ info, messages });
}

function toolFor(
  rng: Rng,
  ws: SimWorkspace,
  a: Action,
  dir: string,
  dialect: Dialect,
): ToolCall {
  const abs = (p: string) => (p === "" ? dir : `${dir}/${p}`);
  const bash = () => {
    const r = bashFor(rng, ws, a, dir);
    return {
      tool: "bash",
      input: { command: r.command, description: "Inspect the repository" },
      output: r.output,
      title: r.command.slice(0, 60),
      metadata: {
        output: r.output,
        exit: r.returncode,
        description: "Inspect the repository",
        truncated: false,
      },
    };
  };
  switch (a.kind) {
    case "list": {
      if (a.how === "glob" || a.how === "find") {
        const files = pyUnder(ws, a.path).map(abs);
        return {
          tool: "glob",
          input: { pattern: "**/*.py", path: abs(a.path) },
          output: files.length ? files.join("\n") : "No files found",
          title: a.path || ".",
          metadata: { count: files.length, truncated: false },
        };
      }
      if (dialect === "old") {
        const tree = [`${abs(a.path)}/`, ...entries(ws, a.path).map((e) => `  ${e}`)].join("\n") +
          "\n";
        return {
          tool: "list",
          input: { path: abs(a.path) },
          output: tree,
          title: a.path || ".",
          metadata: { count: entries(ws, a.path).length, truncated: false },
        };
      }
      if (dialect === "newer") {
        const list = entries(ws, a.path);
        return {
          tool: "read",
          input: { filePath: abs(a.path) },
          output: `<path>${abs(a.path)}</path>\n<type>directory</type>\n<entries>\n${
            list.join("\n")
          }\n(${list.length} entries)\n</entries>`,
          title: a.path || ".",
          metadata: { preview: "", truncated: false, loaded: [] },
        };
      }
      return bash();
    }
    case "view": {
      if (rng.chance(0.15)) return bash();
      const lines = ws.files.get(a.path);
      if (!lines) {
        return {
          tool: "read",
          input: { filePath: abs(a.path) },
          error: `Error: File not found: ${abs(a.path)}`,
          output: "",
          title: a.path,
          metadata: {},
        };
      }
      const n = lines.length;
      const whole = a.a === 1 && a.b >= n;
      const b = Math.min(a.b, n);
      const input: Record<string, unknown> = { filePath: abs(a.path) };
      if (!whole) {
        input.offset = dialect === "old" ? a.a - 1 : a.a;
        input.limit = b - a.a + 1;
      }
      const shown = lines.slice(a.a - 1, b);
      const more = b < n;
      let output: string;
      if (dialect === "old") {
        output = `<file>\n${
          shown.map((l, k) => `${String(a.a + k).padStart(5, "0")}| ${l}`).join("\n")
        }\n\n${
          more
            ? `(File has more lines. Use 'offset' parameter to read beyond line ${b})`
            : `(End of file - total ${n} lines)`
        }\n</file>`;
      } else {
        const body = shown.map((l, k) => `${a.a + k}: ${l}`).join("\n");
        const footer = more
          ? dialect === "new"
            ? `(File has more lines. Use 'offset' parameter to read beyond line ${b})`
            : `(Showing lines ${a.a}-${b} of ${n}. Use offset=${b + 1} to continue.)`
          : `(End of file - total ${n} lines)`;
        output = `<path>${abs(a.path)}</path>\n<type>file</type>\n<content>${
          dialect === "newer" ? "\n" : ""
        }${body}\n\n${footer}\n</content>`;
      }
      return {
        tool: "read",
        input,
        output,
        title: a.path,
        metadata: { preview: lines.slice(0, 5).join("\n"), truncated: more, loaded: [] },
      };
    }
    case "grep": {
      if (a.after || a.before) return bash();
      const hits = grepHits(ws, a);
      const total = [...hits.values()].reduce((s, h) => s + h.hits.length, 0);
      const blocks = [...hits].map(([file, h]) =>
        `${abs(file)}:\n${
          h.hits.map((n) => `  Line ${n}: ${ws.files.get(file)![n - 1]}`).join("\n")
        }`
      );
      const pattern = a.pattern.replace(/[()[\]{}.*+?^$|\\]/g, "\\$&");
      const input: Record<string, unknown> = { pattern, path: abs(a.path) };
      if (a.recursive) input.include = "*.py";
      return {
        tool: "grep",
        input,
        output: total ? `Found ${total} matches\n${blocks.join("\n\n")}` : "No files found",
        title: a.pattern,
        metadata: { matches: total, truncated: false },
      };
    }
    case "write":
      return {
        tool: "write",
        input: { filePath: abs(a.path), content: a.text },
        output: "Wrote file successfully.",
        title: a.path,
        metadata: { diagnostics: {}, filepath: abs(a.path), exists: false },
      };
    case "run": {
      const cmd = `cd ${dir} && ${a.command}`;
      return {
        tool: "bash",
        input: { command: cmd, description: "Check the new module" },
        output: a.output + "\n",
        title: cmd.slice(0, 60),
        metadata: {
          output: a.output + "\n",
          exit: 0,
          description: "Check the new module",
          truncated: false,
        },
      };
    }
    case "submit":
      return bash();
  }
}
