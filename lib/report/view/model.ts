/**
 * What a page of the viewer shows, as plain data: one turn (or one log) with its metrics, targets,
 * events, workspace tree, submission, reference and re-implementations; the outcome classes of
 * targets and the short names of how an event showed lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventVia, viewOutcome } from "./model.ts";
 * assert.equal(viewOutcome({ implemented: true, read: true, reused: false, reimplemented: true }), "reimplemented");
 * assert.equal(viewOutcome({ implemented: true, read: false, reused: true, reimplemented: false }), "reused");
 * assert.equal(eventVia({ kind: "read", tool: "bash", command: "nl -ba a.py | sed -n '3,9p'" }), "sed -n");
 * assert.equal(eventVia({ kind: "search", tool: "bash", command: "grep -n def a.py" }), "grep match");
 * assert.equal(eventVia({ kind: "read", tool: "str_replace_editor", command: '{"command":"view"}' }), "editor view");
 * ```
 * @module
 */
import type { Event, Ranges } from "../../logs/mod.ts";
import {
  REIMPLEMENTATION_PERCENT,
  targetOutcome,
  type TargetRow,
  type TestRow,
  type TurnKeys,
  type TurnRow,
} from "../../metrics/mod.ts";

/**
 * The outcome classes the viewer colours targets by: the classes of lib/metrics/outcomes.ts, with
 * reused read or unread as one class and re-implemented (not reused, yet ≥ the rule's share of
 * its callees called) before the others.
 */
export const VIEW_OUTCOMES = [
  "reused",
  "read_not_used",
  "never_read",
  "reimplemented",
  "absent",
] as const;
/** An outcome of {@link VIEW_OUTCOMES}. */
export type ViewOutcome = typeof VIEW_OUTCOMES[number];

/** Icon and words of each outcome: the legend never relies on colour alone. */
export const OUTCOME_LABELS: Record<ViewOutcome, { icon: string; label: string; help: string }> = {
  reused: { icon: "✔", label: "reused", help: "the submission calls or references it" },
  read_not_used: {
    icon: "◐",
    label: "read, not reused",
    help: "its body was shown to the model, yet the submission does not use it",
  },
  never_read: {
    icon: "○",
    label: "never read",
    help: "no line of its body was shown to the model, and the submission does not use it",
  },
  reimplemented: {
    icon: "⟳",
    label: "re-implemented",
    help:
      `not used, but the submission calls enough of its callees to rebuild it (the ${REIMPLEMENTATION_PERCENT} rule)`,
  },
  absent: {
    icon: "∅",
    label: "absent",
    help: "a self target the agent never wrote: nothing to read or reuse",
  },
};

/** The outcome class of a target row. */
export function viewOutcome(
  t: Pick<TargetRow, "implemented" | "read" | "reused" | "reimplemented">,
): ViewOutcome {
  if (t.reimplemented) return "reimplemented";
  const o = targetOutcome(t);
  return o === "reused_read" || o === "reused_unread" ? "reused" : o;
}

/**
 * How an event showed lines, in a word or two: the tool of a native call (`Read`, `editor view`),
 * the line-selecting command of a shell pipeline (`sed -n`, `head`, `cat`, …), `grep match` for a
 * search.
 */
export function eventVia(e: { kind: string; tool: string; command: string }): string {
  if (e.kind === "search") return "grep match";
  const shell = /^(bash|shell|sh|exec_command|run|execute_bash|cmd|local_shell|run_shell_command)$/i
    .test(e.tool);
  if (!shell) {
    if (/editor|edit_file|view/i.test(e.tool) && /"view"|view_range/.test(e.command)) {
      return "editor view";
    }
    return e.tool;
  }
  const c = e.command;
  const rules: [RegExp, string][] = [
    [/\bsed\s+(-\w*\s+)*-n\b|\bsed\s+-n/, "sed -n"],
    [/\bawk\b/, "awk"],
    [/\bhead\b/, "head"],
    [/\btail\b/, "tail"],
    [/\b(grep|rg|ag)\b/, "grep match"],
    [/\bcat\b/, "cat"],
    [/\bnl\b/, "nl"],
    [/\b(less|more|bat|view)\b/, "view"],
    [/\bpython3?\b/, "python"],
  ];
  for (const [re, name] of rules) if (re.test(c)) return name;
  return c.trim().split(/\s+/)[0]?.slice(0, 24) || e.tool;
}

/** A file of the workspace tree of a turn. */
export interface FileEntry {
  /** Workspace-relative posix path. */
  path: string;
  /** Lines of the file (its W_{t-1} text; for a file written in the turn, its final text). */
  lines: number;
  /** Distinct lines of it shown to the model in the turn. */
  seen: number;
  /** Content address of its text in the site's store, null when not stored. */
  hash: string | null;
  /** W0's file, an earlier submission of the agent, or a file written in this turn. */
  origin: "w0" | "earlier" | "turn";
}

/** A target of the turn with its outcome. */
export interface TargetView extends
  Pick<
    TargetRow,
    | "target"
    | "kind"
    | "implemented"
    | "read"
    | "reused"
    | "reimplemented"
    | "reimplemented_by"
    | "file"
    | "start"
    | "body_start"
    | "end"
    | "body_lines"
    | "callees"
    | "callee_overlap"
  > {
  outcome: ViewOutcome;
}

/** One agent action (lib/logs `Event`, its kind as the frame's text), with the lines it showed. */
export interface EventView extends Omit<Event, "kind"> {
  idx: number;
  kind: string;
  /** How it showed lines ({@link eventVia}). */
  via: string;
  /** A command longer than shown: its length and the address of its whole text. */
  chars?: number;
  more?: string;
}

/** A stretch of code in the store: a whole file's text and the lines of interest. */
export interface CodeRef {
  path: string;
  hash: string | null;
  start: number;
  end: number;
}

/** One re-implemented target: G (the target) beside F (the submission's closest function). */
export interface Reimplementation {
  target: string;
  kind: "repo" | "self";
  /** F's id (the submission function whose own calls cover most of G's callees). */
  by: string | null;
  g: CodeRef | null;
  f: CodeRef | null;
  /** G's distinct non-builtin callees. */
  callees: string[];
  /** Those the submission calls (anywhere in the file): the rule's numerator. */
  shared: string[];
  /** Those F itself calls. */
  sharedByF: string[];
  /** overlap = shared / callees (lib/metrics isReimplemented). */
  overlap: number | null;
  /** Lines of G and of F holding a call of a shared callee. */
  gLines: number[];
  fLines: number[];
}

/** A turn page (or a single log's page, without keys, metrics or targets). */
export interface TurnPage {
  /** Site-relative path of the page (`turns/<config>/<chain>/t3.html`). */
  href: string;
  title: string;
  keys: TurnKeys | null;
  simulated: boolean;
  /** Where the log came from (corpus-relative path or the file given). */
  log: string | null;
  format: string | null;
  row: Omit<TurnRow, "dup_chain"> & { dup_chain?: boolean } | null;
  totals: { files: number; lines: number; coverage: number };
  targets: TargetView[];
  events: EventView[];
  tree: FileEntry[];
  /** The address of W0's file list in the content store (the tree pages share), when known. */
  treeBase: string | null;
  /** Union of the lines read and search events showed (lib/logs `reads`). */
  reads: Ranges;
  submission: CodeRef | null;
  reference: CodeRef | null;
  reimplementations: Reimplementation[];
  tests: Pick<TestRow, "case" | "passed">[];
  /** What the reader of the page must know (re-read log disagrees with the frames, …). */
  warnings: string[];
  /** Neighbouring pages (site-relative), and the turns of the chain. */
  nav: {
    prev?: string;
    next?: string;
    up?: string;
    chain?: { turn: number; href: string }[];
  };
}
