/**
 * The one constructor of {@link Event}s, and the notes the readers share: every reader and the
 * shell analysis build their events here, so an event always has its fields in the same order
 * (the `reads` JSON) and a `note` only when there is one, and a note means the same everywhere.
 *
 * @module
 */
import type { Event, EventKind, Ranges } from "./types.ts";

/** What follows an event's kind in {@link makeEvent}: what it viewed, and why it is unplaced. */
export type EventFields = [paths: string[], lines: Ranges, note?: string, placed?: boolean];

/**
 * An event; `note` is kept only when not empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeEvent } from "./event.ts";
 * const e = makeEvent(2, "read", "bash", "cat a.py", ["a.py"], { "a.py": [[1, 3]] });
 * assert.deepEqual(Object.keys(e), ["step", "kind", "tool", "command", "paths", "lines", "placed"]);
 * assert.ok(makeEvent(0, "read", "read", "{}", [], {}, "no file path", false).note === "no file path");
 * ```
 */
export function makeEvent(
  step: number,
  kind: EventKind,
  tool: string,
  command: string,
  paths: string[],
  lines: Ranges,
  note?: string,
  placed = true,
): Event {
  const e: Event = { step, kind, tool, command, paths, lines, placed };
  if (note) e.note = note;
  return e;
}

/** An event of a native tool call: the command is its input as compact JSON. */
export function toolEvent(
  step: number,
  kind: EventKind,
  tool: string,
  input: unknown,
  ...fields: EventFields
): Event {
  return makeEvent(step, kind, tool, JSON.stringify(input ?? {}), ...fields);
}

/** An action not interpreted (`other`): nothing viewed, `note` says why. */
export function otherEvent(step: number, tool: string, command: string, note: string): Event {
  return makeEvent(step, "other", tool, command, [], {}, note);
}

/**
 * The note of operands outside the workspace (never read, never credited).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outsideNote } from "./event.ts";
 * assert.ok(outsideNote(["/etc/passwd", "../x"]) === "outside the workspace, ignored: /etc/passwd ../x");
 * ```
 */
export function outsideNote(paths: string | undefined | Iterable<string>): string {
  return `outside the workspace, ignored: ${
    typeof paths === "object" ? [...paths].join(" ") : paths
  }`;
}

/** The note of a path operand that does not resolve: `missing` when there is none. */
export function pathNote(raw: string | undefined, missing = "no file path"): string {
  return raw === undefined ? missing : outsideNote(raw);
}
