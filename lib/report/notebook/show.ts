/**
 * Display helpers for Deno's Jupyter kernel: MIME bundles, `show`, HTML / Markdown display
 * objects and polars frames as HTML tables.
 *
 * Display objects implement `Symbol.for("Jupyter.display")` and never touch `Deno.jupyter` (it
 * throws outside the kernel), so everything here also runs under `deno test`.
 *
 * @module
 */

import pl from "nodejs-polars";
import { jsonSafe, type MimeBundle } from "../display.ts";
import { escapeHtml } from "../../util/text.ts";
import { DTYPE_SHORT_NAMES } from "../../frames/schema.ts";

/** Escapes text for HTML (lib/util/text.ts). */
export { escapeHtml };

/**
 * The MIME bundle an object shows in Deno's Jupyter kernel (what its `Symbol.for("Jupyter.display")`
 * method returns), for tests and for saving outputs outside the kernel. Throws when the object does
 * not implement the display protocol.
 */
export async function bundleOf(x: unknown): Promise<MimeBundle> {
  const fn = (x as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  if (typeof fn !== "function") {
    throw new Error("bundleOf: the object has no Jupyter display method");
  }
  return await fn.call(x) as MimeBundle;
}

interface JupyterNamespace {
  display(obj: unknown, options?: Record<string, unknown>): Promise<void>;
  broadcast(type: string, content: Record<string, unknown>): Promise<void>;
}

/** `Deno.jupyter` inside Deno's Jupyter kernel, undefined elsewhere (reading it there throws). */
export function jupyter(): JupyterNamespace | undefined {
  try {
    return (Deno as unknown as { jupyter?: JupyterNamespace }).jupyter;
  } catch {
    return undefined;
  }
}

async function plainText(x: unknown): Promise<string> {
  if (typeof x === "string") return x;
  const fn = (x as Record<symbol, unknown> | null)?.[Symbol.for("Jupyter.display")];
  if (typeof fn === "function" && !pl.DataFrame.isDataFrame(x)) {
    const b = await fn.call(x) as MimeBundle;
    const t = b["text/plain"] ?? b["text/markdown"] ?? b["text/html"];
    if (typeof t === "string") return t;
  }
  if (pl.DataFrame.isDataFrame(x)) return String(x);
  return Deno.inspect(x, { colors: false, depth: 4 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Milliseconds before each flush poke (see {@link show}). */
export const FLUSH_PAUSE_MS = 25;

/** Flush pokes after displaying a bundle of `bytes` bytes: 2, plus one per 16 KiB, at most 12. */
export function flushPokes(bytes: number): number {
  return Math.min(12, 2 + Math.ceil(bytes / 16384));
}

/**
 * Shows each item as its own output: in Deno's Jupyter kernel through `Deno.jupyter.display`
 * (rich MIME bundle: tables as HTML, charts as vega-lite + SVG); elsewhere (`deno run`, tests) as
 * plain text on stdout.
 *
 * Why not just a cell's last expression: the kernel's IOPub socket (zmq.rs PUB) silently drops a
 * message sent while the tail of a previous large one is still unflushed (zeromq/zmq.rs#237), so
 * under load a chart or table can vanish from a headless run — measured here with Deno 2.9.6 and
 * nbclient 0.7.2: 13 of 225 chart outputs lost in 3 runs, and 1 in 36 last-expression results.
 * After each display this pauses briefly and sends harmless `status: busy` messages (more for larger
 * bundles, {@link flushPokes}); each send flushes what the socket accepts of the remainder once the
 * reader has drained it (0 of 225 lost with 3 pokes on a lightly loaded machine; under heavy load a
 * loss is still possible, which `deno task notebooks` detects and retries).
 *
 * ```ts
 * import { Html, show } from "./show.ts";
 * await show(new Html("<b>x</b>", "x"), "plain"); // prints "x" and "plain" outside the kernel
 * ```
 */
export async function show(...items: unknown[]): Promise<void> {
  const j = jupyter();
  for (const x of items) {
    if (!j) {
      console.log(await plainText(x));
      continue;
    }
    let bytes = 0;
    try {
      bytes = JSON.stringify(await bundleOf(x)).length;
    } catch {
      bytes = 0; // no display method: the kernel formats it (small text)
    }
    await j.display(x);
    for (let i = 0; i < flushPokes(bytes); i++) {
      await sleep(FLUSH_PAUSE_MS);
      await j.broadcast("status", { execution_state: "busy" });
    }
  }
}

/**
 * An HTML fragment that displays itself in Deno's Jupyter kernel (`text/html` + `text/plain`, and
 * `text/markdown` when given).
 *
 * ```ts
 * import { bundleOf, Html } from "./show.ts";
 * const bundle = await bundleOf(new Html("<b>hi</b>", "hi"));
 * if (bundle["text/html"] !== "<b>hi</b>" || bundle["text/plain"] !== "hi") throw new Error();
 * ```
 */
export class Html {
  constructor(readonly html: string, readonly text: string = "", readonly markdown?: string) {}
  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    const b: MimeBundle = { "text/html": this.html, "text/plain": this.text || this.html };
    if (this.markdown !== undefined) b["text/markdown"] = this.markdown;
    return b;
  }
  /** The plain text. */
  toString(): string {
    return this.text;
  }
}

/**
 * Markdown that displays itself rendered (`text/markdown` + `text/plain`).
 *
 * ```ts
 * import { bundleOf, Markdown } from "./show.ts";
 * const b = await bundleOf(new Markdown("# Title"));
 * if (b["text/markdown"] !== "# Title" || "text/html" in b) throw new Error();
 * ```
 */
export class Markdown {
  constructor(readonly markdown: string) {}
  /** The MIME bundle shown by Deno's Jupyter kernel. */
  [Symbol.for("Jupyter.display")](): MimeBundle {
    return { "text/markdown": this.markdown, "text/plain": this.markdown };
  }
  /** The Markdown text. */
  toString(): string {
    return this.markdown;
  }
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return String(v);
    if (Number.isInteger(v)) return String(v);
    // small values keep two significant digits (a p-value of 4.4e-14 is not 0)
    return Math.abs(v) < 1e-3
      ? v.toExponential(1).replace("e-0", "e-")
      : String(Number(v.toFixed(4)));
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "object") return JSON.stringify(jsonSafe(v));
  return String(v);
}

/** Python Polars' dtype names in frame headers: the schema's short names, and a few more. */
const DTYPE_NAMES: Record<string, string> = {
  ...DTYPE_SHORT_NAMES,
  Null: "null",
  Date: "date",
  Time: "time",
  Categorical: "cat",
  Object: "object",
};

/**
 * A polars dtype as Python Polars prints it in a frame header: `str`, `f64`, `i32`, `bool`,
 * `list[f64]`, `datetime[ms]`, `struct[2]`.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { dtypeName } from "./show.ts";
 * const df = pl.DataFrame({ a: ["x"], b: [1.5], c: [true] }).withColumns(pl.col("b").cast(pl.Int32).alias("d"));
 * console.assert(df.dtypes.map(dtypeName).join() === "str,f64,bool,i32");
 * console.assert(dtypeName(pl.List(pl.Float64)) === "list[f64]");
 * ```
 */
export function dtypeName(d: unknown): string {
  const json = JSON.parse(JSON.stringify(d));
  const name = (j: unknown): string => {
    const v = (j as { DataType?: unknown })?.DataType ?? j;
    if (typeof v === "string") return DTYPE_NAMES[v] ?? v.toLowerCase();
    if (v && typeof v === "object") {
      const [k, inner] = Object.entries(v)[0] ?? ["?", undefined];
      if (k === "List" || k === "FixedSizeList") return `list[${name(inner)}]`;
      if (k === "Datetime") {
        const unit = Array.isArray(inner) ? String(inner[0]) : String(inner ?? "");
        return `datetime[${
          ({ Microseconds: "μs", Milliseconds: "ms", Nanoseconds: "ns", us: "μs" } as Record<
            string,
            string
          >)[
            unit
          ] ?? unit
        }]`;
      }
      if (k === "Struct") return `struct[${Array.isArray(inner) ? inner.length : "?"}]`;
      return k.toLowerCase();
    }
    return String(v);
  };
  return name(json);
}

/**
 * A polars frame as a display object: an HTML table with a caption (title, shape), the column
 * dtypes, and the first and last rows when the frame is longer than `rows` (default 20); plus the
 * frame's own text rendering as `text/plain`. Unlike the frame's built-in display it shows the
 * shape and a text fallback.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { frame } from "./show.ts";
 * const h = frame(pl.DataFrame({ a: [1, 2, 3], b: ["x", null, "<z>"] }), { title: "demo", rows: 2 });
 * if (!h.html.includes("shape: (3, 2)") || !h.html.includes("&lt;z&gt;") || !h.html.includes("…")) {
 *   throw new Error(h.html);
 * }
 * ```
 */
export function frame(df: pl.DataFrame, opts: { title?: string; rows?: number } = {}): Html {
  const limit = Math.max(2, opts.rows ?? 20);
  const cols = df.columns;
  const head = df.height > limit ? df.head(Math.ceil(limit / 2)) : df;
  const tail = df.height > limit ? df.tail(Math.floor(limit / 2)) : undefined;
  const row = (r: Record<string, unknown>) =>
    `<tr>${
      cols.map((c) => {
        const v = r[c];
        const t = escapeHtml(cellText(v));
        const style = typeof v === "number" ? ' style="text-align:right"' : "";
        return v === null || v === undefined
          ? `<td${style}><i style="color:#999">null</i></td>`
          : `<td${style}>${t}</td>`;
      }).join("")
    }</tr>`;
  const body = (head.toRecords() as Record<string, unknown>[]).map(row);
  if (tail) {
    body.push(`<tr>${cols.map(() => "<td>…</td>").join("")}</tr>`);
    body.push(...(tail.toRecords() as Record<string, unknown>[]).map(row));
  }
  const caption = `${
    opts.title ? `<b>${escapeHtml(opts.title)}</b> — ` : ""
  }shape: (${df.height}, ${cols.length})`;
  const html = [
    `<div><table>`,
    `<caption style="text-align:left">${caption}</caption>`,
    `<thead><tr>${cols.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr>`,
    `<tr>${
      df.dtypes.map((d) => `<td><small style="color:#777">${escapeHtml(dtypeName(d))}</small></td>`)
        .join("")
    }</tr></thead>`,
    `<tbody>${body.join("")}</tbody></table></div>`,
  ].join("\n");
  const text = `${opts.title ? `${opts.title}\n` : ""}${String(df)}`;
  return new Html(html, text);
}
