/**
 * Preloaded by `deno task test`: makes `console.assert` throw, so the `console.assert` lines of
 * the JSDoc examples (run by `deno test --doc`) fail their test instead of only printing
 * "Assertion failed".
 *
 * @module
 */
const original = console.assert.bind(console);
console.assert = (condition?: boolean, ...data: unknown[]): void => {
  if (!condition) {
    original(condition, ...data);
    throw new Error(`console.assert failed${data.length ? `: ${data.map(String).join(" ")}` : ""}`);
  }
};
