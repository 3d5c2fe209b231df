/**
 * Does the audit's rule agree with the benchmark's metric on real pairs? The audit feeds
 * `isReimplemented` (lib/metrics) with **callee keys** (`Project.calleeKeys`: resolved ids,
 * canonical external names, `.attr` for methods of values of unknown type; parameters, locals,
 * builtin container methods and call chains left out), the benchmark's `scoreTargets` with the
 * **dotted call text** of `Project.callees` (resolved ids, else the text as written). This task
 * decides every pair both ways on real commits and counts where they differ:
 *
 * ```sh
 * deno run -A tasks/audit_agreement.ts path/to/clone --history h.json [--sample 20] [--output x.json]
 * ```
 *
 * `h.json` is an `audit --history … --max-targets 0` output: its commits with a rule finding, and
 * `--sample` others with changed functions (evenly spread), are taken. For each, the base and the
 * head trees are analysed with the code model (lib/python, cached summaries), and every changed
 * function F (added or modified) is paired with every function G of the base that exists after the
 * commit, is not local to a function, not a test and not F: `isReimplemented(F uses G, G's
 * callees, F's calls)` with keys and with text, F's calls being those of F and the defs nested
 * in it (the audit's unit; the benchmark takes a whole submitted module, which only adds calls).
 * @module
 */
import { parseArgs } from "node:util";
import {
  isTestPath,
  packageModules,
  parents,
  repoRoot,
  writePythonTree,
} from "../lib/audit/mod.ts";
import { isReimplemented, REUSE_KINDS } from "../lib/metrics/mod.ts";
import { type PackageFile, Project, summarizeFiles } from "../lib/python/mod.ts";

/** The code model of a commit's tree (its `.py` files; summaries come from the cache). */
async function projectAt(root: string, commit: string): Promise<Project> {
  const dir = await Deno.makeTempDir({ prefix: "audit-agreement-" });
  try {
    await Deno.mkdir(`${dir}/t`);
    const paths = await writePythonTree(root, commit, `${dir}/t`);
    const modules = packageModules(paths);
    const files: PackageFile[] = paths.map((p) => ({
      path: `${dir}/t/${p}`,
      file: p,
      module: modules.get(p)!,
    }));
    const done = await summarizeFiles(files, {});
    const project = Project.lazy(done.summaries, done.errors, done.rest);
    // resolve every module now, while the files are there
    for (const d of project.definitions()) {
      project.callees(d.id);
      project.calleeKeys(d.id);
    }
    return project;
  } finally {
    // best effort: a scratch directory
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

const CALLABLE = new Set(["function", "method"]);

function localToFunction(p: Project, id: string): boolean {
  for (let i = id.lastIndexOf("."); i > 0; i = id.lastIndexOf(".", i - 1)) {
    const d = p.definition(id.slice(0, i));
    if (d && CALLABLE.has(d.kind)) return true;
  }
  return false;
}

function moduleOf(p: Project, id: string): string | null {
  const d = p.definition(id);
  if (!d) return null;
  const parts = id.split(".");
  for (let k = parts.length - 1; k > 0; k--) {
    const m = parts.slice(0, k).join(".");
    if (p.hasModule(m)) return m;
  }
  return null;
}

/** What F and the defs nested in it use (reuse kinds) and call, as keys and as text. */
function scope(p: Project, id: string) {
  const uses = new Set<string>(), keys = new Set<string>(), text = new Set<string>();
  const module = moduleOf(p, id);
  if (module) {
    for (const u of p.resolveModule(module).uses) {
      if (u.scope !== id && !u.scope.startsWith(id + ".")) continue;
      if (u.resolved && REUSE_KINDS.has(u.kind)) uses.add(u.target);
    }
  }
  for (const x of p.definitions()) {
    if (x.id === id || x.id.startsWith(id + ".")) {
      for (const k of p.calleeKeys(x.id)) keys.add(k);
      for (const c of p.callees(x.id)) text.add(c);
    }
  }
  return { uses, keys, text };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      history: { type: "string" },
      sample: { type: "string", default: "20" },
      output: { type: "string" },
    },
  });
  if (positionals.length !== 1 || !values.history) {
    console.error(
      "usage: deno run -A tasks/audit_agreement.ts <repo> --history h.json [--sample N] [--output x.json]",
    );
    Deno.exit(2);
  }
  const root = await repoRoot(positionals[0]);
  const h = JSON.parse(await Deno.readTextFile(values.history)) as {
    changed: { commit: string; id: string; status: string }[];
    findings: { commit: string; kind: string; function: string; target: string }[];
  };
  const changedBy = new Map<string, string[]>();
  for (const c of h.changed) {
    if (c.status === "moved") continue;
    const list = changedBy.get(c.commit);
    if (list) list.push(c.id);
    else changedBy.set(c.commit, [c.id]);
  }
  const withRule = new Set(
    h.findings.filter((f) => f.kind === "reimplementation").map((f) => f.commit),
  );
  const others = [...changedBy.keys()].filter((c) => !withRule.has(c));
  const n = Math.min(Number(values.sample), others.length);
  const sample = new Set([
    ...withRule,
    ...Array.from({ length: n }, (_, i) => others[Math.floor((i * others.length) / n)]),
  ]);
  const tally = { pairs: 0, both: 0, keysOnly: 0, textOnly: 0 };
  const disagreements: Record<string, unknown>[] = [];
  let done = 0;
  for (const commit of sample) {
    const [parent] = await parents(root, commit);
    if (!parent) continue;
    const [base, head] = [await projectAt(root, parent), await projectAt(root, commit)];
    const headIds = new Set(head.definitions().map((d) => d.id));
    const targets = base.definitions().filter((d) =>
      CALLABLE.has(d.kind) && headIds.has(d.id) && !localToFunction(base, d.id) &&
      !(isTestPath(d.file) && /^test/.test(d.id.slice(d.id.lastIndexOf(".") + 1)))
    ).map((d) => ({ id: d.id, keys: base.calleeKeys(d.id), text: base.callees(d.id) }))
      .filter((g) => g.keys.length >= 3 || g.text.length >= 3);
    for (const f of changedBy.get(commit) ?? []) {
      if (!head.definition(f)) continue;
      const s = scope(head, f);
      for (const g of targets) {
        if (g.id === f || g.id.startsWith(f + ".") || f.startsWith(g.id + ".")) continue;
        const called = s.uses.has(g.id);
        const k = isReimplemented(called, g.keys, s.keys);
        const t = isReimplemented(called, g.text, s.text);
        if (!k.reimplemented && !t.reimplemented) continue;
        tally.pairs++;
        if (k.reimplemented && t.reimplemented) tally.both++;
        else {
          if (k.reimplemented) tally.keysOnly++;
          else tally.textOnly++;
          disagreements.push({
            commit,
            function: f,
            target: g.id,
            keys: { verdict: k.reimplemented, overlap: k.overlap, callees: g.keys },
            text: { verdict: t.reimplemented, overlap: t.overlap, callees: g.text },
            fKeys: g.keys.filter((c) => s.keys.has(c)),
            fText: g.text.filter((c) => s.text.has(c)),
          });
        }
      }
    }
    done++;
    console.error(
      `audit_agreement: [${done}/${sample.size}] ${
        commit.slice(0, 12)
      } — ${tally.pairs} rule pair(s) either way, ${tally.keysOnly + tally.textOnly} disagree`,
    );
  }
  const result = { commits: done, ...tally, disagreements };
  if (values.output) await Deno.writeTextFile(values.output, JSON.stringify(result, null, 1));
  console.log(
    `${done} commits: ${tally.pairs} pairs where either holds; both ${tally.both}, keys only ${tally.keysOnly}, text only ${tally.textOnly}`,
  );
}
