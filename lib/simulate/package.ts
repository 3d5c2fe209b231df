/**
 * Generation of the initial workspace W0: a Python package of helper modules (`_util/`),
 * implementation modules (`_core/`, top level) whose functions call the helpers, and a few
 * classes. Every function's callees and line range are recorded while generating.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * import { generatePackage } from "./package.ts";
 * const pkg = generatePackage(new Rng(3), { repo: "tablekit", pkg: "tablekit", coreModules: 3, utilModules: 2 });
 * const t = pkg.targetable[0];
 * console.assert(pkg.files.some((f) => f.path === t.path));
 * console.assert(t.start < t.end);
 * ```
 * @module
 */
import type { Rng } from "./rng.ts";
import {
  adjective,
  type FunctionGen,
  LOCALS,
  NOUNS,
  renderFunction,
  VERBS,
  words,
} from "./pygen.ts";

const RESERVED = new Set<string>([
  ...LOCALS,
  "data",
  "order",
  "values",
  "strict",
  "key",
  "default",
  "width",
  "frame",
  "columns",
  "levels",
  "mapping",
  "value",
  "self",
]);

/** A function, method or class of a generated file. */
export interface PyDef {
  /** Qualified id: module + name (methods: module.Class.name). */
  id: string;
  module: string;
  name: string;
  /** Workspace-relative posix path of the file. */
  path: string;
  /** 1-based line of `def`/`class`. */
  start: number;
  /** 1-based last line. */
  end: number;
  /** Qualified ids of non-builtin callees (sorted). */
  callees: string[];
  role: "helper" | "target" | "method" | "class";
  params: string[];
  summary: string;
}

/**
 * Appends a rendered function (or method: `def.id`, `spec.indent`) to `lines` and returns its
 * definition, located at the lines it took.
 */
function appendFunction(
  rng: Rng,
  lines: string[],
  file: { module: string; path: string },
  spec: FunctionGen,
  def: { role: PyDef["role"]; callees: readonly { id: string }[]; id?: string },
): PyDef {
  const start = lines.length + 1;
  lines.push(...renderFunction(rng, spec));
  return {
    id: def.id ?? `${file.module}.${spec.name}`,
    module: file.module,
    name: spec.name,
    path: file.path,
    start,
    end: lines.length,
    callees: [...new Set(def.callees.map((c) => c.id))].sort(),
    role: def.role,
    params: spec.params,
    summary: spec.summary,
  };
}

/** A generated Python (or other) file. */
export interface GenFile {
  path: string;
  module: string;
  lines: string[];
  defs: PyDef[];
  /** Last line of the module header (docstring, imports, constants): lines ≤ headerEnd are in no def. */
  headerEnd: number;
}

/** A generated W0. */
export interface GenPackage {
  repo: string;
  pkg: string;
  version: string;
  files: GenFile[];
  /** Non-Python files at the workspace root (README.md, pyproject.toml). */
  extras: { path: string; text: string }[];
  defs: Map<string, PyDef>;
  /** Module-level functions that reference solutions may build on. */
  targetable: PyDef[];
  /** Module-level helper functions (never targets). */
  helpers: PyDef[];
}

export interface PackageOptions {
  repo: string;
  pkg: string;
  coreModules: number;
  utilModules: number;
}

const UTIL_NAMES = [
  "text",
  "numeric",
  "seq",
  "mapping",
  "checks",
  "cache",
  "dtypes",
  "order",
  "arrays",
  "compat",
  "strings",
  "validation",
];
const SUBPACKAGES = ["_core", "_core", "", "_stats"];
const CORE_NOUNS = [
  "levels",
  "ticks",
  "palettes",
  "grouping",
  "legend",
  "layout",
  "spacing",
  "units",
  "binning",
  "ordering",
  "markers",
  "encoding",
  "intervals",
  "facets",
  "labels",
  "scales",
  "extent",
  "dodge",
  "weights",
  "aggregation",
  "anchors",
  "colormaps",
  "offsets",
  "jitter",
  "stacking",
  "normalize",
  "rounding",
  "categories",
  "positions",
  "histograms",
  "density",
  "regression",
  "smoothing",
  "annotations",
  "grids",
  "transforms",
  "limits",
  "statistics",
];

/** Generates a package; deterministic for a given generator state. */
export function generatePackage(rng: Rng, opts: PackageOptions): GenPackage {
  const { pkg } = opts;
  const used = new Set<string>();
  const uniqueName = (prefix: string): string => {
    for (let k = 0; k < 200; k++) {
      const base = k < 120
        ? `${rng.pick(VERBS)}_${rng.pick(NOUNS)}`
        : `${rng.pick(VERBS)}_${adjective(rng)}_${rng.pick(NOUNS)}`;
      const n = prefix + base;
      if (!used.has(base)) {
        used.add(base);
        return n;
      }
    }
    throw new Error("generatePackage: name space exhausted");
  };
  const files: GenFile[] = [];
  const defs = new Map<string, PyDef>();
  const helpers: PyDef[] = [];
  const targetable: PyDef[] = [];

  const header = (module: string, lines: string[], doc: string, imports: string[]) => {
    lines.push(`"""${doc}`);
    lines.push("");
    lines.push(
      `This module is part of ${pkg}'s internal implementation layer; its functions are not`,
    );
    lines.push(`covered by the public API guarantees and may change between minor releases.`);
    lines.push(`"""`);
    lines.push("from __future__ import annotations");
    lines.push("");
    if (imports.length) lines.push(...imports, "");
    lines.push(
      `_DEFAULT_${rng.pick(NOUNS).toUpperCase()} = ${
        rng.pick(["0.8", "None", "()", "1", "'auto'"])
      }`,
    );
    lines.push(`_MODULE = ${JSON.stringify(module)}`);
    lines.push("");
  };

  // --- helper modules -------------------------------------------------------------------
  const utilNames = rng.sample(UTIL_NAMES, opts.utilModules);
  for (const u of utilNames) {
    const module = `${pkg}._util.${u}`;
    const path = `${pkg}/_util/${u}.py`;
    const lines: string[] = [];
    header(module, lines, `Small ${u} helpers shared by the ${pkg} internals.`, []);
    const fileDefs: PyDef[] = [];
    const headerEnd = lines.length;
    const count = rng.int(7, 11);
    for (let i = 0; i < count; i++) {
      const name = uniqueName("_");
      const local = fileDefs.length ? rng.sample(fileDefs, rng.pick([0, 0, 1, 2])) : [];
      const params = rng.pick([["value"], ["values"], ["values", "default=None"], [
        "data",
        "key=None",
      ]]);
      lines.push("", "");
      const summary = `${capital(words(name))} of the given ${params[0]}.`;
      const d = appendFunction(rng, lines, { module, path }, {
        name,
        params,
        calls: local.map((d) => d.name),
        summary,
        bodyLines: rng.int(4, 16),
        docStyle: rng.pick(["short", "short", "numpy"]),
      }, { role: "helper", callees: local });
      fileDefs.push(d);
      helpers.push(d);
    }
    lines.push("");
    files.push({ path, module, lines, defs: fileDefs, headerEnd });
  }

  // --- implementation modules -------------------------------------------------------------
  const coreNouns = rng.sample(CORE_NOUNS, opts.coreModules);
  coreNouns.forEach((noun, mi) => {
    const sub = SUBPACKAGES[mi % SUBPACKAGES.length];
    const underCore = sub !== "";
    const module = underCore ? `${pkg}.${sub}.${noun}` : `${pkg}.${noun}`;
    const path = underCore ? `${pkg}/${sub}/${noun}.py` : `${pkg}/${noun}.py`;
    const rel = underCore ? ".." : ".";
    // choose helper modules used by this module and an import style for each
    const utils = rng.sample(files.filter((f) => f.module.includes("._util.")), rng.int(2, 3));
    const callExpr = new Map<string, string>();
    const imports: string[] = [];
    for (const u of utils) {
      const short = u.module.split(".").pop()!;
      if (rng.chance(0.5)) {
        for (const d of u.defs) callExpr.set(d.id, d.name);
        imports.push(
          `from ${rel}_util.${short} import (\n    ${
            u.defs.map((d) => d.name).join(",\n    ")
          },\n)`,
        );
      } else {
        const alias = rng.chance(0.5) && !RESERVED.has(short) ? short : `_${short}`;
        for (const d of u.defs) callExpr.set(d.id, `${alias}.${d.name}`);
        imports.push(`from ${rel}_util import ${short}${alias === short ? "" : ` as ${alias}`}`);
      }
    }
    const importLines = imports.join("\n").split("\n");
    const lines: string[] = [];
    header(
      module,
      lines,
      `${capital(noun)} handling: resolution, normalisation and bookkeeping.`,
      importLines,
    );
    const headerEnd = lines.length;
    const fileDefs: PyDef[] = [];
    const pool = utils.flatMap((u) => u.defs);
    // module-private helpers first
    const privCount = rng.int(0, 2);
    for (let i = 0; i < privCount; i++) {
      const name = uniqueName("_");
      const calls = rng.sample(pool, rng.int(0, 2));
      const params = ["values", "default=None"];
      lines.push("", "");
      const summary = `${capital(words(name))} (module-private helper).`;
      const d = appendFunction(rng, lines, { module, path }, {
        name,
        params,
        calls: calls.map((d) => callExpr.get(d.id)!),
        summary,
        bodyLines: rng.int(4, 12),
        docStyle: "short",
      }, { role: "helper", callees: calls });
      fileDefs.push(d);
      helpers.push(d);
      callExpr.set(d.id, name);
      pool.push(d);
    }
    const count = rng.int(3, 7);
    const withClass = rng.chance(0.6) ? rng.int(1, count - 1) : -1;
    for (let i = 0; i < count; i++) {
      if (i === withClass) {
        lines.push("", "");
        const cname = capital(rng.pick(NOUNS)).replace(/s$/, "") +
          rng.pick(["Index", "Spec", "Mapper", "Table", "Plan"]);
        const cstart = lines.length + 1;
        lines.push(`class ${cname}:`);
        lines.push(
          `    """Bookkeeping object for ${noun}.`,
          "",
          `    Instances are cheap to create and immutable once built.`,
          `    """`,
        );
        lines.push("", `    def __init__(self, values, order=None):`);
        lines.push(`        self.values = list(values) if values is not None else []`);
        lines.push(`        self.order = order`);
        lines.push(`        self._cache = {}`);
        const methods: PyDef[] = [];
        for (let m = 0; m < rng.int(2, 4); m++) {
          const mname = uniqueName(rng.chance(0.3) ? "_" : "");
          const calls = rng.sample(pool, rng.int(1, 3));
          lines.push("");
          const summary = `${capital(words(mname))} for this ${cname}.`;
          methods.push(appendFunction(rng, lines, { module, path }, {
            name: mname,
            params: ["self", "key=None"],
            calls: calls.map((d) => callExpr.get(d.id)!),
            summary,
            bodyLines: rng.int(4, 12),
            docStyle: "short",
            indent: "    ",
          }, { role: "method", callees: calls, id: `${module}.${cname}.${mname}` }));
        }
        const cls: PyDef = {
          id: `${module}.${cname}`,
          module,
          name: cname,
          path,
          start: cstart,
          end: lines.length,
          callees: [],
          role: "class",
          params: [],
          summary: `Bookkeeping object for ${noun}.`,
        };
        fileDefs.push(cls, ...methods);
      }
      const isPrivate = underCore && rng.chance(0.3);
      const name = uniqueName(isPrivate ? "_" : "");
      const eligible = rng.chance(0.88);
      const calls = rng.sample(
        pool,
        eligible ? rng.int(3, Math.min(6, pool.length)) : rng.int(1, 2),
      );
      const params = rng.pick([
        ["data", "order=None"],
        ["values", "*", "strict=False"],
        ["data", "key=None", "default=None"],
        ["values", "width=0.8"],
        ["frame", "columns=None"],
        ["levels", "mapping=None"],
      ]);
      lines.push("", "");
      const summary = `${capital(words(name))} for ${
        rng.pick(["plotting", "grouped", "categorical", "numeric", "layered"])
      } ${rng.pick(NOUNS)}.`;
      // a helper passed as a value (`key=…`) is a reference, not a callee
      const refPool = pool.filter((d) => !calls.includes(d));
      const refs = rng.chance(0.15) && refPool.length ? [rng.pick(refPool)] : [];
      const d = appendFunction(rng, lines, { module, path }, {
        name,
        params,
        calls: calls.map((d) => callExpr.get(d.id)!),
        refs: refs.map((d) => callExpr.get(d.id)!),
        summary,
        bodyLines: rng.int(6, 50),
        docStyle: rng.pick(["numpy", "numpy", "google", "short"]),
        extra: rng.chance(0.6)
          ? [
            `The ${rng.pick(NOUNS)} are matched by ${
              rng.pick(["value", "position", "label", "key"])
            }; unmatched entries keep their ${
              rng.pick(["original position", "default", "neighbour's value"])
            }.`,
          ]
          : undefined,
      }, { role: "target", callees: calls });
      fileDefs.push(d);
      targetable.push(d);
    }
    lines.push("");
    files.push({ path, module, lines, defs: fileDefs, headerEnd });
  });

  // --- package files ----------------------------------------------------------------------
  const version = `${rng.int(0, 3)}.${rng.int(5, 19)}.${rng.int(0, 4)}`;
  const exported = rng.sample(targetable.filter((d) => !d.name.startsWith("_")), 4);
  const init = [
    `"""${capital(opts.repo)}: composable helpers for statistical graphics."""`,
    ...exported.map((d) =>
      `from .${d.module.slice(pkg.length + 1)} import ${d.name}  # noqa: F401`
    ),
    "",
    `__version__ = ${JSON.stringify(version)}`,
    "",
  ];
  files.push({
    path: `${pkg}/__init__.py`,
    module: pkg,
    lines: init,
    defs: [],
    headerEnd: init.length,
  });
  for (const sub of ["_util", "_core"]) {
    const l = [
      `"""Internal ${
        sub === "_util" ? "utilities" : "implementation"
      } of ${pkg} (no public API)."""`,
      "",
    ];
    files.push({
      path: `${pkg}/${sub}/__init__.py`,
      module: `${pkg}.${sub}`,
      lines: l,
      defs: [],
      headerEnd: l.length,
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // a file's lines never end with an empty element: the text on disk is lines + "\n"
  for (const f of files) while (f.lines.length && f.lines[f.lines.length - 1] === "") f.lines.pop();
  for (const f of files) for (const d of f.defs) defs.set(d.id, d);
  const extras = [
    {
      path: "README.md",
      text:
        `# ${opts.repo}\n\nComposable helpers for statistical graphics (generated workspace).\n`,
    },
    {
      path: "pyproject.toml",
      text: `[project]\nname = "${opts.repo}"\nversion = "${version}"\nrequires-python = ">=3.9"\n`,
    },
  ];
  return { repo: opts.repo, pkg, version, files, extras, defs, targetable, helpers };
}

/** First letter upper-cased. */
export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
