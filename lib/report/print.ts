/**
 * Figures at the paper's column widths: each figure laid out for a single column (3.33 in) and
 * for the full width (7 in) with text of at least 7 pt at that size (`printLayout` of style.ts),
 * written as an SVG sized in inches and as a one-page PDF printed by headless Chromium
 * (lib/report/browser.ts; `Page.printToPDF` keeps text and marks as vectors).
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import type { Browser } from "./browser.ts";
import { COLUMN_WIDTHS, PX_PER_IN } from "./style.ts";

/** A print size: `single` (one column) or `double` (full width). */
export type PrintSize = keyof typeof COLUMN_WIDTHS;
/** The print sizes, narrowest first. */
export const PRINT_SIZES: readonly PrintSize[] = ["single", "double"];

/** An SVG's own size in px (its width and height attributes). */
export function svgSize(svg: string): { width: number; height: number } {
  const root = svg.match(/<svg\b[^>]*>/)?.[0] ?? "";
  const num = (name: string) => Number(root.match(new RegExp(`\\s${name}="([\\d.]+)"`))?.[1]);
  const width = num("width"), height = num("height");
  if (!(width > 0) || !(height > 0)) throw new Error("svgSize: the SVG has no width and height");
  return { width, height };
}

/**
 * The SVG sized in inches, `inches` wide (its drawing scaled by viewBox, so text keeps its size
 * when the layout already is that wide), and its height in inches.
 *
 * ```ts
 * import { printSvg } from "./print.ts";
 * const p = printSvg('<svg class="marks" width="320" height="160" viewBox="0 0 320 160"></svg>', 3.33);
 * console.assert(p.svg.includes('width="3.33in"') && p.svg.includes('viewBox="0 0 320 160"'));
 * console.assert(Math.abs(p.height - 1.665) < 1e-9);
 * ```
 */
export function printSvg(svg: string, inches: number): { svg: string; height: number } {
  const { width, height } = svgSize(svg);
  const h = (height * inches) / width;
  const root = svg.match(/<svg\b[^>]*>/)![0];
  let fixed = root
    .replace(/\swidth="[\d.]+"/, ` width="${inches}in"`)
    .replace(/\sheight="[\d.]+"/, ` height="${Number(h.toFixed(4))}in"`);
  if (!/\sviewBox=/.test(fixed)) fixed = fixed.replace(/>$/, ` viewBox="0 0 ${width} ${height}">`);
  return { svg: svg.replace(root, fixed), height: Number(h.toFixed(4)) };
}

/** The scale from a print SVG's own px to its printed size (1 when the layout fits exactly). */
export function printScale(svg: string, inches: number): number {
  return (inches * PX_PER_IN) / svgSize(svg).width;
}

/**
 * A one-page PDF of an SVG file `inches` × `height` in, printed by headless Chromium (no
 * margins, backgrounds kept). Its creation and modification dates are set to a fixed date of the
 * same length (so cross-reference offsets hold), so the same SVG gives the same bytes.
 */
export async function svgToPdf(
  browser: Browser,
  svgPath: string,
  inches: number,
  height: number,
): Promise<Uint8Array> {
  const page = await browser.newPage(Math.ceil(inches * PX_PER_IN) + 20, 900);
  try {
    await page.goto(pathToFileURL(svgPath).href);
    const r = await browser.send("Page.printToPDF", {
      paperWidth: inches,
      paperHeight: height + 0.02,
      marginTop: 0,
      marginBottom: 0,
      marginLeft: 0,
      marginRight: 0,
      printBackground: true,
      pageRanges: "1",
    }, page.session);
    const bin = atob(String(r.data)).replace(
      /\/(CreationDate|ModDate) \(D:\d{14}/g,
      (_, k) => `/${k} (D:20000101000000`,
    );
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } finally {
    await page.close();
  }
}

/**
 * The page size of a PDF in points (its first /MediaBox), and how many pages it has.
 *
 * ```ts
 * import { pdfPages } from "./print.ts";
 * const pdf = new TextEncoder().encode("%PDF-1.4 << /Type /Page /MediaBox [0 0 239.76 120] >>");
 * const p = pdfPages(pdf);
 * console.assert(p.pages === 1 && p.width === 239.76 && p.height === 120);
 * ```
 */
export function pdfPages(pdf: Uint8Array): { pages: number; width: number; height: number } {
  const text = new TextDecoder("latin1").decode(pdf);
  const box = text.match(/\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/);
  return {
    pages: (text.match(/\/Type\s*\/Page(?!s)\b/g) ?? []).length,
    width: box ? Number(box[3]) - Number(box[1]) : NaN,
    height: box ? Number(box[4]) - Number(box[2]) : NaN,
  };
}
