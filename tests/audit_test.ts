/**
 * Acceptance tests of `reporeuse audit` (issue 14): planted changes in real git repositories built
 * from Debian's python3-seaborn 0.12.2, with hand-checked expectations, and bad input.
 *
 * The planted re-implementation rebuilds `seaborn._core.properties.Color._get_values` (lines
 * 702–729) from the same six helpers: `self._check_dict_entries` / `self._check_list_length`
 * (inherited from `Property`), `blend_palette`, `color_palette`, `get_color_cycle` and
 * `self._standardize_color_sequence` — the only seaborn function calling exactly those (checked by
 * hand), so the rule must name it as G.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { auditHistory, auditReport, formatSarif, gitBlobId } from "../lib/audit/mod.ts";
import { main } from "../tasks/cli.ts";
import { commit, handSide, seabornRepo, sh, sideDef, write } from "./audit_helpers.ts";

const G = "seaborn._core.properties.Color._get_values";
// named in every call (cacheDir), never set in Deno.env: the env is the whole process's, shared
// by every test file under --parallel; the CLI run in this process (it takes no cache dir) uses
// the configured cache, as a user's run would
const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-audit-cache-" });

const BODY = `        n = len(levels)
        values = scale.values
        if isinstance(values, dict):
            self._check_dict_entries(levels, values)
            colors = [values[x] for x in levels]
        elif isinstance(values, list):
            colors = self._check_list_length(levels, values)
        elif isinstance(values, tuple):
            colors = BLEND(values, n)
        elif isinstance(values, str):
            colors = PALETTE(values, n)
        elif values is None:
            if n <= len(CYCLE()):
                colors = PALETTE(n_colors=n)
            else:
                colors = PALETTE("husl", n)
        else:
            raise TypeError(f"bad values for {self.variable}: {values!r}")
        return self._standardize_color_sequence(colors)
`;

const REIMPL = `from seaborn._core.properties import Color
from seaborn.palettes import blend_palette, color_palette
from seaborn.utils import get_color_cycle


class Shade(Color):
    """Colors of a shading layer."""

    def lookup(self, scale, levels):
${
  BODY.replaceAll("BLEND", "blend_palette").replaceAll("PALETTE", "color_palette").replaceAll(
    "CYCLE",
    "get_color_cycle",
  )
}`;

const ALIASED = `from seaborn._core import properties as props
from seaborn import palettes as pal
from seaborn.palettes import blend_palette as mix
import seaborn.utils as su


class Tint(props.Color):
    def resolve_levels(self, scale, levels):
${
  BODY.replaceAll("BLEND", "mix").replaceAll("PALETTE", "pal.color_palette").replaceAll(
    "CYCLE",
    "su.get_color_cycle",
  )
}`;

const REUSE = `from seaborn._core.properties import Color
from seaborn.palettes import blend_palette, color_palette
from seaborn.utils import get_color_cycle


class Hue(Color):
    def lookup(self, scale, levels):
        if isinstance(scale.values, tuple) and len(levels) > len(get_color_cycle()):
            return self._standardize_color_sequence(blend_palette(scale.values, len(levels)))
        if isinstance(scale.values, str) and scale.values == "default":
            return self._standardize_color_sequence(color_palette(n_colors=len(levels)))
        self._check_list_length(levels, [])
        self._check_dict_entries(levels, {})
        return self._get_values(scale, levels)
`;

const repo = await seabornRepo();
const c0 = await sh(repo, ["git", "rev-parse", "HEAD"]);

/** Each planted case is its own branch from the pristine seaborn commit c0. */
async function branch(name: string): Promise<void> {
  await sh(repo, ["git", "checkout", "-q", "-b", name, c0]);
}

Deno.test("a rebuild of Color._get_values from the same helpers is flagged, with G", async () => {
  await branch("shade");
  await write(repo, "seaborn/_core/shade.py", REIMPL);
  const c1 = await commit(repo, "shade");
  const r = await auditReport({ repo, cacheDir, base: c0, head: c1 });
  assert.deepEqual(r.files, [{ path: "seaborn/_core/shade.py", status: "added" }]);
  assert.deepEqual(r.changed.map((c) => [c.id, c.status, c.line]), [
    ["seaborn._core.shade.Shade.lookup", "added", 9],
  ]);
  const re = r.findings.filter((f) => f.kind === "reimplementation");
  assert.deepEqual(re.map((f) => [f.function.id, f.target.id, f.target.file, f.target.line]), [
    ["seaborn._core.shade.Shade.lookup", G, "seaborn/_core/properties.py", 702],
  ]);
  assert.equal(re[0].overlap, 1);
  assert.deepEqual(re[0].missing, []);
  assert.equal(re[0].shared.length, 6);
  assert.ok(re[0].similarity > 0.7, `similarity ${re[0].similarity}`);
  // reuse: the calls resolve to the existing helpers
  assert.ok(r.changed[0].reused.includes("seaborn.palettes.blend_palette"));
  assert.ok(r.changed[0].reused.includes("seaborn._core.properties.Property._check_list_length"));
});

Deno.test("the same rebuild through module aliases and renamed imports is flagged", async () => {
  await branch("tint");
  await write(repo, "seaborn/_core/tint.py", ALIASED);
  const c2 = await commit(repo, "tint");
  const r = await auditReport({ repo, cacheDir, base: c0, head: c2 });
  const re = r.findings.filter((f) => f.kind === "reimplementation");
  assert.deepEqual(re.map((f) => [f.function.id, f.target.id]), [
    ["seaborn._core.tint.Tint.resolve_levels", G],
  ]);
  assert.equal(re[0].overlap, 1);
});

Deno.test("a function calling G reuses it: not flagged; the CLI exits 0", async () => {
  await branch("hue");
  await write(repo, "seaborn/_core/hue.py", REUSE);
  const c3 = await commit(repo, "hue");
  const c2 = c0;
  const r = await auditReport({ repo, cacheDir, base: c2, head: c3 });
  assert.deepEqual(r.changed.map((c) => c.id), ["seaborn._core.hue.Hue.lookup"]);
  assert.ok(r.changed[0].reused.includes(G));
  assert.equal(r.findings.filter((f) => f.kind === "reimplementation").length, 0);
  assert.equal(await main(["audit", repo, "--base", c2, "--head", c3, "--format", "json"]), 0);
});

Deno.test("a pure move and a rename of existing code is matched, not reported", async () => {
  await sh(repo, ["git", "checkout", "-q", "shade"]);
  const before = await sh(repo, ["git", "rev-parse", "HEAD"]);
  // move desaturate and saturate from utils.py to a new module; rename axlabel in place
  const utils = await Deno.readTextFile(`${repo}/seaborn/utils.py`);
  const start = utils.indexOf("def desaturate(");
  const end = utils.indexOf("def set_hls_values(");
  const moved = utils.slice(start, end);
  await Deno.writeTextFile(
    `${repo}/seaborn/utils.py`,
    (utils.slice(0, start) + "from .colorutils import desaturate, saturate  # noqa\n\n\n" +
      utils.slice(end)).replace("def axlabel(", "def axis_labels("),
  );
  await write(
    repo,
    "seaborn/colorutils.py",
    `import colorsys\nimport matplotlib as mpl\n\n\n${moved}`,
  );
  const after = await commit(repo, "move");
  const r = await auditReport({ repo, cacheDir, base: before, head: after });
  const byId = Object.fromEntries(r.changed.map((c) => [c.id, c]));
  assert.equal(byId["seaborn.colorutils.desaturate"]?.status, "moved");
  assert.equal(byId["seaborn.colorutils.desaturate"]?.from?.id, "seaborn.utils.desaturate");
  assert.equal(byId["seaborn.colorutils.saturate"]?.status, "moved");
  assert.equal(byId["seaborn.utils.axis_labels"]?.status, "moved");
  assert.equal(byId["seaborn.utils.axis_labels"]?.from?.id, "seaborn.utils.axlabel");
  assert.deepEqual(r.changed.filter((c) => c.status !== "moved").map((c) => c.id), []);
  assert.deepEqual(r.findings, []);
  assert.equal(await main(["audit", repo, "--base", before, "--head", after]), 0);
});

Deno.test("a commit touching no Python gives an empty report", async () => {
  const before = await sh(repo, ["git", "rev-parse", "HEAD"]);
  await write(repo, "README.md", "seaborn copy, edited\n");
  await write(repo, "docs/notes.txt", "def f(): pass\n");
  const after = await commit(repo, "docs");
  const r = await auditReport({ repo, cacheDir, base: before, head: after });
  assert.deepEqual([r.files, r.changed, r.findings, r.problems], [[], [], [], []]);
});

Deno.test("default range: the working tree against HEAD, uncommitted and untracked files", async () => {
  await branch("wip");
  const status0 = await sh(repo, ["git", "status", "--porcelain"]);
  const index0 = await Deno.readFile(`${repo}/.git/index`);
  await write(repo, "seaborn/_core/wip.py", REIMPL.replace("class Shade", "class Wip"));
  const r = await auditReport({ repo, cacheDir });
  assert.equal(r.head.commit, null);
  assert.deepEqual(
    r.findings.filter((f) => f.kind === "reimplementation").map((f) => f.target.id),
    [
      G,
    ],
  );
  // nothing of the repository was touched
  assert.deepEqual(await Deno.readFile(`${repo}/.git/index`), index0);
  assert.equal(
    await sh(repo, ["git", "status", "--porcelain"]),
    [status0, "?? seaborn/_core/wip.py"].filter(Boolean).join("\n"),
  );
  // the CLI fails on it by default and not with --fail-on none
  assert.equal(await main(["audit", repo, "--format", "md"]), 1);
  assert.equal(await main(["audit", repo, "--fail-on", "none"]), 0);
  await Deno.remove(`${repo}/seaborn/_core/wip.py`);
});

Deno.test("SARIF 2.1.0: the required fields of the spec, rule references, locations", async () => {
  const r = await auditReport({ repo, cacheDir, base: c0, head: "shade" });
  const log = JSON.parse(formatSarif(r));
  assert.equal(log.version, "2.1.0");
  assert.ok(Array.isArray(log.runs) && log.runs.length === 1);
  const run = log.runs[0];
  assert.equal(typeof run.tool.driver.name, "string");
  const ruleIds = run.tool.driver.rules.map((x: { id: string }) => x.id);
  assert.ok(run.results.length >= 1);
  for (const res of run.results) {
    assert.equal(typeof res.message.text, "string"); // §3.27.11: message is required
    assert.ok(ruleIds[res.ruleIndex] === res.ruleId);
    assert.ok(["none", "note", "warning", "error"].includes(res.level));
    for (const l of [...res.locations, ...res.relatedLocations]) {
      const p = l.physicalLocation;
      assert.equal(typeof p.artifactLocation.uri, "string");
      assert.ok(!p.artifactLocation.uri.startsWith("/"));
      assert.ok(Number.isInteger(p.region.startLine) && p.region.startLine >= 1);
      assert.ok(p.region.endLine >= p.region.startLine);
    }
    // the message's link [text](1) refers to a related location with id 1
    const links = [...res.message.text.matchAll(/\]\((\d+)\)/g)].map((m) => Number(m[1]));
    for (const id of links) {
      assert.ok(res.relatedLocations.some((l: { id: number }) => l.id === id));
    }
  }
  assert.ok(run.results.some((x: { ruleId: string }) => x.ruleId === "RR001"));
});

Deno.test("auditHistory: one row per commit, re-implementations where planted", async () => {
  // branch shade: seaborn, shade, move, docs
  const h = await auditHistory(repo, { commits: 10, rev: "shade", cacheDir });
  const subjects = h.commits.getColumn("subject").toArray();
  assert.deepEqual(subjects, ["seaborn 0.12.2", "shade", "move", "docs"]);
  // the root commit's duplicates are all within that change (seaborn's own near-copies)
  const within = h.commits.getColumn("within").toArray() as number[];
  assert.ok(within[0] > 0);
  const commits = h.commits.getColumn("commit").toArray();
  const notWithin = h.findings.filter(
    pl.col("primary").and(pl.col("kind").eq(pl.lit("reimplementation"))).and(
      pl.col("within").not(),
    ),
  ).getColumn("commit").toArray();
  assert.deepEqual(commits.map((c) => notWithin.filter((x) => x === c).length), [0, 1, 0, 0]);
  assert.deepEqual(h.commits.getColumn("moved").toArray(), [0, 0, 3, 0]);
  assert.deepEqual(h.commits.getColumn("added").toArray().slice(1), [1, 0, 0]);
  const re = h.findings.filter(
    pl.col("kind").eq(pl.lit("reimplementation")).and(pl.col("within").not()),
  );
  assert.deepEqual(re.getColumn("target").toArray(), [G]);
});

Deno.test("bad input: one-line errors, exit 2, never a crash", async (t) => {
  const errors: string[] = [];
  const orig = console.error;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  try {
    const notGit = await Deno.makeTempDir();
    await t.step("not a git repository", async () => {
      assert.equal(await main(["audit", notGit]), 2);
      assert.match(errors.pop()!, /^reporeuse audit: .*: not a git repository$/);
    });
    await t.step("no such directory", async () => {
      assert.equal(await main(["audit", `${notGit}/nope`]), 2);
      assert.match(errors.pop()!, /no such directory/);
    });
    await t.step("unknown revision", async () => {
      assert.equal(await main(["audit", repo, "--base", "no-such-branch"]), 2);
      assert.match(errors.pop()!, /^reporeuse audit: no-such-branch: unknown revision/);
      assert.equal(await main(["audit", repo, "--head", "deadbeef"]), 2);
      assert.match(errors.pop()!, /deadbeef: unknown revision/);
    });
    await t.step("bad options", async () => {
      assert.equal(await main(["audit", repo, "--format", "xml"]), 2);
      assert.match(errors.pop()!, /--format must be one of text, json, md, sarif/);
      assert.equal(await main(["audit", repo, "--min-callees", "2"]), 2);
      assert.match(errors.pop()!, /--min-callees must be an integer >= 3/);
      assert.equal(await main(["audit", repo, "--fail-on", "clone"]), 2);
      assert.match(errors.pop()!, /--fail-on must be none, any, low, medium, high or a confidence/);
      assert.equal(await main(["audit", repo, "--fail-on", "1.5"]), 2);
      assert.match(errors.pop()!, /--fail-on must be/);
      assert.equal(await main(["audit", repo, "--fail-contexts", "code,docs"]), 2);
      assert.match(
        errors.pop()!,
        /--fail-contexts takes code, test, example, script, vendored, generated, got 'docs'/,
      );
      assert.equal(await main(["audit", repo, "--max-targets=-1"]), 2);
      assert.match(errors.pop()!, /--max-targets must be a non-negative integer/);
    });
    await t.step("shallow clone missing the base", async () => {
      const shallow = await Deno.makeTempDir();
      await sh(shallow, ["git", "clone", "-q", "--depth", "1", `file://${repo}`, "c"]);
      assert.equal(await main(["audit", `${shallow}/c`, "--base", "HEAD~1", "--head", "HEAD"]), 2);
      const line = errors.pop()!;
      assert.match(line, /HEAD~1: unknown revision .*shallow clone/);
      assert.ok(!line.includes("\n"));
    });
    assert.deepEqual(errors, []);
  } finally {
    console.error = orig;
  }
});

Deno.test("bad files: binary, non-UTF-8 and syntax errors on either side are listed", async () => {
  await branch("bad-files");
  const before = await sh(repo, ["git", "rev-parse", "HEAD"]);
  await write(repo, "seaborn/blob.py", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  await write(
    repo,
    "seaborn/latin.py",
    new Uint8Array([...new TextEncoder().encode("s = '"), 0xe9, 0x27, 10]),
  );
  // the same byte under PEP 263's declaration, as dateutil's parser.py had it: Latin-1, read
  await write(
    repo,
    "seaborn/declared.py",
    new Uint8Array([
      ...new TextEncoder().encode("# -*- coding: iso-8859-1 -*-\ndef caf"),
      0xe9,
      ...new TextEncoder().encode("():\n    return '"),
      0xe9,
      0x27,
      10,
    ]),
  );
  await write(repo, "seaborn/broken.py", "def ok(x):\n    return x\n\ndef bad(:\n    pass\n");
  const mid = await commit(repo, "bad files");
  const r = await auditReport({ repo, cacheDir, base: before, head: mid });
  const msg = (file: string) =>
    r.problems.filter((p) => p.file === file).map((p) => p.side + " " + p.message);
  assert.deepEqual(msg("seaborn/blob.py"), ["head binary file (NUL bytes), skipped"]);
  assert.deepEqual(msg("seaborn/latin.py"), ["head not valid UTF-8, skipped"]);
  assert.deepEqual(msg("seaborn/declared.py"), []);
  assert.ok(r.changed.some((c) => c.id === "seaborn.declared.caf\u00e9"));
  assert.ok(msg("seaborn/broken.py").some((m) => m.startsWith("head syntax error")));
  assert.ok(r.changed.some((c) => c.id === "seaborn.broken.ok"));
  // the broken file fixed: its base side error is listed
  await write(repo, "seaborn/broken.py", "def ok(x):\n    return x\n\ndef bad(y):\n    pass\n");
  const fixed = await commit(repo, "fix");
  const r2 = await auditReport({ repo, cacheDir, base: mid, head: fixed });
  assert.ok(r2.problems.some((p) => p.side === "base" && p.file === "seaborn/broken.py"));
  assert.deepEqual(r2.changed.map((c) => [c.id, c.status]), [["seaborn.broken.bad", "modified"]]);
  // the CLI lists them in every format and exits by the findings
  for (const format of ["text", "json", "md", "sarif"]) {
    assert.equal(
      await main(["audit", repo, "--base", before, "--head", mid, "--format", format]),
      0,
    );
  }
});

Deno.test("gitBlobId agrees with git hash-object", async () => {
  const text = "def f():\n    return 1\n";
  assert.equal(
    gitBlobId(new TextEncoder().encode(text)),
    await sh(repo, ["git", "hash-object", "--stdin"], text),
  );
});

Deno.test("A...B: the merge base of A and B against B (a pull request's range)", async () => {
  const r = await auditReport({ repo, cacheDir, base: "main...tint" });
  assert.equal(r.base.commit, c0);
  assert.equal(r.head.commit, await sh(repo, ["git", "rev-parse", "tint"]));
  assert.deepEqual(
    r.findings.filter((f) => f.kind === "reimplementation").map((f) => f.target.id),
    [G],
  );
  // the JSON report carries the same, with a summary
  const lines: string[] = [];
  const orig = console.log;
  console.log = (s: string) => lines.push(s);
  try {
    assert.equal(await main(["audit", repo, "--base", "main...tint", "--format", "json"]), 1);
  } finally {
    console.log = orig;
  }
  const json = JSON.parse(lines.join("\n"));
  assert.equal(json.version, 2);
  assert.deepEqual(json.summary, {
    reimplementation: 1,
    clone: 0,
    block: 0,
    candidate: json.summary.candidate,
    within: 0,
    preexisting: 0,
    extracted: 0,
    relocated: 0,
    writtenTogether: 0,
    pairs: { reimplementation: 1, clone: 0, block: 0 },
  });
  assert.equal(json.findings[0].target.id, G);
  assert.equal(json.findings[0].target.line, 702);
});

Deno.test("shapes: code hash ignores comments, docstring, name and layout; similarity abstracts names", async () => {
  const { fileShapes, similarity } = await import("../lib/audit/shape.ts");
  const [a] = await fileShapes("def f(x, y):\n    # add\n    return x + y * 2\n");
  const [b] = await fileShapes('def g(x, y):\n    """Doc."""\n\n    return x+y  *  2  # sum\n');
  const [c] = await fileShapes("def h(p, q):\n    return p + q * 3\n");
  const [d] = await fileShapes(
    "def k(p, q):\n    for i in p:\n        q.append(i)\n    return q\n",
  );
  // a backslash ending a line is layout: the same tokens, lines aside, features and hash
  const [e] = await fileShapes("def f(x, y):\n    return x + \\\n        y * 2\n");
  assert.equal(a.hash, b.hash);
  assert.equal(a.hash, e.hash);
  assert.deepEqual(e.tokens, a.tokens);
  assert.deepEqual(e.features, a.features);
  assert.deepEqual(e.lines.slice(-3), [3, 3, 3]);
  assert.notEqual(a.hash, c.hash);
  assert.equal(similarity(a.features, c.features), 1);
  assert.ok(similarity(a.features, d.features) < 0.3);
});

Deno.test("targets and notes: local defs and tests are no targets; pre-existing, extracted pairs stay re-implementations with notes", async () => {
  const { auditChange, calleeSet } = await import("../lib/audit/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  assert.deepEqual(calleeSet({ callees: ["p.f", "p.C", "p.f"] }), ["p.C", "p.f"]);
  const def = sideDef;
  const abc = ["p.u.a", "p.u.b", "p.u.c"];
  const side = (defs: SideDef[], files: [string, string][]): Side => ({
    rev: "x",
    files: files.map(([path, oid]) => ({ path, oid })),
    modules: {},
    defs,
    ids: [...defs.map((d) => d.id), ...abc],
    errors: [],
  });
  const outer = def("p.u.outer", "p/u.py", []);
  const inner = def("p.u.outer.helper", "p/u.py", abc); // local to outer: not callable
  const test = def("tests.test_u.test_abc", "tests/test_u.py", abc); // a test: run, not called
  const base = side([outer, inner, test], [["p/u.py", "1"], ["tests/test_u.py", "2"]]);
  const f = def("p.n.f", "p/n.py", abc);
  const head = side([outer, inner, test, f], [["p/u.py", "1"], ["tests/test_u.py", "2"], [
    "p/n.py",
    "3",
  ]]);
  assert.deepEqual(auditChange(base, head).findings, []);
  // a real target g; f modified, and f's old version already re-implemented g: still reported
  // (the rule holds), noted as pre-existing, at a lower confidence than a new re-implementation
  const g = def("p.u.g", "p/u.py", abc);
  const f0 = def("p.n.f", "p/n.py", abc, "old");
  const b2 = side([g, f0], [["p/u.py", "1"], ["p/n.py", "3"]]);
  const h2 = side([g, { ...f, hash: "new" }], [["p/u.py", "1"], ["p/n.py", "4"]]);
  const r = auditChange(b2, h2);
  assert.deepEqual(r.changed.map((c) => [c.id, c.status]), [["p.n.f", "modified"]]);
  assert.deepEqual(r.findings.map((x) => [x.kind, x.target.id, x.notes]), [
    ["reimplementation", "p.u.g", ["preexisting"]],
  ]);
  const h3 = side([g, f0, def("p.n.k", "p/n.py", abc)], [["p/u.py", "1"], ["p/n.py", "5"]]);
  const r3 = auditChange(b2, h3);
  // one finding for k: the best target, the other as an alternative
  assert.deepEqual(r3.findings.map((x) => [x.function.id, x.target.id, x.notes]), [
    ["p.n.k", "p.n.f", []],
  ]);
  assert.deepEqual(r3.findings[0].alternatives.map((x) => [x.kind, x.target.id]), [
    ["reimplementation", "p.u.g"],
  ]);
  assert.ok(r3.findings[0].confidence > r.findings[0].confidence);
  // g now calls the new k (k was extracted from g): a rule hit, noted, much less confident
  const gx = { ...g, hash: "gx", callees: ["p.n.k"], uses: ["p.n.k"] };
  const h4 = side([gx, f0, def("p.n.k", "p/n.py", abc)], [["p/u.py", "6"], ["p/n.py", "5"]]);
  const r4 = auditChange(b2, h4);
  const kg = [r4.findings.find((x) => x.function.id === "p.n.k")!].flatMap((x) => [
    x,
    ...x.alternatives,
  ]).find((x) => x.target.id === "p.u.g")!;
  assert.deepEqual(kg.notes, ["extracted", "target-rewritten"]);
  assert.ok(kg.confidence < 0.3);
  // an extraction is listed apart (the code exists once: g reuses k) and never fails the check,
  // whatever the threshold
  const { sections, failing } = await import("../lib/audit/mod.ts");
  const r5 = auditChange(
    side([g], [["p/u.py", "1"]]),
    side([gx, def("p.n.k", "p/n.py", abc)], [["p/u.py", "6"], ["p/n.py", "5"]]),
  );
  assert.deepEqual(r5.findings.map((x) => [x.function.id, x.target.id, x.notes]), [
    ["p.n.k", "p.u.g", ["extracted", "target-rewritten"]],
  ]);
  const report = {
    ...r5,
    repo: "r",
    base: { rev: "b", commit: null },
    head: { rev: "h", commit: null },
  } as Parameters<typeof sections>[0];
  assert.deepEqual(sections(report).map((x) => [x.key, x.findings.length]), [["extracted", 1]]);
  assert.deepEqual(failing(report, { threshold: 0 }), []);
});

Deno.test("within the change: two modified functions given the same block are a duplicate the change made; a pair already so before is not", async () => {
  const { auditChange } = await import("../lib/audit/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  const side = handSide;
  const block = ["p.u.c1", "p.u.c2", "p.u.c3"];
  // one commit pastes the same three calls into m1 and m2 (both existed before)
  const m1 = sideDef("p.a.m1", "p/a.py", ["p.x.a"], "m1-old");
  // (their old versions unlike in shape: not twins before)
  const m2 = { ...sideDef("p.b.m2", "p/b.py", [], "m2-old"), features: [1, 3, 2, 9] };
  const m1b = sideDef("p.a.m1", "p/a.py", ["p.x.a", ...block], "m1-new");
  const m2b = sideDef("p.b.m2", "p/b.py", block, "m2-new");
  const r = auditChange(side([m1, m2]), side([m1b, m2b]));
  assert.deepEqual(r.changed.map((c) => [c.id, c.status]), [
    ["p.a.m1", "modified"],
    ["p.b.m2", "modified"],
  ]);
  assert.deepEqual(
    r.findings.map((f) => [f.kind, f.function.id, f.target.id, f.within, f.notes]),
    [["reimplementation", "p.a.m1", "p.b.m2", true, []]],
  );
  // the same pair already joined before the change (both edited again): pre-existing, not within
  const m1o = sideDef("p.a.m1", "p/a.py", ["p.x.a", ...block], "m1-old");
  const m2o = sideDef("p.b.m2", "p/b.py", block, "m2-old");
  const r2 = auditChange(side([m1o, m2o]), side([m1b, m2b]));
  assert.deepEqual(
    r2.findings.map((f) => [f.kind, f.function.id, f.target.id, f.within, f.notes]),
    [["reimplementation", "p.a.m1", "p.b.m2", false, ["preexisting"]]],
  );
});

Deno.test("idioms: one helper's API counted as three callees (same-api); clones alike in shape only (template)", async () => {
  const { auditChange, DEFAULT_FAIL_ON, NOTE_FACTOR, SAME_API_MAX_SIMILARITY } = await import(
    "../lib/audit/mod.ts"
  );
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  // the class p.h.X with two methods: defined in the repository (ids), not functions of the audit
  const classIds = ["p.h.X", "p.h.X.get_a", "p.h.X.get_b"];
  const side = (defs: SideDef[]): Side => ({
    rev: "x",
    files: [...new Set(defs.map((d) => d.file))].map((path) => ({ path, oid: path + defs.length })),
    modules: {},
    defs,
    ids: [...defs.map((d) => d.id), ...classIds],
    errors: [],
  });
  // G builds X and calls two of its methods (one resolved, one on a value of unknown type)
  const api = ["p.h.X", "p.h.X.get_a", ".get_b"];
  // in another structure (shape similarity below SAME_API_MAX_SIMILARITY)
  const g = { ...sideDef("p.u.g", "p/u.py", api), features: [1, 3, 2, 9] };
  const f = sideDef("p.n.f", "p/n.py", [...api, "p.z.other"]);
  const r = auditChange(side([g]), side([g, f]));
  assert.deepEqual(r.findings.map((x) => [x.kind, x.target.id, x.notes]), [
    ["reimplementation", "p.u.g", ["same-api"]],
  ]);
  assert.ok(r.findings[0].similarity < SAME_API_MAX_SIMILARITY);
  assert.ok(r.findings[0].confidence < DEFAULT_FAIL_ON);
  // the same calls in the same structure: a pasted block, not a use of the API
  const gp = { ...g, features: f.features };
  const pasted = auditChange(side([gp]), side([gp, f]));
  assert.deepEqual(pasted.findings.map((x) => [x.target.id, x.notes]), [["p.u.g", []]]);
  // the same API among three independent helpers: the rule holds on helpers too, no note
  const g2 = sideDef("p.u.g", "p/u.py", ["p.h.X", "p.h.X.get_a", "p.u.clean", "p.v.fmt"]);
  const f2 = sideDef("p.n.f", "p/n.py", ["p.h.X", "p.h.X.get_a", "p.u.clean", "p.v.fmt"]);
  const r2 = auditChange(side([g2]), side([g2, f2]));
  assert.deepEqual(r2.findings.map((x) => [x.kind, x.notes]), [["reimplementation", []]]);
  // two clones of the same shape (60 nodes): sharing none of G's helpers is a template
  const big = (d: SideDef): SideDef => ({ ...d, size: 60, features: [7, 30, 9, 30] });
  const v = big(sideDef("p.v.MinLen.check", "p/v.py", ["p.x.fmt", "p.x.min_len"]));
  const w = big(sideDef("p.v.MaxLen.check", "p/v.py", ["p.x.max_len", "p.y.fmt"]));
  const r3 = auditChange(side([v]), side([v, w]));
  assert.deepEqual(r3.findings.map((x) => [x.kind, x.target.id, x.notes]), [
    ["clone", "p.v.MinLen.check", ["template"]],
  ]);
  // the same code (equal hashes) calling nothing of G's: a verbatim copy, not a template
  const v0 = big(sideDef("p.v.A.is_valid", "p/v.py", [], "same-code"));
  const w0 = big(sideDef("p.w.B.is_valid", "p/w.py", [], "same-code"));
  const r0 = auditChange(side([v0]), side([v0, w0]));
  assert.deepEqual(r0.findings.map((x) => [x.kind, x.notes]), [["clone", []]]);
  // the same clone sharing G's helper: a copy of what it does, not noted
  const w2 = big(sideDef("p.v.MaxLen.check", "p/v.py", ["p.x.fmt", "p.x.min_len"]));
  const r4 = auditChange(side([v]), side([v, w2]));
  assert.deepEqual(r4.findings.map((x) => [x.kind, x.notes]), [["clone", []]]);
  assert.ok(
    Math.abs(r3.findings[0].confidence - NOTE_FACTOR.template * r4.findings[0].confidence) < 0.1,
  );
});

Deno.test("idioms: wrappers delegating to one function are noted clones; twin names across async markers", async () => {
  const { auditChange, twinNames, withoutAsync, asyncTwin, NOTE_FACTOR } = await import(
    "../lib/audit/mod.ts"
  );
  const { BLOCK_START_TOKEN } = await import("../lib/audit/shape.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  const side = (defs: SideDef[]): Side => ({
    rev: "x",
    files: [...new Set(defs.map((d) => d.file))].map((path) => ({ path, oid: path + defs.length })),
    modules: {},
    defs,
    ids: defs.map((d) => d.id),
    errors: [],
  });
  // post and put: the same shape (60 nodes), each only calling request()
  const big = (d: SideDef): SideDef => ({ ...d, size: 60, features: [7, 30, 9, 30] });
  const request = big(sideDef("p.api.request", "p/api.py", ["p.x.a", "p.x.b", "p.x.c"]));
  const post = big(sideDef("p.api.post", "p/api.py", ["p.api.request"]));
  const put = big(sideDef("p.api.put", "p/api.py", ["p.api.request"], "put"));
  const r = auditChange(side([request, post]), side([request, post, put]));
  assert.deepEqual(r.findings.map((f) => [f.kind, f.function.id, f.target.id, f.notes]), [
    ["clone", "p.api.put", "p.api.post", ["same-delegate"]],
  ]);
  // the same clone calling one more helper than post: no longer a pure delegate, not noted
  const put2 = big(sideDef("p.api.put", "p/api.py", ["p.api.request", "p.x.a"], "put2"));
  const r2 = auditChange(side([request, post]), side([request, post, put2]));
  assert.deepEqual(r2.findings[0].notes, []);
  assert.ok(
    Math.abs(r.findings[0].confidence - NOTE_FACTOR["same-delegate"] * r2.findings[0].confidence) <
      0.06,
  );
  // tokens of a straight-line body (one block start: the def's own suite) keep the note; a branch
  // (a second block start) in either is work of its own: a copy, not a delegate
  const line = [5, BLOCK_START_TOKEN, 6, 7, 8],
    branched = [5, BLOCK_START_TOKEN, 9, BLOCK_START_TOKEN];
  const withTokens = (d: SideDef, tokens: number[]): SideDef => ({
    ...d,
    tokens,
    tokenLines: tokens.map((_, i) => i + 1),
  });
  for (
    const [g, f, notes] of [
      [line, line, ["same-delegate"]],
      [branched, line, []],
      [line, branched, []],
    ] as const
  ) {
    const p = withTokens(post, [...g]), q = withTokens(put, [...f]);
    const rt = auditChange(side([request, p]), side([request, p, q]));
    assert.deepEqual(rt.findings.map((x) => [x.kind, x.notes]), [["clone", notes]]);
  }
  // names
  for (
    const [a, b] of [["aclose", "close"], ["__aenter__", "__enter__"], ["fetch_async", "fetch"]]
  ) {
    assert.ok(twinNames(a, b), `${a} ~ ${b}`);
  }
  for (const [a, b] of [["close", "closed"], ["__aenter__", "aenter"], ["add", "sub"]]) {
    assert.ok(!twinNames(a, b), `${a} !~ ${b}`);
  }
  assert.equal(withoutAsync("AsyncHTTPTransport"), "HTTPTransport");
  assert.equal(withoutAsync("BoundSyncStream"), "BoundStream");
  assert.equal(withoutAsync("async_send"), "send");
  assert.equal(withoutAsync("asyncio"), "asyncio");
  const d = (id: string, signature = "def f(self)") => ({
    id,
    name: id.split(".").pop()!,
    signature,
  });
  // twin containers: a module path differing by an _async/_sync component
  assert.ok(asyncTwin(d("p._async.pool.Pool.handle"), d("p._sync.pool.Pool.handle")));
  // two sync methods of the same name in unrelated classes are no twins
  assert.ok(!asyncTwin(d("p.a.Reader.read"), d("p.b.Writer.read")));
});

Deno.test("same-delegate: a straight-line constructor stays noted; a validator copied whole with its branches is not", async () => {
  const { DEFAULT_FAIL_ON, NOTE_FACTOR } = await import("../lib/audit/mod.ts");
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-audit-delegate-" });
  await sh(dir, ["git", "init", "-q", "-b", "main"]);
  const validator = (label: string) => `

def _validate_${label}(value: object, /) -> tuple[Literal["${label}"], int] | None:
    if value is None:
        return value
    if isinstance(value, int) and value >= 0:
        return ("${label}", value)
    msg = f"${label} must be non-negative integer, got {value}"
    raise InvalidVersion(msg)
`;
  const logger = (cls: string, stream: string) => `

class ${cls}:
    def __init__(self, file=None, name=None):
        self._file = file or ${stream}
        self._name = name or self._file.name
        self._write = self._file.write
        self._flush = self._file.flush
        self._lock = _get_lock_for_file(self._file)
`;
  const head = (extra: string) =>
    "import sys\nfrom typing import Literal\n\n\nclass InvalidVersion(ValueError):\n    pass\n\n\n" +
    "def _get_lock_for_file(file):\n    return file\n" + validator("post") +
    logger("PrintLogger", "sys.stdout") + extra;
  await write(dir, "pkg/__init__.py", "");
  await write(dir, "pkg/version.py", head(""));
  const c0 = await commit(dir, "base");
  await write(
    dir,
    "pkg/version.py",
    head(validator("dev") + logger("BytesLogger", "sys.stdout.buffer")),
  );
  const c1 = await commit(dir, "copies");
  const r = await auditReport({ repo: dir, cacheDir, base: c0, head: c1 });
  const rows = r.findings.map((f) => [f.kind, f.function.id, f.target.id, f.notes]);
  assert.deepEqual(rows, [
    ["clone", "pkg.version._validate_dev", "pkg.version._validate_post", []],
    ["clone", "pkg.version.BytesLogger.__init__", "pkg.version.PrintLogger.__init__", [
      "same-delegate",
    ]],
  ]);
  // both only call one function (InvalidVersion, _get_lock_for_file): the branches decide
  const [dev, init] = r.findings;
  assert.deepEqual([dev.shared, init.shared], [["pkg.version.InvalidVersion"], [
    "pkg.version._get_lock_for_file",
  ]]);
  assert.ok(dev.confidence >= DEFAULT_FAIL_ON, `${dev.confidence}`);
  assert.ok(init.confidence < DEFAULT_FAIL_ON, `${init.confidence}`);
  assert.ok(init.confidence <= NOTE_FACTOR["same-delegate"] + 1e-9);
});

Deno.test("a function renamed in place keeps its old version: its pre-existing pair is not new; a new sibling still is", async () => {
  const { auditChange, RENAME_SIMILARITY } = await import("../lib/audit/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  const side = (defs: SideDef[], oid: string): Side => ({
    rev: "x",
    files: [{ path: "p/life.py", oid }],
    modules: {},
    defs,
    ids: defs.map((d) => d.id),
    errors: [],
  });
  const calls = ["p.life.put", "p.life.wait", "p.life.timeout"];
  const startup = sideDef("p.life.C.wait_startup", "p/life.py", calls, "s");
  const cleanup = sideDef("p.life.C.wait_cleanup", "p/life.py", calls, "c");
  // the change renames wait_cleanup to wait_shutdown (same shape, one edit)
  const shutdown = { ...sideDef("p.life.C.wait_shutdown", "p/life.py", calls, "d") };
  const r = auditChange(side([startup, cleanup], "1"), side([startup, shutdown], "2"));
  assert.deepEqual(r.changed.map((c) => [c.id, c.status, c.from?.id]), [
    ["p.life.C.wait_shutdown", "modified", "p.life.C.wait_cleanup"],
  ]);
  assert.deepEqual(r.findings.map((f) => [f.function.id, f.target.id, f.notes]), [
    ["p.life.C.wait_shutdown", "p.life.C.wait_startup", ["preexisting"]],
  ]);
  // not alike in shape: a new function, its pair introduced
  const other = { ...shutdown, features: [1, 3, 2, 9] };
  assert.ok(RENAME_SIMILARITY > 0.5);
  const r2 = auditChange(side([startup, cleanup], "1"), side([startup, other], "2"));
  assert.deepEqual(r2.changed.map((c) => [c.id, c.status]), [["p.life.C.wait_shutdown", "added"]]);
  assert.deepEqual(r2.findings.map((f) => [f.function.id, f.target.id, f.notes]), [
    ["p.life.C.wait_shutdown", "p.life.C.wait_startup", []],
  ]);
  // removed from another module: not a rename (the new function is new there)
  const elsewhere = sideDef("p.other.wait_shutdown", "p/other.py", calls, "d");
  const r3 = auditChange(side([startup, cleanup], "1"), {
    ...side([startup, elsewhere], "2"),
    files: [{ path: "p/life.py", oid: "2" }, { path: "p/other.py", oid: "3" }],
  });
  assert.deepEqual(r3.changed.map((c) => [c.id, c.status]), [["p.other.wait_shutdown", "added"]]);
});

Deno.test("same-api: methods of a parameter of unknown type resolve to the class defining them; the paper's rule still decides", async () => {
  const { auditChange } = await import("../lib/audit/mod.ts");
  const { isReimplemented } = await import("../lib/metrics/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  // converters each take a `writer` and call its methods (keys `.start_block`, …: unknown type)
  const writer = [
    "p.w.Writer",
    "p.w.Writer.start_block",
    "p.w.Writer.write",
    "p.w.Writer.end_block",
  ];
  const side = (defs: SideDef[]): Side => ({
    rev: "x",
    files: [...new Set(defs.map((d) => d.file))].map((path) => ({ path, oid: path + defs.length })),
    modules: {},
    defs,
    ids: [...defs.map((d) => d.id), ...writer],
    errors: [],
  });
  const api = [".start_block", ".write", ".end_block"];
  const ifTag = {
    ...sideDef("p.conv.if_tag", "p/conv.py", [...api, "p.conv.node"]),
    features: [1, 3, 2, 9],
  };
  const forTag = sideDef("p.conv.for_tag", "p/conv.py", [...api, "p.conv.node", "p.conv.body"]);
  assert.ok(isReimplemented(false, ifTag.callees, new Set(forTag.callees)).reimplemented);
  const r = auditChange(side([ifTag]), side([ifTag, forTag]));
  assert.deepEqual(r.findings.map((f) => [f.kind, f.function.id, f.target.id, f.notes]), [
    ["reimplementation", "p.conv.for_tag", "p.conv.if_tag", ["same-api"]],
  ]);
  // the same calls with no class of the repository defining them: no note
  const bare: Side = { ...side([ifTag]), ids: [ifTag.id] };
  const r2 = auditChange(bare, { ...side([ifTag, forTag]), ids: [ifTag.id, forTag.id] });
  assert.deepEqual(r2.findings.map((f) => f.notes), [[]]);
});

Deno.test("relocated: a new function holding the old code of a function the change rewrote is listed apart, never failing", async () => {
  const { auditChange, failing, sections } = await import("../lib/audit/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  const side = handSide;
  const abc = ["p.seg.line", "p.seg.pad", "p.seg.style"];
  // bar.Bar becomes progress_bar.ProgressBar; bar.Bar is given other code (the old BlockBar's)
  const bar0 = sideDef("p.bar.Bar.render", "p/bar.py", abc, "bar-old");
  const progress = sideDef(
    "p.progress_bar.ProgressBar.render",
    "p/progress_bar.py",
    abc,
    "bar-old",
  );
  const bar1 = {
    ...sideDef("p.bar.Bar.render", "p/bar.py", ["p.seg.block"], "bar-new"),
    features: [1, 3, 2, 9],
  };
  const r = auditChange(side([bar0]), side([bar1, progress]));
  assert.deepEqual(r.findings.map((f) => [f.function.id, f.target.id, f.notes]), [
    ["p.progress_bar.ProgressBar.render", "p.bar.Bar.render", ["target-rewritten", "relocated"]],
  ]);
  const report = {
    ...r,
    repo: "r",
    base: { rev: "b", commit: null },
    head: { rev: "h", commit: null },
  } as Parameters<typeof sections>[0];
  assert.deepEqual(sections(report).map((s) => [s.key, s.findings.length]), [["relocated", 1]]);
  assert.deepEqual(failing(report, { threshold: 0 }), []);
  // G edited but still alike: a copy of G, introduced by the change
  const bar2 = { ...sideDef("p.bar.Bar.render", "p/bar.py", abc, "bar-2") };
  const r2 = auditChange(side([bar0]), side([bar2, progress]));
  assert.deepEqual(r2.findings.map((f) => [f.function.id, f.target.id, f.notes]), [
    ["p.progress_bar.ProgressBar.render", "p.bar.Bar.render", []],
  ]);
});

Deno.test("twins edited together: a pair whose old versions were already alike in shape is pre-existing, not made by the change", async () => {
  const { auditChange, PREEXISTING_SIMILARITY } = await import("../lib/audit/mod.ts");
  type SideDef = import("../lib/audit/mod.ts").SideDef;
  type Side = import("../lib/audit/mod.ts").Side;
  const side = handSide;
  // two protocol twins calling two helpers: below the rule's 3 callees before the change
  const twin = [1, 4, 3, 6, 8, 2];
  const h11 = {
    ...sideDef("p.h11.P.__init__", "p/h11.py", ["p.c.cfg", "p.c.loop"], "a"),
    features: twin,
  };
  const ht = {
    ...sideDef("p.ht.P.__init__", "p/ht.py", ["p.c.cfg", "p.c.loop"], "b"),
    features: twin,
  };
  // one commit gives both the same third call (the rule now holds between them)
  const edit = ["p.c.cfg", "p.c.loop", "p.c.limit"];
  const h11b = { ...h11, hash: "a2", callees: edit, uses: edit };
  const htb = { ...ht, hash: "b2", callees: edit, uses: edit };
  const r = auditChange(side([h11, ht]), side([h11b, htb]));
  // nothing introduced (G's old version had too few callees to be a target of the rule, and the
  // within-change pair was joined before the change)
  assert.deepEqual(r.findings.filter((f) => !f.notes.includes("preexisting")), []);
  // the same edit where the old versions were not alike: the change made the duplication
  const other = { ...ht, features: [2, 9, 5, 1] };
  assert.ok(PREEXISTING_SIMILARITY < 1);
  const r2 = auditChange(side([h11, other]), side([h11b, { ...htb, features: [2, 9, 5, 1] }]));
  assert.ok(
    r2.findings.some((f) => f.kind === "reimplementation" && !f.notes.includes("preexisting")),
  );
});
