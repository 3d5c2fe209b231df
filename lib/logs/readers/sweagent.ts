/**
 * SWE-agent `.traj` files: `trajectory[]` steps with `action`, `observation`, `state`.
 *
 * File views: `str_replace_editor view <path> [--view_range a b]` (output in `cat -n` form), the
 * windowed tools `open`/`goto`/`scroll_up`/`scroll_down`/`create` (output `[File: p (N lines
 * total)]` then `N:text` lines), searches `find_file`/`search_dir`/`search_file`; anything else is
 * a bash command. Line numbers printed in the output are what the model saw.
 *
 * @module
 */
import type { Event, LogMeta, Ranges } from "../types.ts";
import { makeEvent, outsideNote } from "../event.ts";
import { rangesOf } from "../ranges.ts";
import { analyzeShell, commandWords } from "../shell/analyze.ts";
import { shownPath } from "../shell/stream.ts";
import { type ShownLine, splitLines, TurnWorkspace, UNKNOWN } from "../workspace.ts";
import { arr, num, obj, type ReaderOptions, type ReaderResult, str } from "./common.ts";
import { type LogReader, NOT_JSON } from "./reader.ts";

/** The numbered lines of an output (group 1 the number, group 2 the text). */
function numbered(output: string, re: RegExp): ShownLine[] {
  const out: ShownLine[] = [];
  for (const l of output.split(/\r?\n/)) {
    const m = l.match(re);
    if (m) out.push([Number(m[1]), m[2]]);
  }
  return out;
}

/** Reads a parsed SWE-agent trajectory. */
export async function readSweAgent(data: unknown, opts: ReaderOptions): Promise<ReaderResult> {
  const top = obj(data) ?? {};
  const traj = arr(top.trajectory).map((s) => obj(s)).filter((s): s is Record<string, unknown> =>
    !!s
  );
  const firstDir = traj.map((s) => str(obj(s.state)?.working_dir)).find((d) => d);
  const root = opts.cwd ?? firstDir ?? "/testbed";
  const ws = new TurnWorkspace(opts.files, root);
  const actions: Event[][] = [];
  let seconds = 0;
  let timed = false;
  for (let step = 0; step < traj.length; step++) {
    const s = traj[step];
    const action = (str(s.action) ?? "").trim();
    const output = str(s.observation) ?? "";
    const t = num(s.execution_time);
    if (t !== undefined) {
      seconds += t;
      timed = true;
    }
    if (!action) continue;
    const state = obj(s.state);
    const wd = str(state?.working_dir);
    const cwd = wd ? ws.resolve(wd, "") : "";
    const first = action.split(/\s+/)[0];
    const rel = (p: string | undefined) => p === undefined ? undefined : ws.resolve(p, cwd);
    if (first === "str_replace_editor" || first === "edit_anthropic") {
      const w = await commandWords(action);
      const sub = w?.[1];
      const path = rel(w?.[2]);
      const flag = (name: string) => {
        const i = w ? w.indexOf(name) : -1;
        return i >= 0 ? w![i + 1] : undefined;
      };
      if (!w || path === undefined) {
        actions.push([
          makeEvent(
            step,
            w ? "read" : "other",
            first,
            action,
            [],
            {},
            w ? outsideNote(w[2]) : "action not understood",
          ),
        ]);
        continue;
      }
      if (sub === "view") {
        if (/files and directories up to/.test(output)) {
          const paths = splitLines(output).slice(1).map((l) => rel(l.trim())).filter((
            p,
          ): p is string => !!p && ws.exists(p) !== false);
          actions.push([makeEvent(step, "list", first, action, paths, {})]);
          continue;
        }
        const content = ws.read(path);
        const len = typeof content === "string" ? splitLines(content).length : undefined;
        const view = numbered(output, /^\s*(\d+)\t(.*)$/);
        if (view.length) {
          const c = ws.credit(path, view);
          const lines = c.lines.length ? { [path]: c.lines } : {};
          actions.push([makeEvent(step, "read", first, action, [path], lines, c.note, c.placed)]);
        } else if (/^(Invalid|The path|Error)/m.test(output)) {
          actions.push([
            makeEvent(step, "read", first, action, [path], {}, "view failed: nothing read"),
          ]);
        } else {
          const i = w.indexOf("--view_range");
          const a = Number(w[i + 1]), b = Number(w[i + 2]);
          const end = b === -1 ? len : b;
          const ok = i >= 0 && a >= 1 && end !== undefined && end >= a;
          actions.push([
            makeEvent(
              step,
              "read",
              first,
              action,
              [path],
              ok ? { [path]: [[a, end!]] } : {},
              "no line numbers in the output",
              ok,
            ),
          ]);
        }
        continue;
      }
      if (sub === "create") {
        const text = flag("--file_text");
        ws.write(path, text === undefined ? UNKNOWN : text.endsWith("\n") ? text : text + "\n");
      } else if (sub === "str_replace") {
        const cur = ws.read(path);
        const o = flag("--old_str"), n = flag("--new_str") ?? "";
        ws.write(
          path,
          typeof cur === "string" && o !== undefined && cur.includes(o)
            ? cur.replace(o, () => n)
            : UNKNOWN,
        );
      } else if (sub === "insert") {
        const cur = ws.read(path);
        const at = Number(flag("--insert_line")), n = flag("--new_str");
        if (typeof cur === "string" && n !== undefined && Number.isInteger(at)) {
          const lines = splitLines(cur);
          lines.splice(at, 0, ...splitLines(n));
          ws.write(path, lines.join("\n") + "\n");
        } else ws.write(path, UNKNOWN);
      } else ws.write(path, UNKNOWN);
      actions.push([makeEvent(step, "write", first, action, [path], {})]);
      continue;
    }
    if (["open", "goto", "scroll_up", "scroll_down", "create", "edit"].includes(first)) {
      const header = output.match(/\[File: (.+?) \(\d+ lines total\)\]/);
      const path = header ? rel(header[1]) : rel(str(state?.open_file));
      const evs: Event[] = [];
      if (first === "edit" || first === "create") {
        if (path !== undefined) ws.write(path, first === "create" && !header ? "" : UNKNOWN);
        evs.push(makeEvent(step, "write", first, action, path ? [path] : [], {}));
      }
      if (path === undefined) {
        if (!evs.length) {
          evs.push(
            makeEvent(step, "read", first, action, [], {}, "file outside the workspace or unknown"),
          );
        }
      } else {
        const window = numbered(output, /^(\d+):(.*)$/);
        if (window.length && first !== "edit") {
          const c = ws.credit(path, window);
          const lines = c.lines.length ? { [path]: c.lines } : {};
          evs.push(makeEvent(step, "read", first, action, [path], lines, c.note, c.placed));
        } else if (!evs.length) {
          evs.push(makeEvent(step, "read", first, action, [path], {}, "nothing shown"));
        }
      }
      actions.push(evs);
      continue;
    }
    if (first === "find_file" || first === "search_dir" || first === "search_file") {
      const paths = new Set<string>();
      const lines = new Map<string, number[]>();
      let current: string | undefined;
      const inFile = output.match(/matches for ".*?" in (.+?):?\s*$/m)?.[1];
      if (first === "search_file" && inFile) current = rel(inFile);
      for (const l of output.split(/\r?\n/)) {
        if (first === "find_file") {
          const p = rel(l.trim());
          if (p && !/^Found|^No matches/.test(l) && ws.exists(p) !== false) paths.add(p);
        } else if (first === "search_dir") {
          const m = l.match(/^(.+?) \(\d+ matches\)$/);
          const p = m ? rel(m[1]) : undefined;
          if (p) paths.add(p);
        } else {
          const m = l.match(/^Line (\d+):/);
          if (m && current) {
            const list = lines.get(current) ?? [];
            list.push(Number(m[1]));
            lines.set(current, list);
          }
        }
      }
      if (first === "search_file" && current) paths.add(current);
      if (first !== "search_file") {
        // the directory searched: the second argument, else the working directory
        const w = await commandWords(action);
        const dir = w?.[2] === undefined ? cwd : rel(w[2]);
        paths.clear();
        if (dir !== undefined) paths.add(shownPath(dir));
      }
      const r: Ranges = {};
      for (const [f, ns] of lines) r[f] = rangesOf(ns);
      actions.push([
        makeEvent(step, first === "find_file" ? "list" : "search", first, action, [...paths], r),
      ]);
      continue;
    }
    if (first === "submit" || first === "exit_forfeit" || first === "exit_cost") {
      actions.push([makeEvent(step, "run", first, action, [], {})]);
      continue;
    }
    actions.push(await analyzeShell(action, { ws, cwd, step, tool: "bash" }, { output }));
  }
  const info = obj(top.info);
  const stats = obj(info?.model_stats);
  const meta: LogMeta = { steps: num(stats?.api_calls) ?? traj.length };
  const cost = num(stats?.instance_cost);
  if (cost !== undefined) meta.cost = cost;
  if (timed) meta.seconds = seconds;
  return { format: "swe-agent", actions, meta };
}

/**
 * True when a parsed log is a SWE-agent trajectory: a `trajectory` list with steps of `action` /
 * `observation` (an empty one beside `history` or `info`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSweAgentTraj } from "./sweagent.ts";
 * assert.ok(isSweAgentTraj({ trajectory: [{ action: "ls", observation: "" }], history: [] }));
 * assert.ok(!isSweAgentTraj({ trajectory: [1, 2] }) && !isSweAgentTraj({ trajectory: [] }));
 * ```
 */
export function isSweAgentTraj(v: unknown): boolean {
  const o = obj(v);
  if (!o || !Array.isArray(o.trajectory)) return false;
  if (!o.trajectory.length) return "history" in o || "info" in o;
  return o.trajectory.some((s) => {
    const step = obj(s);
    return !!step && ("action" in step || "observation" in step);
  });
}

/** The SWE-agent reader (registry entry). */
export const reader: LogReader = {
  name: "swe-agent",
  harness: "SWE-agent",
  harnessNames: ["sweagent"],
  formats: ["swe-agent"],
  files: ["*.traj"],
  detect: (input) => {
    const v = input.json();
    return v !== NOT_JSON && isSweAgentTraj(v) ? "swe-agent" : undefined;
  },
  read: (input, _format, opts) => readSweAgent(input.json(), opts),
  doc: {
    versions: "`.traj` files (`trajectory[]` with `action`/`observation`/`state`)",
    read:
      "`str_replace_editor view` (`cat -n` output), windowed `open`/`goto`/`scroll_*` (`N:text` lines), shell",
    search: "`search_file`, `search_dir`, `find_file`, shell",
    listing: "`find_file`, `ls`",
    refused: "—",
    log: "run by SWE-agent itself (`--output_dir`); no preset",
  },
};
