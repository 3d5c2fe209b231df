/**
 * Progress of long work, wherever it runs. On a terminal: one live line redrawn in place
 * (`scoring: 120/750 turns (16%) · 3.1/s · ETA 3m 23s`), at most every 100 ms. Anywhere else
 * (pipes, CI logs, Jupyter cells, `deno task reproduce 2>&1 | cat`): a full line whenever another
 * 10% is done or `everyMs` (default 3 s) has passed since the last line, and a final line with
 * the elapsed time — so silence never lasts longer than a few seconds while work advances.
 *
 * ```ts
 * import { progress } from "./progress.ts";
 * const lines: string[] = [];
 * let now = 0;
 * const p = progress(20, "scoring", { unit: "turns", write: (s) => lines.push(s), terminal: false,
 *   heartbeat: false, now: () => now });
 * for (let i = 0; i < 20; i++) { now += 100; p.tick(); }
 * p.done();
 * console.assert(lines.length === 10, lines.join("")); // at 10%, 20%, … 90%, then the summary
 * console.assert(lines[0] === "scoring: 2/20 turns (10%) · 10.0/s · ETA 2s\n", lines[0]);
 * console.assert(lines.at(-1) === "scoring: 20/20 turns done in 2s\n", lines.at(-1));
 *
 * // on a terminal: one line redrawn in place (at most every 100 ms), with the ETA
 * const screen: string[] = [];
 * now = 0;
 * const t = progress(100, "scoring", { write: (s) => screen.push(s), terminal: true, now: () => now });
 * for (let i = 0; i < 100; i++) { now += 50; t.tick(); }
 * t.done();
 * console.assert(screen.length === 51, String(screen.length)); // every 2nd tick (100 ms), then done
 * console.assert(screen[10] === "\rscoring: 22/100 (22%) · 20.0/s · ETA 4s\x1b[K", screen[10]);
 * console.assert(screen.at(-1)!.endsWith("done in 5s\x1b[K\n"));
 * ```
 *
 * @module
 */

/** Options of {@link progress}. */
export interface ProgressOptions {
  /** What is counted, after the numbers (e.g. "turns"). */
  unit?: string;
  /** Where text goes (default: stderr). Lines end with "\n"; terminal redraws start with "\r". */
  write?: (text: string) => void;
  /** Redraw one line in place (default: whether stderr is a terminal and `write` is not given). */
  terminal?: boolean;
  /** Non-terminal: longest silence between lines while work advances, in ms (default 3000). */
  everyMs?: number;
  /** Non-terminal: also write a line from a timer when no unit completed for `everyMs` (default true). */
  heartbeat?: boolean;
  /** Clock in ms (default `performance.now`; injectable for tests). */
  now?: () => number;
}

/** A running progress report: call `tick` as work completes and `done` at the end. */
export interface Progress {
  /** Records `n` (default 1) more units done. */
  tick(n?: number): void;
  /** Ends the report with a summary line (idempotent). */
  done(): void;
}

/** Human duration: "45s", "3m 05s", "1h 02m". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

function stderrWriter(): (text: string) => void {
  const enc = new TextEncoder();
  return (text) => {
    try {
      Deno.stderr.writeSync(enc.encode(text));
    } catch {
      // a closed stderr never stops the work
    }
  };
}

function stderrIsTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    // no terminal to ask (stderr closed): plain lines, no redrawn status
    return false;
  }
}

/**
 * Starts a progress report of `total` units labelled `label` (see the module doc). A total of 0
 * prints nothing.
 */
export function progress(total: number, label: string, opts: ProgressOptions = {}): Progress {
  const write = opts.write ?? stderrWriter();
  const terminal = opts.terminal ?? (opts.write === undefined && stderrIsTerminal());
  const everyMs = opts.everyMs ?? 3000;
  const now = opts.now ?? (() => performance.now());
  const unit = opts.unit ? ` ${opts.unit}` : "";
  const started = now();
  let done = 0;
  let lastAt = started;
  let lastDecile = 0;
  let finished = false;
  const status = () => {
    const elapsed = now() - started;
    const pct = total ? Math.floor((100 * done) / total) : 100;
    const rate = elapsed > 0 ? (1000 * done) / elapsed : 0;
    // no ETA from the first few units (start-up costs make it absurd)
    const eta = rate > 0 && done < total && done >= Math.max(2, total / 50)
      ? ` · ETA ${duration((1000 * (total - done)) / rate)}`
      : "";
    return `${label}: ${done}/${total}${unit} (${pct}%) · ${rate.toFixed(1)}/s${eta}`;
  };
  // non-terminal: a line every `everyMs` even while no unit completes (a slow first unit, a
  // start-up phase), from a timer that never keeps the process alive
  let beat: ReturnType<typeof setInterval> | undefined;
  if (!terminal && total > 0 && opts.heartbeat !== false) {
    const id = setInterval(() => {
      if (!finished && now() - lastAt >= everyMs) {
        lastAt = now();
        write(`${status()}\n`);
      }
    }, everyMs);
    Deno.unrefTimer(id as unknown as number);
    beat = id;
  }
  return {
    tick(n = 1) {
      if (finished || total <= 0) return;
      done = Math.min(total, done + n);
      const t = now();
      if (terminal) {
        if (t - lastAt >= 100 || done === total) {
          lastAt = t;
          write(`\r${status()}\x1b[K`);
        }
        return;
      }
      const decile = Math.floor((10 * done) / total);
      if (done < total && (decile > lastDecile || t - lastAt >= everyMs)) {
        lastDecile = decile;
        lastAt = t;
        write(`${status()}\n`);
      }
    },
    done() {
      if (finished || total <= 0) return;
      finished = true;
      if (beat !== undefined) clearInterval(beat);
      const summary = `${label}: ${done}/${total}${unit} done in ${duration(now() - started)}`;
      write(terminal ? `\r${summary}\x1b[K\n` : `${summary}\n`);
    },
  };
}
