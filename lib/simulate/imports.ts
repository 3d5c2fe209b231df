/**
 * Import bookkeeping for generated modules: turns qualified function ids into call expressions,
 * choosing an import style per imported module (plain `from … import f`, aliased
 * `from … import f as g`, module attribute `import a.b as m` / `from a import b`, or relative
 * imports), and renders the import block.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * import { ImportPlan } from "./imports.ts";
 * const plan = new ImportPlan(new Rng(1), "pkg._core.new", "pkg", new Set(["f"]));
 * const e = plan.expr("pkg._util.text._pad");
 * console.assert(e.endsWith("_pad") || e.includes("."));
 * console.assert(plan.lines().length >= 1);
 * ```
 * @module
 */
import type { Rng } from "./rng.ts";

type Style = "from" | "alias" | "module" | "frommod" | "relative";

/** Splits a qualified function id into module and name (module-level functions only). */
export function splitId(id: string): { module: string; name: string } {
  const i = id.lastIndexOf(".");
  return { module: id.slice(0, i), name: id.slice(i + 1) };
}

/** Relative import prefix from module `from` (a module file, not a package) to module `to`. */
export function relativeModule(from: string, to: string): string {
  const a = from.split(".").slice(0, -1); // package of `from`
  const b = to.split(".");
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  const dots = ".".repeat(a.length - common + 1);
  return dots + b.slice(common).join(".");
}

/** Import plan of one generated module. */
export class ImportPlan {
  #rng: Rng;
  #self: string;
  #pkg: string;
  #taken: Set<string>;
  #styles = new Map<string, { style: Style; alias?: string }>();
  #names = new Map<string, string>(); // id -> expr
  #fromNames = new Map<string, string[]>(); // module -> "name" | "name as alias"
  #relative = new Map<string, string[]>();
  #moduleLines: string[] = [];
  /** Probability of the plain `from m import f` style. */
  constructor(
    rng: Rng,
    selfModule: string,
    pkg: string,
    taken: Set<string>,
    readonly weights = [0.45, 0.15, 0.15, 0.1, 0.15],
  ) {
    this.#rng = rng;
    this.#self = selfModule;
    this.#pkg = pkg;
    this.#taken = new Set(taken);
  }

  #fresh(base: string): string {
    let n = base;
    let i = 2;
    while (this.#taken.has(n)) n = `${base}${i++}`;
    this.#taken.add(n);
    return n;
  }

  /** Call expression for a qualified function id (adds the import it needs). */
  expr(id: string): string {
    const known = this.#names.get(id);
    if (known) return known;
    const { module, name } = splitId(id);
    if (module === this.#self) {
      this.#names.set(id, name);
      return name;
    }
    let st = this.#styles.get(module);
    if (!st) {
      const styles: Style[] = ["from", "alias", "module", "frommod", "relative"];
      let style = styles[this.#rng.weighted(this.weights)];
      if (style === "relative" && !module.startsWith(this.#pkg + ".")) style = "from";
      const short = module.split(".").pop()!;
      if (style === "module") {
        const alias = this.#fresh(`${short.replace(/^_/, "")}_mod`);
        this.#moduleLines.push(`import ${module} as ${alias}`);
        st = { style, alias };
      } else if (style === "frommod") {
        const parent = module.split(".").slice(0, -1).join(".");
        const alias = this.#fresh(`_${short.replace(/^_/, "")}`);
        this.#moduleLines.push(`from ${parent} import ${short} as ${alias}`);
        st = { style, alias };
      } else st = { style };
      this.#styles.set(module, st);
    }
    let expr: string;
    if (st.style === "module" || st.style === "frommod") expr = `${st.alias}.${name}`;
    else {
      let local = name;
      if (st.style === "alias" || this.#taken.has(name)) {
        local = this.#fresh(name.startsWith("_") ? `${name}_impl` : `_${name}`);
      } else this.#taken.add(name);
      const entry = local === name ? name : `${name} as ${local}`;
      const bucket = st.style === "relative" ? this.#relative : this.#fromNames;
      const list = bucket.get(module) ?? [];
      list.push(entry);
      bucket.set(module, list);
      expr = local;
    }
    this.#names.set(id, expr);
    return expr;
  }

  /** The import block (sorted, deterministic). */
  lines(): string[] {
    const out: string[] = [];
    const fromBlock = (mod: string, names: string[]) => {
      const one = `from ${mod} import ${names.join(", ")}`;
      if (one.length <= 92) out.push(one);
      else out.push(`from ${mod} import (`, ...names.map((n) => `    ${n},`), ")");
    };
    for (const l of [...this.#moduleLines].sort()) out.push(l);
    for (const m of [...this.#fromNames.keys()].sort()) fromBlock(m, this.#fromNames.get(m)!);
    for (const m of [...this.#relative.keys()].sort()) {
      fromBlock(relativeModule(this.#self, m), this.#relative.get(m)!);
    }
    return out;
  }
}
