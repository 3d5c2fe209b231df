/**
 * Front doors (issue 25 item 3): a file of `lib/` or `tasks/` imports another folder of `lib`
 * only through that folder's `mod.ts` — its public API — so a folder's internals can move
 * without its callers noticing. Inside a folder (`lib/logs/readers/…` and `lib/logs/shell/…`
 * are inside `lib/logs`) imports are free; a subfolder's own `mod.ts` (`lib/report/view/mod.ts`)
 * is a front door too.
 *
 * The imports are read by Deno's own parser (`deno info --json`: static, type-only, re-exports
 * and dynamic imports with a literal specifier), so an import line in a comment or a template
 * string is not taken for one and a multi-line import is not missed.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/**
 * Imports allowed to bypass a front door, each with its reason. Empty today; an entry must name
 * the importing file, the imported file and why the folder's `mod.ts` cannot serve.
 */
export const FRONT_DOOR_EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [];

/** One import that bypasses a front door: the importing file, what it wrote, what it reached. */
export interface Bypass {
  from: string;
  specifier: string;
  to: string;
}

/** The folder a path belongs to for this rule: `lib/<folder>`, or its top folder (`tasks`). */
export function area(path: string): string {
  const parts = path.split("/");
  return parts[0] === "lib" && parts.length > 2 ? `lib/${parts[1]}` : parts[0];
}

/** Whether `from` may import `to` (both relative to the root): same folder, or a `mod.ts` of lib. */
export function throughFrontDoor(from: string, to: string): boolean {
  if (!to.startsWith("lib/") || area(from) === area(to)) return true;
  return to.endsWith("/mod.ts");
}

/** The `.ts` files below the given folders of `root`, relative to it, sorted. */
function tsFiles(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(join(root, dir))) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (e.isFile && e.name.endsWith(".ts")) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

interface InfoDependency {
  specifier: string;
  code?: { specifier?: string };
  type?: { specifier?: string };
}

/**
 * The imports of the `.ts` files below `dirs` of `root` that reach into another folder of `lib`
 * past its `mod.ts`, as Deno's module graph records them (one per file and specifier).
 */
export async function frontDoorBypasses(root: string, dirs: string[]): Promise<Bypass[]> {
  const files = tsFiles(root, dirs);
  const scratch = await Deno.makeTempDir({ prefix: "front-doors-" });
  try {
    const entry = join(scratch, "all.ts");
    await Deno.writeTextFile(
      entry,
      files.map((f) => `import ${JSON.stringify(`file://${join(root, f)}`)};\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: root,
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { specifier: string; dependencies?: InfoDependency[] }[];
    };
    const prefix = `file://${root}/`;
    const local = (url: string | undefined) =>
      url?.startsWith(prefix) ? decodeURIComponent(url.slice(prefix.length)) : undefined;
    const seen = new Set(files);
    const bypasses: Bypass[] = [];
    for (const m of graph.modules) {
      const from = local(m.specifier);
      if (!from || !seen.has(from)) continue;
      for (const d of m.dependencies ?? []) {
        for (const to of new Set([local(d.code?.specifier), local(d.type?.specifier)])) {
          if (to && !throughFrontDoor(from, to)) {
            bypasses.push({ from, specifier: d.specifier, to });
          }
        }
      }
    }
    return bypasses.sort((a, b) => `${a.from}\0${a.to}`.localeCompare(`${b.from}\0${b.to}`));
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

Deno.test("front doors: no import in lib/ or tasks/ reaches past another folder's mod.ts", async () => {
  const found = await frontDoorBypasses(ROOT, ["lib", "tasks"]);
  const excepted = (b: Bypass) =>
    FRONT_DOOR_EXCEPTIONS.some((x) => x.from === b.from && x.to === b.to);
  assert.deepEqual(
    found.filter((b) => !excepted(b)).map((b) => `${b.from}: "${b.specifier}" (${b.to})`),
    [],
    "import the folder's mod.ts (export the name there), or add an exception with its reason",
  );
  for (const x of FRONT_DOOR_EXCEPTIONS) {
    assert.ok(x.why.trim().length > 10, `${x.from} -> ${x.to}: say why`);
    assert.ok(found.some((b) => b.from === x.from && b.to === x.to), `stale: ${x.from} -> ${x.to}`);
  }
  // every folder of lib that another folder imports has a front door
  for (const dir of Deno.readDirSync(join(ROOT, "lib"))) {
    if (dir.isDirectory) {
      assert.ok(
        Deno.statSync(join(ROOT, "lib", dir.name, "mod.ts")).isFile,
        `lib/${dir.name}/mod.ts`,
      );
    }
  }
});

Deno.test("front doors: the scan finds planted bypasses of every import form and passes the rest", async () => {
  const root = await Deno.makeTempDir({ prefix: "front-doors-planted-" });
  try {
    const put = async (path: string, text: string) => {
      await Deno.mkdir(dirname(join(root, path)), { recursive: true });
      await Deno.writeTextFile(join(root, path), text);
    };
    await put(
      "lib/a/mod.ts",
      'export { inner } from "./inner.ts";\nexport type { T } from "./t.ts";\n',
    );
    await put("lib/a/inner.ts", 'export const inner = 1;\nexport { deep } from "./sub/deep.ts";\n');
    await put("lib/a/t.ts", "export interface T {\n  x: number;\n}\n");
    await put("lib/a/sub/deep.ts", "export const deep = 2;\n");
    await put("lib/a/view/mod.ts", "export const view = 3;\n");
    await put(
      "lib/b/x.ts",
      [
        'import { inner } from "../a/mod.ts";', // front door
        'import type { T } from "../a/t.ts";', // 2: type-only bypass
        'export { deep } from "../a/sub/deep.ts";', // 3: re-export bypass
        'import { view } from "../a/view/mod.ts";', // a subfolder's front door
        'import { y } from "./y.ts";', // same folder
        "// import { inner } from '../a/inner.ts';", // a comment, not an import
        'const code = `import { inner } from "../a/inner.ts";`;', // a template string
        "export const x = async (t: T) =>",
        '  [inner, view, y, code, t, (await import("../a/inner.ts")).inner];', // 10: dynamic
        "",
      ].join("\n"),
    );
    await put("lib/b/y.ts", "export const y = 4;\n");
    await put(
      "tasks/cli.ts",
      'import {\n  inner,\n} from "../lib/a/inner.ts";\nimport { x } from "../lib/b/mod.ts";\nconsole.log(inner, x);\n',
    );
    await put("lib/b/mod.ts", 'export { x } from "./x.ts";\n');
    const found = await frontDoorBypasses(root, ["lib", "tasks"]);
    assert.deepEqual(found.map((b) => `${b.from} -> ${b.to}`), [
      "lib/b/x.ts -> lib/a/inner.ts",
      "lib/b/x.ts -> lib/a/sub/deep.ts",
      "lib/b/x.ts -> lib/a/t.ts",
      "tasks/cli.ts -> lib/a/inner.ts",
    ]);
    assert.equal(relative(root, join(root, found[0].from)), "lib/b/x.ts");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("front doors: the rule's folders", () => {
  assert.equal(area("lib/logs/readers/claude.ts"), "lib/logs");
  assert.equal(area("tasks/commands/score.ts"), "tasks");
  assert.ok(throughFrontDoor("lib/logs/readers/claude.ts", "lib/logs/bundle.ts"));
  assert.ok(throughFrontDoor("tasks/cli.ts", "lib/report/view/mod.ts"));
  assert.ok(!throughFrontDoor("tasks/cli.ts", "lib/report/view/pages.ts"));
  assert.ok(!throughFrontDoor("lib/frames/score.ts", "lib/python/summary_cache.ts"));
  assert.ok(throughFrontDoor("lib/frames/score.ts", "node_modules/x/index.ts"));
});
