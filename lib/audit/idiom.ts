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
 * - **`same-delegate`**: both only delegate to one and the same function (`def put(url, **kw):
 *   return request("PUT", url, **kw)` beside `post`): they already share their helper; what
 *   repeats is the parameter list passed through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asyncTwin, sameDelegate } from "./idiom.ts";
 * const d = (id: string, signature: string) => ({ id, name: id.split(".").pop()!, signature });
 * assert.ok(asyncTwin(d("p.c.AsyncClient.request", "async def request(self, m)"),
 *   d("p.c.Client.request", "def request(self, m)")));
 * assert.ok(asyncTwin(d("p.s.Stream.aclose", "async def aclose(self)"), d("p.s.Stream.close", "def close(self)")));
 * assert.ok(asyncTwin(d("p.c.AsyncClient.__init__", "def __init__(self)"), d("p.c.Client.__init__", "def __init__(self)")));
 * assert.ok(!asyncTwin(d("p.c.Client.get", "def get(self)"), d("p.c.Session.get", "def get(self)")));
 * assert.ok(sameDelegate(["p.api.request"], ["p.api.request"]));
 * assert.ok(!sameDelegate(["p.api.request", "p.u.clean"], ["p.api.request"]));
 * ```
 * @module
 */

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

/** F's calls and G's callee keys are one and the same single function (see module doc). */
export function sameDelegate(fCalls: Iterable<string>, gCallees: Iterable<string>): boolean {
  const a = new Set(fCalls), b = new Set(gCallees);
  if (a.size !== 1 || b.size !== 1) return false;
  const [x] = a, [y] = b;
  return x === y;
}
