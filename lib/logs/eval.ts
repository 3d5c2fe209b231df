/**
 * Scoring a log reader against independent labels (issue 23's held-out evaluation): which
 * labelled lines it credited (recall), whether it credited a line the labels say was never shown
 * (`mustNot`) or a file outside the workspace, and whether detection picked the log's own reader.
 * Pure: the labels come from elsewhere (`data/logs/eval/label.py` reads the raw logs itself) and
 * the reader's answer is a {@link ReadsResult}'s `reads`; `tasks/logs_eval.ts` wires the two.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreReads } from "./eval.ts";
 * const s = scoreReads(
 *   { "a.py": [[1, 10]] },
 *   { shown: { "a.py": [[1, 8]] }, must_not: { "a.py": [9] }, outside: [] },
 * );
 * assert.deepEqual([s.shown, s.credited, s.mustNotCredited], [8, 8, 1]);
 * ```
 * @module
 */
import type { Ranges } from "./types.ts";

/** Labels of one log, as `label.py` writes them (`labels/<id>.json`). */
export interface LogLabels {
  /** Lines shown to the model: workspace-relative path → 1-based inclusive ranges. */
  shown: Record<string, [number, number][]>;
  /** Lines never shown (must not be credited): path → line numbers. */
  must_not: Record<string, number[]>;
  /** Absolute paths read outside the workspace (must never be credited). */
  outside: string[];
  /** The labelled calls: one read each (outside ones have no `ranges`). */
  probes?: { path: string; ranges?: [number, number][]; outside?: boolean }[];
}

/** How one reader answer compares with one log's labels. */
export interface ReadsScore {
  /** Labelled shown lines. */
  shown: number;
  /** Of those, credited by the reader. */
  credited: number;
  /** Labelled shown lines not credited: path → ranges. */
  missed: Record<string, [number, number][]>;
  /** Must-not lines credited (each is a violation). */
  mustNotCredited: number;
  /** The violations: path → lines. */
  mustNotHits: Record<string, number[]>;
  /** Credited keys that are not workspace-relative paths (absolute, `..`, drive letters). */
  outsideKeys: string[];
  /** Lines credited in labelled files beyond the labels (informative: unlabelled calls may show them). */
  extra: number;
  /** Labelled calls inside the workspace. */
  probes: number;
  /** Of those, the calls all of whose lines are credited. */
  probesCredited: number;
}

/** Is this reads key a workspace-relative path? */
export function insideKey(key: string): boolean {
  const k = key.replaceAll("\\", "/");
  return !(k.startsWith("/") || k.startsWith("~") || /^[A-Za-z]:/.test(k) ||
    k === ".." || k.startsWith("../") || k.includes("/../"));
}

function lineSet(ranges: readonly (readonly [number, number])[] | undefined): Set<number> {
  const s = new Set<number>();
  for (const [a, b] of ranges ?? []) for (let i = a; i <= b; i++) s.add(i);
  return s;
}

function toRanges(lines: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of [...lines].sort((x, y) => x - y)) {
    const last = out.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** Compares a reader's credited lines (`reads`) with the labels. */
export function scoreReads(reads: Ranges, labels: LogLabels): ReadsScore {
  const score: ReadsScore = {
    shown: 0,
    credited: 0,
    missed: {},
    mustNotCredited: 0,
    mustNotHits: {},
    outsideKeys: Object.keys(reads).filter((k) => !insideKey(k)).sort(),
    extra: 0,
    probes: 0,
    probesCredited: 0,
  };
  for (const p of labels.probes ?? []) {
    if (p.outside || !p.ranges) continue;
    score.probes++;
    const got = lineSet(reads[p.path]);
    if ([...lineSet(p.ranges)].every((n) => got.has(n))) score.probesCredited++;
  }
  for (const [path, ranges] of Object.entries(labels.shown)) {
    const got = lineSet(reads[path]);
    const want = lineSet(ranges);
    const missed: number[] = [];
    for (const n of want) {
      score.shown++;
      if (got.has(n)) score.credited++;
      else missed.push(n);
    }
    if (missed.length) score.missed[path] = toRanges(missed);
    for (const n of got) if (!want.has(n)) score.extra++;
  }
  for (const [path, lines] of Object.entries(labels.must_not)) {
    const got = lineSet(reads[path]);
    const hits = lines.filter((n) => got.has(n));
    if (hits.length) {
      score.mustNotHits[path] = hits;
      score.mustNotCredited += hits.length;
    }
  }
  return score;
}

/** Recall in percent (100 when nothing was labelled). */
export function recall(credited: number, shown: number): number {
  return shown === 0 ? 100 : (100 * credited) / shown;
}
