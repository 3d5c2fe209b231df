/**
 * Calibration of the simulated corpus: the paper's Tables 2–5, and per-turn rates derived from
 * them (first and last turn from Tables 3/5; turns in between interpolated so that the
 * macro-average over turns equals Table 2/4).
 *
 * @example
 * ```ts
 * import { CONFIGS, turnRates } from "./calibration.ts";
 * const r = turnRates(CONFIGS[0]);
 * const mean = r.recallRepo.reduce((a, b) => a + b, 0) / 5;
 * console.assert(Math.abs(mean - CONFIGS[0].recallRepo) < 1e-6);
 * ```
 * @module
 */

/** Harness names used as configuration keys. */
export type Harness = "mini-SWE-agent" | "OpenCode";
/** Memory settings (§4.4). */
export type MemorySetting = "none" | "interface" | "source";

/** One configuration's published figures (fractions 0..1; files and lines per turn). */
export interface ConfigCalibration {
  harness: Harness;
  model: string;
  memory: MemorySetting;
  reuseRepo: number;
  reuseSelf: number;
  recallRepo: number;
  recallSelf: number;
  files: number;
  lines: number;
  resolve: number;
  pass: number;
  cdup: number;
  /** Table 3/5: [first, last] turn values (self reuse: turn 2 and turn 5). */
  ends: {
    recallRepo: [number, number];
    reuseRepo: [number, number];
    reuseSelf: [number, number];
    cdup: [number, number];
  };
}

type Row = [
  Harness,
  string,
  MemorySetting,
  ...number[],
];

// harness, model, memory | Table 2/4: reuse repo, self, recall repo, self, files, lines, resolve,
// pass, cdup | Table 3/5: recall repo T1, T5, reuse repo T1, T5, reuse self T2, T5, cdup T1, T5
const ROWS: Row[] = [
  [
    "mini-SWE-agent",
    "GPT-5.6 Terra",
    "interface",
    62.8,
    71.1,
    52.7,
    99.6,
    20.5,
    1150,
    48.8,
    81.2,
    42.7,
    86.3,
    38.8,
    61.7,
    64.3,
    77.1,
    69.0,
    14.7,
    60.0,
  ],
  [
    "mini-SWE-agent",
    "DeepSeek-v4.1-flash",
    "interface",
    68.8,
    84.2,
    61.4,
    99.9,
    45.4,
    1267,
    66.4,
    90.8,
    21.1,
    88.1,
    49.8,
    74.4,
    72.2,
    92.2,
    79.3,
    10.7,
    33.3,
  ],
  [
    "mini-SWE-agent",
    "Qwen3.7-plus",
    "interface",
    48.9,
    67.7,
    36.2,
    99.6,
    22.0,
    680,
    27.7,
    71.1,
    37.1,
    80.1,
    21.7,
    52.5,
    50.1,
    84.2,
    61.3,
    14.7,
    57.3,
  ],
  [
    "mini-SWE-agent",
    "GLM-5.3",
    "interface",
    55.3,
    71.7,
    47.2,
    99.2,
    36.5,
    1104,
    44.3,
    81.2,
    39.7,
    82.4,
    33.6,
    63.9,
    54.7,
    80.9,
    66.2,
    16.0,
    58.7,
  ],
  [
    "OpenCode",
    "GPT-5.6 Terra",
    "interface",
    61.6,
    67.0,
    42.3,
    100.0,
    18.5,
    479,
    44.5,
    80.1,
    36.8,
    76.3,
    30.7,
    62.4,
    57.2,
    77.1,
    65.3,
    10.7,
    52.0,
  ],
  [
    "OpenCode",
    "DeepSeek-v4.1-flash",
    "interface",
    75.7,
    86.4,
    61.4,
    98.9,
    44.1,
    1098,
    72.3,
    91.6,
    17.1,
    91.3,
    50.7,
    81.3,
    76.1,
    93.6,
    83.6,
    9.3,
    25.3,
  ],
  [
    "OpenCode",
    "Qwen3.7-plus",
    "interface",
    50.5,
    67.8,
    35.1,
    99.7,
    13.5,
    576,
    30.4,
    71.9,
    46.7,
    77.4,
    15.8,
    54.4,
    50.8,
    82.9,
    58.9,
    21.3,
    69.3,
  ],
  [
    "OpenCode",
    "GLM-5.3",
    "interface",
    56.1,
    73.7,
    51.5,
    99.9,
    29.3,
    900,
    44.3,
    81.0,
    33.6,
    86.7,
    41.8,
    65.6,
    64.0,
    83.1,
    69.5,
    13.3,
    50.7,
  ],
  [
    "OpenCode",
    "Qwen3.7-plus",
    "none",
    58.9,
    30.0,
    55.5,
    85.5,
    27.7,
    878,
    30.4,
    72.4,
    65.1,
    77.0,
    46.5,
    56.4,
    61.4,
    34.2,
    32.1,
    22.7,
    89.3,
  ],
  [
    "OpenCode",
    "Qwen3.7-plus",
    "source",
    51.3,
    29.2,
    38.5,
    84.4,
    16.8,
    567,
    27.7,
    70.2,
    70.7,
    77.8,
    20.6,
    53.4,
    50.1,
    29.6,
    29.1,
    17.3,
    94.7,
  ],
];

/** The ten configurations of the paper (8 of Table 2, plus two memory settings of Table 4). */
export const CONFIGS: readonly ConfigCalibration[] = ROWS.map((r) => {
  const n = r.slice(3) as number[];
  const p = (v: number) => v / 100;
  return {
    harness: r[0],
    model: r[1],
    memory: r[2],
    reuseRepo: p(n[0]),
    reuseSelf: p(n[1]),
    recallRepo: p(n[2]),
    recallSelf: p(n[3]),
    files: n[4],
    lines: n[5],
    resolve: p(n[6]),
    pass: p(n[7]),
    cdup: p(n[8]),
    ends: {
      recallRepo: [p(n[9]), p(n[10])],
      reuseRepo: [p(n[11]), p(n[12])],
      reuseSelf: [p(n[13]), p(n[14])],
      cdup: [p(n[15]), p(n[16])],
    },
  };
});

/** Directory name of a configuration under runs/ (`<harness>__<model>__<memory>`, slugged). */
export function configId(c: { harness: string; model: string; memory: string }): string {
  const slug = (s: string) => s.replace(/[^A-Za-z0-9.]+/g, "-");
  return `${slug(c.harness)}__${slug(c.model)}__${c.memory}`;
}

/**
 * Values for `n` consecutive turns running from `first` to `last` whose mean is `mean`: a power
 * curve first + (last − first)·(1 − ((n−1−i)/(n−1))^p)… solved for p by bisection, or, when no
 * monotone curve has that mean, linear interpolation shifted on the inner turns. Clamped to [0,1].
 */
export function interpolate(first: number, last: number, mean: number, n: number): number[] {
  const target = n * mean;
  const inner = n - 2;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  // g_i = ((n-1-i)/(n-1))^p for inner i; values v_i = last + (first-last) g_i
  if (Math.abs(first - last) > 1e-9 && inner > 0) {
    const G = (target - n * last) / (first - last) - 1;
    if (G > 0.02 * inner && G < inner * 0.98) {
      const sumG = (p: number) => {
        let s = 0;
        for (let i = 1; i <= inner; i++) s += ((n - 1 - i) / (n - 1)) ** p;
        return s;
      };
      let lo = 1e-3, hi = 60;
      for (let k = 0; k < 100; k++) {
        const mid = Math.sqrt(lo * hi);
        if (sumG(mid) > G) lo = mid;
        else hi = mid;
      }
      const p = Math.sqrt(lo * hi);
      const out = [first];
      for (let i = 1; i <= inner; i++) {
        out.push(last + (first - last) * ((n - 1 - i) / (n - 1)) ** p);
      }
      out.push(last);
      return out.map(clamp);
    }
  }
  const lin = Array.from({ length: n }, (_, i) => first + (last - first) * (i / (n - 1)));
  const innerSum = lin.slice(1, n - 1).reduce((a, b) => a + b, 0);
  const shift = inner > 0 ? (target - first - last - innerSum) / inner : 0;
  return lin.map((v, i) => (i === 0 || i === n - 1 ? v : v + shift)).map(clamp);
}

/** Per-turn rates (index 0 = turn 1). Self rates at index 0 are NaN (undefined at turn 1). */
export interface TurnRates {
  recallRepo: number[];
  reuseRepo: number[];
  recallSelf: number[];
  reuseSelf: number[];
  cdup: number[];
  resolve: number[];
  pass: number[];
  files: number[];
  lines: number[];
}

/** Per-turn calibration targets of a configuration over `turns` turns (the paper uses 5). */
export function turnRates(c: ConfigCalibration, turns = 5): TurnRates {
  const self = interpolate(c.ends.reuseSelf[0], c.ends.reuseSelf[1], c.reuseSelf, turns - 1);
  const cdup = interpolate(c.ends.cdup[0], c.ends.cdup[1], c.cdup, turns);
  // cumulative: never decreasing
  for (let i = 1; i < cdup.length; i++) cdup[i] = Math.max(cdup[i], cdup[i - 1]);
  const flat = (v: number) => Array.from({ length: turns }, () => v);
  return {
    recallRepo: interpolate(c.ends.recallRepo[0], c.ends.recallRepo[1], c.recallRepo, turns),
    reuseRepo: interpolate(c.ends.reuseRepo[0], c.ends.reuseRepo[1], c.reuseRepo, turns),
    recallSelf: [NaN, ...flat(c.recallSelf).slice(1)],
    reuseSelf: [NaN, ...self],
    cdup,
    resolve: flat(c.resolve),
    pass: flat(c.pass),
    files: flat(c.files),
    lines: flat(c.lines),
  };
}
