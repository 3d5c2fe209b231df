/**
 * Idiomatic twins: pairs of functions that the paper's rule (or the clone threshold) joins but
 * that a project keeps apart on purpose. The audit still reports them — the rule decides what a
 * re-implementation is — with a named note and a lower confidence (lib/audit/evidence.ts):
 *
 * - **`async-twin`**: the asynchronous twin of a synchronous function (Python cannot share one
 *   body between `def` and `async def`): the names are the same up to an async marker (`aclose`
 *   / `close`, `__aenter__` / `__enter__`, `fetch_async` / `fetch`, `async_send` / `send`) and
 *   either exactly one of the two is `async def`, or they live in twin containers (`AsyncClient`
 *   / `Client`, `pkg._async.pool` / `pkg._sync.pool`);
 * - **`same-delegate`**: both only delegate to one and the same function of the repository or a
 *   library — not a method of a value of unknown type (`def put(url, **kw):
 *   return request("PUT", url, **kw)` beside `post`): they already share their helper; what
 *   repeats is the parameter list passed through. Only when neither branches ({@link straightLine}:
 *   no `if`, loop, `with`, `try` or nested def): a function that decides something before or after
 *   its one call does work of its own, and two copies of that work are a copy whatever they call
 *   (`if state == "stdout": … else: …` then `_get_lock_for_file(…)`, pasted whole);
 * - **`same-api`**: the rule holds only when one class and its methods count as separate
 *   helpers — F and G both build the same helper object and call its methods (`X(...)`,
 *   `.get_a()`, `.get_b()`: three callee keys, one helper). Counted as one helper each (a class,
 *   its methods resolved or called as `.method` on a value of unknown type — of that class when
 *   it is among G's callees, else of the repository's class defining most of the pair's such
 *   methods, {@link receiverClasses}), the rule
 *   (`isReimplemented` of lib/metrics, unchanged) no longer holds: the pair shares a helper's
 *   API, not a piece of behaviour — unless the two are alike in shape
 *   ({@link SAME_API_MAX_SIMILARITY} or more): the same calls in the same structure are a pasted
 *   block, whatever API it calls;
 * - **`module-vocabulary`**: G's callees are what the functions of its container call, not what
 *   G does — the rule, asked of G's siblings (the other functions of G's module, or of its class
 *   for a method; F, F's old version and G aside), already holds against G for at least
 *   {@link VOCABULARY_SIBLINGS} of them, and F is in the same container: F calling those helpers
 *   makes it one more function of that module or class, not a copy of G (every renderer of a
 *   module calling its three formatting helpers; every visitor of a code generator calling
 *   `writeline`, `visit`, `indent`). A repository-wide rarity weight cannot see this: the
 *   helpers are rare in the repository because one module calls them. Unless the two are alike
 *   in shape ({@link SAME_API_MAX_SIMILARITY}) or F's new lines copy a block of G (lib/audit/block.ts):
 *   a pasted block is a copy whatever vocabulary it uses; nor when `same-api` already explains
 *   the pair (one cause, one factor);
 * - **`same-edit`**: the rule holds only through calls the change gave F (and, when the change
 *   touched G, G) that it also gave other existing functions — {@link SAME_EDIT_FUNCTIONS} or
 *   more in all: asked again without those calls, the rule no longer holds (a new quoting helper
 *   called from every renderer, lines of every protocol's `connection_made` moved into new shared
 *   helpers). One edit made across functions, not a copy; not when `same-api` or
 *   `module-vocabulary` already explains the pair, nor when the two are alike in shape
 *   ({@link SAME_API_MAX_SIMILARITY});
 * - **`template`**: a structural clone that shares none of G's helpers (G calls none, or F calls
 *   none of them) and is not the same code: parallel code written to one template — a
 *   constructor made of `self.x = x`, validators with another check — alike in shape, not in
 *   what it does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asyncTwin, moduleVocabulary, ruleSiblings, sameApi, sameDelegate } from "./idiom.ts";
 * const d = (id: string, signature: string) => ({ id, name: id.split(".").pop()!, signature });
 * assert.ok(asyncTwin(d("p.c.AsyncClient.request", "async def request(self, m)"),
 *   d("p.c.Client.request", "def request(self, m)")));
 * assert.ok(asyncTwin(d("p.s.Stream.aclose", "async def aclose(self)"), d("p.s.Stream.close", "def close(self)")));
 * assert.ok(asyncTwin(d("p.c.AsyncClient.__init__", "def __init__(self)"), d("p.c.Client.__init__", "def __init__(self)")));
 * assert.ok(!asyncTwin(d("p.c.Client.get", "def get(self)"), d("p.c.Session.get", "def get(self)")));
 * assert.ok(sameDelegate(["p.api.request"], ["p.api.request"]));
 * assert.ok(!sameDelegate(["p.api.request", "p.u.clean"], ["p.api.request"]));
 * assert.ok(!sameDelegate([".start"], [".start"])); // `match.start()`: a value's method
 * const classes = { isClass: (id: string) => id === "p.X", has: (id: string) => id.startsWith("p.X.") };
 * // three callee keys, one helper: X and two of its methods
 * const api = ["p.X", "p.X.get_a", ".get_b"];
 * assert.ok(sameApi(new Set([...api, "p.u.other"]), api, classes));
 * // X (with its method) and two other helpers: three helpers, the rule holds on them too
 * const g = ["p.X", "p.X.get_a", "p.u.clean", "p.v.fmt"];
 * assert.ok(!sameApi(new Set(g), g, classes));
 * // a writer passed as a parameter: `.start`, `.write`, `.end` are all Writer's methods
 * const writer = { isClass: (id: string) => id === "p.w.Writer", has: (id: string) => /^p\.w\.Writer\.(start|write|end)$/.test(id),
 *   definers: (m: string) => ["start", "write", "end"].includes(m) ? ["p.w.Writer"] : [] };
 * const conv = [".start", ".write", ".end", "p.t.node"];
 * assert.ok(sameApi(new Set([".start", ".write", ".end", "p.t.node", "p.u.x"]), conv, writer));
 * assert.ok(!sameApi(new Set([".start", ".write", ".end", "p.t.node", "p.u.x"]), conv, classes));
 * // a module whose functions all call its three formatting helpers
 * const vocab = ["p.r._prefix", "p.r._ident", "p.r._name"];
 * const sib = (id: string, calls: string[]) => ({ id, calls: new Set(calls), uses: new Set<string>() });
 * const hits = ruleSiblings({ id: "p.r.drop_index" }, vocab,
 *   [sib("p.r.add_index", [...vocab, "p.r._cols"]), sib("p.r.drop_fk", vocab), sib("p.r.other", ["p.r._ident"])]);
 * assert.deepEqual(hits, ["p.r.add_index", "p.r.drop_fk"]);
 * assert.ok(moduleVocabulary({ id: "p.r.add_table" }, { id: "p.r.drop_index" }, hits, new Set()));
 * // F elsewhere, or one of the hits being F's old version: no note
 * assert.ok(!moduleVocabulary({ id: "p.x.add_table" }, { id: "p.r.drop_index" }, hits, new Set()));
 * assert.ok(!moduleVocabulary({ id: "p.r.add_index" }, { id: "p.r.drop_index" }, hits, new Set()));
 * ```
 * @module
 */
import { isReimplemented } from "../metrics/mod.ts";
import { BLOCK_START_TOKEN } from "./shape.ts";

/** What idiom detection needs of a def. */
export interface IdiomDef {
  id: string;
  name: string;
  /** The `def` line as written (`async def f(x)`). */
  signature: string;
}

/** Whether a def is `async def`. */
export function isAsync(d: Pick<IdiomDef, "signature">): boolean {
  return /^async\s/.test(d.signature.trimStart());
}

/** A name without its async/sync marker (`AsyncClient` → `Client`, `fetch_async` → `fetch`). */
export function withoutAsync(name: string): string {
  return name
    .replace(/(^|_)a?sync(_|$)/gi, (_m, a: string, b: string) => (a && b ? "_" : ""))
    .replace(/A?[Ss]ync(?=[A-Z_]|$)/g, "")
    .replace(/^_+|_+$/g, "") || name;
}

/** Whether two function names are the same up to an async marker (`aclose` and `close` too). */
export function twinNames(a: string, b: string): boolean {
  if (a === b) return true;
  const dunder = (s: string) => /^__\w+__$/.test(s) ? s.slice(2, -2) : null;
  const [da, db] = [dunder(a), dunder(b)];
  if ((da === null) !== (db === null)) return false;
  const [x, y] = da !== null ? [da, db!] : [a, b];
  if (x === "a" + y || y === "a" + x) return true;
  return withoutAsync(x) === withoutAsync(y);
}

function container(id: string): string[] {
  return id.split(".").slice(0, -1);
}

/** Two containers (class or module paths) that differ only by async/sync markers. */
function twinContainers(a: string[], b: string[]): boolean {
  const norm = (parts: string[]) =>
    parts.map((p) => /^_*(a?sync|aio)$/i.test(p) ? "" : withoutAsync(p)).filter(Boolean).join(
      ".",
    );
  return a.join(".") !== b.join(".") && norm(a) === norm(b);
}

/** F and G are a synchronous function and its asynchronous twin (see module doc). */
export function asyncTwin(f: IdiomDef, g: IdiomDef): boolean {
  if (!twinNames(f.name, g.name)) return false;
  return isAsync(f) !== isAsync(g) || twinContainers(container(f.id), container(g.id));
}

/**
 * Whether a function's normalised tokens (lib/audit/shape.ts) hold no block but its own body: no
 * `if`, loop, `with`, `try` or nested def — it only passes values on. Unknown tokens: true.
 */
export function straightLine(tokens: ArrayLike<number> | undefined): boolean {
  let blocks = 0;
  for (let i = 0; tokens && i < tokens.length; i++) {
    if (tokens[i] === BLOCK_START_TOKEN && ++blocks > 1) return false;
  }
  return true;
}

/**
 * F's calls and G's callee keys are one and the same single function, and neither branches
 * ({@link straightLine} on `tokens`, F's and G's, when given): see module doc.
 */
export function sameDelegate(
  fCalls: Iterable<string>,
  gCallees: Iterable<string>,
  tokens: readonly (ArrayLike<number> | undefined)[] = [],
): boolean {
  const a = new Set(fCalls), b = new Set(gCallees);
  if (a.size !== 1 || b.size !== 1 || !tokens.every(straightLine)) return false;
  const [x] = a, [y] = b;
  // a method of a value of unknown type (`m.start()`) is no function both delegate to
  return x === y && !x.startsWith(".");
}

/**
 * A pair at least this alike in shape (lib/audit/shape.ts) is never `same-api`: the same calls of
 * one API in the same structure are a pasted block, not two uses of the API.
 */
export const SAME_API_MAX_SIMILARITY = 0.75;

/** What {@link sameApi} needs to know of a side's classes. */
export interface ClassIds {
  /** Whether an id is a class of the repository. */
  isClass(id: string): boolean;
  /** Whether an id is defined in the repository (a class's method: `pkg.mod.C.m`). */
  has(id: string): boolean;
  /** The repository's classes defining a method of this name (`write` → `pkg.w.Writer`, …). */
  definers?(method: string): readonly string[];
}

/**
 * The helper a callee key belongs to: a method of a class (`pkg.C.m`, or `.m` when one of
 * `context`'s keys is a class defining `m`) belongs to its class; any other key is its own.
 */
export function helperOf(key: string, context: ReadonlySet<string>, classes: ClassIds): string {
  if (key.startsWith(".")) {
    let best: string | null = null;
    for (const k of context) {
      if (
        !k.startsWith(".") && (best === null || k < best) && classes.isClass(k) &&
        classes.has(k + key)
      ) best = k;
    }
    return best ?? key;
  }
  for (let i = key.lastIndexOf("."); i > 0; i = key.lastIndexOf(".", i - 1)) {
    const prefix = key.slice(0, i);
    if (classes.isClass(prefix)) return prefix;
  }
  return key;
}

/**
 * The rule holds for F's calls and G's callees, but not once each class and its methods count as
 * one helper (see module doc).
 */
export function sameApi(
  fCalls: ReadonlySet<string>,
  gCallees: readonly string[],
  classes: ClassIds,
): boolean {
  if (!isReimplemented(false, gCallees, fCalls).reimplemented) return false;
  const context = new Set(gCallees);
  const receivers = receiverClasses([...fCalls, ...gCallees], context, classes);
  const unit = (k: string) => receivers.get(k) ?? helperOf(k, context, classes);
  const f = new Set([...fCalls].map(unit));
  return !isReimplemented(false, gCallees.map(unit), f).reimplemented;
}

/**
 * Methods called on values of unknown type (`.write`, `.start_block`: `writer.write(…)` on a
 * parameter) that one class of the repository defines together: each such key is given the class
 * defining the most of the pair's keys (if it defines two or more; ties to the first id), when no class among
 * G's callees defines it ({@link helperOf}). `writer.start_block()`, `.write()`, `.end_block()`
 * are three calls of one `Writer`.
 */
export function receiverClasses(
  keys: Iterable<string>,
  context: ReadonlySet<string>,
  classes: ClassIds,
): Map<string, string> {
  const out = new Map<string, string>();
  if (!classes.definers) return out;
  const open = [...new Set(keys)].filter((k) =>
    k.startsWith(".") && helperOf(k, context, classes) === k
  );
  const count = new Map<string, number>();
  for (const k of open) {
    for (const c of classes.definers(k.slice(1))) count.set(c, (count.get(c) ?? 0) + 1);
  }
  for (const k of open) {
    let best: string | null = null, n = 1;
    for (const c of classes.definers(k.slice(1))) {
      const m = count.get(c)!;
      if (m > n || (m === n && best !== null && c < best)) [best, n] = [c, m];
    }
    if (best) out.set(k, best);
  }
  return out;
}

/**
 * The rule holds against G for at least this many functions of G's own module or class besides F
 * (and F's old version): G's callees are that container's vocabulary ({@link moduleVocabulary}).
 * Two, so that with F and G four functions of one container share them: a family, not a pair.
 */
export const VOCABULARY_SIBLINGS = 2;

/** A function of G's container, as {@link ruleSiblings} needs it: its id, calls and uses. */
export interface Sibling {
  id: string;
  /** Callee keys of its scope (its own and those of the defs nested in it). */
  calls: ReadonlySet<string>;
  /** Resolved ids it uses (a sibling calling G uses G: the rule does not hold for it). */
  uses: ReadonlySet<string>;
}

/** The ids of G's siblings for which the paper's rule holds against G (`isReimplemented`). */
export function ruleSiblings(
  g: { id: string },
  gCallees: readonly string[],
  siblings: Iterable<Sibling>,
): string[] {
  const out: string[] = [];
  for (const s of siblings) {
    if (s.id === g.id) continue;
    if (isReimplemented(s.uses.has(g.id), gCallees, s.calls).reimplemented) out.push(s.id);
  }
  return out;
}

/**
 * F and G are in one container (module, or class for methods) and the rule holds against G for at
 * least {@link VOCABULARY_SIBLINGS} of G's siblings (`hits`, from {@link ruleSiblings}) other than
 * those in `exclude` (F, F's old version): G's callees are the container's vocabulary (see module
 * doc; the shape and copied-block exceptions are the caller's).
 */
export function moduleVocabulary(
  f: { id: string },
  g: { id: string },
  hits: readonly string[],
  exclude: ReadonlySet<string>,
): boolean {
  const c = container(f.id).join(".");
  if (c !== container(g.id).join(".")) return false;
  let n = 0;
  for (const id of hits) if (!exclude.has(id) && id !== f.id) n++;
  return n >= VOCABULARY_SIBLINGS;
}

/**
 * An edit made across existing functions: the change gave at least this many existing functions
 * (F among them) the same call. Two more than {@link VOCABULARY_SIBLINGS}, so that, as for
 * `module-vocabulary`, F, G and two other functions share it: a family, not a pair.
 */
export const SAME_EDIT_FUNCTIONS = 2 + VOCABULARY_SIBLINGS;

/**
 * The paper's rule holds for F against G only through calls one edit gave many existing
 * functions (`same-edit`): `sweptF` are the callee keys the change added to F that it also added
 * to at least {@link SAME_EDIT_FUNCTIONS} − 1 other existing functions, `sweptG` those it added so
 * to G (empty when the change did not touch G). Asked again without them
 * (`isReimplemented`, unchanged), the rule no longer holds: a sweep through a module (a new
 * quoting helper called by every renderer, lines of every protocol moved into new shared
 * helpers) made the pair, not a copy.
 */
export function sameEdit(
  called: boolean,
  gCallees: readonly string[],
  calls: ReadonlySet<string>,
  sweptF: ReadonlySet<string>,
  sweptG: ReadonlySet<string>,
): boolean {
  if (!gCallees.some((c) => sweptF.has(c) && calls.has(c))) return false;
  const without = new Set([...calls].filter((c) => !sweptF.has(c)));
  return !isReimplemented(called, gCallees.filter((c) => !sweptG.has(c)), without).reimplemented;
}

/**
 * A structural clone sharing none of G's helpers, and not the same code (see module doc): a
 * verbatim copy (equal code hashes: the same code up to the name, comments and docstring) is a
 * copy even when it calls nothing.
 */
export function template(
  shared: readonly string[],
  f: { hash: string | null },
  g: { hash: string | null },
): boolean {
  return shared.length === 0 && (f.hash === null || f.hash !== g.hash);
}
