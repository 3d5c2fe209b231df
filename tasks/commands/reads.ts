/**
 * `deno task reporeuse reads <log> [--root <workspace-dir>] [--cwd <harness-cwd>] [--format NAME]` — the
 * lines an agent run showed the model, as JSON; an evaluation output.jsonl of several instances is
 * listed, read one instance at a time (`--instance`), or laid out as run logs (`--layout`).
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import {
  type Format,
  FORMATS,
  layoutInstances,
  LogFormatError,
  READERS,
  readInstances,
  readLog,
  readLogText,
} from "../../lib/logs/mod.ts";

/** One line per reader: its harness and formats. */
function readerHelp(): string {
  return READERS.map((r) => `  ${r.harness}: ${r.formats.join(", ")}`).join("\n");
}

/** One-line summary. */
export const summary = "which files and lines an agent run log showed the model (JSON)";

/** Full help text. */
export const help =
  `Usage: deno task reporeuse reads <log> [--root <workspace-dir>] [--cwd <harness-cwd>] [--format NAME]

Reads one agent run log (a file, or a session directory with its sub-agent files) and prints,
as JSON,
  { "format", "events": [...], "reads": { "<path>": [[start, end], ...] }, "files", "lines",
    "coverage", "meta" }
paths relative to the workspace root; lines are the lines actually shown to the model.

Formats, detected from the content (docs/harnesses.md has what each reads and refuses):
${readerHelp()}
A log of any other format is refused with one line saying what it looks like. Sub-agent files
are read with their session: a Claude Code session's <id>/subagents/agent-*.jsonl, a subagents/
directory beside the log, Codex rollouts beside a rollout-*.jsonl whose parent thread is this
session; the log may be a directory where the harness writes one (OpenHands).

Options:
  --root <dir>   the workspace as it was when the turn began: commands are evaluated against
                 its files (nothing outside it is ever read); without it, line numbers and line
                 counts in the output are used and unplaceable events are marked placed:false
  --cwd <path>   the harness's working directory that is the workspace root (default: what the
                 log says, else /testbed for mini-SWE-agent and SWE-agent)
  --format NAME  read as this format (one of the formats above) instead of detecting it
  --instance ID  an evaluation output.jsonl (OpenHands) holds one run per instance: read this
                 one (its last attempt; --attempt N for another). Without it, \`reads\` on such
                 a file lists the instances (id, attempt, line, history events, files, lines,
                 coverage, error) as JSON { "instances": [...] }
  --attempt N    with --instance: this attempt (V1 iterative/critic runs)
  --layout DIR   lay the instances out as run logs for \`score\`: DIR/<chain>/turn<N>/log.json
                 (+ meta.json with the cost), one per instance (its last attempt); DIR is
                 usually <corpus>/runs/<config>. Chains default to the instance id, turn 1
  --map FILE     with --layout: JSON { "<instance_id>": "<chain>/turn<N>" }
  --compact      one-line JSON
  -h, --help     this text

Exit codes: 0 ok, 2 unusable input (unknown format, invalid JSON, missing file).`;

/** Runs the command. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse reads", {
    args,
    options: {
      root: { type: "string" },
      cwd: { type: "string" },
      format: { type: "string" },
      compact: { type: "boolean" },
      instance: { type: "string" },
      attempt: { type: "string" },
      layout: { type: "string" },
      map: { type: "string" },
    },
    allowPositionals: true,
  }, `\n\n${help}`);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(`reporeuse reads: expected one log file or session directory\n\n${help}`);
    return 2;
  }
  if (values.root !== undefined) {
    try {
      if (!(await Deno.stat(values.root)).isDirectory) throw new Error("not a directory");
    } catch (e) {
      console.error(
        `reporeuse reads: --root ${values.root}: ${e instanceof Error ? e.message : e}`,
      );
      return 2;
    }
  }
  if (values.format !== undefined && !(FORMATS as readonly string[]).includes(values.format)) {
    console.error(`reporeuse reads: --format ${values.format}: one of ${FORMATS.join(", ")}`);
    return 2;
  }
  const attempt = values.attempt === undefined ? undefined : Number(values.attempt);
  if (attempt !== undefined && (!Number.isInteger(attempt) || values.instance === undefined)) {
    console.error(`reporeuse reads: --attempt takes a whole number, with --instance`);
    return 2;
  }
  if (values.map !== undefined && values.layout === undefined) {
    console.error(`reporeuse reads: --map goes with --layout`);
    return 2;
  }
  const space = values.compact ? undefined : 2;
  try {
    if (values.layout !== undefined) {
      let map: Record<string, string> = {};
      if (values.map !== undefined) {
        const m = JSON.parse(await Deno.readTextFile(values.map));
        if (
          !m || typeof m !== "object" || Array.isArray(m) ||
          Object.values(m).some((v) => typeof v !== "string")
        ) {
          console.error(`reporeuse reads: --map ${values.map}: not a JSON object of strings`);
          return 2;
        }
        map = m;
      }
      const path = positionals[0];
      const turns = await layoutInstances(readLogText(path), path, values.layout, map);
      console.log(JSON.stringify({ layout: values.layout, turns }, null, space));
      return 0;
    }
    if (values.instance === undefined) {
      const list = await readInstances(positionals[0], {
        root: values.root,
        cwd: values.cwd,
        format: values.format as Format | undefined,
      });
      if (list) {
        console.log(JSON.stringify({ instances: list }, null, space));
        return 0;
      }
    }
    const r = await readLog(positionals[0], {
      root: values.root,
      cwd: values.cwd,
      format: values.format as Format | undefined,
      instance: values.instance,
      attempt,
    });
    console.log(JSON.stringify(r, null, space));
    return 0;
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof Deno.errors.NotFound) {
      console.error(`reporeuse reads: ${e.message}`);
      return 2;
    }
    if (e instanceof LogFormatError) {
      console.error(`reporeuse reads: ${e.message}`);
      return 2;
    }
    throw e;
  }
}
