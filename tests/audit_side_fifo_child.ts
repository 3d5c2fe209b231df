/**
 * Not a test: the child process of tests/audit_side_cache_test.ts. Reads both sides of a change
 * from the cache, then plants a FIFO at each path given (a side's tokens part), then audits
 * (`auditSides`) and prints the audit and which sides were rebuilt, as JSON. Were a part opened
 * without its `lstat` checked, the audit would wait on the FIFO for ever (the test's time limit).
 *
 * `deno run -A tests/audit_side_fifo_child.ts <repo> <base> <head> <cache-dir> <part>…`
 * @module
 */
import { auditSides, loadSide } from "../lib/audit/mod.ts";

const [repo, base, head, cacheDir, ...parts] = Deno.args;
const [b, h] = await Promise.all([base, head].map((rev) => loadSide(repo, rev, { cacheDir })));
for (const p of parts) {
  Deno.removeSync(p);
  const made = await new Deno.Command("mkfifo", { args: [p] }).output();
  if (!made.success) throw new Error(`mkfifo ${p} failed`);
}
const r = await auditSides(repo, b, h, { cacheDir });
console.log(JSON.stringify({ audit: r.audit, rebuilt: [r.base !== b, r.head !== h] }));
