/**
 * The syntax walk of phase 1: one tree-sitter tree (the wasm parser's, or the native parser's
 * flat tree) → the summary's definitions, scopes, bindings and raw uses ({@link Summarizer}),
 * plus the facts the data flow needs (lib/python/flow.ts), which {@link Summarizer.result} runs.
 * Line numbers are CPython's `ast` `lineno`/`end_lineno` (see lib/python/summary.ts).
 *
 * @module
 */
import type { SyntaxNode as Node } from "./direct.ts";
import { isInternal } from "./names.ts";
import {
  type Binding,
  DECORATOR,
  type Implicit,
  type ModuleSummary,
  type RawUse,
  type Scope,
  SUMMARY_VERSION,
} from "./summary_format.ts";
import {
  type Access,
  type Container,
  type Element,
  type Store,
  UseFlow,
  type WalkFacts,
} from "./flow.ts";
import type { AnalysisError, Definition } from "./types.ts";

const LITERALS = new Set([
  "integer",
  "float",
  "true",
  "false",
  "none",
  "comment",
  "ellipsis",
  "escape_sequence",
  "string_content",
  "string_start",
  "string_end",
  "line_continuation",
]);
/** Targets and values paired element by element in assignments. */
const SEQUENCE_TARGETS = new Set(["pattern_list", "tuple_pattern", "list_pattern"]);
const SEQUENCE_VALUES = new Set(["expression_list", "tuple", "list"]);
const COMPREHENSIONS = new Set([
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
]);

/**
 * A new scope with every optional field present (undefined, which JSON leaves out): scopes of one
 * shape keep the summariser's property reads monomorphic, where fields added as met gave dozens
 * of shapes and kept V8 recompiling the walk.
 */
function newScopeRecord(kind: Scope["kind"], parent: number, def: number): Scope {
  return {
    kind,
    parent,
    def,
    bindings: Object.create(null),
    stars: undefined,
    globals: undefined,
    nonlocals: undefined,
    self: undefined,
    selfIsClass: undefined,
    bases: undefined,
    returns: undefined,
  };
}

export class Summarizer implements WalkFacts {
  containers: Container[] = [];
  stores: Store[] = [];
  accesses: Access[] = [];
  scopes: Scope[] = [];
  uses: RawUse[] = [];
  defs: Definition[] = [];
  defScopes: number[] = [];
  all: string[] | null = null;
  docstring: string | null = null;
  cur = 0;
  fb = 0;
  qual: string[] = [];
  inFunction = 0;

  constructor(
    readonly src: string,
    readonly file: string,
    readonly module: string,
    readonly isPackage: boolean,
    readonly errors: AnalysisError[],
  ) {
    this.scopes.push(newScopeRecord("module", -1, -1));
  }

  result(): ModuleSummary {
    this.uses = new UseFlow(this).result();
    return {
      version: SUMMARY_VERSION,
      module: this.module,
      file: this.file,
      isPackage: this.isPackage,
      lines: lineCount(this.src),
      docstring: this.docstring,
      definitions: this.defs,
      defScopes: this.defScopes,
      scopes: this.scopes,
      uses: this.uses,
      all: this.all,
      errors: this.errors,
    };
  }

  run(root: Node) {
    this.docstring = docstringOf(root);
    this.children(root);
  }

  // ---- errors -------------------------------------------------------------------------------

  findErrors(node: Node) {
    let n = 0;
    const walk = (x: Node) => {
      if (n >= 20) return;
      if (x.type === "ERROR" || x.isMissing) {
        n++;
        const what = x.isMissing ? `missing ${x.type}` : `cannot parse ${clip(x.text)}`;
        this.errors.push({
          file: this.file,
          line: x.startPosition.row + 1,
          message: `syntax error: ${what}`,
        });
        if (x.isMissing) return;
      }
      for (const c of x.children) if (c.hasError || c.isMissing) walk(c);
    };
    walk(node);
  }

  // ---- scopes & bindings --------------------------------------------------------------------

  newScope(kind: Scope["kind"], def: number): number {
    this.scopes.push(newScopeRecord(kind, this.cur, def));
    return this.scopes.length - 1;
  }

  bind(name: string, b: Binding, scope = this.cur) {
    if (this.fb) b.fb = 1;
    let sc = this.scopes[scope];
    // a binding made from an inner scope (global/nonlocal) happens only when that scope runs:
    // it ranks below the target scope's own bindings, like a fallback
    if (sc.globals?.includes(name)) {
      sc = this.scopes[0];
      b.fb = 1;
    } else if (sc.nonlocals?.includes(name)) {
      b.fb = 1;
      let p = sc.parent;
      while (p > 0 && this.scopes[p].kind === "class") p = this.scopes[p].parent;
      if (p >= 0) sc = this.scopes[p];
    }
    const list = sc.bindings[name];
    if (list) list.push(b);
    else sc.bindings[name] = [b];
  }

  use(text: string, node: Node, kind: "call" | "reference" | "decorator") {
    const k = kind === "call" ? 0 : kind === "reference" ? 1 : DECORATOR;
    this.uses.push([this.cur, text, node.startPosition.row + 1, k]);
  }

  /** Records a value the innermost function returns (`?`: unknown). */
  returned(text: string) {
    let x = this.cur;
    while (x > 0 && this.scopes[x].kind === "comprehension") x = this.scopes[x].parent;
    const sc = this.scopes[x];
    if (sc.kind === "function") (sc.returns ??= []).push(text);
  }

  /** A value whose dunders syntax runs (`for x in v`, `with v`, `raise C`), when it is dotted. */
  implicit(value: Node, kind: Implicit) {
    let text: string | null;
    if (value.type === "call") {
      const f = this.callText(value);
      text = f === null || f.includes("(") ? null : f + "()";
    } else text = this.dotted(value);
    if (text !== null) this.uses.push([this.cur, text, value.startPosition.row + 1, kind]);
  }

  // ---- walking ------------------------------------------------------------------------------

  children(node: Node) {
    for (const c of node.namedChildren) if (c) this.visit(c);
  }

  visit(node: Node): void {
    // one small dispatch: V8 compiles each kind's code on its own, where one switch holding
    // them all was recompiled whole whenever a file brought a kind of node not met before
    const handler = VISITORS.get(node.type);
    if (handler === undefined) this.children(node);
    else handler(this, node);
  }

  /** A string: only f-strings hold expressions (the prefix before the quote says). */
  string(node: Node) {
    let f = false;
    if (this.src[node.startIndex] === "`") {
      this.errors.push({
        file: this.file,
        line: line(node),
        message: `Python 2 syntax: backquote repr (${clip(node.text)})`,
      });
    }
    for (let i = node.startIndex; i < this.src.length; i++) {
      const ch = this.src[i];
      if (ch === '"' || ch === "'") break;
      if (ch === "f" || ch === "F") f = true;
    }
    if (!f) return;
    for (const c of node.namedChildren) {
      if (c?.type === "interpolation") this.children(c);
    }
  }

  /** `global a, b` / `nonlocal a, b`: the names of the current scope they redirect. */
  declaration(node: Node) {
    const sc = this.scopes[this.cur];
    const names = node.namedChildren.filter((c) => c?.type === "identifier").map((c) => c!.text);
    if (node.type === "global_statement") (sc.globals ??= []).push(...names);
    else (sc.nonlocals ??= []).push(...names);
  }

  returnStatement(node: Node) {
    this.children(node);
    const v = node.namedChildren.find((c) => c && c.type !== "comment") ?? null;
    let text: string | null = null;
    if (v?.type === "call") {
      const f = this.callText(v);
      text = f === null || f.includes("(") ? null : f + "()";
    } else if (v?.type === "identifier" || v?.type === "attribute") text = this.dotted(v);
    this.returned(text ?? "?");
  }

  forStatement(node: Node) {
    const right = node.childForFieldName("right");
    if (right) this.visit(right);
    if (right) this.implicit(right, node.child(0)?.type === "async" ? 3 : 2);
    const left = node.childForFieldName("left");
    if (left) this.target(left, { k: "other", line: line(left) });
    for (const c of node.namedChildren) {
      if (c && c.type !== "comment" && c.id !== left?.id && c.id !== right?.id) this.visit(c);
    }
  }

  withItem(node: Node) {
    const v = node.namedChild(0);
    if (v?.type === "as_pattern") this.asPattern(v);
    else if (v) this.visit(v);
    const entered = v?.type === "as_pattern" ? v.namedChild(0) : v;
    if (entered) {
      this.implicit(entered, node.parent?.parent?.child(0)?.type === "async" ? 5 : 4);
    }
  }

  raiseStatement(node: Node) {
    this.children(node);
    const raised = node.namedChild(0);
    if (raised && raised.type !== "call") this.implicit(raised, 6);
  }

  /** An `except` clause: what it binds are fallbacks. */
  exceptClause(node: Node) {
    this.fb++;
    for (const c of node.namedChildren) {
      if (c?.type === "as_pattern") this.asPattern(c);
      else if (c) this.visit(c);
    }
    this.fb--;
  }

  /** `name := value`: binds in the nearest scope that is no comprehension. */
  namedExpression(node: Node) {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (value) this.visit(value);
    if (name) {
      let sc = this.cur;
      while (this.scopes[sc].kind === "comprehension") sc = this.scopes[sc].parent;
      this.bind(name.text, { k: "other", line: line(name) }, sc);
    }
  }

  caseClause(node: Node) {
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "case_pattern") this.pattern(c);
      else this.visit(c);
    }
  }

  typeAlias(node: Node) {
    const [name, value] = node.namedChildren;
    const id = name?.namedChild(0);
    if (id?.type === "identifier") this.bind(id.text, { k: "other", line: line(id) });
    if (value) this.visit(value);
  }

  /** `print x` / `exec code`: reported, and their expressions visited. */
  python2(node: Node) {
    this.errors.push({
      file: this.file,
      line: line(node),
      message: `Python 2 syntax: ${node.type.replace("_", " ")} (${clip(node.text)})`,
    });
    this.children(node);
  }

  /** Dotted source text of a name/attribute chain, allowing a `super()`/`C(...)` head; or null. */
  dotted(n: Node): string | null {
    const t = n.type;
    if (t === "identifier") return n.text;
    if (t === "attribute") {
      const [o, a] = fields(n, "object", "attribute");
      if (!o || !a) return null;
      let h: string | null;
      const ot = o.type;
      if (ot === "call") {
        const [f] = fields(o, "function", "arguments");
        if (!f) return null;
        const ft = f.type;
        if (ft === "identifier" && f.text === "super") h = "super()";
        else {
          const fh = ft === "identifier" || ft === "attribute" ? this.dotted(f) : null;
          h = fh === null || fh.includes("(") ? null : fh + "()";
        }
      } else if (ot === "identifier") h = o.text;
      else if (ot === "attribute") h = this.dotted(o);
      else return null;
      return h === null ? null : h + "." + a.text;
    }
    return null;
  }

  /** Visits the call at the head of an attribute chain (`C(args).m` → the `C(args)` call). */
  headCall(n: Node) {
    let x: Node | null = n;
    while (x && x.type === "attribute") x = fields(x, "object", "attribute")[0];
    if (x && x.type === "call") this.visit(x);
  }

  attribute(node: Node) {
    const text = this.dotted(node);
    if (text !== null) {
      this.use(text, node, "reference");
      if (text.includes("(")) this.headCall(node);
      return;
    }
    const [o] = fields(node, "object", "attribute");
    if (o) this.visit(o);
  }

  call(node: Node) {
    const [fn, args] = fields(node, "function", "arguments");
    const key = fn?.type === "subscript" ? constantPath(fn) ?? keyedPath(fn, this) : null;
    if (fn && key) {
      const at = this.uses.length;
      this.visit(fn);
      this.accesses.push({
        scope: this.cur,
        ...key,
        line: line(node),
        own: [at, this.uses.length],
        at: this.uses.length,
      });
    } else if (fn && args && this.updated(node, fn, args)) {
      return;
    } else if (fn) {
      const text = fn.type === "call" ? null : this.dotted(fn);
      if (text !== null) {
        this.use(text, node, "call");
        if (text.includes("(")) this.headCall(fn);
      } else this.visit(fn);
      // calling what a call returns (`make()()`): a call of the text `make()`
      if (fn.type === "call") {
        const inner = this.callText(fn);
        if (inner !== null && !inner.includes("(")) this.use(inner + "()", node, "call");
      }
    }
    if (args) this.visit(args);
  }

  /**
   * `d.update({"k": f}, k2=g)` with constant keys: constant-key writes of `d` (`d["k"] = f`) at
   * the call's line, so that container flow follows the overwritten elements; false (nothing
   * visited) for any other call.
   */
  updated(node: Node, fn: Node, args: Node): boolean {
    if (fn.type !== "attribute") return false;
    const [o, a] = fields(fn, "object", "attribute");
    if (o?.type !== "identifier" || a?.text !== "update") return false;
    const writes: Element[] = [];
    let positional = 0;
    for (const c of args.namedChildren) {
      if (!c || c.type === "comment") continue;
      if (c.type === "keyword_argument") {
        const [k, v] = fields(c, "name", "value");
        if (!k || !v || !this.written(`s:${k.text}`, v, writes)) return false;
      } else if (c.type === "dictionary" && positional++ === 0) {
        for (const pair of c.namedChildren) {
          if (!pair || pair.type === "comment") continue;
          const k = pair.type === "pair" ? pair.childForFieldName("key") : null;
          const v = pair.type === "pair" ? pair.childForFieldName("value") : null;
          const key = k ? constantKey(k) : null;
          if (key === null || !v || !this.written(key, v, writes)) return false;
        }
      } else return false;
    }
    const at = this.uses.length;
    this.use(`${o.text}.update`, node, "call");
    const from = this.uses.length;
    this.visit(args);
    const refs: [number, number] = [from, this.uses.length];
    for (const [i, w] of writes.entries()) {
      this.accesses.push({
        scope: this.cur,
        name: o.text,
        path: w.path,
        line: line(node),
        own: i === 0 ? [at, this.uses.length] : [at, at],
        write: { text: w.text, refs },
        at,
      });
    }
    return true;
  }

  /**
   * The writes of storing `value` under key path `path` (a nested literal replaces the whole
   * entry, then sets its elements); false when a nested key is not constant.
   */
  written(path: string, value: Node, out: Element[]): boolean {
    if (CONTAINERS.has(value.type)) {
      out.push({ path, text: null });
      return containerElements(value, path, out, (n) => this.dotted(n));
    }
    const t = value.type === "identifier" || value.type === "attribute" ? this.dotted(value) : null;
    out.push({ path, text: t !== null && !t.includes("(") ? t : null });
    return true;
  }

  decorated(node: Node) {
    const decorators: string[] = [];
    let def: Node | null = null;
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "decorator") {
        const e = c.namedChildren.find((x) => x && x.type !== "comment") ?? null;
        if (!e) continue;
        decorators.push(e.text);
        const text = e.type === "call" ? null : this.dotted(e);
        if (text !== null) {
          this.use(text, e, "decorator");
          if (text.includes("(")) this.headCall(e);
        } else this.visit(e);
      } else if (c.type === "function_definition" || c.type === "class_definition") def = c;
    }
    if (def?.type === "function_definition") this.func(def, decorators);
    else if (def) this.klass(def, decorators);
  }

  addDef(
    node: Node,
    name: string,
    kind: Definition["kind"],
    header: string,
    decorators: string[],
    body: Node | null,
  ): number {
    const id = [this.module, ...this.qual, name].join(".");
    const first = body ? firstStatement(body) : null;
    const def: Definition = {
      id,
      kind,
      file: this.file,
      start: line(node),
      end: lastRow(node),
      bodyStart: first ? line(first) : line(node),
      signature: header,
      docstring: body ? docstringOf(body) : null,
      decorators,
      internal: isInternal(id, this.inFunction > 0),
    };
    this.defs.push(def);
    this.defScopes.push(-1);
    const idx = this.defs.length - 1;
    this.bind(name, { k: "def", line: def.start, def: idx });
    return idx;
  }

  func(node: Node, decorators: string[]) {
    const nameNode = node.childForFieldName("name");
    const params = node.childForFieldName("parameters");
    const ret = node.childForFieldName("return_type");
    const body = node.childForFieldName("body");
    const name = nameNode?.text ?? "<anonymous>";
    const parentScope = this.scopes[this.cur];
    const kind = parentScope.kind === "class" ? "method" : "function";
    const headerEnd = (ret ?? params ?? nameNode ?? node).endIndex;
    const header = this.src.slice(node.startIndex, headerEnd);
    // defaults and annotations are evaluated in the enclosing scope
    const names: string[] = [];
    const types = new Map<string, string>();
    if (params) this.params(params, names, types);
    if (ret) this.visit(ret);
    const idx = this.addDef(node, name, kind, header, decorators, body);
    if (node.child(0)?.type === "async") this.defs[idx].async = true;
    const scope = this.newScope("function", idx);
    this.defScopes[idx] = scope;
    const sc = this.scopes[scope];
    if (
      kind === "method" && names.length > 0 &&
      !decorators.some((d) => d === "staticmethod" || d.endsWith(".staticmethod"))
    ) {
      sc.self = names[0];
      if (
        decorators.some((d) => d === "classmethod" || d.endsWith(".classmethod")) ||
        ["__new__", "__init_subclass__", "__class_getitem__"].includes(name)
      ) sc.selfIsClass = true;
    }
    const saved = this.cur;
    this.cur = scope;
    this.qual.push(name);
    this.inFunction++;
    // an annotated parameter is an instance of its declared class (`p: Plotter` → `p.plot()`)
    for (const n of names) {
      const text = types.get(n);
      this.bind(n, text ? { k: "new", line: line(node), text } : { k: "other", line: line(node) });
    }
    if (body) this.children(body);
    this.inFunction--;
    this.qual.pop();
    this.cur = saved;
  }

  /** Binds parameter names (collected into `names`), visiting defaults/annotations in place. */
  params(node: Node, names: string[], types?: Map<string, string>) {
    for (const c of node.namedChildren) {
      if (!c) continue;
      switch (c.type) {
        case "identifier":
          names.push(c.text);
          break;
        case "default_parameter":
        case "typed_default_parameter": {
          const n = c.childForFieldName("name");
          const ty = c.childForFieldName("type");
          const v = c.childForFieldName("value");
          if (ty) this.visit(ty);
          if (v) this.visit(v);
          if (n) this.paramName(n, names);
          if (n && ty && types) this.annotation(n, ty, types);
          break;
        }
        case "typed_parameter": {
          const ty = c.childForFieldName("type");
          if (ty) this.visit(ty);
          const n = c.namedChild(0);
          if (n && n.id !== ty?.id) this.paramName(n, names);
          if (n && ty && types) this.annotation(n, ty, types);
          break;
        }
        default:
          this.paramName(c, names);
      }
    }
  }

  /** A parameter annotated with a plain (dotted) class name: `p: Plotter`, `p: mod.Plotter`. */
  annotation(name: Node, type: Node, types: Map<string, string>) {
    const e = type.namedChild(0);
    if (name.type !== "identifier" || !e) return;
    const text = this.dotted(e);
    if (text !== null && !text.includes("(")) types.set(name.text, text);
  }

  paramName(n: Node, names: string[]) {
    if (n.type === "identifier") names.push(n.text);
    else if (n.type !== "comment") {
      for (const c of n.namedChildren) if (c) this.paramName(c, names);
    }
  }

  klass(node: Node, decorators: string[]) {
    const nameNode = node.childForFieldName("name");
    const supers = node.childForFieldName("superclasses");
    const body = node.childForFieldName("body");
    const name = nameNode?.text ?? "<anonymous>";
    const headerEnd = (supers ?? nameNode ?? node).endIndex;
    const header = this.src.slice(node.startIndex, headerEnd);
    const bases: string[] = [];
    if (supers) {
      for (const c of supers.namedChildren) {
        if (!c || c.type === "keyword_argument" || c.type === "comment") continue;
        const text = this.dotted(c);
        if (text !== null && !text.includes("(")) bases.push(text);
      }
      this.visit(supers);
    }
    const idx = this.addDef(node, name, "class", header, decorators, body);
    const scope = this.newScope("class", idx);
    this.defScopes[idx] = scope;
    this.scopes[scope].bases = bases;
    const saved = this.cur;
    this.cur = scope;
    this.qual.push(name);
    if (body) this.children(body);
    this.qual.pop();
    this.cur = saved;
  }

  lambda(node: Node) {
    const names: string[] = [];
    const params = node.childForFieldName("parameters");
    if (params) this.params(params, names);
    const scope = this.newScope("lambda", -1);
    const saved = this.cur;
    this.cur = scope;
    for (const n of names) this.bind(n, { k: "other", line: line(node) });
    const body = node.childForFieldName("body");
    if (body) this.visit(body);
    this.cur = saved;
  }

  comprehension(node: Node) {
    const kids = node.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
    const clauses = kids.filter((c) => c.type === "for_in_clause" || c.type === "if_clause");
    const body = kids.find((c) => c.type !== "for_in_clause" && c.type !== "if_clause");
    // the first iterable is evaluated in the enclosing scope
    const firstRight = clauses[0]?.type === "for_in_clause"
      ? clauses[0].childForFieldName("right")
      : null;
    if (firstRight) {
      this.visit(firstRight);
      this.implicit(firstRight, firstAsync(clauses[0]) ? 3 : 2);
    }
    const scope = this.newScope("comprehension", -1);
    const saved = this.cur;
    this.cur = scope;
    for (const [i, c] of clauses.entries()) {
      if (c.type === "for_in_clause") {
        const left = c.childForFieldName("left");
        const right = c.childForFieldName("right");
        if (i > 0 && right) {
          this.visit(right);
          this.implicit(right, firstAsync(c) ? 3 : 2);
        }
        if (left) this.target(left, { k: "other", line: line(left) });
      } else this.children(c);
    }
    if (body) this.visit(body);
    this.cur = saved;
  }

  importStmt(node: Node) {
    const l = line(node);
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "dotted_name") {
        const full = dottedName(c);
        this.bind(full.split(".")[0], { k: "module", line: l, module: full.split(".")[0] });
      } else if (c.type === "aliased_import") {
        const n = c.childForFieldName("name");
        const a = c.childForFieldName("alias");
        if (n && a) this.bind(a.text, { k: "module", line: l, module: dottedName(n) });
      }
    }
  }

  importFrom(node: Node) {
    const l = line(node);
    const m = node.childForFieldName("module_name");
    if (!m) return;
    let base: string;
    if (m.type === "relative_import") {
      const prefix = m.namedChildren.find((c) => c?.type === "import_prefix");
      const dots = prefix ? prefix.text.replace(/\s+/g, "").length : 0;
      const rest = m.namedChildren.find((c) => c?.type === "dotted_name");
      const parts = this.module.split(".");
      // a package's __init__ is its own base for one dot; a module's base is its package
      const keep = parts.length - dots + (this.isPackage ? 1 : 0);
      const baseParts = parts.slice(0, Math.max(0, keep));
      if (rest) baseParts.push(dottedName(rest));
      base = baseParts.join(".");
    } else base = dottedName(m);
    for (const c of node.namedChildren) {
      if (!c || c.id === m.id) continue;
      if (c.type === "wildcard_import") {
        (this.scopes[this.cur].stars ??= []).push({ module: base, line: l });
      } else if (c.type === "dotted_name") {
        const name = dottedName(c);
        this.bind(name, { k: "from", line: l, module: base, name });
      } else if (c.type === "aliased_import") {
        const n = c.childForFieldName("name");
        const a = c.childForFieldName("alias");
        if (n && a) this.bind(a.text, { k: "from", line: l, module: base, name: dottedName(n) });
      }
    }
  }

  assignment(node: Node) {
    const lefts: Node[] = [];
    let r: Node | null = node;
    let ty: Node | null = null;
    while (r && r.type === "assignment") {
      const left = r.childForFieldName("left");
      if (left) lefts.push(left);
      ty ??= r.childForFieldName("type");
      r = r.childForFieldName("right");
    }
    if (ty) this.visit(ty);
    const u0 = this.uses.length;
    if (r) this.visit(r);
    const refs: [number, number] = [u0, this.uses.length];
    if (r && lefts.length === 1 && lefts[0].type === "identifier" && CONTAINERS.has(r.type)) {
      const elements: Element[] = [];
      if (containerElements(r, "", elements, (n) => this.dotted(n))) {
        this.containers.push({
          scope: this.cur,
          name: lefts[0].text,
          line: line(r),
          elements,
          refs,
          length: r.type === "dictionary" ? undefined : namedKids(r).length,
        });
      }
    }
    const bounds = r && lefts.length === 1 && lefts[0].type === "identifier"
      ? sliceBounds(r)
      : null;
    if (r && bounds) {
      const source = r.namedChildren[0]!.text;
      this.accesses.push({
        scope: this.cur,
        name: source,
        path: "",
        line: line(r),
        own: refs,
        at: refs[1],
        slice: true,
      });
      this.containers.push({
        scope: this.cur,
        name: lefts[0].text,
        line: line(r),
        elements: [],
        refs: [refs[1], refs[1]],
        from: { name: source, bounds, line: line(r) },
      });
    }
    if (r && lefts.length === 1 && lefts[0].type === "subscript") {
      const key = constantPath(lefts[0]);
      if (key) {
        const at = this.uses.length;
        const text = r.type === "identifier" || r.type === "attribute" ? this.dotted(r) : null;
        this.target(lefts[0], { k: "other", line: line(lefts[0]) });
        this.accesses.push({
          scope: this.cur,
          ...key,
          line: line(lefts[0]),
          own: [at, this.uses.length],
          write: { text: text !== null && !text.includes("(") ? text : null, refs },
          at,
        });
        return;
      }
    }
    if (r && lefts.length === 1 && lefts[0].type === "identifier") {
      const text = r.type === "identifier" || r.type === "attribute" ? this.dotted(r) : null;
      this.stores.push({
        scope: this.cur,
        name: lefts[0].text,
        line: line(lefts[0]),
        block: node.parent?.parent?.id ?? -1,
        refs,
        alias: text !== null && !text.includes("("),
        fb: this.fb > 0,
      });
    }
    for (const left of lefts) if (r) this.assignPair(left, r);
    if (!r) { for (const left of lefts) this.target(left, { k: "other", line: line(left) }); }
  }

  /**
   * Binds one target to its value: a name or attribute to a dotted value (`alias`) or a call
   * result (`new`); a tuple/list target to a tuple/list value of the same length element by
   * element (`a, (b, c) = f, (g, h)`); anything else as `other`.
   */
  assignPair(left: Node, r: Node) {
    const l = line(left);
    let b: Binding = { k: "other", line: l };
    const lt = left.type;
    if (SEQUENCE_TARGETS.has(lt) && SEQUENCE_VALUES.has(r.type)) {
      const ls = left.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
      const rs = r.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
      const starred = [...ls, ...rs].some((c) =>
        c.type === "list_splat_pattern" || c.type === "list_splat"
      );
      if (!starred && ls.length === rs.length) {
        ls.forEach((x, i) => this.assignPair(x, rs[i]));
        return;
      }
    }
    if ((lt === "identifier" || lt === "attribute")) {
      let text = r.type === "call" ? this.callText(r) : this.dotted(r);
      let call = r.type === "call";
      if (call && (text === "staticmethod" || text === "classmethod")) {
        // `f = staticmethod(g)` is `g` for lookups
        const args = r.childForFieldName("arguments")?.namedChildren ?? [];
        const inner = args.length === 1 && args[0] ? this.dotted(args[0]) : null;
        if (inner !== null) [text, call] = [inner, false];
      }
      if (text !== null && !text.includes("(")) {
        b = call ? { k: "new", line: l, text } : { k: "alias", line: l, text };
      }
      const key = lt === "identifier" ? constantKey(r) : null;
      if (key !== null) b = { k: "const", line: l, key };
    }
    if (lt === "attribute") {
      this.instanceAttribute(left, b);
    } else if (lt === "identifier" && left.text === "__all__" && this.cur === 0) {
      const names = stringList(r);
      if (names) this.all = names;
    }
    this.target(left, b);
  }

  /** `self.x = value` in a method: binds `x` in the class's scope, evaluated in the method. */
  instanceAttribute(left: Node, b: Binding) {
    const sc = this.scopes[this.cur];
    if (sc.kind !== "function" || !sc.self || sc.selfIsClass || sc.parent < 0) return;
    const [o, a] = fields(left, "object", "attribute");
    if (!o || !a || o.type !== "identifier" || o.text !== sc.self) return;
    const cls = this.scopes[sc.parent];
    if (cls.kind !== "class") return;
    const attrBinding: Binding = { ...b, attr: 1, in: this.cur };
    const list = cls.bindings[a.text];
    if (list) list.push(attrBinding);
    else cls.bindings[a.text] = [attrBinding];
  }

  callText(call: Node): string | null {
    const f = call.childForFieldName("function");
    return f && f.type !== "call" ? this.dotted(f) : null;
  }

  augmented(node: Node) {
    const left = node.childForFieldName("left");
    const right = node.childForFieldName("right");
    if (right) this.visit(right);
    if (!left) return;
    if (left.type === "identifier") {
      if (left.text === "__all__" && this.cur === 0 && right) {
        const more = stringList(right);
        if (more) this.all = [...(this.all ?? []), ...more];
      }
      this.bind(left.text, { k: "other", line: line(left) });
    } else this.target(left, { k: "other", line: line(left) });
  }

  /** Binds an assignment/for/with target; loads inside it (`a[i]`, `obj.x`) are visited. */
  target(n: Node, b: Binding) {
    switch (n.type) {
      case "identifier":
        this.bind(n.text, { ...b });
        return;
      case "attribute": {
        const o = n.childForFieldName("object");
        if (o && o.type !== "identifier") this.visit(o);
        return;
      }
      case "subscript":
        return this.children(n);
      case "comment":
        return;
      default:
        for (const c of n.namedChildren) if (c) this.target(c, { k: "other", line: b.line });
    }
  }

  asPattern(n: Node) {
    const kids = n.namedChildren;
    const value = kids[0];
    if (value) this.visit(value);
    for (const c of kids.slice(1)) {
      if (c?.type === "as_pattern_target") {
        for (const t of c.namedChildren) if (t) this.target(t, { k: "other", line: line(t) });
      }
    }
  }

  /** Binds the capture names of a `case` pattern; class and value patterns are uses. */
  pattern(n: Node): void {
    switch (n.type) {
      case "identifier":
        if (n.text !== "_") this.bind(n.text, { k: "other", line: line(n) });
        return;
      case "dotted_name": {
        const ids = n.namedChildren;
        if (ids.length === 1 && n.parent?.type !== "class_pattern") return this.pattern(ids[0]!);
        this.use(dottedName(n), n, "reference");
        return;
      }
      case "keyword_pattern": {
        const kids = n.namedChildren;
        for (const c of kids.slice(1)) if (c) this.pattern(c);
        return;
      }
      case "string":
      case "integer":
      case "float":
      case "comment":
        return;
      default:
        if (n.type.endsWith("_pattern") || n.type === "as_pattern_target") {
          for (const c of n.namedChildren) if (c) this.pattern(c);
        } else this.visit(n);
    }
  }
}

type Visitor = (s: Summarizer, n: Node) => void;

/**
 * What {@link Summarizer.visit} does with each kind of node; any other kind has its children
 * visited.
 */
const VISITORS = new Map<string, Visitor>([
  ...[...LITERALS].map((t): [string, Visitor] => [t, () => {}]),
  ...[...COMPREHENSIONS].map((t): [string, Visitor] => [t, (s, n) => s.comprehension(n)]),
  ["identifier", (s, n) => s.use(n.text, n, "reference")],
  ["attribute", (s, n) => s.attribute(n)],
  ["call", (s, n) => s.call(n)],
  ["keyword_argument", (s, n) => {
    const v = fields(n, "name", "value")[1];
    if (v) s.visit(v);
  }],
  ["string", (s, n) => s.string(n)],
  ["decorated_definition", (s, n) => s.decorated(n)],
  ["function_definition", (s, n) => s.func(n, [])],
  ["class_definition", (s, n) => s.klass(n, [])],
  ["lambda", (s, n) => s.lambda(n)],
  ["import_statement", (s, n) => s.importStmt(n)],
  ["import_from_statement", (s, n) => s.importFrom(n)],
  ["future_import_statement", () => {}],
  ["global_statement", (s, n) => s.declaration(n)],
  ["nonlocal_statement", (s, n) => s.declaration(n)],
  ["assignment", (s, n) => s.assignment(n)],
  ["return_statement", (s, n) => s.returnStatement(n)],
  ["yield", (s, n) => {
    s.children(n);
    s.returned("?");
  }],
  ["augmented_assignment", (s, n) => s.augmented(n)],
  ["for_statement", (s, n) => s.forStatement(n)],
  ["with_item", (s, n) => s.withItem(n)],
  ["raise_statement", (s, n) => s.raiseStatement(n)],
  ["except_clause", (s, n) => s.exceptClause(n)],
  ["except_group_clause", (s, n) => s.exceptClause(n)],
  ["named_expression", (s, n) => s.namedExpression(n)],
  ["case_clause", (s, n) => s.caseClause(n)],
  ["type_alias_statement", (s, n) => s.typeAlias(n)],
  ["print_statement", (s, n) => s.python2(n)],
  ["exec_statement", (s, n) => s.python2(n)],
]);

/**
 * The two fields of a node that has exactly two named children in grammar order (`call`,
 * `attribute`, `keyword_argument`): one bulk `namedChildren` read instead of two field lookups,
 * falling back to the lookups when a comment sits between them.
 */
function fields(n: Node, first: string, second: string): [Node | null, Node | null] {
  const kids = n.namedChildren;
  if (kids.length === 2) return [kids[0], kids[1]];
  return [n.childForFieldName(first), n.childForFieldName(second)];
}

const CONTAINERS = new Set(["dictionary", "list", "tuple"]);

/** A constant key: a plain string or a non-negative integer literal. */
function constantKey(n: Node): string | null {
  if (n.type === "integer" && /^\d+$/.test(n.text)) return `i:${Number(n.text)}`;
  if (n.type === "string" && /^[rRuU]?("[^"\\{}]*"|'[^'\\{}]*')$/.test(n.text)) {
    return `s:${n.text.replace(/^[rRuU]?["']|["']$/g, "")}`;
  }
  return null;
}

/** `name[k1][k2]` with constant keys → the name and the key path `k1/k2`; else null. */
function constantPath(n: Node): { name: string; path: string } | null {
  const keys: string[] = [];
  let x: Node = n;
  while (x.type === "subscript") {
    const kids = x.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
    if (kids.length !== 2) return null;
    const k = constantKey(kids[1]);
    if (k === null) return null;
    keys.unshift(k);
    x = kids[0];
  }
  return x.type === "identifier" ? { name: x.text, path: keys.join("/") } : null;
}

/** The named children of a node, comments excluded. */
function namedKids(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
}

/**
 * `name[k1][KEY]` with constant keys but one that is a dotted name (`KEY`, `cfg.KEY`) → the
 * name, the key path with `?` for that key, and the key's text; else null.
 */
function keyedPath(
  n: Node,
  s: { dotted(n: Node): string | null },
): { name: string; path: string; key: string } | null {
  const keys: string[] = [];
  let key: string | null = null;
  let x: Node = n;
  while (x.type === "subscript") {
    const kids = namedKids(x);
    if (kids.length !== 2) return null;
    let k = constantKey(kids[1]);
    if (
      k === null && key === null && (kids[1].type === "identifier" || kids[1].type === "attribute")
    ) {
      key = s.dotted(kids[1]);
      if (key === null || key.includes("(")) return null;
      k = "?";
    }
    if (k === null) return null;
    keys.unshift(k);
    x = kids[0];
  }
  return x.type === "identifier" && key !== null
    ? { name: x.text, path: keys.join("/"), key }
    : null;
}

/** An integer literal, negative ones included (`-1`); else null. */
function intLiteral(n: Node): number | null {
  if (n.type === "integer" && /^\d+$/.test(n.text)) return Number(n.text);
  if (n.type === "unary_operator" && /^-\s*\d+$/.test(n.text)) {
    return -Number(n.text.replace(/^-\s*/, ""));
  }
  return null;
}

/** `name[a:b:c]` with literal integer (or omitted) bounds → `[a, b, c]` (null: omitted); else null. */
function sliceBounds(n: Node): (number | null)[] | null {
  if (n.type !== "subscript") return null;
  const kids = namedKids(n);
  if (kids.length !== 2 || kids[0].type !== "identifier" || kids[1].type !== "slice") return null;
  const bounds: (number | null)[] = [null, null, null];
  let part = 0;
  for (const c of kids[1].children) {
    if (!c || c.type === "comment") continue;
    if (c.type === ":") part++;
    else {
      const v = intLiteral(c);
      if (v === null || part > 2) return null;
      bounds[part] = v;
    }
  }
  return bounds;
}

/** The elements of a literal container by constant key path; false when a key is not constant. */
function containerElements(
  n: Node,
  prefix: string,
  out: Element[],
  dotted: (n: Node) => string | null,
): boolean {
  const kids = n.namedChildren.filter((c): c is Node => !!c && c.type !== "comment");
  for (const [i, c] of kids.entries()) {
    let key: string | null;
    let value: Node | null;
    if (n.type === "dictionary") {
      if (c.type !== "pair") return false;
      const k = c.childForFieldName("key");
      key = k ? constantKey(k) : null;
      value = c.childForFieldName("value");
    } else {
      if (c.type === "list_splat") return false;
      key = `i:${i}`;
      value = c;
    }
    if (key === null || !value) return false;
    const path = prefix ? `${prefix}/${key}` : key;
    if (CONTAINERS.has(value.type)) {
      if (!containerElements(value, path, out, dotted)) return false;
    } else {
      const t = value.type === "identifier" || value.type === "attribute" ? dotted(value) : null;
      out.push({ path, text: t !== null && !t.includes("(") ? t : null });
    }
  }
  return true;
}

/** Whether a comprehension's `for … in` clause is `async for`. */
function firstAsync(clause: Node): boolean {
  return clause.child(0)?.type === "async";
}

/** The number of lines of a source, as CPython counts them (a last newline ends a line). */
function lineCount(src: string): number {
  let lines = 1;
  for (let i = src.indexOf("\n"); i >= 0; i = src.indexOf("\n", i + 1)) lines++;
  return src.endsWith("\n") ? lines - 1 : lines;
}

function line(n: Node): number {
  return n.startPosition.row + 1;
}

/** CPython's end_lineno: the end row of the last token that is not a comment. */
export function lastRow(n: Node): number {
  let x: Node = n;
  for (;;) {
    const count = x.childCount;
    let next: Node | null = null;
    for (let i = count - 1; i >= 0; i--) {
      const c = x.child(i);
      if (!c || c.type === "comment" || c.startIndex === c.endIndex) continue;
      next = c;
      break;
    }
    if (!next) {
      const end = x.endPosition;
      return end.column === 0 && end.row > x.startPosition.row ? end.row : end.row + 1;
    }
    x = next;
  }
}

function firstStatement(block: Node): Node | null {
  for (const c of block.namedChildren) if (c && c.type !== "comment") return c;
  return null;
}

function dottedName(n: Node): string {
  return n.text.replace(/\s+/g, "");
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 60 ? one.slice(0, 57) + "..." : one;
}

/** The docstring of a module/class/function body: its first statement if a string literal. */
function docstringOf(body: Node): string | null {
  const first = firstStatement(body);
  if (!first || first.type !== "expression_statement" || first.namedChildCount !== 1) return null;
  const s = first.namedChild(0);
  if (!s) return null;
  if (s.type === "string") return cleanDoc(stringValue(s));
  if (s.type === "concatenated_string") {
    return cleanDoc(s.namedChildren.map((c) => (c ? stringValue(c) : "")).join(""));
  }
  return null;
}

function stringValue(s: Node): string {
  const t = s.text.replace(/^[rRuUbBfF]*/, "");
  const q = t.startsWith('"""') || t.startsWith("'''") ? 3 : 1;
  return t.slice(q, Math.max(q, t.length - q));
}

/** `inspect.cleandoc`: strips the first line, dedents the rest, drops blank edge lines. */
function cleanDoc(doc: string): string {
  const lines = doc.replaceAll("\t", "        ").split("\n");
  let indent = Infinity;
  for (const l of lines.slice(1)) {
    const stripped = l.trimStart();
    if (stripped) indent = Math.min(indent, l.length - stripped.length);
  }
  const out = [lines[0].trim()];
  for (const l of lines.slice(1)) {
    out.push(indent === Infinity ? l.trimEnd() : l.slice(indent).trimEnd());
  }
  while (out.length && !out[0]) out.shift();
  while (out.length && !out[out.length - 1]) out.pop();
  return out.join("\n");
}

/** The strings of a literal list/tuple of strings (`__all__`), or null. */
function stringList(n: Node): string[] | null {
  if (n.type !== "list" && n.type !== "tuple") return null;
  const out: string[] = [];
  for (const c of n.namedChildren) {
    if (!c || c.type === "comment") continue;
    if (c.type !== "string") return null;
    out.push(stringValue(c));
  }
  return out;
}
