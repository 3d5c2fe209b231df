/**
 * Units of the hardening of issue 22 (audit side): the names the audit refuses, the hardened git
 * runner (its arguments, filter drivers blanked even on a checkout, a time limit), the Python size
 * limit at every entry of lib/python, and the escaping helpers of lib/util/text.ts checked as
 * GitHub renders Markdown (cmark-gfm, Debian package `cmark-gfm`).
 */
import assert from "node:assert/strict";
import { pathProblem } from "../lib/audit/git.ts";
import { gitCommand, GitError, HARDENED_CONFIG, mayFilter, runGit } from "../lib/util/git.ts";
import { analyzePackage, MAX_SOURCE_BYTES, readSource, summarize } from "../lib/python/mod.ts";
import { mdCode, mdText, uriPath, visible } from "../lib/util/text.ts";
import { sh } from "./git_helpers.ts";

Deno.test("pathProblem: names a repository may choose that the audit never uses", () => {
  for (const ok of ["a.py", "pkg/x.py", "src/日本語.py", "a b.py", "x..py", "pkg/.hidden.py"]) {
    assert.equal(pathProblem(ok), null, ok);
  }
  const bad = [
    "",
    "/etc/x.py",
    "a//b.py",
    "./a.py",
    "a/./b.py",
    "../a.py",
    "a/../../b.py",
    "a/",
    ".git/hooks/x.py",
    "a/.GIT/x.py",
    ".git./x.py",
    ".git  /x.py",
    "GIT~1/x.py",
    ".g\u200cit/x.py", // HFS+ ignores U+200C
    ".git::$INDEX_ALLOCATION/x.py", // an NTFS stream of .git
    "a\nb.py",
    "a\u001b[31m.py",
    "a\u0085.py",
    "a\\b.py",
    "a\0b.py",
  ];
  for (const p of bad) assert.notEqual(pathProblem(p), null, JSON.stringify(p));
});

Deno.test("gitCommand: no pager and every hardened key on each command; filter drivers blanked by env", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-units-git-" });
  await sh(repo, ["git", "init", "-q"]);
  const included = `${repo}/../${repo.split("/").pop()}-inc.config`;
  await Deno.writeTextFile(included, `[filter "from.include"]\n\tsmudge = false\n`);
  await sh(repo, ["git", "config", "filter.lfs.process", "git-lfs filter-process"]);
  await sh(repo, ["git", "config", "filter.a=b.clean", "false"]); // `-c` could not name it
  await sh(repo, ["git", "config", "include.path", included]);
  const { args, env } = await gitCommand(repo, ["worktree", "add", "x"]);
  assert.deepEqual(args.slice(0, 3), ["-C", repo, "--no-pager"]);
  assert.deepEqual(args.slice(-3), ["worktree", "add", "x"]);
  const settings = args.filter((_, i) => args[i - 1] === "-c");
  for (const kv of HARDENED_CONFIG) assert.ok(settings.includes(kv), kv);
  const blanked = Array.from(
    { length: Number(env.GIT_CONFIG_COUNT) },
    (_, i) => `${env[`GIT_CONFIG_KEY_${i}`]}=${env[`GIT_CONFIG_VALUE_${i}`]}`,
  );
  for (const d of ["a=b", "from.include", "lfs"]) {
    for (const k of ["clean=", "smudge=", "process=", "required=false"]) {
      assert.ok(blanked.includes(`filter.${d}.${k}`), `filter.${d}.${k}: ${blanked}`);
    }
  }
  assert.equal(env.GIT_ALLOW_PROTOCOL, "reporeuse-none");
  // commands that never filter do not list the drivers
  for (const cmd of [["ls-tree", "HEAD"], ["cat-file", "--batch"], ["rev-parse", "HEAD"]]) {
    assert.equal(mayFilter(cmd), false, cmd.join(" "));
    assert.equal((await gitCommand(repo, cmd)).env.GIT_CONFIG_COUNT, undefined);
  }
  for (
    const cmd of [["cat-file", "--filters", "--batch"], ["show", "HEAD"], ["diff"], ["add", "."]]
  ) {
    assert.equal(mayFilter(cmd), true, cmd.join(" "));
  }
});

Deno.test("runGit: a checkout (verify's worktree) runs no smudge filter and no hook", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-units-checkout-" });
  const marks = await Deno.makeTempDir({ prefix: "reporeuse-units-marks-" });
  await sh(repo, ["git", "init", "-q"]);
  await Deno.writeTextFile(`${repo}/.gitattributes`, "*.py filter=x\n");
  await Deno.writeTextFile(`${repo}/a.py`, "x = 1\n");
  await sh(repo, ["git", "add", "-A"]);
  await sh(repo, ["git", "commit", "-q", "-m", "a"]);
  const mark = async (name: string) => {
    const p = `${marks}/${name}.sh`;
    await Deno.writeTextFile(p, `#!/bin/sh\ntouch '${marks}/${name}'\ncat\n`);
    await Deno.chmod(p, 0o755);
    return p;
  };
  await sh(repo, ["git", "config", "filter.x.smudge", await mark("smudge")]);
  await Deno.writeTextFile(`${repo}/.gitattributes`, "*.py filter=x\n*.txt filter=a=b\n");
  await Deno.writeTextFile(`${repo}/b.txt`, "b\n");
  await sh(repo, ["git", "add", "-A"]);
  await sh(repo, ["git", "commit", "-q", "-m", "b"]);
  await sh(repo, ["git", "config", "filter.a=b.smudge", await mark("smudge-a=b")]);
  await sh(repo, ["git", "config", "filter.x.process", await mark("process")]);
  await Deno.copyFile(await mark("post-checkout"), `${repo}/.git/hooks/post-checkout`);
  const tree = `${marks}/tree`;
  await runGit(repo, ["worktree", "add", "--detach", tree, "HEAD"]);
  assert.equal(await Deno.readTextFile(`${tree}/a.py`), "x = 1\n");
  const fired = [...Deno.readDirSync(marks)].map((e) => e.name).filter((n) =>
    !/\.sh$|^tree$/.test(n)
  );
  assert.deepEqual(fired, []);
  await runGit(repo, ["worktree", "remove", "--force", tree]);
});

Deno.test("runGit: a configuration that includes a FIFO cannot hang the caller", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-units-fifo-" });
  await sh(repo, ["git", "init", "-q"]);
  await sh(repo, ["mkfifo", `${repo}/.git/fifo.config`]);
  await sh(repo, ["git", "config", "include.path", "fifo.config"]);
  await assert.rejects(
    runGit(repo, ["ls-files"], { timeoutMs: 1500 }),
    (e) => e instanceof GitError && /no answer within 1\.5 s, stopped/.test(e.message),
  );
});

Deno.test("Python size limit: summarize, analyzePackage and readSource list a source past it", async () => {
  const s = await summarize("x = 1\n".repeat(MAX_SOURCE_BYTES / 6 + 1), "big.py", "big");
  assert.deepEqual(s.definitions, []);
  assert.match(s.errors[0].message, /file too large \(8\.0 MiB; the limit is 8 MiB\), skipped/);
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-units-size-" });
  await Deno.mkdir(`${dir}/pkg`);
  await Deno.writeTextFile(
    `${dir}/pkg/__init__.py`,
    "def f():\n    return g()\n\ndef g():\n    pass\n",
  );
  const big = new Uint8Array(MAX_SOURCE_BYTES + 1).fill(0x0a);
  await Deno.writeFile(`${dir}/pkg/huge.py`, big);
  const project = await analyzePackage(`${dir}/pkg`, { cache: false, workers: 0 });
  assert.equal(project.callees("pkg.f")[0], "pkg.g");
  const errors = project.fileErrors();
  assert.ok(
    errors.some((e) => e.file === "huge.py" && /too large/.test(e.message)),
    JSON.stringify(errors),
  );
  assert.deepEqual(await readSource(`${dir}/pkg/huge.py`), {
    skip: "file too large (8.0 MiB; the limit is 8 MiB), skipped",
  });
  // a FIFO is never opened (opening one waits for a writer)
  await sh(dir, ["mkfifo", `${dir}/pkg/pipe.py`]);
  assert.deepEqual(await readSource(`${dir}/pkg/pipe.py`), { skip: "not a regular file, skipped" });
});

/** Markdown rendered as GitHub does (raw HTML kept, so that any would show). */
async function render(md: string): Promise<string> {
  return await sh("/", ["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink"], md);
}

function unescapeHtml(s: string): string {
  return s.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

/** Random strings over the characters that mean something to Markdown, HTML and terminals. */
function hostileStrings(n: number, seed = 7): string[] {
  const alphabet = [
    ..."`*_[]()<>|#!\\&@:/.-+=~$ \n\tab",
    "\u001b",
    "\u202e",
    "<img src=x>",
    "](http://x)",
    "www.x.org",
    "@team",
    "```",
    "<!--",
  ];
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => {
    const len = 1 + Math.floor(next() * 12);
    return Array.from({ length: len }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
      "",
    );
  });
}

Deno.test("mdCode and mdText show any string literally, as GitHub renders them", async () => {
  const strings = hostileStrings(150);
  // one paragraph per string; each code span must come out as one <code> holding visible(s)
  const md = strings.map((s, i) => `${i}: ${mdCode(s)} / ${mdText(s)} /end`).join("\n\n");
  const html = await render(md);
  assert.doesNotMatch(html, /<(img|a|h\d|em|strong|ul|ol|li|table|pre)\b|<!--/);
  const paras = [...html.matchAll(/<p>(\d+): ([\s\S]*?)<\/p>/g)];
  assert.equal(paras.length, strings.length);
  for (const [, i, body] of paras) {
    const s = strings[Number(i)];
    const m = /^<code>([^<]*)<\/code> \/ ([\s\S]*) \/end$/.exec(body);
    assert.ok(m, `${JSON.stringify(s)} → ${body}`);
    // CommonMark strips one space each side of a code span padded on both sides
    assert.equal(unescapeHtml(m[1]), visible(s).replace(/^ ([\s\S]*) $/, "$1"), JSON.stringify(s));
    assert.equal(unescapeHtml(m[2]), visible(s).replaceAll("@", "@\u200b"), JSON.stringify(s));
  }
});

Deno.test("mdCode in a table cell keeps the cell (pipes escaped)", async () => {
  const strings = hostileStrings(60, 11);
  const md = [
    "| i | name |",
    "|---|---|",
    ...strings.map((s, i) => `| ${i} | ${mdCode(s, { table: true })} |`),
  ]
    .join("\n");
  const html = await render(md);
  const rows = [
    ...html.matchAll(/<tr>\s*<td>(\d+)<\/td>\s*<td><code>([^<]*)<\/code><\/td>\s*<\/tr>/g),
  ];
  assert.equal(rows.length, strings.length, html);
  for (const [, i, code] of rows) {
    assert.equal(unescapeHtml(code), visible(strings[Number(i)]).replace(/^ ([\s\S]*) $/, "$1"));
  }
});

Deno.test("uriPath: RFC 3986 segments that decode back to the path", () => {
  for (const s of hostileStrings(100, 3)) {
    const path = `dir/${s.replaceAll("/", "_")}.py`;
    const uri = uriPath(path);
    assert.match(uri, /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]+$/);
    assert.equal(uri.split("/").map(decodeURIComponent).join("/"), path);
  }
});
