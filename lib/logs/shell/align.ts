/**
 * The events of one shell action's simulated pipelines (bash, analyze.ts, or PowerShell,
 * powershell.ts) given what the action printed: the simulated outputs are aligned with the
 * observed output (whole, or the head and tail a harness kept), the output is split among the
 * pipelines that printed it, and every line the model was shown is checked against its file
 * ({@link TurnWorkspace.credit}) before it is credited. Without a usable simulation, line numbers
 * printed in the output or the window the command declares place the lines.
 *
 * Both shell dialects end here, so the crediting of shown lines has one home.
 *
 * @module
 */
import type { Event, EventKind } from "../types.ts";
import { type EventFields, makeEvent, outsideNote } from "../event.ts";
import { type ShownLine, splitLines, type TurnWorkspace } from "../workspace.ts";
import { isLoud, type Seg } from "./interp.ts";

/** What the harness showed for an action. */
export interface ShellObservation {
  /** The command's complete output (stdout+stderr), when known. */
  output?: string;
  /** When the harness cut the output: the shown head and tail texts. */
  head?: string;
  tail?: string;
  /** Characters elided between head and tail, when stated. */
  elided?: number;
  /** Exit status, when known. */
  returncode?: number;
}

/** Lines of a text that are at least partly visible, counting a partial first/last line. */
function touched(text: string, atStart: boolean): number {
  if (!text) return 0;
  const parts = text.split("\n");
  let n = parts.length;
  if (parts[parts.length - 1] === "") n--;
  if (!atStart && parts[0] === "" && parts.length > 1) n--;
  return Math.max(0, n);
}

/** Context of one action. */
export interface ShellContext {
  ws: TurnWorkspace;
  /** Workspace-relative working directory of the shell (undefined when outside the workspace). */
  cwd: string | undefined;
  step: number;
  tool?: string;
  /**
   * The shell that ran the command: `powershell` for a harness whose shell is PowerShell (Codex
   * CLI on Windows). Unset: bash, except a `powershell`/`pwsh -Command …` wrapper.
   */
  dialect?: "bash" | "powershell";
}

/** An event of the shell action: its step, and its tool (`bash` unless the context names one). */
export function shellEvent(
  ctx: ShellContext,
  kind: EventKind,
  command: string,
  ...fields: EventFields
): Event {
  return makeEvent(ctx.step, kind, ctx.tool ?? "bash", command, ...fields);
}

const NL_RE = /^\s*(\d+)\t/;
const GREP1_RE = /^(\d+)[:-]/;
const AGENT_RE = /^\s*(\d+)(?::\s?|\t| ?\| ?)/;
const SLS_RE = /^(?:> | {2})?((?:[A-Za-z]:)?[^:\n]+):(\d+):(.*)$/;
// deno-lint-ignore no-control-regex
const ANSI_RE = /\x1b\[[0-9;]*m/g;

/** Lines shown per file, with their text when it can be told (checked by `credit`). */
type Shown = Map<string, ShownLine[]>;

function addShown(m: Shown, file: string, line: ShownLine): void {
  const l = m.get(file);
  if (l) l.push(line);
  else m.set(file, [line]);
}

/** Line numbers printed in shown output text for a numbered stream, with each line's text. */
function numbersFrom(
  text: string,
  seg: Seg,
  ws: TurnWorkspace,
  cwd: string | undefined,
): Shown | undefined {
  const num = seg.stream.numbered;
  if (!num) return undefined;
  const out: Shown = new Map();
  // each line is checked against its file (TurnWorkspace.credit) when the events are made
  for (const line of text.split("\n")) {
    if (num.style === "nl") {
      const m = line.match(NL_RE);
      if (m && num.file) addShown(out, num.file, [Number(m[1]), line.slice(m[0].length)]);
    } else if (num.style === "agent") {
      const m = line.match(AGENT_RE);
      if (m && num.file) addShown(out, num.file, [Number(m[1]), line.slice(m[0].length)]);
    } else if (num.style === "sls") {
      // PowerShell Select-String: `path:N:line`, `> ` before a match and `  ` before context
      const m = line.replace(ANSI_RE, "").match(SLS_RE);
      const rel = m ? ws.resolve(m[1], cwd) : undefined;
      if (m && rel && ws.exists(rel) !== false) addShown(out, rel, [Number(m[2]), m[3]]);
    } else if (num.style === "grep1") {
      const m = line.match(GREP1_RE);
      if (m && num.file) addShown(out, num.file, [Number(m[1]), line.slice(m[0].length)]);
    } else {
      const re = /[:-](\d+)[:-]/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(line))) {
        const rel = ws.resolve(line.slice(0, m.index), cwd);
        if (rel && ws.exists(rel) !== false) {
          addShown(out, rel, [Number(m[1]), line.slice(m.index + m[0].length)]);
          break;
        }
        re.lastIndex = m.index + 1;
      }
    }
  }
  return out;
}

/**
 * The events of simulated pipelines (bash or PowerShell, see powershell.ts) given what the
 * action printed: the simulated outputs are aligned with the observation and every line shown is
 * checked against its file ({@link TurnWorkspace.credit}).
 */
export function segEvents(
  command: string,
  segs: Seg[],
  ctx: ShellContext,
  obs: ShellObservation | undefined,
): Event[] {
  const loud = segs.filter(isLoud);
  const elided = obs !== undefined && obs.head !== undefined;
  const shownText = obs === undefined
    ? undefined
    : elided
    ? `${obs.head}\n${obs.tail ?? ""}`
    : obs.output ?? "";
  const executed = segs.filter((s) => !s.skipped);
  if (executed.length) executed[executed.length - 1].last = true;

  const events: Event[] = [];
  const rcFailed = obs?.returncode !== undefined && obs.returncode !== 0;
  // observed output lines (full output known) and the shown mask
  const observedLines = obs?.output !== undefined ? splitLines(obs.output) : undefined;
  const headN = elided ? touched(obs!.head!, true) : 0;
  const tailN = elided ? touched(obs!.tail ?? "", false) : 0;
  const shownIndex = (i: number, total: number | undefined): boolean | undefined => {
    if (!elided) return true;
    if (i < headN) return true;
    if (total === undefined) return undefined;
    return i >= total - tailN;
  };

  // alignment of simulated outputs with the observation
  const outSegs = executed.filter((s) => !s.silent && !(s.out !== null && s.out.length === 0));
  let aligned = false;
  let total: number | undefined = observedLines?.length;
  if (obs !== undefined && executed.length && outSegs.every((s) => s.out !== null)) {
    let off = 0;
    const offsets = new Map<Seg, number>();
    for (const s of executed) {
      offsets.set(s, off);
      off += s.out?.length ?? 0;
    }
    if (observedLines) aligned = off === observedLines.length;
    else if (elided) {
      let simLength = 0;
      for (const s of outSegs) for (const l of s.out!) simLength += l.text.length + 1;
      aligned = obs.elided === undefined ||
        simLength === obs.head!.length + obs.elided + (obs.tail ?? "").length;
      total = off;
    }
    if (aligned) {
      // first-line check
      const s = outSegs[0];
      if (s) {
        const at = offsets.get(s)!;
        const line = s.out![0].text;
        const seen = observedLines
          ? observedLines[at]
          : at < headN - 1
          ? obs.head!.split("\n")[at]
          : undefined;
        if (seen !== undefined && seen !== line) aligned = false;
      }
    }
    if (aligned) { for (const [s, o] of offsets) s.offset = o; }
    else total = observedLines?.length;
  }
  // lines printed that no simulated block accounts for, when every pipeline was simulated: the
  // output says more than the files do (those lines are not credited, and the read is unplaced)
  let unaccounted = 0;
  if (!aligned && obs?.output !== undefined) {
    // locate each known output block in the observed text
    let pos = 0;
    let covered = 0;
    for (const s of outSegs) {
      if (s.out === null) continue;
      const block = s.out.map((l) => l.text + "\n").join("");
      const at = obs.output.indexOf(block, pos);
      if (at < 0 || (at > 0 && obs.output[at - 1] !== "\n")) continue;
      s.offset = splitLines(obs.output.slice(0, at)).length;
      pos = at + block.length;
      covered += s.out.length;
    }
    if (outSegs.every((s) => s.out !== null) && observedLines) {
      unaccounted = observedLines.length - covered;
    }
  }

  // several pipelines printed and the simulation cannot tell their parts apart: split the
  // output in order by what each one's lines look like
  const split = !aligned && observedLines && loud.length > 1
    ? splitOutput(loud, observedLines)
    : new Map<Seg, string>();

  for (const s of segs) {
    if (s.skipped) continue;
    const res = s.res;
    const note: string[] = [];
    if (res.outside?.length) note.push(outsideNote(res.outside));
    for (const st of s.stages) {
      if (st.writes?.length || st.kind === "write") {
        const paths = (st.writes ?? []).map((w) => w.path);
        if (st !== s.stages[0] || res.kind === "write") {
          if (paths.length) events.push(shellEvent(ctx, "write", s.text, paths, {}));
        }
      }
    }
    for (const w of res.writes ?? []) {
      if (!s.stages.some((st) => st.writes?.includes(w))) {
        // redirect writes (> f, cat > f <<EOF)
        events.push(shellEvent(ctx, "write", s.text, [w.path], {}));
      }
    }
    if (res.kind === "write") continue;
    if (s.other) {
      events.push(shellEvent(ctx, "other", s.text, res.paths, {}, [s.other, ...note].join("; ")));
      continue;
    }
    if (res.kind === "run" && !res.paths.length) {
      if (s.quietBuiltin) continue;
      if (!s.stages.some((st) => st.kind === "write") && !(res.writes?.length)) {
        events.push(shellEvent(ctx, "run", s.text, [], {}, note.join("; ") || undefined));
      }
      continue;
    }
    // read / search / list
    if (!res.paths.length && res.outside?.length && !res.pathsFromOutput) {
      events.push(shellEvent(ctx, res.kind, s.text, [], {}, note.join("; ")));
      continue;
    }
    let paths = [...res.paths];
    let shown: Shown = new Map();
    let placed = true;
    const segText = split.get(s) ?? segmentText(
      s,
      obs,
      observedLines,
      loud.length === 1 && loud[0] === s,
      shownText,
    );
    if (res.pathsFromOutput && segText !== undefined) {
      paths = [...new Set([...paths, ...res.pathsFromOutput(segText)])];
    }
    if (obs === undefined) {
      note.push("no observation: nothing shown");
    } else if (s.failed && s.offset !== undefined) {
      note.push("command failed: nothing read");
    } else if (res.kind === "read" || res.kind === "search") {
      const simulated = s.out !== null && s.offset !== undefined &&
        (aligned || !elided || observedLines !== undefined);
      if (s.silent) {
        note.push("output redirected: nothing shown");
      } else if (simulated && s.out) {
        // the simulation matched what was printed: exactly its shown lines (errors included),
        // each checked against the line observed where it was printed
        s.out.forEach((l, i) => {
          if (l.file === undefined || l.n === undefined) return;
          const at = s.offset! + i;
          const visible = shownIndex(at, total);
          if (visible === false) return;
          if (visible === undefined) {
            placed = false;
            return;
          }
          addShown(shown, l.file, [l.n, observedLines?.[at], l.text]);
        });
        if (!placed) note.push("tail of the truncated output not placed");
        if (unaccounted > 0 && !aligned) {
          placed = false;
          note.push(`${unaccounted} lines printed that the files do not hold: not credited`);
        }
      } else if (rcFailed && s.last) {
        note.push("command failed: nothing read");
      } else {
        // without a usable simulation: line numbers in the output, or the declared window
        const fb = fallback(s, segText, obs, headN, tailN, ctx, elided);
        shown = fb.shown;
        placed = fb.placed;
        if (fb.note) note.push(fb.note);
        if (ctx.ws.known && s.out !== null) {
          note.push("simulated output did not match the observation");
        }
        // "No such file" for a path in the shown output: not read
        if (segText && /No such file or directory/.test(segText)) {
          for (const p of [...shown.keys()]) {
            if (
              segText.includes(`${p}: No such file or directory`) ||
              segText.includes(`'${p}': No such file or directory`)
            ) shown.delete(p);
          }
        }
      }
    }
    // every line shown is checked against its file: the one check of reads (workspace.ts)
    const c = ctx.ws.creditFiles(shown);
    const lines = c.lines;
    if (!c.placed) placed = false;
    note.push(...c.notes);
    if (res.kind === "search" && res.paths.length === 0 && paths.length === 0) {
      paths = Object.keys(lines);
    }
    paths = [...new Set(paths)].filter((p) => p !== "");
    if (segText && /No such file or directory/.test(segText)) {
      // operands the command reported missing were not listed or searched
      paths = paths.filter((p) =>
        !segText.includes(`${p}: No such file`) && !segText.includes(`'${p}': No such file`)
      );
    }
    events.push(
      shellEvent(ctx, res.kind, s.text, paths, lines, note.join("; ") || undefined, placed),
    );
  }
  if (!events.length) events.push(shellEvent(ctx, "run", command, [], {}));
  return events;
}

const GREPN_RE = /^.+?[:-]\d+[:-]/;

/**
 * Splits a complete output among the pipelines that printed it, in order: a known simulated
 * output takes its line count; numbered output (`nl`, `grep -n`) takes the lines that carry
 * numbers (and grep's `--` separators); a window of known size takes that many lines. Stops at
 * the first pipeline it cannot size; the last sized one may take all remaining lines.
 */
function splitOutput(loud: Seg[], lines: string[]): Map<Seg, string> {
  const out = new Map<Seg, string>();
  let pos = 0;
  for (let i = 0; i < loud.length && pos <= lines.length; i++) {
    const s = loud[i];
    const lastOne = i === loud.length - 1;
    let n: number | undefined;
    const num = s.stream.numbered;
    const d = s.stream.declared;
    if (lastOne) n = lines.length - pos;
    else if (s.out !== null) n = s.out.length;
    else if (num) {
      const re = num.style === "nl"
        ? NL_RE
        : num.style === "grep1"
        ? GREP1_RE
        : num.style === "agent"
        ? AGENT_RE
        : num.style === "sls"
        ? SLS_RE
        : GREPN_RE;
      let k = pos;
      while (k < lines.length && (re.test(lines[k]) || lines[k] === "--")) k++;
      n = k - pos;
    } else if (d && d.end !== undefined) n = Math.min(d.end - d.start + 1, lines.length - pos);
    else {
      // up to the next pipeline's known output (`cat a && echo === && cat b`)
      const next = loud[i + 1]?.out;
      if (next && next.length) {
        const at = lines.indexOf(next[0].text, pos);
        if (at >= 0) n = at - pos;
      }
    }
    if (n === undefined) break;
    out.set(s, lines.slice(pos, pos + n).map((l) => l + "\n").join(""));
    pos += n;
  }
  return out;
}

/** The part of the shown output a segment produced, when it can be told. */
function segmentText(
  s: Seg,
  obs: ShellObservation | undefined,
  observedLines: string[] | undefined,
  owner: boolean,
  shownText: string | undefined,
): string | undefined {
  if (!obs) return undefined;
  if (obs.head !== undefined) return owner ? shownText : undefined;
  if (observedLines && s.offset !== undefined && s.out) {
    return observedLines.slice(s.offset, s.offset + s.out.length).map((l) => l + "\n").join("");
  }
  if (owner) return shownText;
  return undefined;
}

function fallback(
  s: Seg,
  text: string | undefined,
  obs: ShellObservation,
  headN: number,
  tailN: number,
  ctx: ShellContext,
  elided: boolean,
): { shown: Shown; placed: boolean; note?: string } {
  if (text === undefined) {
    const d = s.stream.declared;
    if (d && d.end !== undefined && !elided) {
      const shown: Shown = new Map();
      for (let n = d.start; n <= d.end; n++) addShown(shown, d.file, [n, undefined]);
      return {
        shown,
        placed: true,
        note: "window from the command, not checked against the output",
      };
    }
    return { shown: new Map(), placed: false, note: "output of this command cannot be told apart" };
  }
  const nums = numbersFrom(text, s, ctx.ws, ctx.cwd);
  if (nums && nums.size) {
    if (elided) {
      // the cut ends inside a line and the tail starts inside one: their texts are partial
      for (const list of nums.values()) {
        for (let i = 0; i < list.length; i++) list[i] = [list[i][0], undefined];
      }
    }
    if (elided && obs.tail) {
      // the tail starts inside a line: that line (partly shown) precedes the first numbered one
      const nl = obs.tail.indexOf("\n");
      const first = nl < 0 ? obs.tail : obs.tail.slice(0, nl);
      if (first && !numbersFrom(first, s, ctx.ws, ctx.cwd)?.size) {
        const next = numbersFrom(obs.tail.slice(nl + 1), s, ctx.ws, ctx.cwd);
        for (const [file, ns] of next ?? []) {
          if (ns[0][0] > 1) nums.get(file)?.push([ns[0][0] - 1, undefined]);
          break;
        }
      }
    }
    return { shown: nums, placed: true };
  }
  const d = s.stream.declared;
  if (d) {
    const trailer = d.trailer ?? 0;
    const limit = d.end ?? Infinity;
    const shown: Shown = new Map();
    // the output's lines are the window's lines, in order: the text of each is known when the
    // whole output is
    const texts = elided ? undefined : splitLines(text);
    const add = (a: number, b: number) => {
      for (let n = a; n <= Math.min(b, limit); n++) {
        addShown(shown, d.file, [n, texts?.[n - d.start]]);
      }
    };
    let placed = true;
    if (!elided) add(d.start, d.start + texts!.length - trailer - 1);
    else if (obs.output !== undefined) {
      const total = splitLines(obs.output).length;
      const n = total - trailer;
      add(d.start, d.start + Math.min(headN, n) - 1);
      add(d.start + Math.max(headN, total - tailN), d.start + n - 1);
    } else {
      add(d.start, d.start + headN - 1);
      placed = tailN === 0;
    }
    return {
      shown,
      placed,
      note: placed
        ? "window from the command and the output's line count"
        : "tail of the truncated output not placed",
    };
  }
  void obs;
  if (s.res.kind === "search" && !s.stream.numbered) {
    return {
      shown: new Map(),
      placed: false,
      note: "matched lines carry no numbers (no workspace)",
    };
  }
  return {
    shown: new Map(),
    placed: false,
    note: "lines shown cannot be placed without the workspace",
  };
}
