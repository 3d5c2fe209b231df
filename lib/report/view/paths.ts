/**
 * Where each page of a site lives. Names come from configuration, chain and file names, which
 * are hostile: a name is used as is only when it is a plain lower-case word
 * (`[a-z0-9][a-z0-9._-]*`, at most 60 characters); anything else becomes its safe characters plus
 * a hash of the original, so two names never share a page and no name can climb out of the site.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slug, turnHref } from "./paths.ts";
 * assert.equal(slug("seaborn-001"), "seaborn-001");
 * assert.match(slug("../../etc/passwd"), /^etc_passwd-[0-9a-f]{8}$/);
 * assert.notEqual(slug("A"), slug("a"));
 * assert.equal(
 *   turnHref({ harness: "mini", model: "m", memory: "none", chain: "c-1", turn: 2 }),
 *   `turns/${slug("mini__m__none")}/c-1/t2.html`,
 * );
 * ```
 * @module
 */
import { slug } from "../../util/slug.ts";

export { slug };

type Keys = { harness: string; model: string; memory: string };

/** The configuration's name in paths and titles (`harness__model__memory`). */
export function configName(k: Keys): string {
  return `${k.harness}__${k.model}__${k.memory}`;
}

/** The page of a configuration (its chains, each a strip of turns). */
export function configHref(k: Keys): string {
  return `configs/${slug(configName(k))}.html`;
}

/** The anchor of a chain on its configuration's page. */
export function chainAnchor(chain: string): string {
  return `chain-${slug(chain)}`;
}

/** A chain's place: its configuration's page, at the chain. */
export function chainHref(k: Keys & { chain: string }): string {
  return `${configHref(k)}#${chainAnchor(k.chain)}`;
}

/** The page of a turn. */
export function turnHref(k: Keys & { chain: string; turn: number }): string {
  return `turns/${slug(configName(k))}/${slug(k.chain)}/t${Math.trunc(k.turn)}.html`;
}

/** The relative path from a page at `from` (site-relative) to `to` (site-relative). */
export function relHref(from: string, to: string): string {
  const depth = from.split("/").length - 1;
  return "../".repeat(depth) + to;
}
