/**
 * Resolving one file in the context of a workspace (the `calls` command, and callers that score a
 * submission against a checked-out repository).
 *
 * @example
 * ```ts
 * import { workspaceProject } from "./workspace.ts";
 * const ws = await Deno.makeTempDir();
 * await Deno.mkdir(`${ws}/pkg`);
 * await Deno.writeTextFile(`${ws}/pkg/__init__.py`, "");
 * await Deno.writeTextFile(`${ws}/pkg/util.py`, "def helper():\n    pass\n");
 * await Deno.writeTextFile(`${ws}/main.py`, "from pkg.util import helper\nhelper()\n");
 * const { project, module } = await workspaceProject(`${ws}/main.py`, ws, { cache: false });
 * console.assert(module === "main");
 * console.assert(project.resolveModule(module).uses[0].target === "pkg.util.helper");
 * ```
 * @module
 */
import { type AnalyzeOptions, analyzePackage } from "./analyze.ts";
import { decodeSource, readSource } from "./files.ts";
import { moduleName } from "./names.ts";
import { Project } from "./project.ts";
import { summarize } from "./summary.ts";
import type { ModuleSummary } from "./summary_format.ts";
import { exists } from "../util/mod.ts";

/** The package directories of a workspace: top-level dirs with `__init__.py`, also under `src/`. */
export async function workspacePackages(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const base of [root, `${root}/src`]) {
    if (!(await exists(base))) continue;
    const names: string[] = [];
    for await (const e of Deno.readDir(base)) {
      if (e.isDirectory && !e.name.startsWith(".")) names.push(e.name);
    }
    for (const name of names.sort()) {
      if (await exists(`${base}/${name}/__init__.py`)) out.push(`${base}/${name}`);
    }
  }
  return out;
}

async function summarizeFile(path: string, file: string, module: string): Promise<ModuleSummary> {
  const read = await readSource(path);
  if ("skip" in read) throw new Error(`${path}: ${read.skip}`);
  const decoded = decodeSource(read.bytes);
  if ("skip" in decoded) throw new Error(`${path}: ${decoded.skip}`);
  return await summarize(decoded.text, file, module);
}

/**
 * A project for resolving `file` (absolute path): with `root`, every package and top-level module
 * of the workspace plus the file (module id = its path relative to `root`, a leading `src/`
 * dropped); without, the file alone (module id from the `__init__.py` chain above it).
 */
export async function workspaceProject(
  file: string,
  root?: string,
  opts: AnalyzeOptions = {},
): Promise<{ project: Project; module: string }> {
  if (root === undefined) {
    let dir = file.slice(0, file.lastIndexOf("/"));
    const parts = [file.slice(file.lastIndexOf("/") + 1)];
    while (dir && (await exists(`${dir}/__init__.py`))) {
      parts.unshift(dir.slice(dir.lastIndexOf("/") + 1));
      dir = dir.slice(0, dir.lastIndexOf("/"));
    }
    const rel = parts.join("/");
    const module = moduleName(rel);
    const summary = await summarizeFile(file, rel, module);
    return { project: Project.fromSummaries([summary]), module };
  }
  const r = root.replace(/\/+$/, "");
  if (!file.startsWith(r + "/")) throw new Error(`${file} is not inside the workspace ${root}`);
  let rel = file.slice(r.length + 1);
  const module = moduleName(rel.startsWith("src/") ? rel.slice(4) : rel);
  let project = Project.fromSummaries([]);
  for (const pkg of await workspacePackages(r)) {
    const p = await analyzePackage(pkg, opts);
    project = project.withModules(p.summaries());
  }
  const tops: ModuleSummary[] = [];
  for await (const e of Deno.readDir(r)) {
    if (e.isFile && e.name.endsWith(".py") && `${r}/${e.name}` !== file) {
      try {
        tops.push(await summarizeFile(`${r}/${e.name}`, e.name, moduleName(e.name)));
      } catch {
        // a bad top-level module only loses its own resolution context
      }
    }
  }
  // the file's own path relative to its package, as analyzePackage would name it
  const top = module.split(".")[0];
  if (rel.startsWith("src/")) rel = rel.slice(4);
  const fileInPkg = rel.includes("/") && rel.startsWith(top + "/")
    ? rel.slice(top.length + 1)
    : rel;
  const summary = await summarizeFile(file, fileInPkg, module);
  return { project: project.withModules([...tops, summary]), module };
}
