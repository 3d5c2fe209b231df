/**
 * The summary format: what phase 1 of the code model extracts from one Python file
 * ({@link ModuleSummary}: definitions, scopes with their bindings, raw uses), JSON-serialisable so
 * that workers can make it and the cache can keep it (lib/python/summary_cache.ts), and what
 * phase 2 (lib/python/project.ts) resolves. {@link SUMMARY_VERSION} names the format and the
 * extraction rules in every cache key.
 *
 * @module
 */
import type { AnalysisError, Definition } from "./types.ts";

/** Version of the summary format and extraction rules; part of every cache key. */
export const SUMMARY_VERSION = 14;

/**
 * The largest Python source the code model analyses: 8 MiB (bytes of a file; characters of a
 * source given as a string). The largest real modules seen are generated API clients of about
 * 6 MB; past the limit a file is listed as a problem ({@link tooLargeMessage}) and not parsed, so
 * that one huge file cannot take minutes and gigabytes (a 100 MB file took 11 minutes and 15 GB).
 */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

/** The problem listed for a source of `size` bytes past {@link MAX_SOURCE_BYTES}. */
export function tooLargeMessage(size: number): string {
  return `file too large (${(size / 1048576).toFixed(1)} MiB; the limit is ${
    MAX_SOURCE_BYTES / 1048576
  } MiB), skipped`;
}

/**
 * What a name is bound to in one scope (`const`: a non-negative integer or plain string literal,
 * its key as a container key, `i:1` / `s:name`). `fb`: a fallback, bound inside an `except` handler or
 * from an inner scope through `global`/`nonlocal`; `attr`: an instance attribute (`self.x = …` in
 * a method, kept in the class's scope) whose value is evaluated in scope `in`.
 */
export type Binding =
  & (
    | { k: "def"; line: number; def: number }
    | { k: "module"; line: number; module: string }
    | { k: "from"; line: number; module: string; name: string }
    | { k: "alias"; line: number; text: string }
    | { k: "new"; line: number; text: string }
    | { k: "const"; line: number; key: string }
    | { k: "other"; line: number }
  )
  & { fb?: 1; attr?: 1; in?: number };

/** A scope of a module: the module, a class body, a function, a lambda or a comprehension. */
export interface Scope {
  kind: "module" | "class" | "function" | "lambda" | "comprehension";
  /** Index of the enclosing scope, -1 for the module. */
  parent: number;
  /** Index into `definitions` of the def/class owning this scope, -1 for none. */
  def: number;
  /** Name → bindings in source order (an object without prototype; look up with `Object.hasOwn`). */
  bindings: Record<string, Binding[]>;
  /** `from m import *` of this scope (absolute module ids). */
  stars?: { module: string; line: number }[];
  globals?: string[];
  nonlocals?: string[];
  /** First parameter of a method (`self`/`cls`), absent for static methods and functions. */
  self?: string;
  /** Whether `self` names the class itself (`@classmethod`, `__new__`, `__init_subclass__`). */
  selfIsClass?: boolean;
  /** Dotted texts of a class's positional bases, evaluated in the parent scope. */
  bases?: string[];
  /**
   * A function's returned values as dotted texts (`f`, `C()`), or `?` for any other value
   * (a bare `return`, an expression, a `yield` making it a generator).
   */
  returns?: string[];
}

/**
 * A call or a value use before resolution, as a compact tuple `[scope, text, line, kind]`:
 * `scope` the index of the innermost scope (for name lookup), `text` the dotted source text
 * (`np.asarray`, `self.f`, `super().m`, `C().m`), `kind` 0 for a call, 1 for a reference, or a
 * value that syntax runs dunders of ({@link Implicit}): 2 iterated (`for x in v`, comprehensions),
 * 3 iterated by `async for`, 4 entered by `with v`, 5 by `async with v`, 6 raised (`raise C`);
 * {@link DECORATOR} (7) a decorator applied (`@dec`, which calls `dec(f)`); {@link KEYED} (8) a
 * container element read by a name that may hold a constant key and called (`ls[KEY]()`), whose
 * text is the key's dotted text then each `key\x01element` the read may give, `\0`-separated.
 * References whose head is a plain local variable (parameter, loop variable, …) or a builtin are
 * dropped here: they can never name a function.
 */
export type RawUse = [
  scope: number,
  text: string,
  line: number,
  kind: 0 | 1 | Implicit | typeof DECORATOR | typeof KEYED,
];

/** Kinds of {@link RawUse} whose dunders run without a call expression. */
export type Implicit = 2 | 3 | 4 | 5 | 6;

/** The {@link RawUse} kind of a decorator expression applied to a def or class (`@dec`). */
export const DECORATOR = 7;

/** The {@link RawUse} kind of a call of a container element read by a name (`ls[KEY]()`). */
export const KEYED = 8;

/** Everything phase 1 extracts from one file (JSON-serialisable). */
export interface ModuleSummary {
  version: number;
  module: string;
  /** Path relative to the package directory (posix). */
  file: string;
  /** Whether the file is a package's `__init__.py`. */
  isPackage: boolean;
  /** Number of lines of the file. */
  lines: number;
  docstring: string | null;
  definitions: Definition[];
  /** Scope index of each definition's body (parallel to `definitions`). */
  defScopes: number[];
  scopes: Scope[];
  uses: RawUse[];
  /** Literal `__all__` of the module, or null. */
  all: string[] | null;
  errors: AnalysisError[];
}
