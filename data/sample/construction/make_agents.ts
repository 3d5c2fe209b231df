/**
 * Produces the sample's two agent runs as an agent would have left them: for each configuration
 * and turn, the hand-chosen actions (below) are executed for real in a workspace W_{t-1} (W0 +
 * this agent's earlier submissions), and the log is written in the harness's own format —
 * mini-SWE-agent v1 trajectory (`log.traj`) or OpenCode 1.2.5 export (`log.json`) — with the
 * real outputs; the submission is the hand-written `agents/<cfg>/turn<N>.py`.
 * Output: agents/<cfg>/turn<N>/log.*, replayed into runs/ together with the submission
 * `agents/<cfg>/turn<N>.py` by `replay.sh` via `deno task reporeuse run` (see
 * data/sample/README.md).
 *
 *   deno run -A data/sample/construction/make_agents.ts
 */
import { prepareWorkspace } from "../../../lib/protocol/prepare.ts";
import { renderPrompt, renderRequirement } from "../../../lib/protocol/requirement.ts";

const here = new URL(".", import.meta.url).pathname;
const draft = JSON.parse(await Deno.readTextFile(`${here}draft.json`));
const W0 = `${here}../repos/seaborn`;
const CWD = "/testbed";

type MiniStep = { thought: string; command: string };
type OcStep =
  | { tool: "list"; path: string; text?: string }
  | { tool: "read"; path: string; offset?: number; limit?: number; text?: string }
  | { tool: "write"; text?: string }
  | { tool: "bash"; command: string; description: string; text?: string };

const WRITE = "<<WRITE>>";
const check = (turn: number, call: string) =>
  `python3 -c "from ${draft.turns[turn - 1].module} import *; print(${call})"`;

/** mini-SWE-agent (reuses): per turn, THOUGHT + one bash command per step. */
const MINI: MiniStep[][] = [
  [
    { thought: "Let me look at the core package layout first.", command: "ls seaborn/_core" },
    { thought: "rules.py likely holds the categorical ordering logic seaborn uses for axes and hues. Let me read the ordering function.", command: "sed -n '139,167p' seaborn/_core/rules.py" },
    { thought: "categorical_order is what I need for the levels. Now palette colors: find color_palette.", command: `grep -n "def color_palette" seaborn/palettes.py` },
    { thought: "Let me read its signature and how n_colors cycles.", command: "sed -n '122,160p' seaborn/palettes.py" },
    { thought: "For readable text, seaborn's heatmap uses relative_luminance with a .408 threshold. Let me check the helper.", command: "nl -ba seaborn/utils.py | sed -n '717,736p'" },
    { thought: "I have everything; writing the module.", command: WRITE },
    { thought: "Quick check that it imports and behaves.", command: check(1, "level_colors(['b', 'a', 'b'], 'deep'), label_colors([1, 2, 3, 4], 'Greys')") },
    { thought: "Works as required. Submitting.", command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  ],
  [
    { thought: "The note says round 1 added seaborn._core.level_colors. Let me read what I wrote there.", command: "cat seaborn/_core/level_colors.py" },
    { thought: "Column typing should follow seaborn's variable_type in rules.py.", command: "sed -n '40,136p' seaborn/_core/rules.py" },
    { thought: "For softened colors seaborn has utils.desaturate; check how prop is applied.", command: "sed -n '172,204p' seaborn/utils.py" },
    { thought: "Writing the module, reusing ordered_levels and level_colors.", command: WRITE },
    { thought: "Check.", command: check(2, "column_kinds(pd.DataFrame({'a': [1, 2], 'c': [0, 1]})), muted_level_colors(['a', 'b'], 0.5, 'deep')").replace("import *;", "import *; import pandas as pd;") },
    { thought: "Done.", command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  ],
  [
    { thought: "Round 2's column_kinds decides whether the value column is numeric. Let me re-read it.", command: "cat seaborn/_core/frame_levels.py" },
    { thought: "And ordered_levels from round 1.", command: "sed -n '1,20p' seaborn/_core/level_colors.py" },
    { thought: "seaborn has a remove_na helper for dropping nulls; check it.", command: "sed -n '264,278p' seaborn/utils.py" },
    { thought: "Writing group_stats.", command: WRITE },
    { thought: "Check.", command: check(3, "center_within_groups(pd.DataFrame({'g': ['a', 'b', 'a'], 'v': [1.0, 2.0, 3.0]}), 'v', 'g')").replace("import *;", "import *; import pandas as pd;") },
    { thought: "Submitting.", command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  ],
  [
    { thought: "Both helpers from round 3 are what this needs; re-read them.", command: "cat seaborn/_core/group_stats.py" },
    { thought: "The central interval is just the percentiles 50 -/+ which/2; numpy does that directly.", command: WRITE },
    { thought: "Check.", command: check(4, "group_intervals(pd.DataFrame({'g': ['a'] * 5, 'v': [1.0, 2.0, 3.0, 4.0, 5.0]}), 'v', 'g', which=50)").replace("import *;", "import *; import pandas as pd;") },
    { thought: "Submitting.", command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  ],
  [
    { thought: "Legend colors come from round 1's level_colors / label_colors.", command: "sed -n '20,37p' seaborn/_core/level_colors.py" },
    { thought: "Counts from round 3.", command: "cat seaborn/_core/group_stats.py" },
    { thought: "Intervals from round 4.", command: "cat seaborn/_core/group_summary.py" },
    { thought: "Labels must be text even for bytes; seaborn.utils.to_utf8 does exactly that.", command: "sed -n '739,765p' seaborn/utils.py" },
    { thought: "Writing group_legend.", command: WRITE },
    { thought: "Check.", command: check(5, "legend_entries(pd.DataFrame({'g': [b'x', b'y']}), 'g', 'deep')").replace("import *;", "import *; import pandas as pd;") },
    { thought: "Submitting.", command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  ],
];

/** OpenCode (re-implements): native tools. */
const OPENCODE: OcStep[][] = [
  [
    { tool: "list", path: "seaborn/_core", text: "I'll start by exploring the core package." },
    { tool: "read", path: "seaborn/_core/rules.py", text: "rules.py should define the ordering rules." },
    { tool: "read", path: "seaborn/utils.py", offset: 700, limit: 60, text: "Checking the luminance helper in utils." },
    { tool: "write", text: "Now I'll write the module." },
    { tool: "bash", command: check(1, "level_colors(['b', 'a', 'b'], 'deep')"), description: "Check module imports and runs" },
  ],
  [
    { tool: "read", path: "seaborn/_core/level_colors.py", text: "Let me look at the existing level_colors module." },
    { tool: "read", path: "seaborn/_core/rules.py", offset: 40, limit: 100 },
    { tool: "write", text: "Writing frame_levels with an HLS-based desaturation." },
    { tool: "bash", command: check(2, "muted_level_colors(['a', 'b'], 0.5, 'deep')"), description: "Verify muted colors" },
  ],
  [
    { tool: "read", path: "seaborn/_core/level_colors.py" },
    { tool: "read", path: "seaborn/_core/rules.py", offset: 139, limit: 29 },
    { tool: "write", text: "Writing group_stats." },
    { tool: "bash", command: check(3, "group_sizes(pd.DataFrame({'g': ['b', 'a', 'b', None]}), 'g')").replace("import *;", "import *; import pandas as pd;"), description: "Check group sizes" },
  ],
  [
    { tool: "read", path: "seaborn/_core/group_stats.py", text: "Reading the group_stats module from before." },
    { tool: "write", text: "Writing group_summary." },
    { tool: "bash", command: check(4, "centered_spread(pd.DataFrame({'g': ['a', 'b', 'a', 'b'], 'v': [1.0, 2.0, 3.0, 6.0]}), 'v', 'g')").replace("import *;", "import *; import pandas as pd;"), description: "Check centered spread" },
  ],
  [
    { tool: "read", path: "seaborn/_core/level_colors.py" },
    { tool: "read", path: "seaborn/_core/group_stats.py" },
    { tool: "read", path: "seaborn/_core/group_summary.py" },
    { tool: "write", text: "Writing group_legend." },
    { tool: "bash", command: check(5, "legend_entries(pd.DataFrame({'g': ['b', 'a', 'b']}), 'g', 'deep')").replace("import *;", "import *; import pandas as pd;"), description: "Check legend entries" },
  ],
];

async function sh(ws: string, command: string): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command("bash", {
    args: ["-c", command],
    cwd: ws,
    env: { PYTHONPATH: ws, MPLBACKEND: "Agg", PYTHONDONTWRITEBYTECODE: "1", PATH: `/usr/bin:/bin` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout) + dec.decode(r.stderr) };
}

function prompts(turnIndex: number) {
  const t = draft.turns[turnIndex];
  const req = renderRequirement(t, "interface", draft.turns.slice(0, turnIndex));
  return renderPrompt(req, { workdir: CWD, submitTo: t.path, module: t.module });
}

async function mini(ws: string, ti: number, submission: string) {
  const t = draft.turns[ti];
  const messages: Record<string, unknown>[] = [
    { role: "system", content: "You are a helpful assistant that can interact with a computer shell to solve programming tasks." },
    { role: "user", content: `<task>\n${prompts(ti)}</task>\n\nYour response must contain exactly ONE bash code block with ONE command. Each command runs in a new subshell in ${CWD}. Finish with \`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\`.` },
  ];
  let steps = 0;
  for (const step of MINI[ti]) {
    const command = step.command === WRITE
      ? `cat <<'EOF' > ${t.path}\n${submission.trimEnd()}\nEOF`
      : step.command;
    messages.push({ role: "assistant", content: `THOUGHT: ${step.thought}\n\n\`\`\`bash\n${command}\n\`\`\`` });
    steps++;
    if (command.startsWith("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")) {
      messages.push({ role: "user", content: "" });
      break;
    }
    const r = await sh(ws, command);
    messages.push({ role: "user", content: `<returncode>${r.code}</returncode>\n<output>\n${r.out}</output>` });
  }
  return {
    info: {
      exit_status: "Submitted",
      submission: "",
      model_stats: { instance_cost: Math.round(steps * 0.0113 * 1e4) / 1e4, api_calls: steps },
      mini_version: "1.15.0",
      config: {
        agent: { step_limit: 120, cost_limit: 5.0 },
        model: { model_name: "openai/gpt-5.6-terra", model_kwargs: { temperature: 0.0 } },
        environment: { cwd: CWD, timeout: 120 },
        agent_type: "minisweagent.agents.default.DefaultAgent",
        model_type: "minisweagent.models.litellm_model.LitellmModel",
        environment_type: "minisweagent.environments.local.LocalEnvironment",
      },
    },
    messages,
    trajectory_format: "mini-swe-agent-1",
    instance_id: `${draft.chain}__turn${ti + 1}`,
  };
}

function listing(dir: string, abs: string): string {
  const names: string[] = [];
  for (const e of Deno.readDirSync(dir)) names.push(e.isDirectory ? `${e.name}/` : e.name);
  names.sort();
  return `${abs}/\n${names.map((n) => `  ${n}`).join("\n")}\n`;
}

async function opencode(ws: string, ti: number, submission: string) {
  const t = draft.turns[ti];
  const sid = `ses_4e1a${ti + 1}c0ffee${ti + 1}RepoReuseSmpl`;
  let clock = 1771214900000 + ti * 3_600_000;
  let n = 0;
  const id = (p: string) => `${p}_c64a28ec${String(++n).padStart(4, "0")}${ti + 1}Xq`;
  const userId = id("msg");
  const messages: Record<string, unknown>[] = [{
    info: { id: userId, sessionID: sid, role: "user", time: { created: clock }, agent: "build", model: { providerID: "gateway", modelID: "deepseek-v4.1-flash" } },
    parts: [{ type: "text", text: prompts(ti), id: id("prt"), sessionID: sid, messageID: userId }],
  }];
  for (const step of OPENCODE[ti]) {
    const mid = id("msg");
    const start = (clock += 1500);
    const parts: Record<string, unknown>[] = [{ type: "step-start", id: id("prt"), sessionID: sid, messageID: mid }];
    if (step.text) parts.push({ type: "text", text: step.text, time: { start, end: start + 200 }, id: id("prt"), sessionID: sid, messageID: mid });
    let input: Record<string, unknown>, output: string, title: string, metadata: Record<string, unknown>;
    if (step.tool === "list") {
      input = { path: `${CWD}/${step.path}` };
      output = listing(`${ws}/${step.path}`, `${CWD}/${step.path}`);
      title = step.path;
      metadata = { count: output.split("\n").length - 2, truncated: false };
    } else if (step.tool === "read") {
      input = { filePath: `${CWD}/${step.path}`, ...(step.offset ? { offset: step.offset } : {}), ...(step.limit ? { limit: step.limit } : {}) };
      const lines = (await Deno.readTextFile(`${ws}/${step.path}`)).split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      const from = step.offset ?? 1, limit = step.limit ?? 2000;
      const shown = lines.slice(from - 1, from - 1 + limit);
      const last = from - 1 + shown.length;
      const footer = last < lines.length
        ? `(File has more lines. Use 'offset' parameter to read beyond line ${last})`
        : `(End of file - total ${lines.length} lines)`;
      output = `<path>${CWD}/${step.path}</path>\n<type>file</type>\n<content>${shown.map((l, i) => `${from + i}: ${l}`).join("\n")}\n\n${footer}\n</content>`;
      title = step.path;
      metadata = { preview: shown.slice(0, 20).join("\n"), truncated: last < lines.length, loaded: [] };
    } else if (step.tool === "write") {
      await Deno.writeTextFile(`${ws}/${t.path}`, submission);
      input = { filePath: `${CWD}/${t.path}`, content: submission };
      output = "Wrote file successfully.";
      title = t.path;
      metadata = { diagnostics: {}, filepath: `${CWD}/${t.path}`, exists: false };
    } else {
      input = { command: step.command, description: step.description };
      const r = await sh(ws, step.command);
      output = r.out;
      title = step.description;
      metadata = { output: r.out, exit: r.code, description: step.description, truncated: false };
    }
    parts.push({
      type: "tool", callID: `call_${String(n).padStart(2, "0")}${ti}sample`, tool: step.tool,
      state: { status: "completed", input, output, title, metadata, time: { start: start + 300, end: start + 900 } },
      id: id("prt"), sessionID: sid, messageID: mid,
    });
    parts.push({ type: "step-finish", reason: "tool-calls", cost: 0.0009, tokens: { input: 9000 + 800 * n, output: 180, reasoning: 0, cache: { read: 0, write: 0 } }, id: id("prt"), sessionID: sid, messageID: mid });
    messages.push({
      info: { id: mid, sessionID: sid, role: "assistant", parentID: userId, time: { created: start, completed: start + 1000 }, modelID: "deepseek-v4.1-flash", providerID: "gateway", mode: "build", agent: "build", path: { cwd: CWD, root: CWD }, cost: 0.0009, tokens: { total: 9200, input: 9000, output: 180, reasoning: 0, cache: { read: 0, write: 0 } }, finish: "tool-calls" },
      parts,
    });
  }
  const mid = id("msg");
  const end = (clock += 1500);
  messages.push({
    info: { id: mid, sessionID: sid, role: "assistant", parentID: userId, time: { created: end, completed: end + 800 }, modelID: "deepseek-v4.1-flash", providerID: "gateway", mode: "build", agent: "build", path: { cwd: CWD, root: CWD }, cost: 0.0006, tokens: { total: 9400, input: 9300, output: 100, reasoning: 0, cache: { read: 0, write: 0 } }, finish: "stop" },
    parts: [
      { type: "step-start", id: id("prt"), sessionID: sid, messageID: mid },
      { type: "text", text: `Created \`${t.path}\` with ${t.functions.map((f: { name: string }) => `\`${f.name}\``).join(", ")}.`, time: { start: end, end: end + 600 }, id: id("prt"), sessionID: sid, messageID: mid },
      { type: "step-finish", reason: "stop", cost: 0.0006, tokens: { input: 9300, output: 100, reasoning: 0, cache: { read: 0, write: 0 } }, id: id("prt"), sessionID: sid, messageID: mid },
    ],
  });
  return {
    info: { id: sid, slug: "sample-seaborn", projectID: "3f0b1c9e5d2a7b8c4e6f1a0d9c8b7a6e5f4d3c2b", directory: CWD, title: `${draft.chain} turn ${ti + 1}`, version: "1.2.5", summary: { additions: submission.split("\n").length, deletions: 0, files: 1 }, time: { created: 1771214900000 + ti * 3_600_000, updated: end + 800 } },
    messages,
  };
}

for (const cfg of ["mini", "opencode"] as const) {
  const ws = await Deno.makeTempDir({ prefix: `reporeuse-agent-${cfg}-` });
  await prepareWorkspace(W0, ws, { package: "seaborn", python: "/usr/bin/python3" });
  for (let ti = 0; ti < draft.turns.length; ti++) {
    const submission = await Deno.readTextFile(`${here}agents/${cfg}/turn${ti + 1}.py`);
    const out = `${here}agents/${cfg}/turn${ti + 1}`;
    await Deno.mkdir(out, { recursive: true });
    if (cfg === "mini") {
      const traj = await mini(ws, ti, submission);
      await Deno.writeTextFile(`${out}/log.traj`, JSON.stringify(traj, null, 2) + "\n");
    } else {
      const exp = await opencode(ws, ti, submission);
      await Deno.writeTextFile(`${out}/log.json`, JSON.stringify(exp, null, 2) + "\n");
    }
    const written = await Deno.readTextFile(`${ws}/${draft.turns[ti].path}`);
    if (written.trimEnd() !== submission.trimEnd()) throw new Error(`${cfg} turn ${ti + 1}: write step did not produce the submission`);
    console.log(`${cfg} turn ${ti + 1}: ok`);
  }
  await Deno.remove(ws, { recursive: true });
}
