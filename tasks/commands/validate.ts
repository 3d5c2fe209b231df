/**
 * `deno task reporeuse validate <corpus-dir> [--json]` — lists every problem of a corpus in the
 * run-log layout (docs/run-logs.md), each with its path. Exit code 0 when there is none, 1 when
 * there are problems, 2 on a usage error.
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import { validateCorpus } from "../../lib/layout/mod.ts";
import { checkLogText, dirSource, type FileSource } from "../../lib/logs/mod.ts";

export const summary = "list every problem of a corpus (tasks + runs) with its path";

export const help = `Usage: deno task reporeuse validate <corpus-dir> [--json]

Checks a corpus against the run-log layout (docs/run-logs.md): corpus.json, tasks/<chain>/chain.json
(repo, turns, module paths), each turn's solution.py and tests.json, runs/<config>/config.json
(harness, model, memory; no two alike), every run turn's directory and files (symbolic links are
followed only inside the corpus; stray files are reported), its log (format detected by content,
read against W0: a wrong "cwd" or a log of another harness is a problem), submission, results
(JUnit XML or JSON) and meta.json. Prints one line per problem:

  <path>: <message>

Options:
  --json   print the problems as a JSON array of { path, message, chain?, turn?, config? }

Exit code: 0 no problem, 1 problems found, 2 usage error.`;

export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("validate", {
    args,
    options: { json: { type: "boolean", default: false } },
    allowPositionals: true,
  }, `\n\n${help}`);
  if (!parsed) return 2;
  const [dir, ...rest] = parsed.positionals;
  if (!dir || rest.length) {
    console.error(help);
    return 2;
  }
  // each log is read against W0 (never outside it): format, wrong cwd, log of another harness
  const sources = new Map<string, FileSource | undefined>();
  const w0 = (workspace: string) => {
    if (!sources.has(workspace)) {
      try {
        sources.set(workspace, dirSource(workspace));
      } catch {
        sources.set(workspace, undefined);
      }
    }
    return sources.get(workspace);
  };
  const problems = await validateCorpus(dir, {
    checkLog: (text, file, { config, chain, earlier }) => {
      const base = chain ? w0(chain.repo.workspace) : undefined;
      // W_{t-1}: W0 plus the agent's own earlier submissions
      const files: FileSource | undefined = base && ((p) => {
        if (!Object.hasOwn(earlier, p)) return base(p);
        try {
          return Deno.readTextFileSync(earlier[p]);
        } catch {
          // an earlier submission gone or unreadable: its content is unknown
          return undefined;
        }
      });
      return checkLogText(text, { file, files, cwd: config?.cwd, harness: config?.harness });
    },
  });
  if (parsed.values.json) console.log(JSON.stringify(problems, null, 2));
  else if (problems.length === 0) console.log(`${dir}: no problems`);
  else {
    for (const p of problems) console.log(`${p.path}: ${p.message}`);
    console.error(`${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  }
  return problems.length ? 1 : 0;
}
