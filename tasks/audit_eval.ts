/**
 * The audit's evaluation on a real history, from hand labels kept as data
 * (`data/audit/eval/<project>.json`, see data/audit/README.md):
 *
 * ```sh
 * deno run -A tasks/audit_eval.ts data/audit/eval/jinja.json path/to/jinja-clone [--history h.json] [--jscpd j.jsonl]
 * ```
 *
 * audits the labelled range of the clone again (`auditHistory`, the same options; or reads a
 * history already written by `audit --history … --max-targets 0`), takes the **top findings** —
 * the first section of a report: primary pairs in the project's own code (re-implementations,
 * clones, duplicates within a change) that the commit introduced (not `preexisting` nor
 * `extracted`, lib/audit/evidence.ts `APART_NOTES`), most confident first — and prints strict
 * precision (labelled `real`: F should call G or share a helper with it) of that top, of its
 * findings at or above the default `--fail-on` and of what fails the check by default (every
 * introduced re-implementation at or above it, in or out of the top), lenient precision (`real` or
 * `idiomatic`: a near-copy by idiom, such as sync/async twins) and recall on the labelled sample of real duplications (found when any
 * re-implementation or clone pair of that commit, primary or alternative, in any context, joins
 * the two functions). With `--jscpd` (the output of tasks/audit_jscpd.ts on the same commits) it
 * prints jscpd's figures beside: its top clones in the project's code by size, with their labels
 * (`jscpdLabels`), and its recall on the same sample (a clone of that commit between the two
 * functions). A top finding without a label is printed and counted as unlabelled: label it, the
 * figures are not final until none is.
 * @module
 */
import { parseArgs } from "node:util";
import {
  APART_NOTES,
  auditHistory,
  DEFAULT_FAIL_ON,
  historyFromJson,
  type HistoryJson,
} from "../lib/audit/mod.ts";
import type { Fragment, JscpdCommit } from "./audit_jscpd.ts";

/** One labelled finding (or jscpd clone). */
interface Label {
  commit: string;
  function: string;
  target: string;
  verdict: "real" | "idiomatic" | "false";
  note: string;
}

/** One real duplication of the history, for recall. */
interface Duplication {
  commit: string;
  function: string;
  target: string;
  /** How it was found: `jscpd`, `message` (commit messages and diffs read), `audit`, `plant`. */
  source: string;
  note: string;
}

/** The labels file of one project. */
interface Labels {
  project: string;
  url: string;
  /** The first-parent range audited, `A..B` (commit ids). */
  range: string;
  /** The reporeuse commit the labels were made with. */
  tool: string;
  top: number;
  labels: Label[];
  duplications: Duplication[];
  /** Labels of jscpd's top clones (functions around the two fragments). */
  jscpdLabels?: Label[];
}

type Row = {
  commit: string;
  kind: string;
  primary: boolean;
  function: string;
  target: string;
  confidence: number;
  context: string;
  within: boolean;
  notes: string[];
};

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { history: { type: "string" }, jscpd: { type: "string" } },
});
const [labelsPath, repo] = positionals;
if (!labelsPath || !repo) {
  console.error(
    "usage: deno run -A tasks/audit_eval.ts <labels.json> <repo-dir> [--history h.json] [--jscpd j.jsonl]",
  );
  Deno.exit(2);
}
const L: Labels = JSON.parse(await Deno.readTextFile(labelsPath));
const h = values.history
  ? historyFromJson(JSON.parse(await Deno.readTextFile(values.history)) as HistoryJson)
  : await auditHistory(repo, { range: L.range, maxTargets: 0 });
const rows = h.findings.toRecords() as unknown as Row[];
const commits = new Set(h.commits.getColumn("commit").toArray() as string[]);
const key = (r: { commit: string; function: string; target: string }) =>
  `${r.commit}\0${r.function}\0${r.target}`;
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} %` : "–");

function precision(
  title: string,
  top: { commit: string; function: string; target: string; text: string }[],
  labelList: Label[],
): void {
  const labels = new Map(labelList.map((l) => [key(l), l]));
  let real = 0, idiomatic = 0, unlabelled = 0;
  console.log(title);
  for (const [i, r] of top.entries()) {
    const l = labels.get(key(r));
    if (!l) unlabelled++;
    else if (l.verdict === "real") real++;
    else if (l.verdict === "idiomatic") idiomatic++;
    console.log(
      `${String(i + 1).padStart(3)} ${r.text} ${r.function} -> ${r.target}: ${
        l ? `${l.verdict} — ${l.note}` : "UNLABELLED"
      }`,
    );
  }
  console.log(
    `  strict precision ${real}/${top.length} (${pct(real, top.length)}), lenient ${
      real + idiomatic
    }/${top.length} (${pct(real + idiomatic, top.length)}), unlabelled ${unlabelled}`,
  );
}

const apart = (r: Row) => APART_NOTES.some((n) => r.notes.includes(n));
const introduced = rows.filter((r) =>
  r.primary && r.context === "code" && r.kind !== "candidate" && !apart(r)
);
const top = introduced.sort((a, b) =>
  b.confidence - a.confidence || a.commit.localeCompare(b.commit) ||
  a.function.localeCompare(b.function)
).slice(0, L.top);
const apartCount = (note: string) =>
  rows.filter((r) =>
    r.primary && r.context === "code" && r.kind !== "candidate" && r.notes.includes(note)
  ).length;
console.log(
  `${L.project}: ${commits.size} commits (${L.range}); ${introduced.length} finding(s) introduced in the project's code; apart: ${
    apartCount("preexisting")
  } pre-existing pair(s) re-touched, ${apartCount("extracted")} extraction(s), ${
    apartCount("relocated")
  } relocation(s), ${apartCount("written-together")} written together`,
);
precision(
  `audit: top ${top.length}`,
  top.map((r) => ({
    ...r,
    text: `${r.confidence.toFixed(3)} ${r.commit.slice(0, 8)} ${r.kind}${
      r.within ? " (within)" : ""
    }${r.notes.length ? ` [${r.notes.join(",")}]` : ""}`,
  })),
  L.labels,
);
const confident = top.filter((r) => r.confidence >= DEFAULT_FAIL_ON);
precision(
  `audit: of that top, the ${confident.length} at or above the default --fail-on (${DEFAULT_FAIL_ON}; re-implementations among them fail the check)`,
  confident.map((r) => ({
    ...r,
    text: `${r.confidence.toFixed(3)} ${r.commit.slice(0, 8)} ${r.kind}${
      r.within ? " (within)" : ""
    }`,
  })),
  L.labels,
);
const failing = introduced.filter((r) =>
  r.kind === "reimplementation" && r.confidence >= DEFAULT_FAIL_ON
);
precision(
  `audit: the check — the ${failing.length} introduced re-implementation(s) at or above the default --fail-on, top or not (what fails a CI run)`,
  failing.map((r) => ({
    ...r,
    text: `${r.confidence.toFixed(3)} ${r.commit.slice(0, 8)}${r.within ? " (within)" : ""}`,
  })),
  L.labels,
);

// recall on the labelled sample of real duplications
const inRange = L.duplications.filter((d) => commits.has(d.commit));
const pairs = rows.filter((r) => r.kind !== "candidate");
const joins = (a: { function: string; target: string }, d: Duplication) =>
  (a.function === d.function && a.target === d.target) ||
  (a.function === d.target && a.target === d.function);
const auditFound = (d: Duplication) => pairs.some((r) => r.commit === d.commit && joins(r, d));

let jscpd: Map<string, JscpdCommit> | null = null;
if (values.jscpd) {
  jscpd = new Map();
  for (const line of (await Deno.readTextFile(values.jscpd)).split("\n")) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as JscpdCommit;
    if (commits.has(c.commit)) jscpd.set(c.commit, c);
  }
}
/** A fragment inside a function (or a def nested in it). */
const inside = (f: Fragment, id: string) =>
  f.function !== null && (f.function === id || f.function.startsWith(id + "."));
const jscpdFound = (d: Duplication) =>
  (jscpd?.get(d.commit)?.clones ?? []).some((c) =>
    (inside(c.a, d.function) && inside(c.b, d.target)) ||
    (inside(c.a, d.target) && inside(c.b, d.function))
  );
const found = inRange.filter(auditFound);
console.log(
  `recall: audit ${found.length}/${inRange.length} (${pct(found.length, inRange.length)})` +
    (jscpd
      ? `, jscpd ${inRange.filter(jscpdFound).length}/${inRange.length} (${
        pct(inRange.filter(jscpdFound).length, inRange.length)
      }) — jscpd ran on ${
        inRange.filter((d) => jscpd!.has(d.commit)).length
      } of the sample's commits`
      : ""),
);
for (const d of inRange) {
  console.log(
    `  audit ${auditFound(d) ? "found " : "MISSED"}${
      jscpd
        ? ` jscpd ${jscpd.has(d.commit) ? (jscpdFound(d) ? "found " : "MISSED") : "not run"}`
        : ""
    } ${d.commit.slice(0, 8)} [${d.source}] ${d.function} ~ ${d.target}`,
  );
}
if (inRange.length < L.duplications.length) {
  console.log(`  (${L.duplications.length - inRange.length} duplication(s) outside the range)`);
}

// jscpd's own top: clones it says the commits introduced, both fragments in the project's code,
// largest first, one per pair of functions and commit
if (jscpd) {
  const seen = new Set<string>();
  const list: { commit: string; function: string; target: string; text: string; n: number }[] = [];
  for (const c of jscpd.values()) {
    for (const x of c.clones) {
      if (x.a.context !== "code" || x.b.context !== "code") continue;
      // F: the fragment the commit added more of
      const [f, g] = x.a.added >= x.b.added ? [x.a, x.b] : [x.b, x.a];
      const fn = f.function ?? `${f.file}:${f.start}`, tg = g.function ?? `${g.file}:${g.start}`;
      const k = `${c.commit}\0${fn}\0${tg}`;
      if (seen.has(k)) continue;
      seen.add(k);
      list.push({
        commit: c.commit,
        function: fn,
        target: tg,
        n: x.tokens ?? x.lines,
        text: `${c.commit.slice(0, 8)} ${x.lines} lines ${x.tokens ?? "?"} tokens`,
      });
    }
  }
  list.sort((a, b) => b.n - a.n || a.commit.localeCompare(b.commit));
  const ran = [...jscpd.values()];
  console.log(
    `jscpd ran on ${ran.length} commit(s), ${
      ran.reduce((s, c) => s + c.seconds, 0).toFixed(0)
    } s; ${list.length} introduced clone pair(s) in the project's code`,
  );
  precision(
    `jscpd: top ${Math.min(L.top, list.length)}`,
    list.slice(0, L.top),
    L.jscpdLabels ?? [],
  );
}
