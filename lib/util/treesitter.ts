/**
 * Loading tree-sitter grammars (Python, Bash) from the wasm files their npm packages ship.
 *
 * The wasm is read from `node_modules` (Deno's `nodeModulesDir: "auto"`); nothing is committed.
 *
 * @example
 * ```ts
 * import { parserFor } from "./treesitter.ts";
 * const parser = await parserFor("python");
 * const tree = parser.parse("def f():\n    pass\n")!;
 * console.assert(tree.rootNode.type === "module");
 * ```
 * @module
 */
import { Language, Parser, Query } from "web-tree-sitter";

export type { Node, Tree } from "web-tree-sitter";
export { Language, Parser, Query };

/** Grammars the project uses. */
export type Grammar = "python" | "bash";

const WASM: Record<Grammar, string> = {
  python: "tree-sitter-python/tree-sitter-python.wasm",
  bash: "tree-sitter-bash/tree-sitter-bash.wasm",
};

let init: Promise<void> | undefined;
const languages = new Map<Grammar, Promise<Language>>();

/** Absolute path of the project's `node_modules` directory. */
export function nodeModulesDir(): string {
  return new URL("../../node_modules/", import.meta.url).pathname;
}

/** The tree-sitter language for a grammar (loaded once per process). */
export function language(grammar: Grammar): Promise<Language> {
  let lang = languages.get(grammar);
  if (!lang) {
    init ??= Parser.init();
    const path = nodeModulesDir() + WASM[grammar];
    lang = init.then(async () => {
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(path);
      } catch (e) {
        throw new Error(
          `cannot load the ${grammar} grammar from ${path} (run \`deno install\` first): ${e}`,
        );
      }
      return Language.load(bytes);
    });
    languages.set(grammar, lang);
  }
  return lang;
}

/** A new parser set to a grammar. Parsers are cheap; keep one per worker and reuse it. */
export async function parserFor(grammar: Grammar): Promise<Parser> {
  const lang = await language(grammar);
  const parser = new Parser();
  parser.setLanguage(lang);
  return parser;
}
