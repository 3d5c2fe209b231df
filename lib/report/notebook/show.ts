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
import { escapeHtml } from "../../util/mod.ts";
import { DTYPE_SHORT_NAMES } from "../../frames/mod.ts";

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
    // outside a Jupyter kernel there is no Deno.jupyter
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

/** Longest wait for a display to reach the frontend (ms; `$REPOREUSE_SHOW_WAIT_MS`, 0: none). */
export const DELIVERY_WAIT_MS = 120_000;

/**
 * The kernel's IOPub TCP port, from the connection file named on its command line
 * (`deno jupyter --kernel --conn <file>`); undefined outside the kernel, for a non-TCP transport,
 * or when /proc cannot be read.
 */
export async function iopubPort(
  cmdline = "/proc/self/cmdline",
): Promise<number | undefined> {
  try {
    const args = (await Deno.readTextFile(cmdline)).split("\0");
    const i = args.indexOf("--conn");
    const file = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith("--conn="))?.slice(7);
    if (!file) return undefined;
    const conn = JSON.parse(await Deno.readTextFile(file));
    return conn.transport === "tcp" && Number.isInteger(conn.iopub_port)
      ? conn.iopub_port
      : undefined;
  } catch {
    // no readable connection file: the port is unknown
    return undefined;
  }
}

/**
 * Bytes each established connection of local `port` has had acknowledged by its peer, keyed by
 * the peer's address, from the output of `ss -tinH state established` (iproute2).
 *
 * ```ts
 * import { ackedBytes } from "./show.ts";
 * const out = "0 0 127.0.0.1:8080 127.0.0.1:50000\n\t cubic bytes_sent:900 bytes_acked:700 segs_out:3\n" +
 *   "0 0 127.0.0.1:9999 127.0.0.1:50001\n\t cubic bytes_acked:5\n";
 * const m = ackedBytes(out, 8080);
 * console.assert(m.size === 1 && m.get("127.0.0.1:50000") === 700);
 * ```
 */
export function ackedBytes(ss: string, port: number): Map<string, number> {
  const out = new Map<string, number>();
  let peer: string | undefined;
  for (const line of ss.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (!line.startsWith("\t") && !line.startsWith(" ") && f.length >= 4) {
      const local = f[2], remote = f[3];
      peer = Number(local.slice(local.lastIndexOf(":") + 1)) === port ? remote : undefined;
      continue;
    }
    const acked = line.match(/\bbytes_acked:(\d+)/);
    if (peer && acked) out.set(peer, Number(acked[1]));
  }
  return out;
}

async function acked(port: number): Promise<Map<string, number> | undefined> {
  try {
    const r = await new Deno.Command("ss", {
      args: ["-tinH", "state", "established", `( sport = :${port} )`],
      stdout: "piped",
      stderr: "null",
    }).output();
    return r.code === 0 ? ackedBytes(new TextDecoder().decode(r.stdout), port) : undefined;
  } catch {
    return undefined; // no iproute2
  }
}

let portOnce: Promise<number | undefined> | undefined;

function waitLimit(): number {
  try {
    const v = Deno.env.get("REPOREUSE_SHOW_WAIT_MS");
    return v !== undefined && Number.isFinite(Number(v)) ? Number(v) : DELIVERY_WAIT_MS;
  } catch {
    return DELIVERY_WAIT_MS;
  }
}

/**
 * Displays `x` and waits until the frontend's connections to the kernel's IOPub port have
 * acknowledged at least `bytes` more bytes (the display's JSON is a lower bound of its message on
 * the wire), at most `$REPOREUSE_SHOW_WAIT_MS` (default 120 s).
 *
 * Why: Deno's kernel (2.9's JavaScript kernel) publishes a cell's displays from a queue that a
 * separate task writes out, while it writes its own `status` messages (the cell's final `idle`)
 * directly — on the same connection, each message with as many partial writes as the socket takes.
 * A display still queued or half-written when the cell ends can arrive after the `idle` (the
 * frontend then drops it as output of a finished cell) or be cut by it (the ZMTP stream is
 * corrupted and nothing arrives any more: the kernel looks busy for good). Waiting for the display
 * to be delivered keeps the cell running until its outputs are out. `Deno.jupyter.broadcast`
 * messages take the same queue, so `show` sends none (earlier versions sent `status: busy` to
 * flush the older kernel's socket; one published after the `idle` left Jupyter showing busy).
 */
async function displayDelivered(j: JupyterNamespace, x: unknown, bytes: number): Promise<void> {
  const limit = waitLimit();
  const port = limit > 0 ? await (portOnce ??= iopubPort()) : undefined;
  const before = port === undefined ? undefined : await acked(port);
  await j.display(x);
  if (port === undefined || before === undefined || before.size === 0) return;
  const deadline = Date.now() + limit;
  let pause = 10;
  while (Date.now() < deadline) {
    const now = await acked(port);
    if (now === undefined) return;
    // every subscriber connected before the display has taken it (connections since gone: done)
    if ([...before].every(([peer, b]) => !now.has(peer) || now.get(peer)! - b >= bytes)) return;
    await sleep(pause);
    pause = Math.min(250, pause * 2);
  }
}

/**
 * Shows each item as its own output: in Deno's Jupyter kernel through `Deno.jupyter.display`
 * (rich MIME bundle: tables as HTML, charts as vega-lite + SVG); elsewhere (`deno run`, tests) as
 * plain text on stdout.
 *
 * Why not just a cell's last expression: the kernel publishes a cell's displays from a queue
 * while it writes the cell's final `status: idle` directly, so a large result still being written
 * when the cell ends can arrive after the `idle` (and be dropped) or be cut by it (the kernel then
 * looks busy for good). After each display this waits until the frontend has received it
 * (`displayDelivered` in this module; docs/notebooks.md).
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
    await displayDelivered(j, x, bytes);
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
