/**
 * Shared types of the Python code model (paper §3.1 "Dependency Graph"; §3.3 reuse edges).
 *
 * These types are a contract between `lib/python/` and its consumers (`lib/metrics/`,
 * `lib/construct/`, the `graph` and `calls` CLI commands). Change them only together with
 * every consumer.
 *
 * @module
 */

/** One def or class statement. Line numbers equal CPython `ast` `lineno`/`end_lineno`. */
export interface Definition {
  /** Dotted id: module path + nested names, e.g. `seaborn.axisgrid.FacetGrid.map`. */
  id: string;
  /** `module` only for the module nodes of a {@link Graph} (additive: start 1, end = last line). */
  kind: "function" | "method" | "class" | "module";
  /** Path of the file relative to the analysed package directory (posix), e.g. `_core/rules.py`. */
  file: string;
  /** 1-based line of the `def`/`class` keyword (decorators excluded), as `ast` lineno. */
  start: number;
  /** 1-based inclusive last line, as `ast` end_lineno. */
  end: number;
  /** First line of the body block. */
  bodyStart: number;
  /** Source text of the header, e.g. `def f(x, y=1) -> int`. */
  signature: string;
  /** Docstring text (cleaned of quotes), or null. */
  docstring: string | null;
  /** Decorator expressions as source text, without `@`. */
  decorators: string[];
  /** Whether the symbol lies beneath the public API (rule: `isInternal` in lib/python/names.ts). */
  internal: boolean;
  /** Whether it is `async def`. */
  async?: boolean;
}

/**
 * How a scope uses a function (lib/metrics `REUSE_KINDS` decides which count as reuse):
 * - `call`: the callee of a call expression (`f()`, `C()` → `C`, `m.f()`, `x.method()`);
 * - `decorator`: a decorator applied (`@dec` → `dec`; it runs `dec(f)`; `@dec(arg)` is a `call`
 *   of `dec`);
 * - `dunder`: a dunder that call syntax runs on a value of known class without naming it:
 *   `C()` (or `@C`) → `C.__init__` when the class or a base defines it, `obj()` (or `@obj`) →
 *   `obj.__call__` for an instance of a known class;
 * - `reference`: a function named as a value (`key=f`, `map(f, xs)`, `{"a": f}`);
 * - `implicit`: any other dunder that syntax runs on a value of known class: `C()` →
 *   `C.__new__`, `for x in obj` → `__iter__`/`__next__`, `with obj` → `__enter__`/`__exit__`,
 *   `raise C` → `C.__init__`.
 */
export type UseKind = "call" | "decorator" | "dunder" | "reference" | "implicit";

/** Every {@link UseKind}. */
export const USE_KINDS: readonly UseKind[] = [
  "call",
  "decorator",
  "dunder",
  "reference",
  "implicit",
];

/**
 * The kinds of use that run the function as a call (call syntax: a call expression, a decorator
 * applied, and the dunders they run): a def's callees (`Project.callees`) and call edges.
 */
export const CALL_KINDS: ReadonlySet<UseKind> = new Set(["call", "decorator", "dunder"]);

/** One call or function-value reference found in a scope. */
export interface Use {
  /** Id of the enclosing def, or the module id for module-level code. */
  scope: string;
  /** Resolved qualified name when `resolved`, else the dotted source text (e.g. `np.asarray`). */
  target: string;
  /** 1-based line of the use. */
  line: number;
  /** See {@link UseKind}. */
  kind: UseKind;
  resolved: boolean;
}

/** A problem met while analysing a file; analysis goes on. */
export interface AnalysisError {
  file: string;
  line: number | null;
  message: string;
}

/** Everything extracted from one module file. */
export interface ModuleInfo {
  /** Dotted module id, e.g. `seaborn._core.rules`; `pkg/__init__.py` → `pkg`. */
  module: string;
  file: string;
  definitions: Definition[];
  uses: Use[];
  errors: AnalysisError[];
}

/** Caller → callee edge of the dependency graph. */
export interface Edge {
  from: string;
  to: string;
  line: number;
  /** As {@link Use.kind}. */
  kind: UseKind;
}

/** Dependency graph of a package (CLI `graph` output shape). */
export interface Graph {
  /** Absolute or given path of the package directory. */
  root: string;
  nodes: Definition[];
  edges: Edge[];
  errors: AnalysisError[];
}
