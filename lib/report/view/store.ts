/**
 * The site's content store: each distinct file text is written once, as
 * `files/<aa>/<address>.js`, and every page that shows it loads that one script. The address is
 * a hash of the text (and of the highlighter's version), so a repository shared by 3,750 turn
 * pages is stored once, and a page loads only the files it shows.
 *
 * A stored file is a script calling `RV.file(address, { t: text, k: tokens, n: lines })` — a
 * script rather than JSON because a page opened from disk (`file://`) may load scripts but not
 * fetch files. The text is encoded by {@link safeJson}: no text can end the script.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ContentStore } from "./store.ts";
 * const dir = await Deno.makeTempDir();
 * const store = new ContentStore(dir, async () => []);
 * const a = await store.put("a.txt", "hello\n");
 * assert.equal(await store.put("b.txt", "hello\n"), a); // same text, one file
 * assert.equal(store.files, 1);
 * assert.match(await Deno.readTextFile(`${dir}/${ContentStore.path(a)}`), /^RV\.file\("[0-9a-f]{32}",/);
 * ```
 * @module
 */
import { sha256 } from "../../util/mod.ts";
import { HIGHLIGHT_VERSION } from "./highlight.ts";
import { safeJson } from "./html.ts";

/** Whether a path is highlighted as Python. */
export function isPythonPath(path: string): boolean {
  return /\.pyi?$/.test(path);
}

/** Lines of a text (a final newline ends the last line; it does not start another). */
export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/** Where the texts a page shows go: {@link ContentStore} (a site) or {@link MemoryStore}. */
export interface TextStore {
  /** The address of a text, stored once (`path` decides the language). */
  put(path: string, text: string): Promise<string>;
  /** The address of a JSON value shared by many pages (a workspace's file list), stored once. */
  putData(value: unknown): Promise<string>;
}

/** The address of a text in a store (hash of the language, the highlighter's version, the text). */
export function addressOf(path: string, text: string): string {
  const lang = isPythonPath(path) ? "py" : "text";
  return sha256(`v${HIGHLIGHT_VERSION}\0${lang}\0${text}`).slice(0, 32);
}

/** The address of a JSON value in a store. */
function dataAddress(json: string): string {
  return sha256(`data\0${json}`).slice(0, 32);
}

/** Texts and tokens kept in memory (the notebook display builds a page without a site). */
export class MemoryStore implements TextStore {
  readonly #highlight: (text: string) => Promise<number[]>;
  readonly texts = new Map<string, Promise<{ text: string; tokens: number[] }>>();
  readonly data = new Map<string, unknown>();

  constructor(highlight: (text: string) => Promise<number[]>) {
    this.#highlight = highlight;
  }

  putData(value: unknown): Promise<string> {
    const address = dataAddress(JSON.stringify(value));
    this.data.set(address, value);
    return Promise.resolve(address);
  }

  async put(path: string, text: string): Promise<string> {
    const address = addressOf(path, text);
    if (!this.texts.has(address)) {
      const tokens = isPythonPath(path) ? this.#highlight(text) : Promise.resolve([]);
      this.texts.set(address, tokens.then((k) => ({ text, tokens: k })));
    }
    await this.texts.get(address);
    return address;
  }
}

/** The content store of one site being written. */
export class ContentStore implements TextStore {
  readonly #dir: string;
  readonly #highlight: (text: string) => Promise<number[]>;
  readonly #written = new Map<string, Promise<void>>();
  /** Bytes written. */
  bytes = 0;

  /** `dir` is the site's root; `highlight` tokenises a Python text (highlight.ts). */
  constructor(dir: string, highlight: (text: string) => Promise<number[]>) {
    this.#dir = dir;
    this.#highlight = highlight;
  }

  /** Site-relative path of the script of an address. */
  static path(address: string): string {
    return `files/${address.slice(0, 2)}/${address}.js`;
  }

  /** Number of distinct texts stored. */
  get files(): number {
    return this.#written.size;
  }

  async #write(address: string, body: () => Promise<string>): Promise<void> {
    let done = this.#written.get(address);
    if (!done) {
      done = (async () => {
        const text = await body();
        const file = `${this.#dir}/${ContentStore.path(address)}`;
        await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(file, text);
        this.bytes += new TextEncoder().encode(text).length;
      })();
      this.#written.set(address, done);
    }
    await done;
  }

  /** The address of a text (stored once; `path` decides the language). */
  async put(path: string, text: string): Promise<string> {
    const address = addressOf(path, text);
    await this.#write(address, async () => {
      const tokens = isPythonPath(path) ? await this.#highlight(text) : [];
      return `RV.file("${address}",${safeJson({ t: text, k: tokens, n: lineCount(text) })});\n`;
    });
    return address;
  }

  /** The address of a JSON value (stored once). */
  async putData(value: unknown): Promise<string> {
    const json = safeJson(value);
    const address = dataAddress(json);
    await this.#write(address, () => Promise.resolve(`RV.file("${address}",${json});\n`));
    return address;
  }
}
