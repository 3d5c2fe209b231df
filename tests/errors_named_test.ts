/**
 * Errors are never dropped silently (issue 25 item 7): in `lib` and `tasks`, every `catch` that ignores what
 * it caught — an empty `catch {}`, one that only returns a constant or moves on, and
 * `.catch(() => {})` / `.catch(() => null)` — carries a short comment saying why ignoring is
 * right (a cache miss, a file already gone, best-effort clean-up, …). A catch that handles the
 * error (reports it, rethrows, returns a reason) needs none.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;

/** Where the rule holds: every folder of lib, and tasks/ (which wires them). */
const CHECKED = [
  ...[...Deno.readDirSync(`${ROOT}lib`)].filter((e) => e.isDirectory).map((e) => `lib/${e.name}`),
  "tasks",
].sort();

/** Statements that only move on: what an ignoring catch block holds besides comments. */
const MOVE_ON =
  /^(?:return(?:\s+(?:undefined|null|false|true|""|''|\[\]|0|-1))?;?|continue;?|break;?)?$/;

/** A silent catch: where it is (1-based line) and the text of its line. */
export interface SilentCatch {
  line: number;
  text: string;
}

/** The catches of a TypeScript source that ignore what they caught without a comment saying why. */
export function silentCatches(src: string): SilentCatch[] {
  const lines = src.split("\n");
  const out: SilentCatch[] = [];
  const lineAt = (i: number) => src.slice(0, i).split("\n").length;
  const commented = (s: string) => /\/\/|\/\*/.test(s);
  // a JSDoc example or a comment line: not code
  const inComment = (s: string) => /^\s*(\*|\/\/)/.test(s);
  // `catch {` … `}` and `catch (e) {` … `}` whose body only moves on
  for (const m of src.matchAll(/\bcatch\s*(?:\(\s*\w*\s*\)\s*)?\{/g)) {
    const open = m.index + m[0].length;
    let depth = 1, i = open;
    for (; i < src.length && depth > 0; i++) {
      if (src[i] === "{") depth++;
      else if (src[i] === "}") depth--;
    }
    const body = src.slice(open, i - 1);
    if (commented(body)) continue;
    if (!MOVE_ON.test(body.trim())) continue;
    const at = lineAt(m.index);
    if (inComment(lines[at - 1])) continue;
    out.push({ line: at, text: lines[at - 1].trim() });
  }
  // `.catch(() => {})`, `.catch(() => null)`, … : a comment on its line or the line above
  for (
    const m of src.matchAll(
      /\.catch\(\s*\(\s*\w*\s*\)\s*=>\s*(?:\{\s*\}|undefined|null|false)\s*\)/g,
    )
  ) {
    const at = lineAt(m.index);
    if (inComment(lines[at - 1])) continue;
    if (commented(lines[at - 1]) || commented(lines[at - 2] ?? "")) continue;
    out.push({ line: at, text: lines[at - 1].trim() });
  }
  return out.sort((a, b) => a.line - b.line);
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${ROOT}${dir}`)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...tsFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}

Deno.test("errors: every ignored error in lib and tasks says why", () => {
  const silent: string[] = [];
  let files = 0;
  for (const area of CHECKED) {
    for (const f of tsFiles(area)) {
      files++;
      for (const c of silentCatches(Deno.readTextFileSync(`${ROOT}${f}`))) {
        silent.push(`${f}:${c.line}: ${c.text}`);
      }
    }
  }
  assert.ok(CHECKED.length >= 14 && files > 200, `${CHECKED.length} folders, ${files} files`);
  assert.deepEqual(silent, [], "say in a comment why ignoring is right, or let the caller see it");
});

Deno.test("errors: the scan finds silent catches and passes explained or handled ones", () => {
  const src = [
    "try { a(); } catch {}", // 1 silent
    "try { a(); } catch { /* gone already */ }",
    "try {",
    "  a();",
    "} catch {", // 5 silent
    "  return undefined;",
    "}",
    "try { a(); } catch (e) { errors.push(`${e}`); }",
    "try { a(); } catch {",
    "  // a cache miss",
    "  return null;",
    "}",
    "await p.catch(() => {});", // 13 silent
    "await p.catch(() => {}); // best effort",
    "// the file may be gone",
    "await p.catch(() => undefined);",
    "const v = await p.catch(() => null);", // 17 silent
    "try { a(); } catch { continue; }", // 18 silent
    "try { a(); } catch { throw new Error('x'); }",
    " * await p.catch(() => {}); // in a doc example",
  ].join("\n");
  assert.deepEqual(silentCatches(src).map((c) => c.line), [1, 5, 13, 17, 18]);
});
