/**
 * The HTML of the index, configuration and turn pages. Everything that comes from data is
 * interpolated through {@link html} (escaped); the code itself is drawn in the browser from the
 * content store with `textContent` (assets/view.js), never as markup.
 *
 * @module
 */
import {
  type ConfigAverages,
  REIMPLEMENTATION_MIN_CALLEES,
  REIMPLEMENTATION_SHARE,
  type TurnRow,
} from "../../metrics/mod.ts";
import { type Html, html, jsonBlock } from "./html.ts";
import { num, page, pct } from "./layout.ts";
import {
  type EventView,
  OUTCOME_LABELS,
  type Reimplementation,
  type TurnPage,
  VIEW_OUTCOMES,
  type ViewOutcome,
} from "./model.ts";
import { chainAnchor, chainHref, configHref, configName, relHref } from "./paths.ts";

/** The legend of target outcomes: icon, words and pattern, never colour alone. */
export function legend(): Html {
  return html`<ul class="legend" aria-label="Target outcomes">${
    VIEW_OUTCOMES.map((o) =>
      html`
        <li
          class="outcome-${o}"><span class="badge outcome-${o}"><span class="icon" aria-hidden="true">${OUTCOME_LABELS[
            o
          ].icon}</span> ${OUTCOME_LABELS[o].label}</span> <span class="help">${OUTCOME_LABELS[o]
            .help}</span></li>
      `
    )
  }</ul>`;
}

/** An outcome badge (icon + words; the class gives colour and border pattern). */
export function badge(o: ViewOutcome, extra = ""): Html {
  return html`
    <span
      class="badge outcome-${o}"><span class="icon" aria-hidden="true">${OUTCOME_LABELS[o]
        .icon}</span> ${OUTCOME_LABELS[o].label}${extra}</span>
  `;
}

const yes = (b: boolean | null | undefined) => (b ? "yes" : b === false ? "no" : "–");

/** The columns of the turn table (index) and how to show them. */
export const TURN_COLUMNS: {
  key: string;
  label: string;
  title: string;
  type: "str" | "num" | "pct" | "bool";
}[] = [
  { key: "config", label: "Configuration", title: "harness__model__memory", type: "str" },
  { key: "chain", label: "Chain", title: "task chain", type: "str" },
  { key: "turn", label: "Turn", title: "turn of the chain", type: "num" },
  { key: "reuse_repo", label: "Reuse repo", title: "eq. 1 over repository targets", type: "pct" },
  {
    key: "reuse_self",
    label: "Reuse self",
    title: "eq. 1 over the agent's own earlier functions",
    type: "pct",
  },
  {
    key: "recall_repo",
    label: "Recall repo",
    title: "eq. 2: targets whose body was shown",
    type: "pct",
  },
  { key: "recall_self", label: "Recall self", title: "eq. 2 over self targets", type: "pct" },
  { key: "files", label: "Files", title: "distinct files viewed, searched or listed", type: "num" },
  { key: "lines", label: "Lines", title: "distinct (file, line) pairs shown", type: "num" },
  { key: "pass_rate", label: "Pass", title: "share of test cases passed", type: "pct" },
  { key: "resolved", label: "Resolved", title: "every test case passed", type: "bool" },
  {
    key: "reimplemented",
    label: "Re-impl.",
    title: "targets re-implemented at this turn",
    type: "num",
  },
  {
    key: "dup_chain",
    label: "C_dup",
    title: "the chain has a re-implementation by this turn (eq. 3's indicator)",
    type: "bool",
  },
];

/** The index: configurations (with their macro averages) and the filterable table of turns. */
export function indexPage(o: {
  title: string;
  source: string;
  simulated: boolean;
  configs: ConfigAverages[];
  turns: { row: TurnRow; href: string }[];
  errors: number;
}): string {
  const configs = o.configs.map((c) =>
    html`
      <tr>
        <th scope="row"><a href="${configHref(c)}">${configName(c)}</a></th>
        <td>${c.chains}</td>
        <td>${c.turns}</td>
        <td>${pct(c.reuse_repo, 1)}</td>
        <td>${pct(c.reuse_self, 1)}</td>
        <td>${pct(c.recall_repo, 1)}</td>
        <td>${pct(c.recall_self, 1)}</td>
        <td>${num(c.files, 1)}</td>
        <td>${num(c.lines, 0)}</td>
        <td>${pct(c.pass, 1)}</td>
        <td>${pct(c.resolve, 1)}</td>
        <td>${pct(c.c_dup, 1)}</td>
      </tr>
    `
  );
  const rows = o.turns.map(({ row: r, href }) => [
    href,
    configName(r),
    r.chain,
    r.turn,
    r.reuse_repo,
    r.reuse_self,
    r.recall_repo,
    r.recall_self,
    r.files,
    r.lines,
    r.pass_rate,
    r.resolved,
    r.reimplemented,
    r.dup_chain,
  ]);
  const body = html`
    <h1>${o.title}</h1>
    <p class="source">${o.source}</p>
    ${o.errors
      ? html`
        <p class="banner warn"
          role="note">${o
            .errors} turn(s) could not be scored and have no page (see errors.csv of <code>score</code>).</p>
      `
      : ""}
    <section aria-labelledby="h-configs">
      <h2 id="h-configs">Configurations</h2>
      <p
        class="hint">Macro averages over each configuration's turns (C_dup: mean over turns of the share of chains duplicated by then). Open a configuration for its chains, each a strip of turns.</p>
      <div class="scroll">
        <table class="configs">
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              <th scope="col">Chains</th>
              <th scope="col">Turns</th>
              <th scope="col">Reuse repo</th>
              <th scope="col">Reuse self</th>
              <th scope="col">Recall repo</th>
              <th scope="col">Recall self</th>
              <th scope="col">Files</th>
              <th scope="col">Lines</th>
              <th scope="col">Pass</th>
              <th scope="col">Resolved</th>
              <th scope="col">C_dup</th>
            </tr>
          </thead>
          <tbody>${configs}</tbody>
        </table>
      </div>
    </section>
    <section aria-labelledby="h-turns"><h2 id="h-turns">Turns</h2>
    <form class="filter" role="search" id="turn-filter"><label for="q">Filter</label> <input id="q" type="search" autocomplete="off" spellcheck="false" placeholder="text, or conditions: reuse_repo<0.5 reimplemented>0 turn=5 resolved=no"> <output id="count" aria-live="polite"></output></form>
    <p class="hint">Words match configuration or chain; <code>column&lt;value</code>, <code>&gt;</code>, <code>&lt;=</code>, <code>&gt;=</code>, <code>=</code> filter a column (rates as 0–1). Click a column header to sort.</p>
    <noscript><p class="banner warn">The turn table needs JavaScript; the configuration pages list every turn without it.</p></noscript>
    <div class="scroll"><table class="turns" id="turns"><thead><tr>${TURN_COLUMNS.map((c) =>
      html`
        <th scope="col" data-key="${c.key}" data-type="${c.type}" title="${c.title}"
          aria-sort="none"><button type="button">${c.label}</button></th>
      `
    )}</tr></thead><tbody></tbody></table></div>
    ${jsonBlock("rv-turns", { columns: ["href", ...TURN_COLUMNS.map((c) => c.key)], rows })}
    </section>
  `;
  return page({
    href: "index.html",
    title: o.title,
    kind: "index",
    simulated: o.simulated,
    crumbs: [["Index", null]],
    body,
  });
}

/** A configuration's page: one strip of turns per chain. */
export function configPage(o: {
  config: { harness: string; model: string; memory: string };
  turns: { row: TurnRow; href: string }[];
  simulated: boolean;
}): string {
  const href = configHref(o.config);
  const chains = new Map<string, { row: TurnRow; href: string }[]>();
  for (const t of o.turns) {
    const g = chains.get(t.row.chain);
    if (g) g.push(t);
    else chains.set(t.row.chain, [t]);
  }
  const sections = [...chains].map(([chain, turns]) => {
    const last = Math.max(5, ...turns.map((t) => t.row.turn));
    const cells = [];
    for (let n = 1; n <= last; n++) {
      const t = turns.find((x) => x.row.turn === n);
      if (!t) {
        cells.push(
          html`<li class="cell missing"><span class="tn">T${n}</span><span class="v">not scored</span></li>`,
        );
        continue;
      }
      const r = t.row;
      cells.push(html`
        <li
          class="cell${r.resolved ? " resolved" : ""}${r.reimplemented
            ? " reimpl"
            : ""}${r.dup_chain ? " dup" : ""}"><a href="${relHref(
              href,
              t.href,
            )}" data-turn="${n}"><span class="tn">T${n}</span><span class="v" title="reuse of repository targets">reuse ${pct(
              r.reuse_repo,
            )}</span><span class="v" title="recall of repository targets">recall ${pct(
              r.recall_repo,
            )}</span><span class="v">${r.resolved
            ? "✔ resolved"
            : `✗ ${r.passed}/${r.tests} passed`}</span>${r.reimplemented
            ? html`<span class="v">⟳ ${r.reimplemented} re-impl.</span>`
            : ""}</a></li>
      `);
    }
    return html`
      <section class="chain" id="${chainAnchor(chain)}">
        <h2>${chain}</h2>
        <ol class="strip">${cells}</ol>
      </section>
    `;
  });
  const name = configName(o.config);
  return page({
    href,
    title: name,
    kind: "config",
    simulated: o.simulated,
    crumbs: [["Index", "index.html"], [name, null]],
    body: html`
      <h1>${name}</h1>
      <p
        class="hint">Each chain's turns 1–5: reuse and recall of repository targets, tests, re-implementations (⟳; a duplicated chain stays marked from its first re-implementation on).</p>
      ${sections}
    `,
  });
}

function ranges(rs: [number, number][]): string {
  return rs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(", ");
}

function eventItem(e: EventView, href: string): Html {
  const shown = Object.entries(e.lines);
  return html`<li class="ev kind-${e.kind}${
    e.placed ? "" : " unplaced"
  }" id="ev-${e.idx}" data-idx="${e.idx}" tabindex="-1">
<div class="evhead"><span class="evn">#${e.idx}</span> <span class="kind">${e.kind}</span> <span class="tool">${e.tool}</span>${
    e.kind === "read" || e.kind === "search"
      ? html`
        <span class="via">via ${e.via}</span>
      `
      : ""
  } <span class="step">step ${e.step}</span></div>
<pre class="cmd">${e.command}</pre>${
    e.more
      ? html`
        <button type="button" class="more"
          data-more="${e.more}">show the whole command (${e.chars} characters)</button>
      `
      : ""
  }
${
    shown.length
      ? html`<p class="showed">showed: ${
        shown.map(([p, rs]) =>
          html`
            <a class="lines" href="${href}#f=${encodeURIComponent(
              p,
            )}&amp;l=${rs[0][0]}" data-file="${p}"
              data-line="${rs[0][0]}">${p}</a> <span class="rng">${ranges(rs)}</span>
          `
        )
      }</p>`
      : ""
  }${
    e.kind === "write" && e.paths.length
      ? html`<p class="wrote">wrote: ${
        e.paths.map((p) =>
          html`
            <a href="#f=${encodeURIComponent(p)}" data-file="${p}">${p}</a>
          `
        )
      }</p>`
      : ""
  }${
    e.kind === "list" && e.paths.length
      ? html`<p class="listed">listed: ${e.paths.join(", ")}</p>`
      : ""
  }${e.note ? html`<p class="note">${e.placed ? "" : "⚠ not placed: "}${e.note}</p>` : ""}</li>`;
}

function reimplSection(r: Reimplementation, i: number): Html {
  const n = r.callees.length, k = r.shared.length;
  const need = Math.ceil(REIMPLEMENTATION_SHARE * n - 1e-9);
  const shared = new Set(r.shared), byF = new Set(r.sharedByF);
  return html`
    <section class="reimpl" id="reimpl-${i}">
      <h3>${badge("reimplemented")} <code>${r.target}</code> by <code>${r.by ?? "?"}</code></h3>
      <p
        class="rule">G = <code>${r
          .target}</code> calls <strong>${n}</strong> distinct non-builtin functions (the rule needs at least ${REIMPLEMENTATION_MIN_CALLEES}). The submission does not call G, but calls <strong>${k}</strong> of them: ${k} / ${n} = <strong>${pct(
            r.overlap,
            1,
          )}</strong> ≥ ${pct(
            REIMPLEMENTATION_SHARE,
          )} (at least ${need} of ${n}) — re-implemented. F = <code>${r.by ??
          "?"}</code> itself calls ${r.sharedByF.length} of them.</p>
      <ul class="callees">${r.callees.map((c) =>
        html`<li class="${shared.has(c) ? "shared" : "missing"}">${
          shared.has(c) ? "✔" : "✗"
        } <code>${c}</code>${
          shared.has(c)
            ? (byF.has(c) ? " — called by F" : " — called elsewhere in the submission")
            : " — not called"
        }</li>`
      )}</ul>
      <div class="pair">
        <figure class="code-g">
          <figcaption>G: <code>${r.target}</code>${r.g
            ? html`
              — ${r.g.path}:${r.g.start}–${r.g.end}
            `
            : ""}</figcaption>
          <div class="snippet" data-snippet="g" data-i="${i}"></div>
        </figure>
        <figure class="code-f">
          <figcaption>F: <code>${r.by ?? "?"}</code>${r.f
            ? html`
              — ${r.f.path}:${r.f.start}–${r.f.end}
            `
            : ""}</figcaption>
          <div class="snippet" data-snippet="f" data-i="${i}"></div>
        </figure>
      </div>
      <p class="hint">Lines calling a shared callee are marked ▶ in both.</p>
    </section>
  `;
}

/** The data block the browser draws a turn's code from. */
function turnData(p: TurnPage) {
  // W0's files come from the shared list (base); here only the others, and the lines seen
  const files: Record<string, { h: string | null; n: number; seen: number; o: string }> = {};
  const seen: Record<string, number> = {};
  for (const f of p.tree) {
    if (f.origin !== "w0" || !p.treeBase) {
      files[f.path] = { h: f.hash, n: f.lines, seen: f.seen, o: f.origin };
    } else if (f.seen) seen[f.path] = f.seen;
  }
  // shown first: files read in order of first read, then files holding targets
  const shown: string[] = [];
  for (const e of p.events) {
    for (const path of Object.keys(e.lines)) if (!shown.includes(path)) shown.push(path);
  }
  for (const t of p.targets) if (t.file && !shown.includes(t.file)) shown.push(t.file);
  return {
    base: p.treeBase,
    files,
    seen,
    shown,
    events: p.events.map((e) => ({ i: e.idx, v: e.via, k: e.kind, l: e.lines })),
    targets: p.targets.map((t) => ({
      id: t.target,
      o: t.outcome,
      f: t.file,
      s: t.start,
      b: t.body_start,
      e: t.end,
    })),
    reimpl: p.reimplementations.map((r) => ({
      g: r.g && { h: r.g.hash, s: r.g.start, e: r.g.end, m: r.gLines },
      f: r.f && { h: r.f.hash, s: r.f.start, e: r.f.end, m: r.fLines },
    })),
    sub: p.submission && { h: p.submission.hash, p: p.submission.path },
    ref: p.reference && { h: p.reference.hash, p: p.reference.path },
  };
}

/** A turn's page (or a single log's). */
export function turnPage(p: TurnPage, crumbs: [string, string | null][]): string {
  const r = p.row;
  const href = p.href;
  const metrics: [string, string, string][] = r
    ? [
      ["Reuse repo", pct(r.reuse_repo), `${r.n_repo} repository target(s)`],
      ["Reuse self", pct(r.reuse_self), `${r.n_self} self target(s)`],
      ["Recall repo", pct(r.recall_repo), "targets whose body was shown"],
      ["Recall self", pct(r.recall_self), ""],
      ["Files", String(r.files), "viewed, searched or listed"],
      ["Lines", String(r.lines), "distinct lines shown"],
      ["Tests", `${r.passed}/${r.tests}`, `pass rate ${pct(r.pass_rate)}`],
      ["Resolved", yes(r.resolved), r.submitted ? "" : "no submission"],
      ["Re-implementations", String(r.reimplemented), ""],
      ["C_dup", yes(r.dup_chain), "chain duplicated by this turn"],
      ["Coverage", pct(r.coverage), "actions the reader interpreted"],
      ["Cost · steps · s", `${num(r.cost, 2)} · ${num(r.steps)} · ${num(r.seconds)}`, ""],
    ]
    : [
      ["Files", String(p.totals.files), "viewed, searched or listed"],
      ["Lines", String(p.totals.lines), "distinct lines shown"],
      ["Coverage", pct(p.totals.coverage), "actions the reader interpreted"],
      ["Events", String(p.events.length), p.format ?? ""],
    ];
  const nav = p.nav;
  const strip = nav.chain?.length
    ? html`<ol class="turnnav" aria-label="Turns of the chain">${
      nav.chain.map((c) =>
        c.href === href
          ? html`<li aria-current="page">T${c.turn}</li>`
          : html`<li><a href="${relHref(href, c.href)}">T${c.turn}</a></li>`
      )
    }</ol>`
    : "";
  const targets = p.targets.length
    ? html`
      <div class="scroll">
        <table class="targets">
          <thead>
            <tr>
              <th scope="col">Outcome</th>
              <th scope="col">Target</th>
              <th scope="col">Kind</th>
              <th scope="col">Body</th>
              <th scope="col">Read</th>
              <th scope="col">Reused</th>
              <th scope="col">Callees (share called)</th>
            </tr>
          </thead>
          <tbody>${p.targets.map((t) =>
            html`
              <tr class="target outcome-${t.outcome}" data-target="${t.target}" data-outcome="${t
                .outcome}">
                <td>${badge(
                  t.outcome,
                  t.outcome === "reused" ? (t.read ? " (read)" : " (not read)") : "",
                )}</td>
                <td><code>${t.target}</code>${t.reimplemented_by
                  ? html`<br><span class="by">by <code>${t.reimplemented_by}</code></span>`
                  : ""}</td>
                <td>${t.kind}</td>
                <td>${t.file
                  ? html`
                    <a href="#f=${encodeURIComponent(t.file)}&amp;l=${t.start ?? 1}" data-file="${t
                      .file}"
                      data-line="${t.start ?? 1}">${t.file}:${t.body_start}–${t.end}</a>
                  `
                  : "–"}</td>
                <td>${yes(t.read)}</td>
                <td>${yes(t.reused)}</td>
                <td>${t.callees} (${pct(t.callee_overlap)})</td>
              </tr>
            `
          )}</tbody>
        </table>
      </div>
    `
    : html`<p class="hint">No targets${r ? "" : " (a single log: no task, so no targets)"}.</p>`;
  const body = html`
    <div
      class="turnhead"><h1>${p.title}</h1>${p.keys
        ? html`<p class="keys">${p.keys.harness} · ${p.keys.model} · memory ${p.keys.memory}</p>`
        : ""}<nav class="pn" aria-label="Turns">${nav.prev
        ? html`<a rel="prev" href="${relHref(href, nav.prev)}">← previous turn</a>`
        : ""} ${nav.next
        ? html`<a rel="next" href="${relHref(href, nav.next)}">next turn →</a>`
        : ""}${nav.up
        ? html`
          <a rel="up" href="${relHref(href, nav.up)}">chain ↑</a>
        `
        : ""}</nav>${strip}</div>
    ${p.warnings.map((w) => html`<p class="banner warn" role="note">⚠ ${w}</p>`)}
    ${p.log
      ? html`<p class="source">log: <code>${p.log}</code>${
        p.format
          ? html`
            (${p.format})
          `
          : ""
      }</p>`
      : ""}
    <section aria-labelledby="h-metrics">
      <h2 id="h-metrics">Metrics</h2>
      <dl class="metrics">${metrics.map(([k, v, h]) =>
        html`
          <div>
            <dt>${k}</dt>
            <dd>${v}${h ? html`<small>${h}</small>` : ""}</dd>
          </div>
        `
      )}</dl>
    </section>
    ${r || p.targets.length
      ? html`
        <section aria-labelledby="h-targets"
          id="targets"><h2 id="h-targets">Targets</h2>${legend()}${targets}</section>
      `
      : ""}
    <section aria-labelledby="h-code" id="code">
      <h2 id="h-code">What the agent saw, on the code</h2>
      <p
        class="hint">W<sub>t−1</sub>: each file with the share of its lines shown to the model. Shown lines carry the events that showed them (gutter); lines never shown are dimmed; target bodies are framed by outcome.</p>
      <div class="codegrid">
        <nav class="tree" id="tree" aria-label="Workspace files"></nav>
        <div id="viewer" class="viewer" aria-live="polite"></div>
      </div>
    </section>
    <section aria-labelledby="h-events" id="events">
      <h2 id="h-events">Events (${p.events.length})</h2>
      <ol class="events">${p.events.map((e) => eventItem(e, ""))}</ol>
    </section>
    ${p.submission || p.reference
      ? html`
        <section aria-labelledby="h-sub" id="submission">
          <h2 id="h-sub">Submission beside the reference solution</h2>
          <div class="pair">
            <figure>
              <figcaption>Submission${p.submission
                ? html`
                  — <code>${p.submission.path}</code>
                `
                : " — none"}</figcaption>
              <div class="snippet" data-snippet="sub"></div>
            </figure>
            <figure>
              <figcaption>Reference solution</figcaption>
              <div class="snippet" data-snippet="ref"></div>
            </figure>
          </div>
        </section>
      `
      : ""}
    ${p.reimplementations.length
      ? html`
        <section aria-labelledby="h-reimpl"
          id="reimplementations"><h2 id="h-reimpl">Re-implementations: F beside G</h2>${p
            .reimplementations.map(reimplSection)}</section>
      `
      : ""}
    ${p.tests.length
      ? html`
        <section aria-labelledby="h-tests">
          <h2 id="h-tests">Tests</h2>
          <ul class="tests">${p.tests.map((t) =>
            html`<li class="${t.passed ? "pass" : "fail"}">${
              t.passed ? "✔ passed" : "✗ failed"
            } <code>${t.case}</code></li>`
          )}</ul>
        </section>
      `
      : ""}
    ${jsonBlock("rv-turn", turnData(p))}
  `;
  return page({
    href,
    title: p.title,
    kind: p.keys ? "turn" : "log",
    simulated: p.simulated,
    crumbs,
    body,
  });
}

export { chainHref };
