/**
 * Helpers of the audit tests: git in a temporary repository, and a repository holding Debian's
 * python3-seaborn 0.12.2 (one commit).
 * @module
 */

import type { Side, SideDef } from "../lib/audit/mod.ts";

/**
 * A def of a hand-made side (lib/audit/side.ts) calling `callees`, one shape for all (so shape
 * never decides), in test code when its file is under `tests/`, a test when named `test…`.
 */
export function sideDef(
  id: string,
  file: string,
  callees: string[],
  hash = id,
  uses = callees,
): SideDef {
  const name = id.split(".").pop()!;
  return {
    id,
    kind: "function",
    file,
    start: 1,
    end: 2,
    name,
    signature: "def f()",
    params: [],
    hash,
    size: 1,
    features: [7, 1],
    callees,
    uses,
    context: file.startsWith("tests/") ? "test" : "code",
    test: name.startsWith("test"),
  };
}

/**
 * A hand-made side holding `defs`: one file per def's path, whose blob id changes with the hashes
 * of the defs in it (so a changed def changes its file), and the defs' ids.
 */
export function handSide(defs: SideDef[]): Side {
  const oid = new Map<string, string>();
  for (const d of defs) oid.set(d.file, (oid.get(d.file) ?? "") + (d.hash ?? d.id) + ";");
  return {
    rev: "x",
    files: [...oid].map(([path, o]) => ({ path, oid: o })),
    modules: {},
    defs,
    ids: defs.map((d) => d.id),
    errors: [],
  };
}

/** Path of Debian's seaborn package (installed by tasks/setup.sh). */
export const SEABORN = "/usr/lib/python3/dist-packages/seaborn";

/** Runs a command in `cwd` (git identity set); stdout trimmed; throws with stderr on failure. */
export async function sh(cwd: string, cmd: string[], input?: string): Promise<string> {
  const child = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.org",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.org",
    },
  }).spawn();
  if (input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(input));
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`${cmd.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

export async function commit(repo: string, message: string): Promise<string> {
  await sh(repo, ["git", "add", "-A"]);
  await sh(repo, ["git", "commit", "-q", "--allow-empty", "-m", message]);
  return await sh(repo, ["git", "rev-parse", "HEAD"]);
}

export async function write(repo: string, path: string, text: string | Uint8Array) {
  await Deno.mkdir(`${repo}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
  if (typeof text === "string") await Deno.writeTextFile(`${repo}/${path}`, text);
  else await Deno.writeFile(`${repo}/${path}`, text);
}

/** A git repository holding seaborn (one commit), built once for the file. */
export async function seabornRepo(): Promise<string> {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-audit-repo-" });
  await sh(repo, ["git", "init", "-q", "-b", "main"]);
  await sh(repo, ["cp", "-r", SEABORN, `${repo}/seaborn`]);
  await sh(repo, ["find", ".", "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+"]);
  await write(repo, "README.md", "seaborn copy\n");
  await commit(repo, "seaborn 0.12.2");
  return repo;
}

/**
 * A config parser's loop (builtins and `str` methods only: no callee key), the block that copied-
 * block tests plant in one function and paste into another.
 */
export const CONFIG_LOOP: string[] = [
  "for raw in text.splitlines():",
  "    line = raw.split('#', 1)[0].strip()",
  "    if not line or line.startswith(';'):",
  "        continue",
  "    if '=' not in line:",
  "        raise ValueError('bad line: %r' % (raw,))",
  "    key, _, value = line.partition('=')",
  "    key = key.strip().lower().replace('-', '_')",
  "    if key in seen:",
  "        raise KeyError(key)",
  "    seen[key] = value.strip().strip('\"')",
];
