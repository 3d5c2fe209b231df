/**
 * Running an asynchronous function over items with a bounded number in flight: open files, child
 * processes or whole corpora stay bounded, and the items are started in order.
 *
 * @example
 * ```ts
 * import { eachLimited } from "./each.ts";
 * let inFlight = 0, most = 0;
 * const seen: number[] = [];
 * await eachLimited([1, 2, 3, 4, 5], async (n, i) => {
 *   most = Math.max(most, ++inFlight);
 *   await new Promise((r) => setTimeout(r, 5));
 *   seen[i] = n * 10;
 *   inFlight--;
 * }, 2);
 * console.assert(most === 2 && seen.join() === "10,20,30,40,50");
 * ```
 * @module
 */

/** Runs `fn` over the items (with each one's index) with at most `limit` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<unknown>,
  limit = 64,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
