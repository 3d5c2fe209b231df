/**
 * Walking a bash syntax tree (tree-sitter-bash) as the shell would run it: lists with `&&`,
 * `||`, `;`, subshells, pipelines with redirections and here-documents, `cd` — each pipeline
 * simulated stage by stage over the workspace (see commands.ts), its writes applied in order.
 *
 * @module
 */
import type { Node } from "../../util/mod.ts";
import type { EventKind } from "../types.ts";
import { type TurnWorkspace, UNKNOWN } from "../workspace.ts";
import {
  type Call,
  type OutLine,
  runStage,
  SILENT,
  type StageResult,
  type Stream,
} from "./commands.ts";
import { isGlob, wordValue } from "./words.ts";

/** One simulated pipeline with its place in the action. */
export interface Seg {
  text: string;
  res: StageResult;
  /** The stage results of every stage (for writes). */
  stages: StageResult[];
  /** True when the whole pipeline's stdout goes to a file or /dev/null. */
  silent: boolean;
  /** Skipped by `&&`/`||`. */
  skipped: boolean;
  /** Output lines: simulated, [] when silent, null when unknown. */
  out: OutLine[] | null;
  stream: Stream;
  failed: boolean;
  /** Index of the first output line in the action output, when aligned. */
  offset?: number;
  other?: string;
  /** Last executed segment (its status is the action's). */
  last?: boolean;
  /** `cd`, `export`…: no event of its own. */
  quietBuiltin?: boolean;
}

/** Commands that get no event of their own (they change the shell, not the workspace). */
const QUIET: ReadonlySet<string> = new Set(["cd", ...SILENT]);

const HEREDOC_PARTS = new Set([
  "heredoc_start",
  "heredoc_body",
  "heredoc_end",
  "file_redirect",
  "heredoc_content",
]);

/** Commands piped after a here-document start (`cat <<EOF | a && b` → `a`). */
function pipeStages(r: Node): Node[] {
  const out: Node[] = [];
  let op = "";
  for (const c of r.children) {
    if (!c) continue;
    if (!c.isNamed) {
      op = c.type;
      continue;
    }
    if (HEREDOC_PARTS.has(c.type)) continue;
    if (c.type === "pipeline") {
      for (const k of c.namedChildren) {
        if (!k) continue;
        if (k.type === "list") {
          const first = k.namedChildren[0];
          if (first) out.push(first);
        } else out.push(k);
      }
    } else if (op === "|" || op === "|&") out.push(c);
  }
  return out;
}

export interface Scope {
  cwd: string | undefined;
}

export class Interp {
  segs: Seg[] = [];
  lastFailed = false;
  constructor(
    readonly ws: TurnWorkspace,
    readonly obsText: string | undefined,
    readonly single: boolean,
  ) {}

  stmt(n: Node, scope: Scope, skip: boolean, redirects: Node[] = []): void {
    if (redirects.length) {
      // redirections written after a list (`cd a && cat <<EOF > f`) belong to its last command
      if (n.type === "list") {
        const kids = n.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
        const last = kids[kids.length - 1];
        // (tree-sitter hands out new node objects: compare positions, not identity)
        this.listOf(n, scope, skip, (c) => (c.startIndex === last.startIndex ? redirects : []));
        return;
      }
      if (n.type === "command" || n.type === "pipeline" || n.type === "redirected_statement") {
        this.pipeline(n, scope, skip, redirects);
        return;
      }
    }
    switch (n.type) {
      case "program":
      case "compound_statement":
        for (const c of n.namedChildren) if (c && c.type !== "comment") this.stmt(c, scope, skip);
        return;
      case "subshell": {
        const inner: Scope = { cwd: scope.cwd };
        for (const c of n.namedChildren) if (c && c.type !== "comment") this.stmt(c, inner, skip);
        return;
      }
      case "list":
        this.listOf(n, scope, skip, () => []);
        return;
      case "pipeline":
      case "command":
        this.pipeline(n, scope, skip);
        return;
      case "redirected_statement": {
        const body = n.childForFieldName("body");
        if (body && body.type !== "command" && body.type !== "pipeline") {
          const rs = n.childrenForFieldName("redirect").filter((r): r is Node => r !== null);
          // (the here-document's continuation runs with the last command's pipeline)
          this.stmt(body, scope, skip, rs);
          return;
        }
        this.pipeline(n, scope, skip);
        return;
      }
      case "variable_assignment":
      case "declaration_command":
        return;
      case "negated_command": {
        const inner = n.namedChildren[0];
        if (inner) this.stmt(inner, scope, skip);
        this.lastFailed = !this.lastFailed;
        return;
      }
      default:
        this.segs.push({
          text: n.text,
          res: {
            stream: { lines: null },
            kind: "other",
            paths: [],
            other: `unsupported shell construct: ${n.type}`,
          },
          stages: [],
          silent: false,
          skipped: skip,
          out: null,
          stream: { lines: null },
          failed: false,
          other: `unsupported shell construct: ${n.type}`,
        });
    }
  }

  /** Runs `a && b || c ; d` left to right with the shell's short-circuit rules. */
  listOf(n: Node, scope: Scope, skip: boolean, redirectsFor: (c: Node) => Node[]): void {
    const kids = n.children.filter((c): c is Node => c !== null);
    let first = true;
    let op = ";";
    for (const c of kids) {
      if (!c.isNamed) {
        op = c.type;
        continue;
      }
      if (c.type === "comment") continue;
      this.step(op, first, c, scope, skip, redirectsFor(c));
      first = false;
    }
  }

  /** One list item after operator `op`: skipped by `&&` after a failure, `||` after a success. */
  step(
    op: string,
    first: boolean,
    c: Node,
    scope: Scope,
    skip: boolean,
    redirects: Node[] = [],
  ): void {
    let s = skip;
    if (!first && !skip) {
      if (op === "&&" && this.lastFailed) s = true;
      if (op === "||" && !this.lastFailed) s = true;
    }
    if (s && !skip) {
      // a skipped statement keeps the previous status
      const saved = this.lastFailed;
      this.stmt(c, scope, true, redirects);
      this.lastFailed = saved;
    } else this.stmt(c, scope, s, redirects);
  }

  /**
   * What tree-sitter-bash hangs inside a here-document redirect: the rest of the line after
   * `<<EOF` (`&& python f.py`, `| python3 && echo ok`). Pipe continuations are pipeline stages
   * (see {@link pipeStages}); the others run after the statement.
   */
  continuation(redirects: Node[], scope: Scope, skip: boolean): void {
    for (const r of redirects) {
      if (r.type !== "heredoc_redirect") continue;
      let op = ";";
      for (const c of r.children) {
        if (!c) continue;
        if (!c.isNamed) {
          if (["&&", "||", ";", "|", "|&"].includes(c.type)) op = c.type;
          continue;
        }
        if (HEREDOC_PARTS.has(c.type) || op === "|" || op === "|&") continue;
        if (c.type === "pipeline") {
          // `| a && b`: a was a stage; b follows with its operator
          const inner = c.namedChildren[0];
          if (inner?.type === "list") {
            let iop = ";";
            let seenFirst = false;
            for (const k of inner.children) {
              if (!k) continue;
              if (!k.isNamed) {
                iop = k.type;
                continue;
              }
              if (!seenFirst) {
                seenFirst = true;
                continue;
              }
              this.step(iop, false, k, scope, skip);
            }
          }
          continue;
        }
        this.step(op, false, c, scope, skip);
      }
    }
  }

  pipeline(n: Node, scope: Scope, skip: boolean, extra: Node[] = []): void {
    const own = (st: Node): Node[] =>
      st.type === "redirected_statement"
        ? st.childrenForFieldName("redirect").filter((r): r is Node => r !== null)
        : [];
    const base = n.type === "pipeline"
      ? n.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment")
      : [n];
    // each stage with its redirections; `cat <<EOF | python3`: the piped commands hang inside
    // the here-document redirect and become the next stages
    const stagesNodes: Node[] = [];
    const stageRedirects: Node[][] = [];
    base.forEach((st, k) => {
      const rs = [...own(st), ...(k === base.length - 1 ? extra : [])];
      stagesNodes.push(st);
      stageRedirects.push(rs);
      for (const r of rs) {
        if (r.type !== "heredoc_redirect") continue;
        for (const p of pipeStages(r)) {
          stagesNodes.push(p);
          stageRedirects.push(own(p));
        }
      }
    });
    const redirectsOf = (_st: Node, idx: number): Node[] => stageRedirects[idx];
    let input: Stream | undefined;
    const results: StageResult[] = [];
    let silent = false;
    let other: string | undefined;
    const writes: StageResult["writes"] = [];
    let firstName: string | undefined;
    stagesNodes.forEach((st, idx) => {
      let body: Node | null = st;
      let stdin: string | undefined;
      let outFile: { path: string; append: boolean } | "null" | "unknown" | undefined;
      let quietErrors = false;
      const rs = redirectsOf(st, idx);
      if (st.type === "redirected_statement") body = st.childForFieldName("body");
      if (rs.length) {
        for (const r of rs) {
          if (r.type === "heredoc_redirect") {
            const b = r.namedChildren.find((c) => c?.type === "heredoc_body");
            stdin = b ? b.text.replace(/\n$/, "") + "\n" : "";
            // `cat <<EOF > f`: a file redirect nested inside the heredoc redirect
            for (const fr of r.namedChildren) {
              if (fr?.type === "file_redirect") outFile = this.fileRedirect(fr, scope) ?? outFile;
            }
          } else if (r.type === "herestring_redirect") {
            const w = r.namedChildren[0];
            stdin = w ? (wordValue(w) ?? "") + "\n" : "";
          } else if (r.type === "file_redirect") {
            const desc = r.namedChildren.find((c) => c?.type === "file_descriptor")?.text;
            const op = r.children.find((c) => c && !c.isNamed)?.type ?? ">";
            const dest = r.childForFieldName("destination");
            const dv = dest ? wordValue(dest) : undefined;
            if (op === "<") {
              // input from a file: cat < f
              if (dv !== undefined) {
                const rel = this.ws.resolve(dv, scope.cwd);
                const content = rel ? this.ws.read(rel) : undefined;
                if (typeof content === "string") stdin = content;
              }
              continue;
            }
            if (desc === "2") {
              if (dv === "/dev/null" || op === ">&" && dv === "1") quietErrors = dv === "/dev/null";
              continue;
            }
            if (
              op === ">&" || op === "&>" || op === ">" || op === ">>" || op === "&>>" || op === ">|"
            ) {
              if (op === ">&" && (dv === "2" || dv === "1")) continue;
              if (op.startsWith("&")) quietErrors = true;
              outFile = this.fileRedirect(r, scope);
            }
          }
        }
      }
      if (!body) return;
      if (body.type !== "command") {
        other = `unsupported shell construct: ${body.type}`;
        input = { lines: null };
        return;
      }
      const nameNode = body.childForFieldName("name");
      const name = nameNode ? wordValue(nameNode.namedChildren[0] ?? nameNode) : undefined;
      const argNodes = body.childrenForFieldName("argument").filter((a): a is Node => a !== null);
      let args = argNodes.map((a) => isGlob(a) ? undefined : wordValue(a));
      let cmd = name?.replace(/^.*\//, "");
      // wrappers: `sudo x`, `timeout 10 x`, `env A=b x`, `xargs grep …`, `command x`
      while (
        cmd && ["sudo", "timeout", "env", "command", "nice", "stdbuf", "time"].includes(cmd) &&
        args.length
      ) {
        if (cmd === "timeout") args = args.slice(1);
        while (args.length && (args[0] === undefined || /^-|=/.test(args[0]!))) {
          args = args.slice(1);
        }
        cmd = args.shift()?.replace(/^.*\//, "");
      }
      if (cmd && /^python3?(\.\d+)?$/.test(cmd)) {
        cmd = cmd.startsWith("python3") ? "python3" : "python";
      }
      if (cmd === undefined) {
        other = "command name not known";
        input = { lines: null };
        return;
      }
      if (idx === 0) firstName = cmd;
      let observed: string | undefined;
      let fromPipe = false;
      if (this.single && idx === 0) observed = this.obsText;
      if (cmd === "xargs") {
        // `… | xargs grep -n pat`: the files come from the input; the output names them
        const inner = args.filter((a) => a === undefined || !a.startsWith("-"));
        const sub = inner.shift();
        if (sub === "grep" || sub === "egrep" || sub === "fgrep") {
          cmd = sub;
          args = [...args.slice(args.indexOf(sub) + 1), "-r", "-H"].filter((a) =>
            a !== "-H" || true
          );
          observed = this.single ? this.obsText : undefined;
          input = undefined;
          fromPipe = true;
        } else if (sub === "cat" || sub === "head" || sub === "wc" || sub === "sed") {
          results.push({
            stream: { lines: null },
            kind: "read",
            paths: [],
            other: "file names come from a pipe",
          });
          input = { lines: null };
          return;
        }
      }
      const call: Call = {
        name: cmd,
        args,
        globs: argNodes.map(isGlob),
        input: idx === 0 ? undefined : input ?? { lines: null },
        stdin,
        ws: this.ws,
        cwd: scope.cwd,
        quietErrors,
        observed,
        fromPipe,
      };
      let res = runStage(call);
      if (fromPipe) res = { ...res, primary: true };
      if (res.needsOutput && observed === undefined) {
        res = { ...res, other: res.other };
      }
      if (res.cd !== undefined && !skip) scope.cwd = res.cd ?? undefined;
      if (res.writes && !skip) writes.push(...res.writes);
      if (outFile !== undefined) {
        // stdout goes to a file: nothing shown; the file gets the stream
        silent = idx === stagesNodes.length - 1 ? true : silent;
        if (outFile !== "null" && outFile !== "unknown" && !skip) {
          const lines = res.stream.lines;
          const text = lines ? lines.map((l) => l.text + "\n").join("") : undefined;
          const prev = outFile.append ? this.ws.read(outFile.path) : undefined;
          const content = text === undefined
            ? UNKNOWN
            : outFile.append
            ? typeof prev === "string" ? prev + text : prev === undefined ? text : UNKNOWN
            : text;
          writes.push({ path: outFile.path, content });
        }
        input = { lines: [] };
      } else input = res.stream;
      results.push(res);
    });
    if (!skip) {
      for (const w of writes) {
        if (w.content === null) this.ws.remove(w.path);
        else this.ws.write(w.path, w.content);
      }
    }
    const source = results.find((r) => r.primary) ?? results[0] ??
      { stream: { lines: null }, kind: "other" as EventKind, paths: [] };
    const lastRes = results[results.length - 1];
    const stream = silent ? { lines: [] } : input ?? { lines: null };
    const failed = lastRes?.failed ?? false;
    if (!skip) this.lastFailed = failed;
    const kind: EventKind = other ? "other" : source.kind;
    const heredocs = stagesNodes.flatMap((st, k) => redirectsOf(st, k));
    this.segs.push({
      text: n.text,
      res: { ...source, kind, paths: source.paths, writes },
      stages: results,
      silent,
      skipped: skip,
      out: silent ? [] : stream.lines,
      stream,
      failed: source.failed ?? false,
      other: other ?? source.other ?? results.find((r) => r.other)?.other,
      quietBuiltin: results.length === 1 && QUIET.has(firstName ?? "") && !silent,
    });
    this.continuation(heredocs, scope, skip);
  }

  fileRedirect(r: Node, scope: Scope): { path: string; append: boolean } | "null" | "unknown" {
    const dest = r.childForFieldName("destination");
    const dv = dest ? wordValue(dest) : undefined;
    const op = r.children.find((c) => c && !c.isNamed)?.type ?? ">";
    if (dv === undefined) return "unknown";
    if (dv === "/dev/null" || dv === "/dev/stderr" || dv === "/dev/stdout") {
      return dv === "/dev/stdout" ? "unknown" : "null";
    }
    const rel = this.ws.resolve(dv, scope.cwd);
    if (!rel) return "null";
    return { path: rel, append: op === ">>" || op === "&>>" };
  }
}

/** A segment that may have printed something (reads with an empty simulation included). */
export function isLoud(s: Seg): boolean {
  if (s.skipped || s.silent || s.quietBuiltin) return false;
  return s.res.kind === "read" || s.res.kind === "search" || !isQuiet(s);
}

function isQuiet(s: Seg): boolean {
  return s.out !== null && s.out.length === 0;
}
