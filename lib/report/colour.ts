/**
 * Colour as readers with a colour-vision deficiency see it: CSS colours to CIELAB, the Machado,
 * Oliveira & Fernandes (2009) simulation of protanopia, deuteranopia and tritanopia (severity 1,
 * applied in linear RGB), and the CIEDE2000 colour difference. The browser check of the figures
 * (lib/report/chart_check.ts) applies these to the colours a chart actually rendered.
 *
 * @module
 */

/** An sRGB colour, channels in [0, 1]. */
export type Rgb = readonly [number, number, number];

/** The colour-vision deficiencies simulated. */
export type Deficiency = "protanopia" | "deuteranopia" | "tritanopia";

/** Machado et al. (2009), severity 1.0, for linear RGB. */
export const MACHADO_2009: Readonly<Record<Deficiency, readonly Rgb[]>> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/**
 * Parses `#rgb`, `#rrggbb` and `rgb(r, g, b)` / `rgba(…)` (what computed styles return); undefined
 * for anything else (`none`, `transparent`, gradients).
 *
 * ```ts
 * import { parseColour } from "./colour.ts";
 * console.assert(parseColour("#fff")![0] === 1);
 * console.assert(parseColour("rgb(0, 114, 178)")![2] === 178 / 255);
 * console.assert(parseColour("none") === undefined);
 * ```
 */
export function parseColour(css: string): Rgb | undefined {
  const s = css.trim().toLowerCase();
  let m = s.match(/^#([0-9a-f]{3})$/);
  if (m) {
    const [r, g, b] = [...m[1]].map((c) => parseInt(c + c, 16) / 255);
    return [r, g, b];
  }
  m = s.match(/^#([0-9a-f]{6})$/);
  if (m) {
    const n = parseInt(m[1], 16);
    return [(n >> 16 & 255) / 255, (n >> 8 & 255) / 255, (n & 255) / 255];
  }
  m = s.match(/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/);
  if (m) {
    if (m[4] !== undefined && parseFloat(m[4]) === 0) return undefined; // fully transparent
    return [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255];
  }
  return undefined;
}

const toLinear = (c: number) => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
const toGamma = (c: number) => c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
const clamp = (c: number) => Math.min(1, Math.max(0, c));

/** The colour as a reader with `deficiency` sees it (Machado 2009, severity 1). */
export function simulate(rgb: Rgb, deficiency: Deficiency): Rgb {
  const lin = rgb.map(toLinear);
  const m = MACHADO_2009[deficiency];
  const out = m.map((row) => clamp(row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]));
  return [toGamma(out[0]), toGamma(out[1]), toGamma(out[2])];
}

/** CIELAB (D65) of an sRGB colour. */
export function toLab(rgb: Rgb): [number, number, number] {
  const [r, g, b] = rgb.map(toLinear);
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116;
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/**
 * CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005).
 *
 * ```ts
 * import { deltaE2000 } from "./colour.ts";
 * // pair 1 of Sharma et al.'s test data: 2.0425
 * const d = deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485]);
 * console.assert(Math.abs(d - 2.0425) < 1e-4, String(d));
 * ```
 */
export function deltaE2000(
  lab1: readonly [number, number, number],
  lab2: readonly [number, number, number],
): number {
  const [L1, a1, b1] = lab1, [L2, a2, b2] = lab2;
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1), C2 = Math.hypot(a2, b2);
  const Cbar = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cbar ** 7 / (Cbar ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1, a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1), C2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / rad;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(b1, a1p), h2p = hue(b2, a2p);
  const dLp = L2 - L1, dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * rad);
  const Lbp = (L1 + L2) / 2, Cbp = (C1p + C2p) / 2;
  let hbp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hbp = (h1p + h2p) / 2;
    else hbp = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hbp - 30) * rad) + 0.24 * Math.cos(2 * hbp * rad) +
    0.32 * Math.cos((3 * hbp + 6) * rad) - 0.2 * Math.cos((4 * hbp - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lbp - 50) ** 2) / Math.sqrt(20 + (Lbp - 50) ** 2);
  const Sc = 1 + 0.045 * Cbp, Sh = 1 + 0.015 * Cbp * T;
  const Rt = -Math.sin(2 * dTheta * rad) * Rc;
  return Math.sqrt(
    (dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh),
  );
}

/**
 * Smallest CIEDE2000 difference between series colours a chart uses together — those tell series
 * apart — below which two series count as indistinguishable. 10 is about four times a "just
 * noticeable" difference for marks as small as legend swatches and lines.
 */
export const MIN_SERIES_DELTA_E = 10;

/** A pair of colours that a deficiency makes too close. */
export interface ColourClash {
  a: string;
  b: string;
  deficiency: Deficiency | "none";
  deltaE: number;
}

/**
 * Pairs of `colours` (CSS) closer than `threshold` (CIEDE2000) as seen normally or with each
 * deficiency; colours equal to start with are one series and are skipped.
 *
 * ```ts
 * import { colourClashes } from "./colour.ts";
 * // red and green: fine normally, the same under deuteranopia
 * const c = colourClashes(["#d62728", "#2ca02c"], { deficiencies: ["deuteranopia"] });
 * console.assert(c.length === 1 && c[0].deficiency === "deuteranopia", JSON.stringify(c));
 * ```
 */
export function colourClashes(
  colours: readonly string[],
  opts: { threshold?: number; deficiencies?: readonly Deficiency[] } = {},
): ColourClash[] {
  const threshold = opts.threshold ?? MIN_SERIES_DELTA_E;
  const kinds: (Deficiency | "none")[] = [
    "none",
    ...(opts.deficiencies ?? ["deuteranopia", "protanopia"]),
  ];
  const parsed = [...new Set(colours)].map((c) => ({ css: c, rgb: parseColour(c) }))
    .filter((c): c is { css: string; rgb: Rgb } => c.rgb !== undefined);
  const out: ColourClash[] = [];
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i], b = parsed[j];
      if (deltaE2000(toLab(a.rgb), toLab(b.rgb)) < 1) continue; // the same colour, written twice
      for (const k of kinds) {
        const sa = k === "none" ? a.rgb : simulate(a.rgb, k);
        const sb = k === "none" ? b.rgb : simulate(b.rgb, k);
        const d = deltaE2000(toLab(sa), toLab(sb));
        if (d < threshold) out.push({ a: a.css, b: b.css, deficiency: k, deltaE: d });
      }
    }
  }
  return out;
}
