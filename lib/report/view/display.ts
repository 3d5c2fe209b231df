/**
 * One turn inline in a notebook: {@link TurnView} displays (Deno's Jupyter kernel,
 * `Symbol.for("Jupyter.display")`) a self-contained HTML fragment — no script, styles scoped to
 * the fragment — with the turn's metrics, its targets by outcome, each file shown with the lines
 * shown marked (windows around them and around target bodies; the rest folded), and the events in
 * order. The full page with everything is `viewCorpus` / `viewLog`'s site.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logView } from "./display.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.py`, "def f():\n    return 1\n");
 * const fence = "`".repeat(3);
 * await Deno.writeTextFile(`${dir}/log.json`, JSON.stringify({
 *   info: {}, trajectory_format: "mini-swe-agent-1",
 *   messages: [
 *     { role: "assistant", content: `${fence}bash\nhead -n 1 a.py\n${fence}` },
 *     { role: "user", content: "<returncode>0</returncode>\n<output>\ndef f():\n</output>" },
 *   ],
 * }));
 * const v = await logView({ log: `${dir}/log.json`, root: dir, cwd: "/testbed" });
 * const bundle = v.bundle();
 * assert.match(bundle["text/html"], /class="ln shown" data-line="1"/);
 * assert.ok(!bundle["text/html"].includes("<script"));
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { EventRow, TargetRow, TestRow, TurnKeys, TurnRow } from "../../metrics/rows.ts";
import { highlightPython, tokensToHtml } from "./highlight.ts";
import { esc, type Html, html, raw } from "./html.ts";
import { pct } from "./layout.ts";
import { OUTCOME_LABELS, type TurnPage } from "./model.ts";
import { MemoryStore } from "./store.ts";
import { buildTurnPage, FileAddresses, logInputs, type LogSource } from "./turn.ts";
import { corpusPages, isSimulatedCorpus } from "./corpus.ts";
import { ViewPool } from "./jobs.ts";
import { SIMULATED } from "../provenance.ts";

/** Lines of a file shown inline at most (the site shows all). */
export const MAX_INLINE_LINES = 400;

const STYLE = `
.rv-inline{font:13px/1.4 system-ui,sans-serif;color:#1b1f24;max-width:100%}
.rv-inline .sim{background:#ffe08a;border:1px solid #b06d00;padding:.2rem .5rem;font-weight:600}
.rv-inline table{border-collapse:collapse;margin:.3rem 0}.rv-inline td,.rv-inline th{border-bottom:1px solid #d0d7de;padding:.1rem .4rem;text-align:left}
.rv-inline .b{display:inline-block;padding:0 .3rem;border:3px solid;font-weight:600;white-space:nowrap}
.rv-inline .o-reused{color:#007a5a;border-style:solid}.rv-inline .o-read_not_used{color:#b06d00;border-style:dashed}
.rv-inline .o-never_read{color:#6e6e6e;border-style:dotted}.rv-inline .o-reimplemented{color:#c04a00;border-style:double}
.rv-inline .o-absent{color:#9a4f7e;border-style:dashed}
.rv-inline pre{margin:0;overflow-x:auto;font:12px/1.35 "DejaVu Sans Mono",monospace}
.rv-inline .ln{display:block;white-space:pre}.rv-inline .ln.unshown{opacity:.45}.rv-inline .ln.shown{background:#fff4c2}
.rv-inline .no{display:inline-block;width:3.5em;text-align:right;color:#5b636d;padding-right:.5em}
.rv-inline .mk{display:inline-block;width:3em;color:#7a5b00}.rv-inline .gap{color:#5b636d;font-style:italic}
.rv-inline .t-kw{color:#8e1a9c;font-weight:600}.rv-inline .t-str{color:#0b6b2e}.rv-inline .t-com{color:#6a737d;font-style:italic}
.rv-inline .t-num,.rv-inline .t-const{color:#005cc5}.rv-inline .t-def{color:#6f42c1;font-weight:600}.rv-inline .t-dec{color:#b35900}
.rv-inline .t-call{color:#1f4e99}.rv-inline .t-builtin{color:#a0306a}.rv-inline .t-self{color:#8a5a00}
.rv-inline summary{cursor:pointer;font-weight:600}.rv-inline code{overflow-wrap:anywhere}`;

/** A turn (or a log) to display inline. */
export class TurnView {
  constructor(readonly page: TurnPage, readonly store: MemoryStore) {}

  /** Texts of the store, resolved (the view awaits them before it is made). */
  #texts = new Map<string, { text: string; tokens: number[] }>();

  /** Loads the stored texts (called by the factories). */
  async ready(): Promise<this> {
    for (const [k, v] of this.store.texts) this.#texts.set(k, await v);
    return this;
  }

  /** The self-contained HTML fragment. */
  toHTML(): string {
    const p = this.page, r = p.row;
    const metrics: [string, string][] = r
      ? [
        ["reuse repo", pct(r.reuse_repo)],
        ["reuse self", pct(r.reuse_self)],
        ["recall repo", pct(r.recall_repo)],
        ["recall self", pct(r.recall_self)],
        ["Files", String(r.files)],
        ["Lines", String(r.lines)],
        ["tests", `${r.passed}/${r.tests}`],
        ["resolved", r.resolved ? "yes" : "no"],
        ["re-implemented", String(r.reimplemented)],
      ]
      : [["Files", String(p.totals.files)], ["Lines", String(p.totals.lines)], [
        "coverage",
        pct(p.totals.coverage),
      ]];
    const targets = p.targets.map((t) =>
      html`
        <tr>
          <td><span class="b o-${t.outcome}">${OUTCOME_LABELS[t.outcome]
            .icon} ${OUTCOME_LABELS[t.outcome].label}</span></td>
          <td><code>${t.target}</code></td>
          <td>${t.kind}</td>
          <td>${t.file ? `${t.file}:${t.body_start}–${t.end}` : "–"}</td>
        </tr>
      `
    );
    const shown: string[] = [];
    for (const e of p.events) {
      for (const f of Object.keys(e.lines)) if (!shown.includes(f)) shown.push(f);
    }
    for (const t of p.targets) if (t.file && !shown.includes(t.file)) shown.push(t.file);
    const files = shown.map((path) => this.#file(path));
    const events = p.events.map((e) =>
      html`<li><b>#${e.idx}</b> ${e.kind} <code>${e.tool}</code>${
        e.kind === "read" || e.kind === "search" ? ` via ${e.via}` : ""
      }: <code>${e.command.length > 300 ? e.command.slice(0, 300) + " …" : e.command}</code>${
        Object.keys(e.lines).length
          ? html`
            — showed ${Object.entries(e.lines).map(([f, rs]) =>
              `${f} ${rs.map(([a, b]) => a === b ? a : `${a}–${b}`).join(",")}`
            ).join("; ")}
          `
          : ""
      }${
        e.note
          ? html`
            <i>(${e.note})</i>
          `
          : ""
      }</li>`
    );
    return String(html`<div class="rv-inline"><style>${raw(STYLE)}</style>
${p.simulated ? html`<p class="sim">SIMULATED — ${SIMULATED}</p>` : ""}
<h3>${p.title}${
      p.keys
        ? html`
          <small>${p.keys.harness} · ${p.keys.model} · ${p.keys.memory}</small>
        `
        : ""
    }</h3>
${p.warnings.map((w) => html`<p>⚠ ${w}</p>`)}
<table><tr>${metrics.map(([k]) => html`<th>${k}</th>`)}</tr><tr>${
      metrics.map(([, v]) => html`<td>${v}</td>`)
    }</tr></table>
${
      p.targets.length
        ? html`<table><tr><th>outcome</th><th>target</th><th>kind</th><th>body</th></tr>${targets}</table>`
        : ""
    }
${files}
<details><summary>Events (${p.events.length})</summary><ol start="0">${events}</ol></details></div>`);
  }

  #file(path: string): Html {
    const p = this.page;
    const entry = p.tree.find((f) => f.path === path);
    const stored = entry?.hash ? this.#texts.get(entry.hash) : undefined;
    const marks = new Map<number, number[]>();
    for (const e of p.events) {
      for (const [a, b] of e.lines[path] ?? []) {
        for (let n = a; n <= b; n++) marks.set(n, [...(marks.get(n) ?? []), e.idx]);
      }
    }
    const head = html`<summary><code>${path}</code> — ${entry?.seen ?? 0} of ${
      entry?.lines ?? "?"
    } lines shown</summary>`;
    if (!stored) return html`<details>${head}<p>text not available</p></details>`;
    const lines = tokensToHtml(stored.text, stored.tokens);
    if (lines.length && lines[lines.length - 1] === "" && stored.text.endsWith("\n")) lines.pop();
    const keep = new Set<number>();
    for (const n of marks.keys()) for (let d = -2; d <= 2; d++) keep.add(n + d);
    for (const t of p.targets) {
      if (t.file === path && t.start && t.end) {
        for (let n = t.start; n <= t.end; n++) keep.add(n);
      }
    }
    const out: string[] = [];
    let last = 0, count = 0;
    for (let n = 1; n <= lines.length; n++) {
      if (!keep.has(n)) continue;
      if (count >= MAX_INLINE_LINES) {
        out.push(
          `<span class="gap">⋯ the rest is cut here (at most ${MAX_INLINE_LINES} lines inline; the site shows all)</span>`,
        );
        break;
      }
      if (n > last + 1) {
        out.push(`<span class="gap">⋯ ${n - last - 1} line(s) not shown to the model ⋯</span>`);
      }
      const m = marks.get(n);
      out.push(
        `<span class="ln ${
          m ? "shown" : "unshown"
        }" data-line="${n}"><span class="no">${n}</span><span class="mk">${
          m ? esc(`#${m[0]}${m.length > 1 ? `+${m.length - 1}` : ""}`) : ""
        }</span>${lines[n - 1]}</span>`,
      );
      last = n;
      count++;
    }
    return html`<details open>${head}<pre>${raw(out.join(""))}</pre></details>`;
  }

  /** Plain text: the title and the numbers. */
  toString(): string {
    const p = this.page;
    return `${p.title}: ${p.totals.files} files, ${p.totals.lines} lines shown, ${p.events.length} events, ${p.targets.length} targets`;
  }

  /** The MIME bundle: HTML and plain text. */
  bundle(): Record<"text/html" | "text/plain", string> {
    return { "text/html": this.toHTML(), "text/plain": this.toString() };
  }

  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): Record<string, string> {
    return this.bundle();
  }
}

/** One log (with its workspace) as a {@link TurnView}. */
export async function logView(src: LogSource): Promise<TurnView> {
  const store = new MemoryStore(highlightPython);
  const page = await buildTurnPage(await logInputs(src), store, new FileAddresses(store));
  return await new TurnView(page, store).ready();
}

/**
 * One turn of a corpus as a {@link TurnView}: its rows from a scored directory (`scored`) or
 * scored now (cached), its log re-read against W_{t-1}.
 */
export async function turnView(
  opts: TurnKeys & {
    corpus: string;
    scored?: string;
    /** Frames already in memory (a notebook's `runs.scored`): used when they hold events and tests. */
    frames?: {
      turns: pl.DataFrame;
      targets: pl.DataFrame;
      events?: pl.DataFrame;
      tests?: pl.DataFrame;
    };
    workers?: number;
  },
): Promise<TurnView> {
  const same = (r: Omit<TurnKeys, "turn">) =>
    r.harness === opts.harness && r.model === opts.model && r.memory === opts.memory &&
    r.chain === opts.chain;
  let rows: { turns: TurnRow[]; targets: TargetRow[]; events: EventRow[]; tests: TestRow[] };
  const f = opts.frames;
  if (f?.events && f.tests) {
    const { rowsOf } = await import("../../frames/mod.ts");
    const { default: pl } = await import("nodejs-polars");
    // the chain's rows only (a corpus's events are many)
    const mine = (df: pl.DataFrame) =>
      df.filter(
        pl.col("harness").eq(pl.lit(opts.harness)).and(pl.col("model").eq(pl.lit(opts.model)))
          .and(pl.col("memory").eq(pl.lit(opts.memory))).and(
            pl.col("chain").eq(pl.lit(opts.chain)),
          ),
      );
    rows = {
      turns: rowsOf<TurnRow>(mine(f.turns)),
      targets: rowsOf<TargetRow>(mine(f.targets)),
      events: rowsOf<EventRow>(mine(f.events)),
      tests: rowsOf<TestRow>(mine(f.tests)),
    };
  } else if (opts.scored) {
    const { readScored, rowsOf } = await import("../../frames/mod.ts");
    const s = await readScored(opts.scored);
    rows = {
      turns: rowsOf<TurnRow>(s.turns),
      targets: rowsOf<TargetRow>(s.targets),
      events: rowsOf<EventRow>(s.events),
      tests: rowsOf<TestRow>(s.tests),
    };
  } else {
    const { scoreRows } = await import("../../frames/score.ts");
    rows = await scoreRows(opts.corpus, { workers: opts.workers });
  }
  const chain = {
    turns: rows.turns.filter((r) => same(r) && r.turn <= opts.turn),
    targets: rows.targets.filter(same),
    events: rows.events.filter(same),
    tests: rows.tests.filter(same),
  };
  if (!chain.turns.some((r) => r.turn === opts.turn)) {
    throw new Error(
      `no scored turn ${opts.harness} / ${opts.model} / ${opts.memory} / ${opts.chain} / ${opts.turn}`,
    );
  }
  const pool = new ViewPool(opts.workers ?? 0);
  const store = new MemoryStore(highlightPython);
  let found: TurnPage | undefined;
  try {
    await corpusPages(
      {
        pool,
        store,
        addresses: new FileAddresses(store),
        turnPage: (p) => {
          if (p.keys?.turn === opts.turn) found = p;
          return Promise.resolve();
        },
      },
      chain,
      opts.corpus,
      isSimulatedCorpus(opts.corpus),
    );
  } finally {
    pool.close();
  }
  return await new TurnView(found!, store).ready();
}
