/**
 * An index over a package's dependency graph (`lib/python` `Graph`) for the construction
 * pipeline: node lookup, callers/callees, source excerpts, candidate starting points (internal
 * symbols beneath the public API) and the "nearby, previously unused" symbol injected into walks
 * from turn 2 on.
 *
 * @example
 * ```ts
 * import { GraphIndex } from "./graph.ts";
 * const def = (id: string, internal: boolean) => ({
 *   id, kind: "function" as const, file: "m.py", start: 1, end: 9, bodyStart: 2,
 *   signature: `def ${id.split(".").pop()}()`, docstring: null, decorators: [], internal,
 * });
 * const g = new GraphIndex({
 *   root: "/nowhere",
 *   nodes: [def("p.m.a", true), def("p.m.b", true), def("p.m.c", false)],
 *   edges: [{ from: "p.m.a", to: "p.m.b", line: 3, kind: "call" }],
 *   errors: [],
 * });
 * console.assert(g.candidates().join() === "p.m.a");
 * console.assert(g.neighbours("p.m.b").join() === "p.m.a");
 * ```
 * @module
 */
import { CALL_KINDS, type Definition, type Graph } from "../python/mod.ts";

/** Index of a dependency graph. */
export class GraphIndex {
  readonly graph: Graph;
  #nodes = new Map<string, Definition>();
  #out = new Map<string, Set<string>>();
  #in = new Map<string, Set<string>>();
  #files = new Map<string, string[] | null>();

  constructor(graph: Graph) {
    this.graph = graph;
    for (const n of graph.nodes) this.#nodes.set(n.id, n);
    for (const e of graph.edges) {
      if (!CALL_KINDS.has(e.kind) || !this.#nodes.has(e.from) || !this.#nodes.has(e.to)) continue;
      if (e.from === e.to) continue;
      if (!this.#out.has(e.from)) this.#out.set(e.from, new Set());
      if (!this.#in.has(e.to)) this.#in.set(e.to, new Set());
      this.#out.get(e.from)!.add(e.to);
      this.#in.get(e.to)!.add(e.from);
    }
  }

  node(id: string): Definition | undefined {
    return this.#nodes.get(id);
  }

  /** Callees of `id` that are nodes of the graph, sorted. */
  callees(id: string): string[] {
    return [...(this.#out.get(id) ?? [])].sort();
  }

  /** Callers of `id` that are nodes of the graph, sorted. */
  callers(id: string): string[] {
    return [...(this.#in.get(id) ?? [])].sort();
  }

  /** Callees then callers of `id` (functions and methods only), without duplicates. */
  neighbours(id: string): string[] {
    const seen = new Set<string>();
    for (const n of [...this.callees(id), ...this.callers(id)]) {
      if (this.#nodes.get(n)?.kind !== "class") seen.add(n);
    }
    return [...seen];
  }

  /**
   * Candidate starting points: internal functions/methods of at least `minLines` lines that call
   * at least one other symbol of the graph, sorted by id.
   */
  candidates(minLines = 5): string[] {
    return [...this.#nodes.values()]
      .filter((d) =>
        d.internal && d.kind !== "class" && d.end - d.start + 1 >= minLines &&
        (this.#out.get(d.id)?.size ?? 0) > 0
      )
      .map((d) => d.id)
      .sort();
  }

  /**
   * The nearest symbol (breadth-first over callees and callers of `from`) that is internal, not
   * in `used`, not in `exclude` modules, and has at least `minLines` lines; undefined if none
   * within `maxDepth` hops.
   */
  nearbyUnused(
    from: string[],
    used: Set<string>,
    opts: { maxDepth?: number; minLines?: number; excludePrefixes?: string[] } = {},
  ): string | undefined {
    const maxDepth = opts.maxDepth ?? 3, minLines = opts.minLines ?? 3;
    const excluded = (id: string) => (opts.excludePrefixes ?? []).some((p) => id.startsWith(p));
    let frontier = [...from];
    const seen = new Set(from);
    for (let depth = 1; depth <= maxDepth; depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const n of this.neighbours(id)) {
          if (seen.has(n)) continue;
          seen.add(n);
          next.push(n);
        }
      }
      const ok = next
        .filter((id) => {
          const d = this.#nodes.get(id)!;
          return d.internal && !used.has(id) && !excluded(id) && d.end - d.start + 1 >= minLines;
        })
        .sort();
      if (ok.length) return ok[0];
      frontier = next;
    }
    return undefined;
  }

  /** The source lines of a definition (read from `graph.root`/file), or null when unreadable. */
  source(id: string, maxLines = 80): string | null {
    const d = this.#nodes.get(id);
    if (!d) return null;
    if (!this.#files.has(d.file)) {
      try {
        this.#files.set(d.file, Deno.readTextFileSync(`${this.graph.root}/${d.file}`).split("\n"));
      } catch {
        this.#files.set(d.file, null);
      }
    }
    const lines = this.#files.get(d.file);
    if (!lines) return null;
    const body = lines.slice(d.start - 1, d.end);
    if (body.length > maxLines) {
      return [...body.slice(0, maxLines), `    # … ${body.length - maxLines} more lines`].join(
        "\n",
      );
    }
    return body.join("\n");
  }
}
