/**
 * `reporeuse audit` on hostile repositories (issue 22, audit side): crafted tree entries, git
 * configuration that names programs, a repository another user owns, a directory replaced by a
 * symbolic link, names that are not UTF-8, a 100 MB `.py`, cache entries of the wrong shape and
 * names that inject Markdown. Each test drives only the public entry points (the CLI as a
 * process, `auditReport`, `formatMarkdown`, `formatSarif`), so it runs against any revision.
 *
 * Markdown is checked as GitHub renders it: through `cmark-gfm` (GitHub's CommonMark fork, Debian
 * package `cmark-gfm`) with the table and autolink extensions and raw HTML kept (`--unsafe`).
 */
import assert from "node:assert/strict";
import { auditHistory, type AuditReport, auditReport } from "../lib/audit/mod.ts";
import { formatMarkdown, formatSarif } from "../lib/audit/format.ts";
import { shBytes } from "./git_helpers.ts";
import { Cache } from "../lib/util/cache.ts";

const CLI = new URL("../tasks/cli.ts", import.meta.url).pathname;
// named in every call (cacheDir), never set in Deno.env: the env is the whole process's, shared
// by every test file under --parallel (the CLI's child processes are given it in their env)
const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-hostile-cache-" });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs a command of the test's own set-up (never under a planted configuration). */
const sh = shBytes;

async function git(repo: string, ...args: string[]): Promise<string> {
  return decoder.decode(await sh(repo, ["git", ...args])).trim();
}

/** The CLI as a process: exit code, stdout, stderr. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    env: { REPOREUSE_CACHE_DIR: cacheDir, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** The CLI's audit of the last commit (HEAD~1 → HEAD). */
function auditLast(repo: string, format: string) {
  return cli(["audit", repo, "--base", "HEAD~1", "--head", "HEAD", "--format", format]);
}

const UTIL = `def a(x):
    return x + 1


def b(x):
    return x * 2


def c(x):
    return x - 3


def clean(x):
    y = a(x)
    y = b(y)
    return c(y)
`;

/** A rebuild of `pkg.util.clean` from its three helpers (a re-implementation). */
const TIDY = `from pkg.util import a, b, c


def tidy(x):
    y = a(x)
    y = b(y)
    return c(y)
`;

/** A repository with `pkg/util.py` committed on `main`; returns its path. */
async function baseRepo(): Promise<string> {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-hostile-repo-" });
  await git(repo, "init", "-q", "-b", "main");
  await Deno.mkdir(`${repo}/pkg`);
  await Deno.writeTextFile(`${repo}/pkg/__init__.py`, "");
  await Deno.writeTextFile(`${repo}/pkg/util.py`, UTIL);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "base");
  return repo;
}

/** Writes a tree object from raw entries (names as bytes: anything git's format can hold). */
async function rawTree(
  repo: string,
  entries: { mode: string; name: Uint8Array; oid: string }[],
): Promise<string> {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    parts.push(encoder.encode(`${e.mode} `), e.name, new Uint8Array([0]));
    parts.push(new Uint8Array(e.oid.match(/../g)!.map((h) => parseInt(h, 16))));
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (data.set(p, at), at += p.length);
  return decoder.decode(
    await sh(repo, ["git", "hash-object", "-t", "tree", "--literally", "-w", "--stdin"], data),
  ).trim();
}

async function blob(repo: string, text: string): Promise<string> {
  return decoder.decode(
    await sh(repo, ["git", "hash-object", "-w", "--stdin"], encoder.encode(text)),
  ).trim();
}

interface Problem {
  side: string;
  file: string;
  message: string;
}

Deno.test("crafted tree entries ('..', '.git', control characters, not UTF-8) are listed, never written", async () => {
  const repo = await baseRepo();
  const parent = (await Deno.makeTempDir()).replace(/\/[^/]+$/, "");
  const uniq = `reporeuse-escape-${crypto.randomUUID()}`;
  const evil = await blob(repo, TIDY);
  const inner = await rawTree(repo, [{
    mode: "100644",
    name: encoder.encode(`${uniq}.py`),
    oid: evil,
  }]);
  const hooks = await rawTree(repo, [{ mode: "100644", name: encoder.encode("x.py"), oid: evil }]);
  const top = decoder.decode(await sh(repo, ["git", "cat-file", "-p", "HEAD^{tree}"]));
  const pkgTree = /040000 tree ([0-9a-f]+)\tpkg/.exec(top)![1];
  const names: [Uint8Array, string][] = [
    [encoder.encode(".."), "40000"],
    [encoder.encode(".GIT"), "40000"],
    [encoder.encode("git~1"), "40000"],
    [encoder.encode(".git."), "40000"],
    [encoder.encode("new\n# all clear, merge me\n.py"), "100644"],
    [encoder.encode("win\\..\\x.py"), "100644"],
    [new Uint8Array([0xff, 0xfe, 0x2e, 0x70, 0x79]), "100644"], // "\xff\xfe.py"
  ];
  const entries = names.map(([name, mode]) => ({
    mode,
    name,
    oid: mode === "40000" ? (name.length === 2 ? inner : hooks) : evil,
  }));
  entries.push({ mode: "40000", name: encoder.encode("pkg"), oid: pkgTree });
  // git's tree order: by name bytes (directories as if ending in '/')
  const key = (
    e: { mode: string; name: Uint8Array },
  ) => [...e.name, ...(e.mode === "40000" ? [0x2f] : [])];
  entries.sort((x, y) => {
    const a = key(x), b = key(y);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  });
  const tree = await rawTree(repo, entries);
  const commit = await git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "crafted");
  await git(repo, "branch", "evil", commit);

  const r = await cli(["audit", repo, "--base", "main", "--head", "evil", "--format", "json"]);
  const escaped = await Deno.stat(`${parent}/${uniq}.py`).then(() => true, () => false);
  await Deno.remove(`${parent}/${uniq}.py`).catch(() => {});
  assert.equal(escaped, false, `audit wrote ${parent}/${uniq}.py outside its directory`);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  // nothing of the crafted entries was analysed: no function of theirs, no finding
  assert.deepEqual(report.changed, []);
  assert.deepEqual(report.findings, []);
  const problems = report.problems as Problem[];
  const listed = (re: RegExp) => problems.some((p) => p.side === "head" && re.test(p.file));
  assert.ok(listed(new RegExp(`^\\.\\./${uniq}\\.py$`)), JSON.stringify(problems));
  for (
    const re of [
      /^\.GIT\/x\.py$/,
      /^git~1\/x\.py$/,
      /^\.git\.\/x\.py$/,
      /^new\n/,
      /^win\\/,
      /\.py$/,
    ]
  ) {
    assert.ok(listed(re), `${re} not listed: ${JSON.stringify(problems)}`);
  }
  assert.ok(problems.some((p) => /UTF-8/.test(p.message)), JSON.stringify(problems));
  assert.ok(problems.every((p) => /not analysed/.test(p.message)), JSON.stringify(problems));
});

/** A script that leaves a mark named `name` in `marks` when something runs it. */
async function marker(bin: string, marks: string, name: string): Promise<string> {
  const path = `${bin}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\ntouch '${marks}/${name}'\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

const HOOKS = [
  "post-index-change",
  "post-checkout",
  "reference-transaction",
  "pre-commit",
  "post-commit",
  "post-merge",
  "pre-auto-gc",
  "post-rewrite",
  "fsmonitor-watchman",
  "push-to-checkout",
];

/**
 * A repository with a change in its working tree, a commit range, a commit whose blob is missing
 * (a partial clone fetches it lazily) and a commit carrying a (fake) signature; `plant` then sets
 * its configuration (last: the test's own git commands run before any of it).
 */
async function vectorRepo(
  plant: (repo: string, m: (name: string) => Promise<string>, work: string) => Promise<void>,
): Promise<{ repo: string; fired: () => Promise<string[]> }> {
  const repo = await baseRepo();
  await Deno.writeTextFile(`${repo}/pkg/new.py`, TIDY);
  await Deno.writeTextFile(`${repo}/.gitattributes`, "*.py filter=evil diff=evil merge=evil\n");
  await git(repo, "add", "pkg/new.py", ".gitattributes");
  await git(repo, "commit", "-q", "-m", "head");
  const headTree = decoder.decode(await sh(repo, ["git", "ls-tree", "HEAD"]));
  const lazyTree = decoder.decode(
    await sh(
      repo,
      ["git", "mktree", "--missing"],
      encoder.encode(headTree + `100644 blob ${"1234567890".repeat(4)}\tlazy.py\n`),
    ),
  ).trim();
  await git(
    repo,
    "branch",
    "lazy",
    await git(repo, "commit-tree", lazyTree, "-p", "HEAD", "-m", "lazy"),
  );
  const raw = await git(repo, "cat-file", "commit", "HEAD");
  const [header, message] = [raw.slice(0, raw.indexOf("\n\n")), raw.slice(raw.indexOf("\n\n") + 2)];
  const signed = decoder.decode(
    await sh(
      repo,
      ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
      encoder.encode(
        `${header}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n${message}\n`,
      ),
    ),
  ).trim();
  await git(repo, "branch", "signed", signed);
  await Deno.writeTextFile(
    `${repo}/pkg/util.py`,
    UTIL + "\n\ndef more():\n    return a(b(c(1)))\n",
  );
  const work = await Deno.makeTempDir({ prefix: "reporeuse-hostile-marks-" });
  await Deno.mkdir(`${work}/bin`);
  await Deno.mkdir(`${work}/marks`);
  await plant(repo, (name) => marker(`${work}/bin`, `${work}/marks`, name), work);
  const fired = async () => {
    const out: string[] = [];
    for await (const e of Deno.readDir(`${work}/marks`)) out.push(e.name);
    return out.sort();
  };
  return { repo, fired };
}

/** Audits `repo` every way that runs git (working tree, commits, lazy fetch, signed, history). */
async function auditEveryWay(repo: string, fired: () => Promise<string[]>): Promise<void> {
  // a cache of its own: a side served from the cache would read nothing from git
  const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-hostile-vector-cache-" });
  const r = await cli(["audit", repo, "--format", "json", "--fail-on", "none"], {
    REPOREUSE_CACHE_DIR: cacheDir,
  });
  assert.deepEqual(await fired(), [], `working tree (CLI): ${r.stderr}`);
  const ranges: [string, string][] = [["main~1", "main"], ["main", "lazy"], ["main~1", "signed"]];
  for (const [base, head] of ranges) {
    // a failure (the lazy blob cannot be fetched) is fine: nothing may run
    const error = await auditReport({ repo, base, head, cacheDir }).then(() => "", String);
    assert.deepEqual(await fired(), [], `${base} → ${head}: ${error}`);
  }
  await auditHistory(repo, { commits: 2, rev: "signed", cacheDir });
  assert.deepEqual(await fired(), [], "auditHistory (git show of a signed commit)");
}

Deno.test("no configuration of the repository runs a program (every known vector)", async (t) => {
  await t.step("each key that names a program, hooks, a partial clone's transport", async () => {
    const { repo, fired } = await vectorRepo(async (repo, m, work) => {
      const hooksDir = `${work}/hooks`;
      await Deno.mkdir(hooksDir);
      for (const h of HOOKS) {
        await Deno.copyFile(await m(`hook-${h}`), `${hooksDir}/${h}`);
        await Deno.copyFile(
          await m(`.git/hooks/${h}`.replaceAll("/", "-")),
          `${repo}/.git/hooks/${h}`,
        );
      }
      const config: [string, string][] = [
        ["core.fsmonitor", await m("core.fsmonitor")],
        ["core.hooksPath", hooksDir],
        ["core.pager", await m("core.pager")],
        ["pager.log", await m("pager.log")],
        ["pager.show", await m("pager.show")],
        ["pager.ls-files", await m("pager.ls-files")],
        ["diff.external", await m("diff.external")],
        ["diff.evil.textconv", await m("diff.evil.textconv")],
        ["diff.evil.command", await m("diff.evil.command")],
        ["filter.evil.clean", await m("filter.evil.clean")],
        ["filter.evil.smudge", await m("filter.evil.smudge")],
        ["filter.evil.process", await m("filter.evil.process")],
        ["filter.evil.required", "true"],
        ["merge.evil.driver", await m("merge.evil.driver")],
        ["core.sshCommand", await m("core.sshCommand")],
        ["core.gitProxy", await m("core.gitProxy")],
        ["credential.helper", await m("credential.helper")],
        ["core.askPass", await m("core.askPass")],
        ["core.editor", await m("core.editor")],
        ["sequence.editor", await m("sequence.editor")],
        ["gpg.program", await m("gpg.program")],
        ["gpg.openpgp.program", await m("gpg.openpgp.program")],
        ["gpg.ssh.program", await m("gpg.ssh.program")],
        ["log.showSignature", "true"],
        ["core.alternateRefsCommand", await m("core.alternateRefsCommand")],
        ["uploadpack.packObjectsHook", await m("uploadpack.packObjectsHook")],
        ["core.repositoryformatversion", "1"],
        ["extensions.partialClone", "origin"],
        ["remote.origin.url", "ssh://example.invalid/repo"],
        ["remote.origin.promisor", "true"],
        ["remote.origin.uploadpack", await m("remote.origin.uploadpack")],
      ];
      for (const [k, v] of config) await git(repo, "config", k, v);
    });
    await auditEveryWay(repo, fired);
  });
  await t.step("a command from a file the configuration includes (include.path)", async () => {
    const { repo, fired } = await vectorRepo(async (repo, m, work) => {
      await Deno.writeTextFile(
        `${work}/included.config`,
        `[core]\n\tfsmonitor = ${await m("include.path")}\n`,
      );
      await git(repo, "config", "include.path", `${work}/included.config`);
    });
    await auditEveryWay(repo, fired);
  });
  await t.step("a command from a conditional include (includeIf.gitdir)", async () => {
    const { repo, fired } = await vectorRepo(async (repo, m, work) => {
      await Deno.writeTextFile(
        `${work}/included.config`,
        `[core]\n\tfsmonitor = ${await m("includeIf.gitdir")}\n`,
      );
      await git(repo, "config", `includeIf.gitdir:${repo}/.path`, `${work}/included.config`);
    });
    await auditEveryWay(repo, fired);
  });
  await t.step(
    "a transport the configuration allows again (protocol.ext.allow, ext::)",
    async () => {
      const { repo, fired } = await vectorRepo(async (repo, m) => {
        for (
          const [k, v] of [
            ["core.repositoryformatversion", "1"],
            ["extensions.partialClone", "origin"],
            ["remote.origin.url", `ext::${await m("protocol.ext.allow")}`],
            ["remote.origin.promisor", "true"],
            ["protocol.allow", "always"],
            ["protocol.ext.allow", "always"],
          ]
        ) await git(repo, "config", k, v);
      });
      await auditEveryWay(repo, fired);
    },
  );
  await t.step("a transport command of a promisor remote (remote.*.uploadpack)", async () => {
    const { repo, fired } = await vectorRepo(async (repo, m) => {
      const other = await baseRepo();
      for (
        const [k, v] of [
          ["core.repositoryformatversion", "1"],
          ["extensions.partialClone", "origin"],
          ["remote.origin.url", other],
          ["remote.origin.promisor", "true"],
          ["remote.origin.uploadpack", await m("remote.origin.uploadpack")],
        ]
      ) await git(repo, "config", k, v);
    });
    await auditEveryWay(repo, fired);
  });
});

Deno.test("git configuration from the caller's environment is not inherited (GIT_CONFIG_COUNT, GIT_DIR)", async () => {
  const repo = await baseRepo();
  const other = await baseRepo();
  await Deno.writeTextFile(`${repo}/pkg/new.py`, TIDY);
  const work = await Deno.makeTempDir({ prefix: "reporeuse-hostile-env-" });
  await Deno.mkdir(`${work}/marks`);
  const fsmonitor = await marker(work, `${work}/marks`, "env-fsmonitor");
  const r = await cli(["audit", repo, "--format", "json"], {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: fsmonitor,
    GIT_DIR: `${other}/.git`,
    GIT_WORK_TREE: other,
  });
  assert.deepEqual([...Deno.readDirSync(`${work}/marks`)].map((e) => e.name), []);
  assert.equal(r.code, 1, r.stderr);
  // the repository named on the command line was audited, not the one of GIT_DIR
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.changed.map((c: { id: string }) => c.id), ["pkg.new.tidy"]);
});

Deno.test("a repository git refuses for its owner gets a message saying what happened", {
  ignore: Deno.uid() !== 0,
}, async () => {
  const repo = await baseRepo();
  await sh(repo, ["chown", "-R", "4242:4242", repo]);
  const r = await cli(["audit", repo]);
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /another user owns it \(owner uid 4242; you are uid 0\)/);
  assert.match(lines[0], /safe\.directory/);
  assert.ok(lines[0].includes(repo), lines[0]);
});

Deno.test("working tree: a tracked directory replaced by a link to outside is not read", async () => {
  const repo = await baseRepo();
  const outside = await Deno.makeTempDir({ prefix: "reporeuse-hostile-outside-" });
  await Deno.writeTextFile(
    `${outside}/util.py`,
    "def stolen_secret_function():\n    return open('/etc/hostname').read()\n",
  );
  await Deno.remove(`${repo}/pkg`, { recursive: true });
  await Deno.symlink(outside, `${repo}/pkg`);
  const r = await cli(["audit", repo, "--format", "json", "--fail-on", "none"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes("stolen_secret_function"), r.stdout);
  const report = JSON.parse(r.stdout);
  assert.ok(
    (report.problems as Problem[]).some((p) =>
      p.file === "pkg/util.py" && /symbolic link/.test(p.message)
    ),
    JSON.stringify(report.problems),
  );
});

Deno.test("a file name that is not UTF-8 is listed in working-tree mode, as in commit mode", async () => {
  const repo = await baseRepo();
  // "m\xe9.py" (Latin-1), written through a shell: Deno paths are UTF-8 strings
  await sh(repo, ["sh", "-c", `printf 'def f():\\n    return 1\\n' > "$(printf 'm\\351.py')"`]);
  const worktree = await cli(["audit", repo, "--format", "json", "--fail-on", "none"]);
  assert.equal(worktree.code, 0, worktree.stderr);
  const listed = (out: string) =>
    (JSON.parse(out).problems as Problem[]).some((p) =>
      p.side === "head" && p.file.startsWith("m") && p.file.endsWith(".py")
    );
  assert.ok(listed(worktree.stdout), `working tree: ${worktree.stdout}`);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "latin-1 name");
  const commits = await auditLast(repo, "json");
  assert.ok(listed(commits.stdout), `commits: ${commits.stdout}`);
});

Deno.test("a 100 MB .py is listed as too large, not fatal (working tree and commit)", async () => {
  const repo = await baseRepo();
  const line = encoder.encode("x = 1  # padding padding padding padding padding padding padding\n");
  const huge = new Uint8Array(100 * 1024 * 1024);
  for (let at = 0; at + line.length <= huge.length; at += line.length) huge.set(line, at);
  huge.fill(0x0a, huge.length - (huge.length % line.length));
  await Deno.writeFile(`${repo}/pkg/huge.py`, huge);
  await Deno.writeTextFile(`${repo}/pkg/new.py`, TIDY);
  const tooLarge = (out: string) =>
    (JSON.parse(out).problems as Problem[]).some((p) =>
      p.file === "pkg/huge.py" && /too large/.test(p.message)
    );
  const worktree = await cli(["audit", repo, "--format", "json", "--fail-on", "none"]);
  assert.equal(worktree.code, 0, worktree.stderr);
  assert.ok(tooLarge(worktree.stdout), worktree.stdout);
  // the rest is audited as usual: the re-implementation in pkg/new.py is found
  assert.ok(
    JSON.parse(worktree.stdout).findings.some((f: { kind: string }) =>
      f.kind === "reimplementation"
    ),
  );
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "huge");
  const commits = await auditLast(repo, "md");
  assert.equal(commits.code, 1, commits.stderr); // 1: the re-implementation, not a crash
  assert.match(commits.stdout, /huge\.py.*too large/);
});

Deno.test("--help documents distinct exit codes: a crash is never 1 (re-implementation found)", async () => {
  const r = await cli(["audit", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^\s*1\s+re-implementation at or above --fail-on/m);
  assert.match(r.stdout, /^\s*3\s+internal error/m);
});

/** Every file under `dir`. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...walk(p));
    else out.push(p);
  }
  return out.sort();
}

Deno.test("audit-side and audit-shape entries of the wrong shape are recomputed, never a crash or another report", async (t) => {
  const repo = await baseRepo();
  await Deno.writeTextFile(`${repo}/pkg/new.py`, TIDY);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "head");
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-hostile-shapes-" });
  const run = async () =>
    JSON.stringify(await auditReport({ repo, base: "HEAD~1", head: "HEAD", cacheDir: dir }));
  const clean = await run();
  assert.match(clean, /"kind":"reimplementation"/);
  const sides = () => walk(dir).filter((f) => /\/audit-side-v\d+\//.test(f));
  const shapes = () => walk(dir).filter((f) => /\/audit-shape-v\d+\//.test(f));
  assert.ok(sides().some((f) => f.endsWith(".json")) && shapes().length > 0);
  const saved = new Map(walk(dir).map((f) => [f, Deno.readFileSync(f)]));
  const restore = () => {
    for (const f of walk(dir)) if (!saved.has(f)) Deno.removeSync(f);
    for (const [f, b] of saved) Deno.writeFileSync(f, b);
  };
  type Edit = (v: Record<string, unknown>) => unknown;
  const sideEdits: [string, Edit][] = [
    ["{}", () => ({})],
    ["[]", () => []],
    ["null", () => null],
    ["a string", () => "side"],
    ["table not an array", (v) => ({ ...v, table: 7 })],
    ["packed not an array", (v) => ({ ...v, packed: {} })],
    ["a def not an array", (v) => ({ ...v, packed: ["x", ...(v.packed as unknown[])] })],
    ["an index out of the table", (v) => ({
      ...v,
      packed: (v.packed as unknown[][]).map((r) => [1e6, ...r.slice(1)]),
    })],
    ["callees not an array", (v) => ({
      ...v,
      packed: (v.packed as unknown[][]).map((r) => r.map((x, i) => i === 9 ? 3 : x)),
    })],
    ["a negative index", (v) => ({
      ...v,
      packed: (v.packed as unknown[][]).map((r) => r.map((x, i) => i === 6 ? [-1] : x)),
    })],
    ["errors not an array", (v) => ({ ...v, errors: "none" })],
    ["another tree's files (the head side's)", (v) => {
      const files = v.files as { path: string; oid: string }[];
      if (!files.some((f) => f.path === "pkg/new.py")) return v;
      return {
        ...v,
        files: files.map((f) => f.path === "pkg/util.py" ? { ...f, oid: "0".repeat(40) } : f),
      };
    }],
    ["a def dropped", (v) => ({ ...v, packed: (v.packed as unknown[]).slice(1) })],
  ];
  /** Damages the cache with `damage`; the report must be the clean one; the cache is restored. */
  const sameReport = async (damage: () => void | Promise<void>) => {
    try {
      await damage();
      assert.equal(await run(), clean);
    } finally {
      restore();
    }
  };
  // an entry is `<signature>\n<JSON>`: the edited value is stored signed, through the cache
  // itself, so that the shape checks (not the signature) are what meets it
  const editJson = async (files: string[], edit: (v: Record<string, unknown>) => unknown) => {
    for (const f of files) {
      const m = f.match(/\/([^/]+)-v(\d+)\/[^/]+\/([^/]+)\.json$/)!;
      const text = Deno.readTextFileSync(f);
      const value = JSON.parse(text.slice(text.indexOf("\n") + 1));
      assert.ok(await new Cache(m[1], Number(m[2]), dir).set(m[3], edit(value)), f);
    }
  };
  for (const [name, edit] of sideEdits) {
    await t.step(
      `audit-side: ${name}`,
      () => sameReport(() => editJson(sides().filter((f) => f.endsWith(".json")), edit)),
    );
  }
  await t.step("audit-side: features and tokens parts cut short", () =>
    sameReport(() => {
      for (const f of sides().filter((f) => f.endsWith(".bin"))) {
        const b = Deno.readFileSync(f);
        Deno.writeFileSync(f, b.subarray(0, b.length - 8));
      }
    }));
  await t.step("audit-side: a tokens part whose offsets are out of order", () =>
    sameReport(() => {
      for (const f of sides().filter((f) => f.endsWith(".tokens.bin"))) {
        const b = Deno.readFileSync(f);
        const words = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
        // [defs, offset₀ …]: the second def's offset past the third's
        if (words[0] >= 2) words[2] = words[3] + 1;
        Deno.writeFileSync(f, b);
      }
    }));
  const shapeEdits: [string, (v: unknown) => unknown][] = [
    ["{}", () => ({})],
    ["[null]", () => [null]],
    [
      "line not a number",
      (v) => (v as Record<string, unknown>[]).map((d) => ({ ...d, line: "1" })),
    ],
    [
      "features not pairs",
      (v) => (v as Record<string, unknown>[]).map((d) => ({ ...d, features: [1] })),
    ],
    [
      "features of strings",
      (v) => (v as Record<string, unknown>[]).map((d) => ({ ...d, features: "ab" })),
    ],
    ["no hash", (v) => (v as Record<string, unknown>[]).map(({ hash: _h, ...d }) => d)],
  ];
  for (const [name, edit] of shapeEdits) {
    await t.step(`audit-shape: ${name}`, () =>
      sameReport(async () => {
        // the side index is rebuilt, so the shapes are read from their cache
        for (const f of sides()) Deno.removeSync(f);
        await editJson(shapes(), edit as (v: unknown) => unknown);
      }));
  }
});

/** `md` rendered as GitHub does (cmark-gfm, raw HTML kept so that any would show). */
async function render(md: string): Promise<string> {
  return decoder.decode(
    await sh("/", [
      "cmark-gfm",
      "--unsafe",
      "-e",
      "table",
      "-e",
      "autolink",
      "-e",
      "strikethrough",
    ], encoder.encode(md)),
  );
}

const HOSTILE = [
  "pkg/evil\n\n# all clear, merge me\n\n.py",
  "pkg/<img src=x onerror=alert(1)>.py",
  "pkg/[click](1) [here](https://evil.example).py",
  "pkg/a`b``c.py",
  "pkg/x | y | z.py",
  "pkg/@reporeuse/team www.evil.example.py",
  "pkg/**bold** <!-- hidden -->.py",
];

/** The id of the function `f` of a hostile file (module ids come from paths). */
const idOf = (file: string) => `${file.slice(0, -3).replaceAll("/", ".")}.f`;

function hostileReport(): AuditReport {
  const loc = (i: number) => ({ id: idOf(HOSTILE[i]), file: HOSTILE[i], line: 3, end: 9 });
  return {
    repo: "/tmp/repo <b>x</b>",
    base: { rev: "main\n# base", commit: "a".repeat(40) },
    head: { rev: "feature/<img src=y>", commit: "b".repeat(40) },
    files: HOSTILE.map((path) => ({ path, status: "added" as const })),
    excluded: [],
    changed: HOSTILE.map((file, i) => ({
      id: loc(i).id,
      file,
      line: 3,
      end: 9,
      status: "added" as const,
      from: null,
      reused: [idOf(HOSTILE[(i + 1) % HOSTILE.length])],
      context: "code" as const,
    })),
    findings: HOSTILE.map((_, i) => ({
      kind: "reimplementation" as const,
      function: loc(i),
      target: loc((i + 1) % HOSTILE.length),
      overlap: 1,
      shared: ["a", "b", "c"],
      missing: [],
      weights: { a: 1, b: 1, c: 1 },
      weightedOverlap: 1,
      similarity: 1,
      confidence: 1,
      context: "code" as const,
      within: false,
      notes: [],
      alternatives: [],
      omitted: { reimplementation: 0, clone: 0, block: 0, candidate: 0 },
    })),
    problems: HOSTILE.map((file) => ({
      side: "head" as const,
      file,
      line: null,
      message: `cannot read ${file}: <script>alert(1)</script> [x](http://evil.example) @all`,
    })),
  };
}

Deno.test("md: repository names cannot add headings, HTML, links, mentions or table cells", async () => {
  const html = await render(formatMarkdown(hostileReport()));
  // the report's own headings only
  const headings = [...html.matchAll(/<h(\d)>(.*?)<\/h\1>/g)].map((m) => m[2]);
  assert.deepEqual(headings, [
    "reporeuse audit",
    `Re-implementations and clones (${HOSTILE.length})`,
  ]);
  assert.doesNotMatch(html, /<img|<script|<!--|<b>|<em>/);
  // the headline's bold count only
  assert.deepEqual([...html.matchAll(/<strong>(.*?)<\/strong>/g)].map((m) => m[1]), [
    `${HOSTILE.length} function(s) re-implement existing code`,
  ]);
  assert.doesNotMatch(html, /<a /, "no link, autolink or mention");
  assert.doesNotMatch(html.replace(/<code>[^<]*<\/code>/g, ""), /@(?!\u200b)\w/);
  // one table row per finding, five cells each (confidence, finding, function, target, evidence)
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1];
  const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
  assert.equal(rows.length, HOSTILE.length);
  for (const row of rows) assert.equal([...row.matchAll(/<td[ >]/g)].length, 5, row);
  // every name is shown whole, in code
  const unescape = (s: string) =>
    s.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll(
      "&amp;",
      "&",
    );
  const codes = [...html.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => unescape(m[1]));
  for (const name of [...HOSTILE, ...HOSTILE.map(idOf)]) {
    const shown = name.replaceAll("\n", "\\n");
    assert.ok(codes.some((c) => c.startsWith(shown)), `${JSON.stringify(name)} not shown in code`);
  }
});

Deno.test("sarif: artifact URIs are percent-encoded references relative to SRCROOT", () => {
  const log = JSON.parse(formatSarif(hostileReport()));
  const run = log.runs[0];
  const uris: string[] = [
    ...run.results.flatMap((
      r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] },
    ) => r.locations.map((l) => l.physicalLocation.artifactLocation.uri)),
    ...run.invocations[0].toolExecutionNotifications.map((
      n: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] },
    ) => n.locations[0].physicalLocation.artifactLocation.uri),
  ];
  // RFC 3986 path characters only; each decodes back to its file
  for (const uri of uris) assert.match(uri, /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]+$/, uri);
  assert.equal(decodeURIComponent(uris[0]), HOSTILE[0]);
  assert.equal(
    run.results[0].locations[0].physicalLocation.artifactLocation.uri.split("/").length,
    2,
  );
  assert.match(run.originalUriBaseIds.SRCROOT.uri, /^file:\/\/\/tmp\/repo%20%3Cb%3Ex%3C\/b%3E\/$/);
  // a bracket of a name does not open another embedded link than the target's
  for (const i of [1, 2]) {
    const text: string = run.results[i].message.text;
    assert.equal([...text.matchAll(/(?<!\\)\]\(\d+\)/g)].length, 1, text);
  }
});
