/**
 * The audit's evaluation on a real history, from hand labels kept as data
 * (`data/audit/eval/<project>.json`, see data/audit/README.md):
 *
 * ```sh
 * deno run -A tasks/audit_eval.ts data/audit/eval/httpx.json path/to/httpx-clone
 * ```
 *
 * audits the labelled range of the clone again (`auditHistory`, the same options), takes the top
 * findings — primary pairs in the project's own code (re-implementations, clones, duplicates within
 * a change), most confident first — and prints strict precision (labelled `real`: F should call G
 * or share a helper with it), lenient precision (`real` or `idiomatic`: a near-copy by idiom, such
 * as sync/async twins) and recall on the labelled sample of real duplications (found when any pair
 * of that commit, primary or alternative, in any context, joins the two functions). A finding in
 * the top that has no label is printed and counted as unlabelled: label it, the figures are not
 * final until none is.
 * @module
 */
import { auditHistory } from "../lib/audit/run.ts";

/** One labelled finding. */
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
  note: string;
}

/** The labels file of one project. */
interface Labels {
  project: string;
  url: string;
  /** The snapshot's tip commit and how many first-parent commits up to it were audited. */
  rev: string;
  commits: number;
  /** The commit of reporeuse the labels were made with. */
  tool: string;
  top: number;
  labels: Label[];
  duplications: Duplication[];
}

const [labelsPath, repo] = Deno.args;
if (!labelsPath || !repo) {
  console.error("usage: deno run -A tasks/audit_eval.ts <labels.json> <repo-dir>");
  Deno.exit(2);
}
const L: Labels = JSON.parse(await Deno.readTextFile(labelsPath));
const h = await auditHistory(repo, { rev: L.rev, commits: L.commits, maxTargets: 0 });
type Row = {
  commit: string;
  kind: string;
  primary: boolean;
  function: string;
  target: string;
  confidence: number;
  context: string;
  within: boolean;
};
const rows = h.findings.toRecords() as unknown as Row[];
const top = rows.filter((r) => r.primary && r.context === "code" && r.kind !== "candidate")
  .sort((a, b) =>
    b.confidence - a.confidence || a.commit.localeCompare(b.commit) ||
    a.function.localeCompare(b.function)
  ).slice(0, L.top);
const key = (r: { commit: string; function: string; target: string }) =>
  `${r.commit}\0${r.function}\0${r.target}`;
const labels = new Map(L.labels.map((l) => [key(l), l]));
let real = 0, idiomatic = 0, unlabelled = 0;
console.log(`${L.project}: top ${top.length} findings of ${L.commits} commits up to ${L.rev}`);
for (const [i, r] of top.entries()) {
  const l = labels.get(key(r));
  if (!l) unlabelled++;
  else if (l.verdict === "real") real++;
  else if (l.verdict === "idiomatic") idiomatic++;
  console.log(
    `${String(i + 1).padStart(3)} ${r.confidence.toFixed(3)} ${r.commit.slice(0, 8)} ${r.kind}${
      r.within ? " (within)" : ""
    } ${r.function} -> ${r.target}: ${l ? `${l.verdict} — ${l.note}` : "UNLABELLED"}`,
  );
}
const pairs = rows.filter((r) => r.kind !== "candidate");
const found = L.duplications.filter((d) =>
  pairs.some((r) =>
    r.commit === d.commit &&
    ((r.function === d.function && r.target === d.target) ||
      (r.function === d.target && r.target === d.function))
  )
);
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} %` : "–");
console.log(
  `strict precision ${real}/${top.length} (${pct(real, top.length)}), lenient ${
    real + idiomatic
  }/${top.length} (${pct(real + idiomatic, top.length)}), unlabelled ${unlabelled}`,
);
console.log(
  `recall ${found.length}/${L.duplications.length} (${pct(found.length, L.duplications.length)})`,
);
for (const d of L.duplications) {
  console.log(
    `  ${found.includes(d) ? "found " : "MISSED"} ${
      d.commit.slice(0, 8)
    } ${d.function} ~ ${d.target}`,
  );
}
