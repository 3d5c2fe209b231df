/**
 * `deno task reporeuse reads <log> [--root <workspace-dir>] [--cwd <harness-cwd>] [--format NAME]` — the
 * lines an agent run showed the model, as JSON.
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { type Format, FORMATS, LogFormatError, READERS, readLog } from "../../lib/logs/mod.ts";

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
  try {
    const r = await readLog(positionals[0], {
      root: values.root,
      cwd: values.cwd,
      format: values.format as Format | undefined,
    });
    console.log(JSON.stringify(r, null, values.compact ? undefined : 2));
    return 0;
  } catch (e) {
    if (e instanceof LogFormatError) {
      console.error(`reporeuse reads: ${e.message}`);
      return 2;
    }
    throw e;
  }
}
