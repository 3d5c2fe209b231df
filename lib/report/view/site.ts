/**
 * Writing a viewer site: a directory that opens from disk with no server and no network —
 * `index.html`, one page per configuration and per turn, the stylesheet and script under
 * `assets/`, and the content store under `files/` (each distinct file text once). The site is
 * written all or nothing (lib/util/fs.ts `writeDirAtomic`): a failure leaves the old site as it
 * was.
 *
 * @module
 */
import { Cache, sha256, writeDirAtomic } from "../../util/mod.ts";
import { HIGHLIGHT_VERSION } from "./highlight.ts";
import { ViewPool } from "./jobs.ts";
import type { TurnPage } from "./model.ts";
import { turnPage } from "./pages.ts";
import { ContentStore } from "./store.ts";
import { FileAddresses } from "./turn.ts";
import { chainHref, configHref, configName } from "./paths.ts";

/** What was written. */
export interface WrittenSite {
  /** The site directory. */
  out: string;
  /** Pages written (HTML files). */
  pages: number;
  /** Distinct file texts in the content store. */
  files: number;
  /** Bytes of every file of the site. */
  bytes: number;
  /** The site-relative path of each page, in order. */
  hrefs: string[];
}

/** A site being written (inside {@link writeSite}). */
export class Site {
  readonly store: ContentStore;
  readonly addresses: FileAddresses;
  readonly hrefs: string[] = [];
  bytes = 0;
  /** Called after each turn page is written (progress). */
  onPage?: () => void;

  constructor(readonly dir: string, readonly pool: ViewPool, cache?: Cache) {
    this.store = new ContentStore(dir, (text) => highlighted(text, pool, cache));
    this.addresses = new FileAddresses(this.store);
  }

  /** Writes a page (site-relative path). */
  async write(href: string, text: string): Promise<void> {
    const path = `${this.dir}/${href}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    const bytes = new TextEncoder().encode(text);
    await Deno.writeFile(path, bytes);
    this.bytes += bytes.length;
    this.hrefs.push(href);
  }

  /** Writes a turn's page. */
  turnPage(p: TurnPage): Promise<void> {
    const crumbs: [string, string | null][] = p.keys
      ? [
        ["Index", "index.html"],
        [configName(p.keys), configHref(p.keys)],
        [p.keys.chain, chainHref(p.keys)],
        [`turn ${p.keys.turn}`, null],
      ]
      : [[p.title, null]];
    return this.write(p.href, turnPage(p, crumbs)).then(() => this.onPage?.());
  }
}

const ASSETS = ["view.css", "view.js"];

/** A token list as cached: a flat list of whole numbers, four per token. */
const isTokens = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length % 4 === 0 && v.every((x) => Number.isInteger(x) && x >= 0);

/**
 * The tokens of a Python text: from the cache (namespace `view-tokens`, keyed by the text's
 * SHA-256) when there, else highlighted in the pool and stored (a re-run of `view` parses no
 * file again).
 */
async function highlighted(text: string, pool: ViewPool, cache?: Cache): Promise<number[]> {
  const key = cache ? sha256(text) : "";
  const hit = cache && await cache.get(key, isTokens);
  if (hit) return hit;
  const tokens = await pool.highlight(text);
  if (cache) await cache.set(key, tokens);
  return tokens;
}

/** The names of a site's own entries: a new site replaces these, and keeps anything else. */
const OURS = /^(index\.html|assets\/|files\/|turns\/|configs\/|audit\/|log\.html)/;

/**
 * Writes a site into `out` (all or nothing): `fill` writes the pages with the {@link Site} it is
 * given; the assets are written here. `workers` sizes the pool (default: one per core); `cache:
 * false` neither reads nor writes cached highlighting.
 */
export async function writeSite(
  out: string,
  fill: (site: Site) => Promise<void>,
  opts: { workers?: number; cache?: boolean } = {},
): Promise<WrittenSite> {
  const pool = new ViewPool(opts.workers ?? navigator.hardwareConcurrency ?? 2);
  const cache = opts.cache === false ? undefined : new Cache("view-tokens", HIGHLIGHT_VERSION);
  let summary: WrittenSite | undefined;
  try {
    await writeDirAtomic(out, async (dir) => {
      const site = new Site(dir, pool, cache);
      await Deno.mkdir(`${dir}/assets`, { recursive: true });
      for (const name of ASSETS) {
        const text = await Deno.readTextFile(new URL(`./assets/${name}`, import.meta.url));
        await Deno.writeTextFile(`${dir}/assets/${name}`, text);
        site.bytes += new TextEncoder().encode(text).length;
      }
      await fill(site);
      summary = {
        out,
        pages: site.hrefs.length,
        files: site.store.files,
        bytes: site.bytes + site.store.bytes,
        hrefs: site.hrefs,
      };
    }, { keep: (rel) => !OURS.test(rel) });
  } finally {
    pool.close();
  }
  return summary!;
}
