/**
 * Keeping a use once per line: uses arrive line by line, and a use equal to one already kept on
 * the same line (`f(x) + f(y)`) is dropped. A line's kept uses are compared one by one, or through
 * a set of their keys once the line holds many (generated one-line tables of thousands of calls
 * would otherwise cost quadratic time).
 *
 * @example
 * ```ts
 * import { PerLine } from "./per_line.ts";
 * const seen = new PerLine<string>((a, b) => a === b, (a) => a);
 * console.assert(seen.add(1, "f") && !seen.add(1, "f") && seen.add(2, "f"));
 * ```
 * @module
 */
export class PerLine<T> {
  #line: number | undefined;
  #kept: T[] = [];
  #keys: Set<string> | null = null;

  /**
   * @param same whether two uses are equal
   * @param key a string equal for equal uses (used once a line holds `many`)
   */
  constructor(
    private readonly same: (a: T, b: T) => boolean,
    private readonly key: (a: T) => string,
    private readonly many = 32,
  ) {}

  /** Whether `item` is new on `line` (then it is remembered as kept). */
  add(line: number, item: T): boolean {
    if (line !== this.#line) {
      this.#line = line;
      this.#kept = [];
      this.#keys = null;
    }
    if (this.#keys) {
      const k = this.key(item);
      if (this.#keys.has(k)) return false;
      this.#keys.add(k);
    } else {
      for (const o of this.#kept) if (this.same(o, item)) return false;
      if (this.#kept.length >= this.many) this.#keys = new Set([...this.#kept, item].map(this.key));
    }
    this.#kept.push(item);
    return true;
  }
}
