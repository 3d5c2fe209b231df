/**
 * The Python fixture files of the tests, read once: `.py` files below the given fixture folders
 * (sorted), as text; binary and non-UTF-8 fixtures are left out (they are not parsed at all).
 */
async function pyFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(d)) {
    const p = `${d}/${e.name}`;
    if (e.isDirectory) out.push(...await pyFiles(p));
    else if (e.name.endsWith(".py")) out.push(p);
  }
  return out.sort();
}

/** Path → text of every UTF-8 `.py` file below `tests/fixtures/<folder>/` for each folder. */
export async function fixtureTexts(...folders: string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const folder of folders) {
    for (const f of await pyFiles(new URL(`./fixtures/${folder}`, import.meta.url).pathname)) {
      try {
        texts.set(f, new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(f)));
      } catch {
        // binary / non-UTF-8 fixtures are not parsed at all
      }
    }
  }
  return texts;
}
