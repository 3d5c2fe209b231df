/**
 * The token clone detector users would otherwise run, on the same commits as an audit history
 * (docs/audit.md, "Evaluation"): for each first-parent commit of a range, jscpd (npm `jscpd`) over
 * every `.py` file of the commit's tree, keeping the clones the commit **introduced** — one of the
 * two fragments is at least half made of lines the commit added (`git diff -U0` against the first
 * parent) — each fragment mapped to the function it overlaps most (lib/python's code model).
 *
 * ```sh
 * deno run -A tasks/audit_jscpd.ts path/to/clone --range A..B --jscpd path/to/jscpd --output x.jsonl
 * ```
 *
 * One JSON line per commit (`{commit, seconds, clones: [{lines, tokens, a, b}]}`, a fragment
 * `{file, start, end, added, function, context}`), appended as each commit is done: a run stopped
 * and started again skips the commits already in the file. `--min-tokens` (default 50, jscpd's)
 * and jscpd's file limits lifted (`--max-lines`, `--max-size`: its defaults skip files over 1,000
 * lines). `--min-added N` runs jscpd only on commits adding at least N lines to `.py` files
 * outside tests (others are left for a later run), `--only c1,c2` only on those commits,
 * `--skip-tests` leaves test files (lib/audit's `isTestPath`) out of jscpd's input (much faster on
 * projects whose tests are most of the code; clones in or with test code are then not seen).
 * Progress on stderr. Only the repository's objects are read (git archive, git diff).
 * @module
 */
import { parseArgs } from "node:util";
import {
  fileContext,
  historyCommits,
  isTestPath,
  packageModules,
  parents,
  repoRoot,
  writePythonTree,
} from "../lib/audit/mod.ts";
import { summarize } from "../lib/python/mod.ts";
import { runGit } from "../lib/util/mod.ts";

/** One fragment of a clone, in the commit's tree. */
export interface Fragment {
  file: string;
  start: number;
  end: number;
  /** Lines of the fragment the commit added. */
  added: number;
  /** The function or method the fragment overlaps most (null: module level), {@link fragmentFunction}. */
  function: string | null;
  context: string;
}

/** A clone the commit introduced: jscpd's size of it and its two fragments. */
export interface Clone {
  lines: number;
  tokens: number | null;
  a: Fragment;
  b: Fragment;
}

/**
 * The function or method a fragment (lines `start`–`end`) overlaps most, the innermost on a tie
 * (a fragment inside a nested def overlaps its outer def as much); null when it overlaps none. A
 * clone jscpd starts on a decorator, a blank line or the previous def's last line is the next
 * def's, not the previous one's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fragmentFunction } from "./audit_jscpd.ts";
 * const defs = [{ id: "m.a", start: 1, end: 4 }, { id: "m.b", start: 6, end: 20 }, { id: "m.b.inner", start: 8, end: 12 }];
 * assert.equal(fragmentFunction(defs, 4, 15)?.id, "m.b");
 * assert.equal(fragmentFunction(defs, 9, 11)?.id, "m.b.inner");
 * assert.equal(fragmentFunction(defs, 21, 30), null);
 * ```
 */
export function fragmentFunction<D extends { start: number; end: number }>(
  defs: readonly D[],
  start: number,
  end: number,
): D | null {
  let best: D | null = null, most = 0;
  for (const d of defs) {
    const n = Math.min(end, d.end) - Math.max(start, d.start) + 1;
    if (n > most || (n === most && n > 0 && best && d.start > best.start)) [best, most] = [d, n];
  }
  return best;
}

/** One line of the output: a commit, its seconds, its clones. */
export interface JscpdCommit {
  commit: string;
  seconds: number;
  clones: Clone[];
}

/** Lines added per file by a commit (`git diff -U0` hunks), as sorted [start, end] ranges. */
export function addedLines(diff: string): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  let file: string | null = null;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      file = line === "+++ /dev/null" ? null : line.slice(6);
      if (file !== null && !out.has(file)) out.set(file, []);
      continue;
    }
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m && file !== null) {
      const start = Number(m[1]), n = m[2] === undefined ? 1 : Number(m[2]);
      if (n > 0) out.get(file)!.push([start, start + n - 1]);
    }
  }
  return out;
}

function overlap(ranges: [number, number][] | undefined, start: number, end: number): number {
  let n = 0;
  for (const [a, b] of ranges ?? []) n += Math.max(0, Math.min(b, end) - Math.max(a, start) + 1);
  return n;
}

interface JscpdDuplicate {
  lines: number;
  tokens?: number;
  firstFile: { name: string; start: number; end: number };
  secondFile: { name: string; start: number; end: number };
}

/**
 * A fragment's line span. jscpd 4 sometimes reports a second fragment whose `end` is before its
 * `start` (seen on attrs: 262–186 for a 24-line clone); such a span is `lines` long from `start`.
 */
export function fragmentSpan(
  f: { start: number; end: number },
  lines: number,
): { start: number; end: number } {
  return f.end >= f.start ? { start: f.start, end: f.end } : {
    start: f.start,
    end: f.start + Math.max(1, lines) - 1,
  };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      range: { type: "string" },
      rev: { type: "string" },
      commits: { type: "string" },
      jscpd: { type: "string", default: "jscpd" },
      "min-tokens": { type: "string", default: "50" },
      "min-added": { type: "string", default: "1" },
      only: { type: "string" },
      "skip-tests": { type: "boolean", default: false },
      output: { type: "string" },
    },
  });
  if (positionals.length !== 1 || !values.output) {
    console.error(
      "usage: deno run -A tasks/audit_jscpd.ts <repo> (--range A..B | [--rev R] [--commits N]) --output x.jsonl [--jscpd PATH] [--min-tokens N] [--min-added N] [--only C,...] [--skip-tests]",
    );
    Deno.exit(2);
  }
  const root = await repoRoot(positionals[0]);
  const list = await historyCommits(root, {
    range: values.range,
    rev: values.rev,
    commits: values.commits === undefined ? undefined : Number(values.commits),
  });
  const only = values.only ? new Set(values.only.split(",").map((c) => c.trim())) : null;
  const minAdded = Number(values["min-added"]);
  const done = new Set<string>();
  try {
    for (const line of (await Deno.readTextFile(values.output)).split("\n")) {
      if (line.trim()) done.add(JSON.parse(line).commit);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const out = await Deno.open(values.output, { append: true, create: true });
  const enc = new TextEncoder(), dec = new TextDecoder();
  const t0 = performance.now();
  for (const [i, commit] of list.entries()) {
    if (done.has(commit)) continue;
    if (only && ![...only].some((c) => commit.startsWith(c))) continue;
    const t = performance.now();
    const [parent] = await parents(root, commit);
    const diff = dec.decode(
      await runGit(root, [
        "diff",
        "-U0",
        "--no-color",
        "--no-ext-diff",
        ...(parent ? [parent] : ["4b825dc642cb6eb9a060e54bf8d69288fbee4904"]),
        commit,
        "--",
        "*.py",
      ]),
    );
    const added = addedLines(diff);
    const clones: Clone[] = [];
    let codeAdded = 0;
    for (const [file, ranges] of added) {
      if (isTestPath(file)) continue;
      for (const [a, b] of ranges) codeAdded += b - a + 1;
    }
    if (codeAdded < minAdded) {
      // below --min-added: recorded as not run, so a later run with a lower bound does it
      console.error(`audit_jscpd: [${i + 1}/${list.length}] ${commit.slice(0, 12)} — skipped`);
      continue;
    }
    if ([...added.values()].some((r) => r.length)) {
      const dir = await Deno.makeTempDir({ prefix: "audit-jscpd-" });
      try {
        await Deno.mkdir(`${dir}/t`);
        let allPaths = await writePythonTree(root, commit, `${dir}/t`);
        if (values["skip-tests"]) {
          // test files out of jscpd's input: clones between tests are not looked for
          for (const p of allPaths) if (isTestPath(p)) await Deno.remove(`${dir}/t/${p}`);
          allPaths = allPaths.filter((p) => !isTestPath(p));
        }
        const run = await new Deno.Command(values.jscpd, {
          args: [
            "--silent",
            "--format",
            "python",
            "--min-tokens",
            values["min-tokens"],
            "--max-lines",
            "1000000",
            "--max-size",
            "64mb",
            "--no-gitignore",
            "--reporters",
            "json",
            "--output",
            `${dir}/report`,
            `${dir}/t`,
          ],
          stdout: "null",
          stderr: "piped",
        }).output();
        let report: { duplicates: JscpdDuplicate[] } = { duplicates: [] };
        try {
          report = JSON.parse(await Deno.readTextFile(`${dir}/report/jscpd-report.json`));
        } catch {
          if (!run.success) throw new Error(`${commit}: jscpd failed: ${dec.decode(run.stderr)}`);
        }
        const rel = (name: string) => name.slice(name.indexOf(`${dir}/t/`) + dir.length + 3);
        const kept = report.duplicates.filter((d) => {
          for (const x of [d.firstFile, d.secondFile]) {
            const f = fragmentSpan(x, d.lines), n = f.end - f.start + 1;
            if (overlap(added.get(rel(x.name)), f.start, f.end) * 2 >= n) return true;
          }
          return false;
        });
        // the function around each kept fragment, from the code model of its file
        const paths = new Set<string>();
        for (const d of kept) paths.add(rel(d.firstFile.name)).add(rel(d.secondFile.name));
        const modules = packageModules(allPaths);
        const defsOf = new Map<string, { id: string; start: number; end: number }[]>();
        for (const p of paths) {
          const src = await Deno.readTextFile(`${dir}/t/${p}`);
          const s = await summarize(src, p, modules.get(p) ?? p.replace(/\.py$/, ""));
          defsOf.set(
            p,
            s.definitions.filter((d) => d.kind === "function" || d.kind === "method"),
          );
        }
        const pathSet = new Set(allPaths);
        const fragment = (x: JscpdDuplicate["firstFile"], lines: number): Fragment => {
          const file = rel(x.name), f = fragmentSpan(x, lines);
          const fn = fragmentFunction(defsOf.get(file) ?? [], f.start, f.end);
          return {
            file,
            start: f.start,
            end: f.end,
            added: overlap(added.get(file), f.start, f.end),
            function: fn?.id ?? null,
            context: fileContext(file, pathSet),
          };
        };
        for (const d of kept) {
          clones.push({
            lines: d.lines,
            tokens: d.tokens ?? null,
            a: fragment(d.firstFile, d.lines),
            b: fragment(d.secondFile, d.lines),
          });
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
    const seconds = Math.round((performance.now() - t) / 100) / 10;
    await out.write(enc.encode(JSON.stringify({ commit, seconds, clones }) + "\n"));
    console.error(
      `audit_jscpd: [${i + 1}/${list.length}] ${commit.slice(0, 12)} — ${clones.length} clone(s), ${
        Math.round((performance.now() - t0) / 1000)
      } s`,
    );
  }
  out.close();
}
