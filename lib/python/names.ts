/**
 * Naming rules of the Python code model: module ids from paths, the builtin names, and the
 * "internal" rule.
 *
 * @example
 * ```ts
 * import { BUILTINS, isInternal, moduleName } from "./names.ts";
 * console.assert(moduleName("seaborn/_core/rules.py") === "seaborn._core.rules");
 * console.assert(moduleName("pkg/__init__.py") === "pkg");
 * console.assert(BUILTINS.has("len") && !BUILTINS.has("numpy"));
 * console.assert(isInternal("seaborn._core.rules.categorical_order"));
 * console.assert(!isInternal("seaborn.axisgrid.FacetGrid.__init__"));
 * ```
 * @module
 */

/**
 * Python 3's builtin functions and types (the callables of the `builtins` module, CPython 3.11,
 * including the exception classes and the `site` helpers `exit`, `quit`, `help`).
 */
export const BUILTINS: ReadonlySet<string> = new Set(
  "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError __import__ abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip"
    .split(" "),
);

/**
 * The public methods of Python's builtin strings, bytes and containers (`str`, `bytes`,
 * `bytearray`, `list`, `tuple`, `dict`, `set`, `frozenset`; CPython 3.11): a method call with one
 * of these names on a value of unknown type is most likely a builtin, and the reuse audit's
 * callee keys (`Project.calleeKeys`) leave it out.
 */
export const BUILTIN_METHODS: ReadonlySet<string> = new Set(
  "add append capitalize casefold center clear copy count decode difference difference_update discard encode endswith expandtabs extend find format format_map fromhex fromkeys get hex index insert intersection intersection_update isalnum isalpha isascii isdecimal isdigit isdisjoint isidentifier islower isnumeric isprintable isspace issubset issuperset istitle isupper items join keys ljust lower lstrip maketrans partition pop popitem remove removeprefix removesuffix replace reverse rfind rindex rjust rpartition rsplit rstrip setdefault sort split splitlines startswith strip swapcase symmetric_difference symmetric_difference_update title translate union update upper values zfill"
    .split(" "),
);

/**
 * The public methods of the standard library's compiled patterns and matches (`re.Pattern`,
 * `re.Match`; CPython 3.11): `pattern.match(s)`, `m.group(1)`, `m.end()` on a value of unknown type
 * are the language's regular expressions, not a project's helpers — parsers of one project all
 * call them — and the reuse audit's callee keys (`Project.calleeKeys`) leave them out as they do
 * {@link BUILTIN_METHODS}.
 */
export const REGEX_METHODS: ReadonlySet<string> = new Set(
  "end expand findall finditer fullmatch group groupdict groups match scanner search span split start sub subn"
    .split(" "),
);

/**
 * Module id of a workspace-relative path of a `.py` file: `"seaborn/_core/rules.py"` →
 * `"seaborn._core.rules"`, `"pkg/__init__.py"` → `"pkg"`. Backslashes count as separators.
 */
export function moduleName(path: string): string {
  let p = path.replaceAll("\\", "/").replace(/^\.\//, "");
  p = p.replace(/\.pyi?$/, "");
  const parts = p.split("/").filter((s) => s !== "" && s !== ".");
  if (parts.length > 1 && parts[parts.length - 1] === "__init__") parts.pop();
  return parts.join(".");
}

/** Whether one dotted component names something private: `_x` but not a dunder `__x__`. */
export function isPrivateName(name: string): boolean {
  return name.startsWith("_") && !(name.length > 4 && name.startsWith("__") && name.endsWith("__"));
}

/**
 * The internal rule: a symbol lies beneath the package's public API when any component of its
 * dotted id (module path after the package's own name, or its qualified name) is private
 * (`_`-prefixed but not a dunder), or when it is defined inside a function (a local def cannot
 * be reached from outside). So `seaborn._core.rules.categorical_order`, `pkg.mod._helper` and
 * `pkg.mod.f.inner` are internal; `pkg.mod.C.__init__` and `pkg.mod.f` are not.
 *
 * @param id dotted id of the symbol
 * @param insideFunction whether it is defined within a function body
 */
export function isInternal(id: string, insideFunction = false): boolean {
  if (insideFunction) return true;
  const parts = id.split(".");
  // the package's own name (first component) never counts: a private root is still the root
  for (let i = 1; i < parts.length; i++) if (isPrivateName(parts[i])) return true;
  return false;
}
