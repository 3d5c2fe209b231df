/**
 * Display objects for notebooks (Deno's Jupyter kernel) and files: {@link Chart} (a vega-lite spec
 * rendered headless to SVG) and {@link Table} (a report table).
 *
 * Deno's kernel renders an object through its `Symbol.for("Jupyter.display")` method; a bare spec is
 * not rendered and a vega-lite v6 `$schema` is mislabelled as Vega (analysis-anchors §3). So a Chart
 * displays an explicit MIME bundle: the spec under `application/vnd.vegalite.v5+json` with the v5
 * `$schema`, an SVG fallback (for nbconvert HTML, GitHub, VS Code) and a text title. Bundles never
 * hold BigInt, NaN or Infinity (they break or silently become null in the kernel).
 *
 * @module
 */
import * as vega from "vega";
import * as vl from "vega-lite";
import { textMetrics } from "vega-scenegraph";
import { type TableData, toCSV, toHTML, toLaTeX, toMarkdown, toText } from "./table_render.ts";

// Helvetica / Arial / Liberation Sans advance widths (AFM, 1/1000 em) of ASCII 32–126.
const HELVETICA = [
  278,
  278,
  355,
  556,
  556,
  889,
  667,
  191,
  333,
  333,
  389,
  584,
  278,
  333,
  278,
  278,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  278,
  278,
  584,
  584,
  584,
  556,
  1015,
  667,
  667,
  722,
  722,
  667,
  611,
  778,
  722,
  278,
  500,
  667,
  556,
  833,
  722,
  778,
  667,
  778,
  722,
  667,
  611,
  722,
  667,
  944,
  667,
  667,
  611,
  278,
  278,
  278,
  469,
  556,
  333,
  556,
  556,
  500,
  556,
  556,
  278,
  556,
  556,
  222,
  222,
  500,
  222,
  833,
  556,
  556,
  556,
  556,
  333,
  500,
  278,
  556,
  500,
  722,
  500,
  500,
  500,
  334,
  260,
  334,
  584,
];
const WIDE: Record<string, number> = {
  "·": 278,
  "—": 1000,
  "–": 556,
  "…": 1000,
  "↓": 1000,
  "Δ": 612,
};

/**
 * Text width in px as a browser draws it in a sans-serif font (Helvetica metrics, 5% slack),
 * for headless Vega, which has no canvas to measure with and otherwise guesses 0.8 em per
 * character — too wide by about half, so labels were cut with "…" and SVGs padded.
 *
 * ```ts
 * import { textWidth } from "./display.ts";
 * const w = textWidth("mini-SWE-agent · GPT-5.6 Terra", 11);
 * console.assert(w > 140 && w < 175, String(w)); // a browser draws it ~150 px wide
 * ```
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    units += c >= 32 && c <= 126 ? HELVETICA[c - 32] : WIDE[ch] ?? 600;
  }
  return (units / 1000) * fontSize * (bold ? 1.1 : 1) * 1.05;
}

// every Chart rendered headless measures text with textWidth — in each copy of vega-scenegraph:
// vega's own (layout of marks) and the one vega-view renders and lays out guides with
const measure = (item: { fontSize?: number; fontWeight?: string | number }, text: unknown) => {
  const t = text == null ? "" : String(text).trim();
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  const w = item.fontWeight;
  return textWidth(t, size, w === "bold" || (typeof w === "number" && w >= 600));
};
for (
  const tm of [(vega as unknown as { textMetrics: { width: unknown } }).textMetrics, textMetrics]
) {
  (tm as { width: unknown }).width = measure;
}

/** The vega-lite schema URL the notebook MIME type expects. */
export const VEGA_LITE_V5_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
/** MIME type of a vega-lite v5 spec. */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

/** A vega-lite specification (JSON object). */
// deno-lint-ignore no-explicit-any
export type VegaLiteSpec = Record<string, any>;

/** A MIME bundle as returned by `Symbol.for("Jupyter.display")`. */
export type MimeBundle = Record<string, unknown>;

/**
 * A JSON-safe deep copy: BigInt → number, NaN/±Infinity → null, undefined properties dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonSafe } from "./display.ts";
 * const v = jsonSafe({ a: 1n, b: NaN, c: [Infinity, 2] }) as Record<string, unknown>;
 * assert(JSON.stringify(v) === '{"a":1,"b":null,"c":[null,2]}');
 * ```
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined && typeof v !== "function") out[k] = jsonSafe(v);
    }
    return out;
  }
  return value;
}

/**
 * A vega-lite chart: `toSpec()` (v5 `$schema`, JSON-safe), `await toSVG()` (headless Vega, no
 * canvas: text widths are estimated) and a Jupyter display bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chart } from "./display.ts";
 * const c = chart({ data: { values: [{ x: 1, y: 2 }] }, mark: "point",
 *   encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } }, "demo");
 * assert((await c.toSVG()).startsWith("<svg"));
 * assert(c.toSpec().$schema.endsWith("/v5.json"));
 * ```
 */
export class Chart {
  readonly #spec: VegaLiteSpec;
  readonly #vegaConfig?: Record<string, unknown>;
  readonly title: string;
  #svg?: Promise<string>;

  /**
   * `opts.vegaConfig` is merged into the compiled Vega spec's config for the SVG render: Vega
   * settings vega-lite has no word for (e.g. `legend.layout`, how legends at one side stack).
   */
  constructor(
    spec: VegaLiteSpec,
    title?: string,
    opts: { vegaConfig?: Record<string, unknown> } = {},
  ) {
    this.title = title ?? titleText(spec.title) ?? "chart";
    this.#spec = jsonSafe({ ...spec, $schema: VEGA_LITE_V5_SCHEMA }) as VegaLiteSpec;
    this.#vegaConfig = opts.vegaConfig;
  }

  /** The vega-lite spec (a fresh copy, `$schema` vega-lite v5). */
  toSpec(): VegaLiteSpec {
    return structuredClone(this.#spec);
  }

  /** The spec as pretty JSON (what `.vl.json` files hold). */
  toJSON(): VegaLiteSpec {
    return this.toSpec();
  }

  /** Renders the chart to an SVG string (headless, memoised). */
  toSVG(): Promise<string> {
    this.#svg ??= (async () => {
      const compiled = vl.compile(this.toSpec() as vl.TopLevelSpec).spec;
      if (this.#vegaConfig) {
        const config = (compiled.config ?? {}) as Record<string, Record<string, unknown>>;
        for (const [k, v] of Object.entries(this.#vegaConfig)) {
          config[k] = { ...(config[k] ?? {}), ...(v as Record<string, unknown>) };
        }
        compiled.config = config;
      }
      const view = new vega.View(vega.parse(compiled), { renderer: "none" });
      try {
        return await view.toSVG();
      } finally {
        view.finalize();
      }
    })();
    return this.#svg;
  }

  /** The MIME bundle shown by Deno's Jupyter kernel. */
  async [Symbol.for("Jupyter.display")](): Promise<MimeBundle> {
    return {
      [VEGA_LITE_MIME]: this.toSpec(),
      "image/svg+xml": await this.toSVG(),
      "text/plain": this.title,
    };
  }
}

function titleText(t: unknown): string | undefined {
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.join(" ");
  if (t && typeof t === "object" && "text" in t) return titleText((t as { text: unknown }).text);
  return undefined;
}

/** Wraps a vega-lite spec in a {@link Chart}. */
export function chart(spec: VegaLiteSpec, title?: string): Chart {
  return new Chart(spec, title);
}

/**
 * A report table with its renderings and a Jupyter display bundle (HTML, Markdown, plain text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Table } from "./display.ts";
 * const t = new Table({ id: "t", title: "Demo", caption: "", provenance: "hand-made",
 *   keys: [{ name: "k", label: "K" }], columns: [{ key: "v", label: "V", digits: 1 }],
 *   rows: [{ keys: ["a"], values: { v: 1.25 } }], notes: [] });
 * assert(t.toMarkdown().includes("| a | 1.3 |"));
 * ```
 */
export class Table {
  constructor(readonly data: TableData) {}

  /** Markdown (what `out/tables/*.md` holds). */
  toMarkdown(): string {
    return toMarkdown(this.data);
  }
  /** CSV (what `out/tables/*.csv` holds). */
  toCSV(): string {
    return toCSV(this.data);
  }
  /** LaTeX, booktabs (what `out/tables/*.tex` holds). */
  toLaTeX(): string {
    return toLaTeX(this.data);
  }
  /** HTML. */
  toHTML(): string {
    return toHTML(this.data);
  }
  /** Plain text. */
  toString(): string {
    return toText(this.data);
  }

  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    return {
      "text/html": this.toHTML(),
      "text/markdown": this.toMarkdown(),
      "text/plain": this.toString(),
    };
  }
}
