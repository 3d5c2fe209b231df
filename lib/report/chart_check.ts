/// <reference lib="dom" />
/**
 * What a reader sees of a chart, measured in a real browser (lib/report/browser.ts): every chart
 * on a page — an `<img>` of an SVG data URI (the notebook HTML export), an SVG output, or an SVG
 * document (out/figures/*.svg) — is re-mounted as inline SVG so its layout is measurable, and
 * reported with its drawn marks, axis and legend texts, truncated labels, and anything drawn
 * outside the image or outside its plot frame. {@link chartProblems} turns a report into
 * reader-facing problems.
 *
 * @module
 */
import { colourClashes, MIN_SERIES_DELTA_E } from "./colour.ts";

/** One chart as measured in the page. */
export interface ChartReport {
  /** Position in the page (document CSS pixels) of the chart as displayed. */
  box: { x: number; y: number; width: number; height: number };
  /** Width of the column the chart sits in (its output area), or 0 for an SVG document. */
  column: number;
  /** The chart's own width (SVG width attribute / image natural width). */
  natural: number;
  /** Whether the column scrolls or cuts horizontally. */
  overflows: boolean;
  /** Data marks drawn with a visible extent. */
  marks: number;
  /** Axis titles, legend labels, chart titles. */
  axisTitles: string[];
  legendLabels: string[];
  titles: string[];
  /** Labels shortened with "…" by the renderer. */
  truncated: string[];
  /** Elements drawn outside the image, data marks outside their plot frame, overlapping labels. */
  outside: string[];
  /** Smallest text drawn, in CSS px as displayed (Infinity when no text). */
  minFontPx: number;
  /** The paper's reference marks drawn over a computed mark (`g[class*=paper_reference]`). */
  paperOverlaps: string[];
  /** Each legend's symbol colours as rendered (fill, or stroke for hollow symbols). */
  legendColours: string[][];
}

/**
 * Runs in the page (self-contained: passed to `Page.call`). Returns one {@link ChartReport} per
 * chart found.
 */
export async function measureCharts(tolerance: number): Promise<ChartReport[]> {
  const doc = document;
  const reports: ChartReport[] = [];
  const rectOf = (e: Element) => e.getBoundingClientRect();
  const describe = (e: Element) => {
    const g = e.closest("g[class]");
    const cls = g ? g.getAttribute("class") : e.tagName;
    const text = (e.textContent ?? "").trim().slice(0, 40);
    return `${cls}${text ? ` "${text}"` : ""}`;
  };
  const analyse = (svg: SVGSVGElement) => {
    const root = rectOf(svg);
    const texts = (sel: string) =>
      [...svg.querySelectorAll(`${sel} text`)].map((t) => (t.textContent ?? "").trim()).filter((
        t,
      ) => t.length);
    const axisTitles = texts("g.role-axis-title");
    const legendLabels = texts("g.role-legend-label");
    const titles = texts("g.role-title-text").concat(texts("g.role-title-subtitle"));
    const truncated = [
      ...texts("g.role-axis-label"),
      ...legendLabels,
      ...titles,
      ...axisTitles,
      ...texts("g.role-axis-title"),
    ].filter((t) => t.endsWith("…"));
    const outside: string[] = [];
    let marks = 0;
    for (const el of svg.querySelectorAll("g.role-mark > *")) {
      const r = rectOf(el);
      if (r.width + r.height <= 0) continue;
      marks++;
      // the plot frame: the background of the nearest enclosing group item (a facet cell)
      let bg: Element | null = null;
      for (
        let a = el.parentElement;
        a && a !== (svg as unknown as Element) && !bg;
        a = a.parentElement
      ) {
        bg = a.querySelector(":scope > path.background");
      }
      const f = bg ? rectOf(bg) : root;
      if (
        f.width > 0 && f.height > 0 &&
        (r.left < f.left - tolerance || r.right > f.right + tolerance ||
          r.top < f.top - tolerance || r.bottom > f.bottom + tolerance)
      ) {
        outside.push(`${describe(el)} outside its plot frame`);
      }
    }
    for (const el of svg.querySelectorAll("text, g.role-mark > *")) {
      const r = rectOf(el);
      if (r.width + r.height <= 0) continue;
      if (
        r.left < root.left - tolerance || r.right > root.right + tolerance ||
        r.top < root.top - tolerance || r.bottom > root.bottom + tolerance
      ) outside.push(`${describe(el)} outside the image`);
    }
    for (const axis of svg.querySelectorAll("g.role-axis-label")) {
      const rs = [...axis.querySelectorAll("text")].map((t) => ({ t, r: rectOf(t) }))
        .filter((x) => x.r.width > 0);
      for (let i = 0; i + 1 < rs.length; i++) {
        const a = rs[i].r, b = rs[i + 1].r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) {
          outside.push(
            `axis labels "${rs[i].t.textContent}" and "${rs[i + 1].t.textContent}" overlap`,
          );
        }
      }
    }
    // smallest text as displayed: its font size times the scale from the SVG's units to the page
    let minFontPx = Infinity;
    for (const t of svg.querySelectorAll("text")) {
      if (!(t.textContent ?? "").trim()) continue;
      const size = parseFloat(getComputedStyle(t).fontSize);
      const m = (t as SVGGraphicsElement).getScreenCTM();
      const scale = m ? Math.hypot(m.a, m.b) : 1;
      if (size > 0) minFontPx = Math.min(minFontPx, size * scale);
    }
    // the paper's marks drawn over (after) a computed point or bar, covering a fifth of either
    const paperOverlaps: string[] = [];
    const paper = [...svg.querySelectorAll('g.role-mark[class*="paper_reference"] > *')];
    const computed = [
      ...svg.querySelectorAll(
        'g.role-mark.mark-symbol:not([class*="paper_reference"]) > *, g.role-mark.mark-rect > *',
      ),
    ];
    const area = (r: DOMRect) => Math.max(0, r.width) * Math.max(0, r.height);
    for (const p of paper) {
      const rp = rectOf(p);
      if (area(rp) <= 0) continue;
      for (const c of computed) {
        if (!(p.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
        const rc = rectOf(c);
        const w = Math.min(rp.right, rc.right) - Math.max(rp.left, rc.left);
        const h = Math.min(rp.bottom, rc.bottom) - Math.max(rp.top, rc.top);
        if (w <= 0 || h <= 0 || area(rc) <= 0) continue;
        if ((w * h) / Math.min(area(rp), area(rc)) > 0.2) {
          paperOverlaps.push(
            `paper mark at (${Math.round(rp.x)}, ${Math.round(rp.y)}) over a computed mark`,
          );
          break;
        }
      }
    }
    // each legend's symbol colours (series colours), as the browser computes them
    const legendColours: string[][] = [];
    for (const legend of svg.querySelectorAll("g.role-legend")) {
      const colours: string[] = [];
      for (const sym of legend.querySelectorAll("g.role-legend-symbol path")) {
        const st = getComputedStyle(sym);
        const fill = st.fill, stroke = st.stroke;
        const hollow = !fill || fill === "none" || /rgba\(.*,\s*0\)$/.test(fill) ||
          fill === "transparent" || parseFloat(st.fillOpacity) === 0;
        colours.push(hollow ? stroke : fill);
      }
      if (colours.length) legendColours.push(colours);
    }
    return {
      marks,
      axisTitles,
      legendLabels,
      titles,
      truncated,
      outside: [...new Set(outside)],
      minFontPx,
      paperOverlaps,
      legendColours,
    };
  };
  const parse = (markup: string): SVGSVGElement | null => {
    const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
    const el = parsed.documentElement;
    return el && el.tagName.toLowerCase() === "svg"
      ? doc.importNode(el, true) as unknown as SVGSVGElement
      : null;
  };
  const empty = {
    marks: 0,
    axisTitles: [],
    legendLabels: [],
    titles: [],
    truncated: [],
    outside: [],
    minFontPx: Infinity,
    paperOverlaps: [],
    legendColours: [],
  };

  // an SVG document (a figure file)
  if (doc.documentElement.tagName.toLowerCase() === "svg") {
    const svg = doc.documentElement as unknown as SVGSVGElement;
    const r = rectOf(svg);
    reports.push({
      box: { x: r.left, y: r.top, width: r.width, height: r.height },
      column: 0,
      natural: Number(svg.getAttribute("width") ?? r.width),
      overflows: false,
      ...analyse(svg),
    });
    return reports;
  }

  const stage = doc.createElement("div");
  stage.style.cssText = "position:absolute;left:-20000px;top:0;visibility:hidden";
  doc.body.appendChild(stage);
  const found = [
    ...doc.querySelectorAll('img[src^="data:image/svg+xml"], [data-mime-type="image/svg+xml"]'),
  ].filter((e) => !(e.tagName === "IMG" && e.closest('[data-mime-type="image/svg+xml"]')));
  for (const el of found) {
    const column = (el.closest(".jp-OutputArea-output, .output_area, .jp-Cell, body") as
      | HTMLElement
      | null) ?? doc.body;
    const r = rectOf(el);
    const box = { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
    let markup = "";
    let natural = r.width;
    if (el.tagName === "IMG") {
      const img = el as HTMLImageElement;
      if (!img.complete) {
        await new Promise((ok) => img.addEventListener("load", ok, { once: true }));
      }
      natural = img.naturalWidth;
      markup = await (await fetch(img.src)).text();
    } else {
      const inline = el.querySelector("svg");
      markup = inline ? inline.outerHTML : "";
      natural = inline ? Number(inline.getAttribute("width") ?? r.width) : 0;
    }
    const svg = markup ? parse(markup) : null;
    let measured = empty as Omit<ChartReport, "box" | "column" | "natural" | "overflows">;
    if (svg) {
      stage.appendChild(svg);
      measured = analyse(svg);
      svg.remove();
    }
    reports.push({
      box,
      column: column.clientWidth,
      natural,
      overflows: column.scrollWidth > column.clientWidth + 1 ||
        r.right > column.getBoundingClientRect().right + 1,
      ...measured,
    });
  }
  stage.remove();
  return reports;
}

/** What a chart must show (from its spec). */
export interface ChartExpectation {
  /** Title text, to name the chart in messages. */
  title: string;
  /** Whether the chart has at least one axis with a title. */
  axisTitle: boolean;
  /** Whether the chart encodes a field with a legend (color, shape, strokeDash, …). */
  legend: boolean;
}

/** The expectations of a vega-lite spec: axis titles unless every axis is untitled, a legend when a legend channel encodes a field. */
export function expectationOf(spec: Record<string, unknown>, title: string): ChartExpectation {
  const legendChannels = new Set([
    "color",
    "fill",
    "stroke",
    "shape",
    "strokeDash",
    "size",
    "opacity",
  ]);
  let legend = false;
  let axis = false;
  const walk = (v: unknown, key?: string) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x));
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    if (key === "encoding") {
      for (const [ch, def] of Object.entries(o)) {
        const d = def as Record<string, unknown> | null;
        if (!d || typeof d !== "object") continue;
        if (legendChannels.has(ch) && (d.field || d.datum !== undefined) && d.legend !== null) {
          legend = true;
        }
        if ((ch === "x" || ch === "y") && d.title !== null && (d.field || d.title)) axis = true;
      }
    }
    for (const [k, x] of Object.entries(o)) walk(x, k);
  };
  walk(spec);
  return { title, axisTitle: axis, legend };
}

/**
 * The problems a reader would see in a measured chart: nothing drawn, no axis title or legend
 * where the spec has them, truncated labels, parts outside the image or frame, wider than the
 * column (or than `maxWidth`), text under `minFontPt` at the displayed size, a paper mark drawn
 * over a computed mark, and two series of a legend whose colours are closer than
 * {@link MIN_SERIES_DELTA_E} (CIEDE2000) as seen normally or with simulated deuteranopia or
 * protanopia (lib/report/colour.ts).
 *
 * ```ts
 * import { chartProblems } from "./chart_check.ts";
 * const blank = { box: { x: 0, y: 0, width: 500, height: 0 }, column: 900, natural: 500,
 *   overflows: false, marks: 0, axisTitles: [], legendLabels: [], titles: [], truncated: [],
 *   outside: [], minFontPx: 11, paperOverlaps: [], legendColours: [] };
 * const p = chartProblems(blank, { title: "t", axisTitle: true, legend: true });
 * console.assert(p.length === 3, p.join("; ")); // no marks, no axis title, no legend
 * ```
 */
export function chartProblems(
  r: ChartReport,
  expect: ChartExpectation,
  maxWidth = Infinity,
  opts: { minFontPt?: number } = {},
): string[] {
  const out: string[] = [];
  if (opts.minFontPt !== undefined && r.minFontPx * 0.75 < opts.minFontPt - 0.01) {
    out.push(`text of ${(r.minFontPx * 0.75).toFixed(1)} pt, under ${opts.minFontPt} pt`);
  }
  if (r.paperOverlaps?.length) {
    out.push(`${r.paperOverlaps.length} paper mark(s) over computed marks: ${r.paperOverlaps[0]}`);
  }
  for (const colours of r.legendColours ?? []) {
    const clash = colourClashes(colours);
    if (clash.length) {
      const c = clash[0];
      out.push(
        `series colours ${c.a} and ${c.b} ΔE00 ${c.deltaE.toFixed(1)} < ${MIN_SERIES_DELTA_E}` +
          (c.deficiency === "none" ? "" : ` under simulated ${c.deficiency}`),
      );
    }
  }
  if (r.marks === 0) out.push("no data marks drawn");
  if (expect.axisTitle && r.axisTitles.length === 0) out.push("no axis title");
  if (expect.legend && r.legendLabels.length === 0) out.push("no legend entries");
  if (r.truncated.length) out.push(`truncated labels: ${r.truncated.slice(0, 4).join(" | ")}`);
  if (r.outside.length) {
    out.push(
      `${r.outside.length} element(s) clipped or outside: ${r.outside.slice(0, 3).join("; ")}`,
    );
  }
  if (r.column && r.natural > r.column + 1) {
    out.push(`${Math.round(r.natural)} px wide in a ${r.column} px column`);
  }
  if (r.overflows) out.push("overflows its column");
  if (r.natural > maxWidth + 1) out.push(`${Math.round(r.natural)} px wide, over ${maxWidth} px`);
  return out;
}
