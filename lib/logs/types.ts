/**
 * Shared types of the run-log readers (paper §3.3.2, eq. 2 recall; Files and Lines).
 *
 * A contract between `lib/logs/` and its consumers (`lib/metrics/`, `lib/frames/`, the `reads`
 * CLI command). Change only together with every consumer.
 *
 * @module
 */
import type { TurnMeta } from "../layout/mod.ts";

/** Inclusive 1-based line ranges per workspace-relative posix path, sorted and merged. */
export type Ranges = Record<string, [number, number][]>;

/** What one agent action did. */
export type EventKind = "read" | "search" | "list" | "write" | "run" | "other";

/** One agent action (a shell command, or a native tool call), after interpretation. */
export interface Event {
  /** 0-based index of the agent step (model response) that issued the action. */
  step: number;
  kind: EventKind;
  /** Harness tool name: `bash`, `read`, `grep`, `glob`, `list`, `str_replace_editor`, … */
  tool: string;
  /** The command line or a compact JSON of the tool input. */
  command: string;
  /**
   * Workspace-relative paths the action viewed, searched, listed or wrote — its operands: a
   * directory listed or searched (`ls pkg`, `grep -rn x pkg`) is itself one path; the
   * workspace root is `.`. Files a recursive search matched appear in `lines`.
   */
  paths: string[];
  /** Lines actually shown to the model, per path (reads and searches only). */
  lines: Ranges;
  /**
   * False when the lines shown could not all be placed: no workspace and no numbers in the
   * output, an unplaced tail of a cut output, or an output that does not match the file (longer
   * than it: lines past its end are never credited). Such an action lowers `coverage`.
   */
  placed: boolean;
  /** Why the event is `other` or unplaced, when it is. */
  note?: string;
}

/** Optional cost figures a log carries: the meta figures of lib/layout `META_FIELDS`. */
export type LogMeta = TurnMeta;

/** Result of reading one log (CLI `reads` output shape, plus `meta`). */
export interface ReadsResult {
  format: string;
  events: Event[];
  /** Union of `lines` over read and search events. */
  reads: Ranges;
  /** Distinct files viewed, searched or listed: the union of `paths` of read/search/list events. */
  files: number;
  /** Distinct (file, line) pairs viewed. */
  lines: number;
  /**
   * Share of actions interpreted, 0..1 (1 when there are no actions): an action is not when one
   * of its events is `other`, or a read or search of it is not placed (`placed: false`).
   */
  coverage: number;
  meta: LogMeta;
  /**
   * What makes the log's numbers wrong as a whole (e.g. a wrong `cwd`: every path it names is
   * outside the workspace); absent when none. The scorer does not score such a log.
   */
  problems?: string[];
}

/**
 * The workspace as it was when the turn began: returns a file's text by workspace-relative
 * posix path, or undefined when it does not exist. Lets the scorer evaluate commands against
 * W_{t-1} without materialising it on disk.
 */
export type FileSource = (path: string) => string | undefined;
