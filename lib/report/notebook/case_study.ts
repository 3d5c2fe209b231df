/**
 * The Appendix C case study: one turn's targets, and each re-implemented target beside the
 * submission function that re-implements it (notebook 06).
 *
 * @module
 */

import pl from "nodejs-polars";
import { createTwoFilesPatch } from "diff";
import { join } from "node:path";
import { type ChainSpec, type ConfigSpec, readCorpus } from "../../layout/mod.ts";
import { moduleName, summarize } from "../../python/mod.ts";
import { configId, type ConfigKey } from "../aggregate.ts";
import { Chart, type MimeBundle } from "../display.ts";
import { fmt } from "../table_render.ts";
import { escapeHtml } from "../../util/mod.ts";
import type { Runs } from "./load.ts";
import { frame, Html, Markdown } from "./show.ts";
import { TARGETS_SCHEMA, TURN_KEYS } from "../../frames/mod.ts";
import { REIMPLEMENTATION_PERCENT } from "../../metrics/mod.ts";
import { CHART_CONFIG, metricLabel, modelScale } from "../style.ts";

/** Identifies one scored turn. */
export interface CaseKey extends ConfigKey {
  chain: string;
  turn: number;
}

/** One re-implemented target beside the submission function that re-implements it. */
export interface CasePair {
  target: string;
  kind: string;
  read: boolean;
  /** Workspace-relative file of the target's body, and where it was read from on disk. */
  file: string;
  path: string | null;
  start: number;
  end: number;
  source: string;
  /** Id of the submission function that re-implements the target. */
  by: string;
  byStart: number | null;
  byEnd: number | null;
  bySource: string;
  /** Share of the target's callees the submission calls. */
  overlap: number | null;
}

/** The `targets` columns a case study shows: all but the turn keys and `body_start`. */
const CASE_COLUMNS = Object.keys(TARGETS_SCHEMA).filter((c) =>
  !(TURN_KEYS as readonly string[]).includes(c) && c !== "body_start"
);

function keyFilter(k: CaseKey): pl.Expr {
  return pl.col("harness").eq(pl.lit(k.harness))
    .and(pl.col("model").eq(pl.lit(k.model)))
    .and(pl.col("memory").eq(pl.lit(k.memory)))
    .and(pl.col("chain").eq(pl.lit(k.chain)))
    .and(pl.col("turn").eq(pl.lit(k.turn)));
}

/**
 * Picks a turn worth drilling into, as in the paper's Appendix C: a target the agent **read and
 * then re-implemented** (self targets first, then repo), in a turn that passed all its tests when
 * possible; ties broken by the paper's default memory (interface), the larger target body, then
 * the keys. Returns undefined when no target was re-implemented.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { pickCase } from "./case_study.ts";
 * const targets = pl.DataFrame({ harness: ["h", "h"], model: ["m", "m"], memory: ["interface", "interface"],
 *   chain: ["a", "b"], turn: [2, 3], target: ["p.f", "p.g"], kind: ["repo", "self"],
 *   read: [true, true], reimplemented: [true, true], reimplemented_by: ["q.x", "q.y"],
 *   file: ["p.py", "p.py"], body_lines: [40, 10] });
 * const k = pickCase(targets);
 * if (k?.chain !== "b" || k.turn !== 3) throw new Error(JSON.stringify(k));
 * ```
 */
export function pickCase(targets: pl.DataFrame, turns?: pl.DataFrame): CaseKey | undefined {
  const rows = targets.filter(
    pl.col("reimplemented").eq(pl.lit(true)).and(pl.col("reimplemented_by").isNotNull())
      .and(pl.col("file").isNotNull()),
  ).toRecords() as Record<string, unknown>[];
  const resolved = new Set<string>();
  if (turns?.columns.includes("resolved")) {
    const rs = turns.filter(pl.col("resolved").eq(pl.lit(true)))
      .select("harness", "model", "memory", "chain", "turn").toRecords();
    for (const r of rs) {
      resolved.add([r.harness, r.model, r.memory, r.chain, Number(r.turn)].join("\u0000"));
    }
  }
  const id = (r: Record<string, unknown>) =>
    [r.harness, r.model, r.memory, r.chain, Number(r.turn)].join("\u0000");
  const rank = (r: Record<string, unknown>) => [
    r.read ? 0 : 1,
    r.kind === "self" ? 0 : 1,
    resolved.has(id(r)) ? 0 : 1,
    r.memory === "interface" ? 0 : 1,
    -Number(r.body_lines ?? 0),
  ];
  rows.sort((a, b) => {
    const ra = rank(a), rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;
  });
  const r = rows[0];
  return r
    ? {
      harness: String(r.harness),
      model: String(r.model),
      memory: String(r.memory),
      chain: String(r.chain),
      turn: Number(r.turn),
    }
    : undefined;
}

function lines(text: string, start: number, end: number): string {
  return text.split("\n").slice(start - 1, end).join("\n");
}

async function readText(path: string | undefined): Promise<string | null> {
  if (!path) return null;
  try {
    return await Deno.readTextFile(path);
  } catch {
    // no reference solution on disk: the case study shows none
    return null;
  }
}

/** The Appendix C drill-down of one turn; displays itself as one HTML report. */
export class CaseStudy {
  constructor(
    readonly key: CaseKey,
    /** The requirement text q_t (requirement.md), "" when absent. */
    readonly requirement: string,
    /** The turn's row of the `turns` frame. */
    readonly turn: Record<string, unknown>,
    /** The turn's targets (read / reused / re-implemented). */
    readonly targets: pl.DataFrame,
    /** Re-implemented targets beside the submission functions re-implementing them. */
    readonly pairs: CasePair[],
    /** Submission path (workspace-relative) and text, when the agent submitted. */
    readonly submissionPath: string,
    readonly submission: string | null,
    /** The chain's turns of this configuration (for {@link CaseStudy.chart}). */
    readonly chainTurns: pl.DataFrame,
    readonly provenance: string,
  ) {}

  /** One line naming the turn. */
  title(): string {
    const k = this.key;
    return `${k.harness} · ${k.model} · ${k.memory} memory — chain ${k.chain}, turn ${k.turn}`;
  }

  /** Tests passed, reuse and recall of the turn, as text. */
  outcome(): string {
    const t = this.turn;
    const pct = (x: unknown) => x === null || x === undefined ? "–" : `${fmt(Number(x) * 100, 1)}%`;
    return `tests ${t.passed ?? "?"}/${t.tests ?? "?"} passed (resolved: ${t.resolved}); ` +
      `reuse repo ${pct(t.reuse_repo)}, self ${pct(t.reuse_self)}; recall repo ${
        pct(t.recall_repo)
      }, self ${pct(t.recall_self)}; ${t.reimplemented ?? 0} target(s) re-implemented; ` +
      `${t.files ?? "?"} files, ${t.lines ?? "?"} lines viewed`;
  }

  /** The data line every view of the case carries ("Data: SIMULATED corpus — …"). */
  dataLine(): string {
    return `Data: ${this.provenance}`;
  }

  /** The requirement q_t as Markdown (rendered by Jupyter as it was given to the agent). */
  requirementView(): Markdown {
    return new Markdown(
      `*${escapeHtml(this.dataLine())}*\n\n${this.requirement || "_(no requirement.md)_"}`,
    );
  }

  /** The targets of the turn as a table. */
  targetsView(): Html {
    return frame(this.targets, {
      title: `Targets of ${this.title()} — ${this.dataLine()}`,
      rows: 40,
    });
  }

  /**
   * What the case shows, in one or two sentences computed from it: the target, whether it was
   * read, which function re-implemented it, the callee overlap, and the turn's tests.
   */
  finding(): string {
    const p = this.pairs[0];
    const t = this.turn;
    if (!p) return `No target of ${this.title()} was re-implemented.`;
    const overlap = p.overlap === null
      ? ""
      : `, calling ${fmt(p.overlap * 100, 0)}% of its callees`;
    return `In ${this.title()}, the agent ${p.read ? "read" : "did not read"} the ${p.kind} ` +
      `target \`${p.target}\` (${p.end - p.start + 1} lines) and, instead of calling it, wrote ` +
      `\`${p.by}\`${overlap}; the turn passed ${t.passed ?? "?"} of ${t.tests ?? "?"} tests. ` +
      `${this.pairs.length} target(s) of this turn were re-implemented.`;
  }

  /** One row per re-implemented target: where it lives and which submission function rewrote it. */
  pairsFrame(): pl.DataFrame {
    const ps = this.pairs;
    return pl.DataFrame({
      target: ps.map((p) => p.target),
      kind: ps.map((p) => p.kind),
      read: ps.map((p) => p.read),
      target_lines: pl.Series("target_lines", ps.map((p) => p.end - p.start + 1), pl.Int32),
      reimplemented_by: ps.map((p) => p.by),
      by_lines: pl.Series(
        "by_lines",
        ps.map((p) => p.byStart === null || p.byEnd === null ? null : p.byEnd - p.byStart + 1),
        pl.Int32,
      ),
      callee_overlap: pl.Series("callee_overlap", ps.map((p) => p.overlap), pl.Float64),
    });
  }

  /** The target's source beside the submission function that re-implements it (HTML table). */
  sideBySide(i = 0): Html {
    const p = this.pairs[i];
    if (!p) {
      return new Html("<p>No re-implemented target in this turn.</p>", "no re-implemented target");
    }
    // left-aligned and top-aligned whatever the notebook's table CSS says (JupyterLab right-aligns
    // and centres cells), indentation kept, long lines wrapped rather than cut
    const pre = (s: string) =>
      `<pre style="font-size:11px;line-height:1.3;margin:0;white-space:pre-wrap;` +
      `overflow-wrap:anywhere;text-align:left;tab-size:4">${escapeHtml(s)}</pre>`;
    const left = `target <code>${escapeHtml(p.target)}</code> (${p.kind}, ${
      p.read ? "read" : "not read"
    }) — ${escapeHtml(p.file)}:${p.start}-${p.end}`;
    const right = `submission <code>${escapeHtml(p.by)}</code> — ${
      escapeHtml(this.submissionPath)
    }${p.byStart ? `:${p.byStart}-${p.byEnd}` : ""}`;
    const html = [
      `<p style="color:#b00000;margin:0 0 4px 0"><small>${escapeHtml(this.dataLine())}</small></p>`,
      `<table style="table-layout:fixed;width:100%"><thead><tr>`,
      `<th style="text-align:left;width:50%">${left}</th><th style="text-align:left">${right}</th>`,
      `</tr></thead><tbody><tr style="vertical-align:top">`,
      `<td style="text-align:left;vertical-align:top">${pre(p.source)}</td>` +
      `<td style="text-align:left;vertical-align:top">${pre(p.bySource)}</td>`,
      `</tr></tbody></table>`,
      `<p><small>callee overlap ${
        p.overlap === null ? "–" : `${fmt(p.overlap * 100, 0)}%`
      } (a target is re-implemented when the submission does not call it but calls ≥ ${REIMPLEMENTATION_PERCENT} of its ` +
      `non-builtin callees, §3.3.2)</small></p>`,
    ].join("\n");
    const plain = (s: string) =>
      s.replace(/<\/?code>/g, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll(
        "&amp;",
        "&",
      );
    const text = `${plain(left)}\n${p.source}\n\n${plain(right)}\n${p.bySource}`;
    return new Html(html, text);
  }

  /** A unified diff from the target's source to the re-implementing function (npm `diff`). */
  diff(i = 0): Html {
    const p = this.pairs[i];
    if (!p) {
      return new Html("<p>No re-implemented target in this turn.</p>", "no re-implemented target");
    }
    const patch = createTwoFilesPatch(
      `${p.file}:${p.start}-${p.end} (${p.target})`,
      `${this.submissionPath} (${p.by})`,
      p.source + "\n",
      p.bySource + "\n",
      undefined,
      undefined,
      { context: 3 },
    );
    const colored = patch.split("\n").map((l) => {
      const e = escapeHtml(l);
      if (l.startsWith("+") && !l.startsWith("+++")) {
        return `<span style="color:#1a7f37">${e}</span>`;
      }
      if (l.startsWith("-") && !l.startsWith("---")) {
        return `<span style="color:#cf222e">${e}</span>`;
      }
      if (l.startsWith("@@")) return `<span style="color:#8250df">${e}</span>`;
      return e;
    }).join("\n");
    return new Html(
      `<p style="color:#b00000;margin:0 0 4px 0"><small>${
        escapeHtml(this.dataLine())
      }</small></p><div style="overflow-x:auto"><pre style="font-size:11px;text-align:left;white-space:pre">${colored}</pre></div>`,
      `${this.dataLine()}\n${patch}`,
    );
  }

  /** The chain's per-turn reuse, recall and pass rate under this configuration; the case turn marked. */
  chart(): Chart {
    const metrics = ["reuse_repo", "reuse_self", "recall_repo", "recall_self", "pass_rate"];
    const recs = this.chainTurns.toRecords() as Record<string, unknown>[];
    const values = recs.flatMap((r) =>
      metrics.filter((m) => r[m] !== null && r[m] !== undefined).map((m) => ({
        turn: Number(r.turn),
        metric: metricLabel(m),
        value: 100 * Number(r[m]),
      }))
    );
    const labels = metrics.map(metricLabel);
    const turns = [...new Set(values.map((v) => v.turn))].sort((a, b) => a - b);
    if (!turns.length) turns.push(this.key.turn);
    const turnScale = {
      domain: [Math.min(...turns) - 0.3, Math.max(...turns) + 0.3],
      nice: false,
      zero: false,
    };
    // one configuration: its model's colour for every line; metrics by dash and point shape
    const colour = modelScale([this.key.model]).range[0];
    const t =
      `Chain ${this.key.chain} turn by turn (${this.key.harness} · ${this.key.model} · ${this.key.memory})`;
    return new Chart({
      title: {
        text: t,
        subtitle: [`Data: ${this.provenance}`, `dashed grey: the case turn (${this.key.turn})`],
        subtitleColor: "#b00000",
      },
      config: CHART_CONFIG,
      width: 360,
      height: 200,
      data: { values },
      layer: [
        {
          mark: { type: "rule", color: "#999", strokeDash: [4, 4] },
          encoding: { x: { datum: this.key.turn, type: "quantitative", scale: turnScale } },
        },
        {
          mark: { type: "line", point: { filled: true, size: 40 }, color: colour },
          encoding: {
            x: {
              field: "turn",
              type: "quantitative",
              title: "Turn",
              scale: turnScale,
              axis: { values: turns, format: "d", grid: false },
            },
            y: {
              field: "value",
              type: "quantitative",
              title: "%",
              scale: { domain: [-5, 105], nice: false },
              axis: { values: [0, 20, 40, 60, 80, 100] },
            },
            strokeDash: {
              field: "metric",
              type: "nominal",
              title: "Metric",
              scale: {
                domain: labels,
                range: [[1, 0], [6, 3], [2, 2], [8, 2, 2, 2], [4, 1, 1, 1]],
              },
            },
            shape: {
              field: "metric",
              type: "nominal",
              title: "Metric",
              scale: {
                domain: labels,
                range: ["circle", "square", "triangle-up", "triangle-down", "diamond"],
              },
            },
            tooltip: [{ field: "turn" }, { field: "metric" }, { field: "value", format: ".1f" }],
          },
        },
      ],
    }, t);
  }

  /** The MIME bundle shown by Deno's Jupyter kernel: title, outcome, targets, first pair. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    const parts = [
      `<h4>${escapeHtml(this.title())}</h4>`,
      `<p>${escapeHtml(this.outcome())}</p>`,
      this.targetsView().html,
      this.sideBySide().html,
    ];
    return {
      "text/html": parts.join("\n"),
      "text/plain": `${this.title()}\n${this.outcome()}\n\n${this.sideBySide().text}`,
    };
  }
}

function chainSpec(chains: ChainSpec[], chain: string): ChainSpec {
  const c = chains.find((x) => x.chain === chain);
  if (!c) throw new Error(`caseStudy: chain '${chain}' is not in the corpus's tasks/`);
  return c;
}

function configSpec(configs: ConfigSpec[], k: ConfigKey): ConfigSpec {
  const c = configs.find((x) =>
    x.harness === k.harness && x.model === k.model && x.memory === k.memory
  );
  if (!c) throw new Error(`caseStudy: no runs/<config>/config.json for ${configId(k)}`);
  return c;
}

/**
 * Drills into one turn (default: {@link pickCase}): the requirement, every target with
 * read / reused / re-implemented, and for each re-implemented target its source (from W_{t-1}:
 * the agent's earlier submission for a self target, the original repository otherwise) beside
 * the submission function that re-implements it. Needs the corpus directory (`runs.corpus`).
 */
export async function caseStudy(runs: Runs, key?: CaseKey): Promise<CaseStudy> {
  if (!runs.corpus) {
    throw new Error(
      "caseStudy needs the corpus directory (set RUNS to a corpus, not only a scored directory)",
    );
  }
  const { turns, targets } = runs.scored;
  const k = key ?? pickCase(targets, turns);
  if (!k) throw new Error("caseStudy: no re-implemented target anywhere in these runs; pass a key");
  const { corpus } = await readCorpus(runs.corpus);
  const chain = chainSpec(corpus.chains, k.chain);
  const config = configSpec(corpus.configs, k);
  const spec = chain.turns.find((t) => t.turn === k.turn);
  if (!spec) throw new Error(`caseStudy: chain ${k.chain} has no turn ${k.turn}`);
  const runOf = (turn: number) =>
    corpus.runs.find((r) => r.config === config.id && r.chain === k.chain && r.turn === turn);
  const turnRows = turns.filter(keyFilter(k)).toRecords() as Record<string, unknown>[];
  if (!turnRows.length) throw new Error(`caseStudy: no scored turn for ${JSON.stringify(k)}`);
  const tg = targets.filter(keyFilter(k)).select(
    ...CASE_COLUMNS.filter((c) => targets.columns.includes(c)),
  )
    .sort(["kind", "target"]);
  const submissionFile = runOf(k.turn)?.submission;
  const submission = await readText(submissionFile);
  const defs = submission === null
    ? []
    : (await summarize(submission, spec.path, spec.module || moduleName(spec.path))).definitions;

  // W_{t-1}: the agent's latest earlier submission at a path, else the original repository
  const fileSource = async (
    file: string,
  ): Promise<{ path: string | null; text: string | null }> => {
    for (let t = k.turn - 1; t >= 1; t--) {
      const earlier = chain.turns.find((x) => x.turn === t);
      if (earlier?.path === file) {
        const path = runOf(t)?.submission ?? null;
        const text = await readText(path ?? undefined);
        if (text !== null) return { path, text };
      }
    }
    const path = join(chain.repo.workspace, file);
    return { path, text: await readText(path) };
  };

  const pairs: CasePair[] = [];
  const recs = tg.filter(pl.col("reimplemented").eq(pl.lit(true))).toRecords() as Record<
    string,
    unknown
  >[];
  for (const r of recs) {
    if (!r.file || r.start == null || r.end == null) continue;
    const src = await fileSource(String(r.file));
    // show the whole def (the frame's start/end delimit the body the reads are matched against)
    let [start, end] = [Number(r.start), Number(r.end)];
    if (src.text !== null) {
      const file = String(r.file);
      const whole = (await summarize(src.text, file, moduleName(file))).definitions
        .find((d) => d.id === String(r.target));
      if (whole && whole.start <= start && whole.end >= end) {
        [start, end] = [whole.start, whole.end];
      }
    }
    const by = String(r.reimplemented_by ?? "");
    const def = defs.find((d) => d.id === by) ??
      defs.find((d) => by.endsWith(`.${d.id.split(".").pop()}`) || d.id.endsWith(`.${by}`));
    pairs.push({
      target: String(r.target),
      kind: String(r.kind),
      read: Boolean(r.read),
      file: String(r.file),
      path: src.path,
      start,
      end,
      source: src.text === null ? `(source not found: ${src.path})` : lines(src.text, start, end),
      by,
      byStart: def?.start ?? null,
      byEnd: def?.end ?? null,
      bySource: def && submission !== null
        ? lines(submission, def.start, def.end)
        : `(function ${by} not found in the submission)`,
      overlap: r.callee_overlap === null || r.callee_overlap === undefined
        ? null
        : Number(r.callee_overlap),
    });
  }
  pairs.sort((a, b) =>
    Number(b.read) - Number(a.read) ||
    (a.kind === "self" ? -1 : 1) - (b.kind === "self" ? -1 : 1) || a.target.localeCompare(b.target)
  );
  const chainTurns = turns.filter(
    pl.col("harness").eq(pl.lit(k.harness)).and(pl.col("model").eq(pl.lit(k.model)))
      .and(pl.col("memory").eq(pl.lit(k.memory))).and(pl.col("chain").eq(pl.lit(k.chain))),
  ).sort("turn");
  return new CaseStudy(
    k,
    (await readText(spec.requirement)) ?? "",
    turnRows[0],
    tg,
    pairs,
    spec.path,
    submission,
    chainTurns,
    runs.provenance,
  );
}
