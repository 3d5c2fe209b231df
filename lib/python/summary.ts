/**
 * Phase 1 of the code model: one Python file → a serialisable {@link ModuleSummary} (definitions,
 * scopes with their bindings, imports, raw uses with their dotted source text). No cross-module
 * knowledge is needed here, so summaries can be computed in workers and cached by content hash;
 * `project.ts` resolves them against each other (phase 2).
 *
 * Line numbers of definitions are CPython's `ast` `lineno`/`end_lineno`: the `def`/`class` line
 * (decorators excluded) to the last line of the last statement of the body (trailing comments
 * excluded, which tree-sitter puts inside the block).
 *
 * @example
 * ```ts
 * import { summarize } from "./summary.ts";
 * const s = await summarize("import os\n\ndef f(x):\n    return os.path.join(x)\n# end\n", "m.py", "pkg.m");
 * console.assert(s.definitions[0].id === "pkg.m.f");
 * console.assert(s.definitions[0].start === 3 && s.definitions[0].end === 4);
 * console.assert(s.uses[0][1] === "os.path.join");
 * ```
 *
 * The work is in three modules: the summary format (lib/python/summary_format.ts), the syntax
 * walk (lib/python/visitor.ts) and the data flow after it (lib/python/flow.ts); which parser's
 * tree is walked is lib/python/parser_choice.ts's decision.
 * @module
 */
import { type PythonParser, pythonParser, rootOf } from "./direct.ts";
import { nativeTree } from "./parser_choice.ts";
import { MAX_SOURCE_BYTES, type ModuleSummary, tooLargeMessage } from "./summary_format.ts";
import { Summarizer } from "./visitor.ts";
import type { AnalysisError } from "./types.ts";
import type { Tree } from "web-tree-sitter";

/** Summarises one module's source (phase 1). `file` is package-relative, `module` its dotted id. */
export async function summarize(
  source: string,
  file: string,
  module: string,
): Promise<ModuleSummary> {
  return summarizeWith(await pythonParser(), source, file, module);
}

/** {@link summarize} with a given parser (workers keep one). */
export function summarizeWith(
  fp: PythonParser,
  source: string,
  file: string,
  module: string,
): ModuleSummary {
  const isPackage = /(^|\/)__init__\.pyi?$/.test(file);
  const errors: AnalysisError[] = [];
  if (source.length > MAX_SOURCE_BYTES) {
    errors.push({ file, line: null, message: tooLargeMessage(source.length) });
    return new Summarizer("", file, module, isPackage, errors).result();
  }
  // the native parser's tree, or null for the wasm parser's (lib/python/parser_choice.ts)
  const flat = nativeTree(fp, source, file);
  const s = new Summarizer(source, file, module, isPackage, errors);
  if (flat) {
    try {
      s.run(flat);
    } catch (e) {
      errors.push({ file, line: null, message: `analysis stopped: ${e}` });
    }
    return s.result();
  }
  let tree: Tree | null = null;
  try {
    tree = fp.parser.parse(source);
  } catch (e) {
    errors.push({ file, line: null, message: `tree-sitter failed: ${e}` });
  }
  if (tree) {
    try {
      const root = rootOf(tree, source, fp);
      s.run(root);
      if (root.hasError) s.findErrors(root);
    } catch (e) {
      errors.push({ file, line: null, message: `analysis stopped: ${e}` });
    } finally {
      tree.delete();
    }
  }
  return s.result();
}
