/**
 * Evaluation outputs that hold many runs in one file: an OpenHands `output.jsonl` (V0
 * `evaluation/utils/shared.py` `EvalOutput`, V1 `OpenHands/benchmarks` `EvalOutput`: one JSON
 * line per instance, `{instance_id, attempt?, history, metrics, error, …}`, appended as instances
 * finish, so a resumed run may repeat an instance: the last line wins). One instance is read with
 * `reads --instance ID`; `reads` on the file lists the instances; `reads --layout DIR` lays them
 * out as run logs (`DIR/<chain>/turn<N>/log.json`) for `score`.
 *
 * @module
 */
import { LogFormatError } from "./errors.ts";
import { linkOnPath, writeFileAtomic } from "../util/mod.ts";

/** One instance of an evaluation output. */
export interface EvalInstance {
  /** `instance_id`. */
  id: string;
  /** `attempt` (V1 iterative / critic runs), when the record has one. */
  attempt?: number;
  /** 1-based line of the record in the file (the last line for a repeated instance). */
  line: number;
  /** The record's text (one JSON object). */
  text: string;
  /** Events in its `history`. */
  events: number;
  /** The record's `error`, when set. */
  error?: string;
  /** `metrics.accumulated_cost`, when set. */
  cost?: number;
}

/**
 * The instances of an evaluation `output.jsonl` (JSON lines whose first record has
 * `instance_id` and a `history` list), or undefined when the text is not one. A later line for
 * the same instance and attempt replaces the earlier one (a resumed run appends); the list is in
 * the order of the records kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evalInstances } from "./instances.ts";
 * const rec = (id: string, n: number) => JSON.stringify({ instance_id: id, history: Array(n).fill({}) });
 * const list = evalInstances([rec("a", 1), rec("b", 2), rec("a", 3)].join("\n") + "\n")!;
 * assert.deepEqual(list.map((i) => [i.id, i.line, i.events]), [["b", 2, 2], ["a", 3, 3]]);
 * assert.equal(evalInstances('{"kind":"ActionEvent"}\n'), undefined);
 * ```
 */
export function evalInstances(text: string): EvalInstance[] | undefined {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const nl = t.indexOf("\n");
  const firstLine = (nl < 0 ? t : t.slice(0, nl)).trim();
  if (!firstLine.startsWith("{") || !/"instance_id"\s*:/.test(firstLine)) return undefined;
  const byKey = new Map<string, EvalInstance>();
  let n = 0;
  let pos = 0;
  while (pos < t.length) {
    let end = t.indexOf("\n", pos);
    if (end < 0) end = t.length;
    const raw = t.slice(pos, end).trim();
    n++;
    pos = end + 1;
    if (!raw) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(raw);
    } catch {
      if (n === 1) return undefined;
      continue; // a cut last line: read as the single-record reader reports it
    }
    if (!o || typeof o !== "object" || !Array.isArray(o.history)) {
      if (n === 1) return undefined;
      continue;
    }
    const id = typeof o.instance_id === "string" || typeof o.instance_id === "number"
      ? String(o.instance_id)
      : "?";
    const attempt = typeof o.attempt === "number" ? o.attempt : undefined;
    const metrics = o.metrics as Record<string, unknown> | null | undefined;
    const cost = typeof metrics?.accumulated_cost === "number"
      ? metrics.accumulated_cost
      : undefined;
    const key = `${id}\u0000${attempt ?? ""}`;
    byKey.delete(key);
    byKey.set(key, {
      id,
      attempt,
      line: n,
      text: raw,
      events: o.history.length,
      error: typeof o.error === "string" && o.error ? o.error : undefined,
      cost,
    });
  }
  return byKey.size ? [...byKey.values()].sort((a, b) => a.line - b.line) : undefined;
}

/** Up to five instance names, for messages. */
export function instanceNames(list: EvalInstance[]): string {
  const names = [...new Set(list.map((i) => i.id))];
  return names.slice(0, 5).join(", ") + (names.length > 5 ? `, … (${names.length})` : "");
}

/**
 * The record of one instance (the highest attempt unless one is given); throws
 * {@link LogFormatError} naming the file and the instances it holds when there is none.
 */
export function selectInstance(
  list: EvalInstance[],
  id: string,
  file: string,
  attempt?: number,
): EvalInstance {
  const hits = list.filter((i) => i.id === id && (attempt === undefined || i.attempt === attempt));
  if (!hits.length) {
    throw new LogFormatError(
      file,
      `no instance ${id}${attempt === undefined ? "" : ` attempt ${attempt}`} (instances: ${
        instanceNames(list)
      })`,
    );
  }
  return hits.reduce((a, b) => ((b.attempt ?? 0) >= (a.attempt ?? 0) ? b : a));
}

/** The last record of each instance (its highest attempt). */
export function lastAttempts(list: EvalInstance[]): EvalInstance[] {
  const out = new Map<string, EvalInstance>();
  for (const i of list) {
    const prev = out.get(i.id);
    if (!prev || (i.attempt ?? 0) >= (prev.attempt ?? 0)) out.set(i.id, i);
  }
  return [...out.values()];
}

const TURN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/turn[1-9][0-9]*$/;

/**
 * Lays the instances of an evaluation output out as run logs: `<dir>/<chain>/turn<N>/log.json`
 * (one record each, its last attempt) and `meta.json` with the cost when the record has one.
 * `map` gives `<chain>/turn<N>` per instance id (default `<instance_id>/turn1`). All or nothing:
 * every target is checked (a name that is not a plain directory name, two instances on one turn,
 * a turn that already holds a log) before anything is written, and a failed write removes what
 * was written. Returns the turns written, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layoutInstances } from "./instances.ts";
 * const dir = await Deno.makeTempDir();
 * const rec = (id: string) => JSON.stringify({ instance_id: id, history: [] });
 * const out = await layoutInstances(`${rec("a__b-1")}\n${rec("c")}\n`, "o.jsonl", dir);
 * assert.deepEqual(out, ["a__b-1/turn1", "c/turn1"]);
 * assert.equal(JSON.parse(Deno.readTextFileSync(`${dir}/c/turn1/log.json`)).instance_id, "c");
 * ```
 */
export async function layoutInstances(
  text: string,
  file: string,
  dir: string,
  map: Record<string, string> = {},
): Promise<string[]> {
  const list = evalInstances(text);
  if (!list) {
    throw new LogFormatError(
      file,
      "not an evaluation output.jsonl (no instance_id/history records)",
    );
  }
  const problems: string[] = [];
  const targets = new Map<string, EvalInstance>();
  for (const inst of lastAttempts(list)) {
    const turn = map[inst.id] ?? `${inst.id}/turn1`;
    if (!TURN.test(turn) || turn.split("/")[0].includes("..")) {
      problems.push(
        `instance ${JSON.stringify(inst.id)}: ${
          JSON.stringify(turn)
        } is not <chain>/turn<N> (give --map)`,
      );
      continue;
    }
    const other = targets.get(turn);
    if (other) {
      problems.push(`instances ${other.id} and ${inst.id} both go to ${turn}`);
      continue;
    }
    targets.set(turn, inst);
    const [chain] = turn.split("/");
    for (const p of [`${dir}/${chain}`, `${dir}/${turn}`]) {
      const at = await Deno.lstat(p).catch(() => null); // not there yet: made below
      if (at && !at.isDirectory) {
        problems.push(
          `${p} is ${at.isSymlink ? "a link" : "not a directory"}: nothing is written through it`,
        );
      }
    }
    for (const name of ["log.json", "log.jsonl", "log.traj", "log.traj.json"]) {
      try {
        await Deno.lstat(`${dir}/${turn}/${name}`);
        problems.push(`${dir}/${turn}/${name} exists: not overwritten`);
      } catch {
        // free
      }
    }
  }
  const abs = dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`;
  // an --out not made yet has no link on its path to refuse
  const link = await Deno.lstat(abs).then(() => linkOnPath(abs)).catch(() => null);
  if (link !== null) {
    problems.push(`${link} is a link or not a directory: nothing is written through it`);
  }
  for (const id of Object.keys(map)) {
    if (!list.some((i) => i.id === id)) {
      problems.push(`--map names ${id}, which the file does not hold`);
    }
  }
  if (problems.length) {
    throw new LogFormatError(file, `cannot lay out the instances:\n  ${problems.join("\n  ")}`);
  }
  const written: string[] = [];
  try {
    for (const [turn, inst] of targets) {
      await writeFileAtomic(`${dir}/${turn}/log.json`, inst.text + "\n");
      written.push(`${dir}/${turn}/log.json`);
      if (inst.cost !== undefined) {
        await writeFileAtomic(
          `${dir}/${turn}/meta.json`,
          JSON.stringify({ cost: inst.cost }) + "\n",
        );
        written.push(`${dir}/${turn}/meta.json`);
      }
    }
  } catch (e) {
    // all or nothing: what was written goes; one already gone is fine, the first error is thrown
    for (const w of written) await Deno.remove(w).catch(() => {});
    throw e;
  }
  return [...targets.keys()];
}
