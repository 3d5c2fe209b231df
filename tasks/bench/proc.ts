/**
 * What the benches read of the machine: CPU seconds from Linux's `/proc/<pid>/stat` (a process's
 * own, or those of its finished children) and the load average, for the lines they print beside
 * wall times.
 *
 * @example
 * ```ts
 * import { cpuSeconds, loadAverage } from "./proc.ts";
 * const own = cpuSeconds("self", "own");
 * console.assert(own === null || own >= 0);
 * console.assert(/^\d+\.\d \d+\.\d \d+\.\d$/.test(loadAverage()));
 * ```
 * @module
 */

/**
 * CPU seconds (user + system) of process `pid` — its own, or those of the children it has waited
 * for — from `/proc/<pid>/stat` (fields 14–17, in clock ticks of 1/100 s); null without `/proc`.
 */
export function cpuSeconds(pid: number | "self", whose: "own" | "children"): number | null {
  let stat: string;
  try {
    stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    // no /proc (not Linux) or the process is gone: CPU time unknown
    return null;
  }
  // the fields after the command name, which may itself hold ") ": the first is field 3 (state)
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const i = whose === "own" ? 11 : 13; // utime, stime — or cutime, cstime
  return (Number(f[i]) + Number(f[i + 1])) / 100;
}

/** The load averages over 1, 5 and 15 minutes, as printed beside timings. */
export function loadAverage(digits = 1): string {
  return Deno.loadavg().map((x) => x.toFixed(digits)).join(" ");
}
