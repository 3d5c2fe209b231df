/**
 * Generation of realistic, syntactically valid Python function bodies and docstrings whose
 * non-builtin calls are exactly a given list (so the generator knows every function's callees).
 *
 * Bodies only call the given call expressions and a fixed set of builtins ({@link PY_BUILTINS});
 * they never call methods on local values, so a resolver sees no other callee.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * import { renderFunction } from "./pygen.ts";
 * const lines = renderFunction(new Rng(1), {
 *   name: "resolve_levels", params: ["data", "order=None"], calls: ["_as_list", "_num.clip"],
 *   summary: "Resolve the ordered levels of ``data``.", bodyLines: 12,
 * });
 * console.assert(lines[0] === "def resolve_levels(data, order=None):");
 * console.assert(lines.some((l) => l.includes("_num.clip(")));
 * ```
 * @module
 */
import type { Rng } from "./rng.ts";

/** Builtins the generated code calls (none of them counts as a callee). */
export const PY_BUILTINS = [
  "len",
  "sorted",
  "list",
  "dict",
  "tuple",
  "set",
  "zip",
  "enumerate",
  "range",
  "min",
  "max",
  "sum",
  "abs",
  "round",
  "isinstance",
  "str",
  "float",
  "int",
  "bool",
  "repr",
  "any",
  "all",
  "reversed",
  "map",
  "ValueError",
  "TypeError",
  "KeyError",
] as const;

/** Verbs of generated function names (`<verb>_<noun>`). */
export const VERBS = [
  "resolve",
  "normalize",
  "coerce",
  "collect",
  "merge",
  "split",
  "scale",
  "align",
  "group",
  "index",
  "infer",
  "encode",
  "decode",
  "format",
  "parse",
  "validate",
  "expand",
  "reduce",
  "filter",
  "rank",
  "bin",
  "clip",
  "fill",
  "locate",
  "compose",
  "derive",
  "match",
  "order",
  "partition",
  "summarize",
  "weight",
  "interpolate",
  "convert",
  "map",
  "build",
  "select",
] as const;

/** Nouns of generated function, module and variable names. */
export const NOUNS = [
  "levels",
  "labels",
  "ticks",
  "limits",
  "palette",
  "colors",
  "breaks",
  "bins",
  "groups",
  "keys",
  "columns",
  "records",
  "units",
  "weights",
  "offsets",
  "spans",
  "markers",
  "styles",
  "intervals",
  "categories",
  "values",
  "order",
  "mapping",
  "extent",
  "scale",
  "domain",
  "ranges",
  "steps",
  "counts",
  "tokens",
  "fields",
  "names",
  "codes",
  "layers",
  "axes",
  "margins",
  "widths",
  "segments",
  "anchors",
  "bounds",
  "positions",
  "series",
  "frames",
] as const;

const ADJS = [
  "numeric",
  "categorical",
  "nested",
  "ordered",
  "sparse",
  "default",
  "local",
  "shared",
  "relative",
  "absolute",
  "grouped",
  "stable",
  "raw",
  "semantic",
  "padded",
  "visible",
] as const;

/** Local variable names bodies may introduce. */
export const LOCALS = [
  "values",
  "items",
  "result",
  "parts",
  "seen",
  "keys",
  "pairs",
  "lookup",
  "levels",
  "labels",
  "counts",
  "width",
  "offset",
  "total",
  "extent",
  "ordered",
  "chunks",
  "index",
  "weights",
  "cleaned",
  "merged",
  "spans",
  "edges",
  "step",
  "lower",
  "upper",
  "scale",
  "default",
  "mapping",
  "buckets",
  "entries",
  "names",
  "codes",
  "first",
  "last",
  "size",
] as const;

const COMMENTS = [
  "Drop missing entries before anything else.",
  "Keep the original order of first appearance.",
  "Normalise the inputs so the lookups below are cheap.",
  "An empty input short-circuits to the neutral value.",
  "Preserve the caller's ordering when one was given.",
  "Guard against degenerate spans.",
  "Numeric labels are compared by value, not by identity.",
  "This mirrors the convention used by the plotting layer.",
  "Fall back to the positional index when no key matches.",
  "Widths are accumulated left to right.",
  "The result must be stable across calls.",
  "Group boundaries are inclusive on the left.",
] as const;

/** Specification of one generated function. */
export interface FunctionGen {
  name: string;
  /** Parameters as written in the signature, e.g. `order=None`. */
  params: string[];
  /** Call expressions (callable text) the body must call at least once each. */
  calls: string[];
  /** Callables the body passes as values (references, not calls), e.g. `key=f`. */
  refs?: string[];
  summary: string;
  /** Approximate number of body lines (without the docstring). */
  bodyLines: number;
  /** Docstring flavour. */
  docStyle?: "numpy" | "google" | "short" | "none";
  returns?: string;
  indent?: string;
  /** Names the body must not introduce as locals. */
  avoid?: string[];
  /** Sentences added to the docstring after the summary. */
  extra?: string[];
}

/** Parameter name of a parameter spec (`order=None` → `order`, `*args` → `args`). */
export function paramName(p: string): string {
  return p.replace(/^\*+/, "").split("=")[0].split(":")[0].trim();
}

/** Wraps text at `width` columns with a prefix. */
export function wrap(text: string, width: number, prefix = ""): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      out.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(prefix + line);
  return out;
}

function docstring(rng: Rng, f: FunctionGen, ind: string): string[] {
  const style = f.docStyle ?? "numpy";
  if (style === "none") return [];
  const params = f.params.filter((p) => p !== "*" && !p.startsWith("self")).map(paramName);
  if (style === "short") return [`${ind}"""${f.summary}"""`];
  const lines = [`${ind}"""${f.summary}`];
  if (f.extra?.length) {
    lines.push("");
    for (const s of f.extra) lines.push(...wrap(s, 92, ind));
  }
  const describe = (p: string) =>
    rng.pick([
      `The ${p.replace(/_/g, " ")} to work on.`,
      `Input ${p.replace(/_/g, " ")}; \`\`None\`\` selects the default.`,
      `Sequence of ${p.replace(/_/g, " ")} in caller order.`,
      `Optional ${p.replace(/_/g, " ")} that overrides the inferred one.`,
    ]);
  if (style === "numpy") {
    if (params.length) {
      lines.push("", `${ind}Parameters`, `${ind}----------`);
      for (const p of params) lines.push(`${ind}${p}`, `${ind}    ${describe(p)}`);
    }
    lines.push("", `${ind}Returns`, `${ind}-------`, `${ind}${f.returns ?? "list"}`);
    lines.push(
      `${ind}    ${
        rng.pick([
          "The resolved values, in order.",
          "One entry per input element.",
          "A new object; inputs are not modified.",
        ])
      }`,
    );
  } else {
    if (params.length) {
      lines.push("", `${ind}Args:`);
      for (const p of params) lines.push(`${ind}    ${p}: ${describe(p)}`);
    }
    lines.push("", `${ind}Returns:`, `${ind}    ${f.returns ?? "list"}: the computed result.`);
  }
  lines.push(`${ind}"""`);
  return lines;
}

/**
 * Lines of a function: signature, docstring, body. Every call of `f.calls` appears in the body;
 * the only other calls are builtins.
 */
export function renderFunction(rng: Rng, f: FunctionGen): string[] {
  const ind = f.indent ?? "";
  const bi = ind + "    ";
  const out = [`${ind}def ${f.name}(${f.params.join(", ")}):`];
  out.push(...docstring(rng, f, bi));
  out.push(...body(rng, f, bi));
  return out;
}

function body(rng: Rng, f: FunctionGen, ind: string): string[] {
  const taken = new Set<string>([
    ...f.params.map(paramName),
    ...(f.avoid ?? []),
    ...f.calls.map((c) => c.split(".")[0]),
    ...(f.refs ?? []).map((c) => c.split(".")[0]),
  ]);
  const vars: string[] = f.params.map(paramName).filter((p) => p && p !== "*" && p !== "self");
  if (vars.length === 0) vars.push("None");
  const fresh = (): string => {
    for (let k = 0; k < 50; k++) {
      const n = rng.pick(LOCALS);
      if (!taken.has(n)) {
        taken.add(n);
        return n;
      }
    }
    let i = 2;
    while (taken.has(`tmp${i}`)) i++;
    taken.add(`tmp${i}`);
    return `tmp${i}`;
  };
  const anyVar = () => rng.pick(vars);
  const lines: string[] = [];
  const pending = rng.shuffle(f.calls);
  const refs = rng.shuffle(f.refs ?? []);
  const callArgs = () => {
    const a = anyVar();
    if (vars.length > 1 && rng.chance(0.4)) {
      const b = anyVar();
      if (b !== a) return rng.chance(0.5) ? `${a}, ${b}` : `${a}, default=${b}`;
    }
    return a;
  };
  const nextCall = (): string => (pending.length ? pending.pop()! : rng.pick(f.calls));
  const budget = Math.max(3, f.bodyLines - 1);
  let guard = 0;
  while ((lines.length < budget || pending.length > 0 || refs.length > 0) && guard++ < 400) {
    if (refs.length && (rng.chance(0.3) || (pending.length === 0 && lines.length >= budget - 2))) {
      const ref = refs.pop()!;
      const v = fresh();
      const src = anyVar();
      lines.push(
        rng.chance(0.5)
          ? `${ind}${v} = sorted(${src}, key=${ref})`
          : `${ind}${v} = list(map(${ref}, ${src}))`,
      );
      vars.push(v);
      continue;
    }
    const useCall = pending.length > 0 && (rng.chance(0.55) || lines.length >= budget - 2);
    const r = rng.float();
    if (useCall) {
      const fn = nextCall();
      const v = fresh();
      const kind = rng.int(0, 4);
      if (kind === 0) lines.push(`${ind}${v} = ${fn}(${callArgs()})`);
      else if (kind === 1) {
        const src = anyVar();
        lines.push(`${ind}${v} = [${fn}(item) for item in ${src} if item is not None]`);
      } else if (kind === 2) {
        const src = anyVar();
        lines.push(`${ind}${v} = {}`);
        lines.push(`${ind}for position, item in enumerate(${src}):`);
        lines.push(`${ind}    if item is None:`);
        lines.push(`${ind}        continue`);
        lines.push(`${ind}    ${v}[position] = ${fn}(item)`);
      } else if (kind === 3) {
        const src = anyVar();
        lines.push(`${ind}try:`);
        lines.push(`${ind}    ${v} = ${fn}(${src})`);
        lines.push(`${ind}except (TypeError, ValueError):`);
        lines.push(`${ind}    ${v} = ${anyVar()}`);
      } else {
        const src = anyVar();
        lines.push(`${ind}if ${src} is None:`);
        lines.push(`${ind}    ${v} = ${fn}(${anyVar() === src ? "()" : anyVar()})`);
        lines.push(`${ind}else:`);
        lines.push(`${ind}    ${v} = ${fn}(${src})`);
      }
      vars.push(v);
      continue;
    }
    if (r < 0.12) {
      lines.push(`${ind}# ${rng.pick(COMMENTS)}`);
    } else if (r < 0.24) {
      const src = anyVar();
      lines.push(`${ind}if not ${src}:`);
      lines.push(`${ind}    return ${rng.pick(["[]", "{}", "None", "()", "0"])}`);
    } else if (r < 0.36) {
      const v = fresh();
      lines.push(`${ind}${v} = [value for value in ${anyVar()} if value is not None]`);
      vars.push(v);
    } else if (r < 0.46) {
      const v = fresh();
      lines.push(`${ind}${v} = sorted(set(${anyVar()}), key=repr)`);
      vars.push(v);
    } else if (r < 0.56) {
      const v = fresh();
      const src = anyVar();
      lines.push(`${ind}${v} = 0`);
      lines.push(`${ind}for entry in ${src}:`);
      lines.push(`${ind}    if isinstance(entry, (int, float)):`);
      lines.push(`${ind}        ${v} += abs(entry)`);
      lines.push(`${ind}    else:`);
      lines.push(`${ind}        ${v} += 1`);
      vars.push(v);
    } else if (r < 0.64) {
      const v = fresh();
      lines.push(`${ind}${v} = len(${anyVar()}) if ${anyVar()} else 0`);
      vars.push(v);
    } else if (r < 0.72) {
      const v = fresh();
      const a = anyVar();
      lines.push(`${ind}if isinstance(${a}, (list, tuple)):`);
      lines.push(`${ind}    ${v} = list(${a})`);
      lines.push(`${ind}else:`);
      lines.push(`${ind}    ${v} = [${a}]`);
      vars.push(v);
    } else if (r < 0.8) {
      const v = fresh();
      lines.push(`${ind}${v} = {key: position for position, key in enumerate(${anyVar()})}`);
      vars.push(v);
    } else if (r < 0.86) {
      const a = anyVar();
      lines.push(
        `${ind}if ${a} is not None and not isinstance(${a}, (list, tuple, dict, str, int, float)):`,
      );
      lines.push(`${ind}    raise TypeError(f"unsupported ${a.replace(/_/g, " ")}: {${a}!r}")`);
    } else if (r < 0.93) {
      const v = fresh();
      lines.push(`${ind}${v} = tuple(zip(${anyVar()}, range(len(${anyVar()}))))`);
      vars.push(v);
    } else {
      const v = fresh();
      lines.push(`${ind}${v} = max((len(str(token)) for token in ${anyVar()}), default=0)`);
      vars.push(v);
    }
  }
  const locals = vars.filter((v) => !f.params.map(paramName).includes(v) && v !== "None");
  const last = locals.length ? locals[locals.length - 1] : vars[vars.length - 1];
  const ret = rng.float();
  if (ret < 0.6 || locals.length < 2) lines.push(`${ind}return ${last}`);
  else if (ret < 0.8) lines.push(`${ind}return ${locals[locals.length - 2]}, ${last}`);
  else lines.push(`${ind}return {"result": ${last}, "size": len(${locals[locals.length - 2]})}`);
  return lines;
}

/** A `snake_case` phrase as words: `resolve_levels` → `resolve levels`. */
export function words(name: string): string {
  return name.replace(/^_+/, "").replace(/_/g, " ");
}

/** One random adjective (for names and prose). */
export function adjective(rng: Rng): string {
  return rng.pick(ADJS);
}
