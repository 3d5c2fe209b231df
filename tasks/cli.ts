/**
 * `deno task reporeuse <command> …` — the command-line entry point.
 *
 * Each command lives in `tasks/commands/<name>.ts` and exports `summary` (one line), `help`
 * (full text) and `run(args): Promise<number>` (the exit code). This file only dispatches.
 *
 * @module
 */

/** What a command module exports. */
export interface Command {
  summary: string;
  help: string;
  run(args: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  graph: () => import("./commands/graph.ts"),
  calls: () => import("./commands/calls.ts"),
  reads: () => import("./commands/reads.ts"),
  validate: () => import("./commands/validate.ts"),
  score: () => import("./commands/score.ts"),
  query: () => import("./commands/query.ts"),
  build: () => import("./commands/build.ts"),
  run: () => import("./commands/run.ts"),
  audit: () => import("./commands/audit.ts"),
  parser: () => import("./commands/parser.ts"),
  view: () => import("./commands/view.ts"),
};

async function usage(): Promise<string> {
  const lines = [
    "reporeuse — do coding agents reuse existing code or reinvent the wheel?",
    "",
    "Usage: deno task reporeuse <command> [options]",
    "",
    "Commands:",
  ];
  for (const [name, load] of Object.entries(COMMANDS)) {
    let summary = "(not available in this build)";
    try {
      summary = (await load()).summary;
    } catch {
      // a command whose module is missing is listed but marked
    }
    lines.push(`  ${name.padEnd(10)} ${summary}`);
  }
  lines.push("", "Run `deno task reporeuse <command> --help` for a command's options.");
  return lines.join("\n");
}

/** Runs the CLI with the given arguments and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await usage());
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`reporeuse: unknown command '${name}'\n\n${await usage()}`);
    return 2;
  }
  const command = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.help);
    return 0;
  }
  return await command.run(rest);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
