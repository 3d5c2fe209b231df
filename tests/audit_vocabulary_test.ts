/**
 * Issue 24, parts 1 and 3: a module's (or class's) own vocabulary is not evidence of a copy
 * (`module-vocabulary`, lib/audit/idiom.ts), and test infrastructure outside the test layouts is
 * test code (lib/audit/context.ts `testInfrastructure`). Hand-built fixtures: a module of six
 * renderers that all call its three formatting helpers (as alembic's `autogenerate/render.py`
 * does; alembic is a development project for this rule), a real duplicate in the same module that
 * shares rarer helpers, and a repository with a test-helper package beside the package under test
 * (as urllib3's `dummyserver/`, a development project too).
 */
import assert from "node:assert/strict";
import {
  auditChange,
  auditReport,
  DEFAULT_FAIL_ON,
  NOTE_FACTOR,
  SAME_API_MAX_SIMILARITY,
  type Side,
  type SideDef,
  testInfrastructure,
  VOCABULARY_SIBLINGS,
} from "../lib/audit/mod.ts";
import { quiet } from "./cli_helpers.ts";
import { isReimplemented } from "../lib/metrics/mod.ts";
import { commit, sh, sideDef, write } from "./audit_helpers.ts";

// named in every call (cacheDir), never set in Deno.env: the env is the whole process's, shared
// by every test file under --parallel; the CLI run in this process (it takes no cache dir) uses
// the configured cache, as a user's run would
const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-audit-cache-" });

const side = (defs: SideDef[]): Side => ({
  rev: "x",
  files: [...new Set(defs.map((d) => d.file))].map((path) => ({
    path,
    oid: path + defs.filter((d) => d.file === path).map((d) => d.id).join(),
  })),
  modules: {},
  defs,
  ids: defs.map((d) => d.id),
  errors: [],
});

// the module's vocabulary: three helpers every renderer calls
const VOCAB = ["p.render._prefix", "p.render._ident", "p.render._gen_name"];
const RENDERERS = [
  "add_table",
  "drop_table",
  "add_index",
  "drop_index",
  "add_column",
  "drop_column",
];
/** Another shape than the renderers' (similarity far below SAME_API_MAX_SIMILARITY). */
const OTHER_SHAPE = [1, 3, 2, 9];

Deno.test("hand-built: sibling renderers sharing the module's three helpers are noted; a real copy sharing rarer helpers is not", () => {
  const renderers = RENDERERS.map((n) => sideDef(`p.render.${n}`, "p/render.py", VOCAB));
  const real = sideDef("p.render.render_foreign_key", "p/render.py", [
    "p.render._prefix",
    "p.render._colspec",
    "p.render._fk_opts",
    "p.render._ondelete",
  ]);
  const base = side([...renderers, real]);
  // a new renderer of the same module, another shape, calling the vocabulary and one more helper
  const f = {
    ...sideDef("p.render.add_constraint", "p/render.py", [...VOCAB, "p.render._deferrable"]),
    features: OTHER_SHAPE,
  };
  const r = auditChange(base, side([...renderers, real, f]), { maxTargets: 0 });
  assert.equal(r.findings.length, 1);
  const pairs = [r.findings[0], ...r.findings[0].alternatives];
  // the rule decides: every renderer it holds for is reported, none dropped
  const expected = renderers.filter((g) =>
    isReimplemented(false, g.callees, new Set(f.callees)).reimplemented
  ).map((g) => g.id).sort();
  assert.equal(expected.length, RENDERERS.length);
  assert.deepEqual(
    pairs.filter((p) => p.kind === "reimplementation").map((p) => p.target.id).sort(),
    expected,
  );
  for (const p of pairs) {
    assert.ok(p.similarity < SAME_API_MAX_SIMILARITY);
    assert.deepEqual(p.notes, ["module-vocabulary"], p.target.id);
    assert.ok(p.confidence < DEFAULT_FAIL_ON, `${p.target.id} ${p.confidence}`);
  }

  // the same new function in another module: the same evidence, no note, the factor apart
  const fx = { ...f, id: "p.other.add_constraint", file: "p/other.py" };
  const rx = auditChange(base, side([...renderers, real, fx]), { maxTargets: 0 });
  const px = [rx.findings[0], ...rx.findings[0].alternatives];
  assert.equal(px.length, pairs.length);
  for (const p of px) {
    assert.deepEqual(p.notes, []);
    const noted = pairs.find((q) => q.target.id === p.target.id)!;
    assert.ok(Math.abs(noted.confidence - NOTE_FACTOR["module-vocabulary"] * p.confidence) < 0.002);
  }

  // a real duplicate in the same module: it shares G's rarer helpers, which no sibling calls
  const copy = {
    ...sideDef("p.render.add_fk_constraint", "p/render.py", [...real.callees]),
    features: OTHER_SHAPE,
  };
  const rc = auditChange(base, side([...renderers, real, copy]), { maxTargets: 0 });
  assert.deepEqual(rc.findings.map((x) => [x.kind, x.target.id, x.notes]), [
    ["reimplementation", real.id, []],
  ]);

  // alike in shape (the same structure): a pasted block, whatever vocabulary it uses
  const alike = sideDef("p.render.add_constraint", "p/render.py", [...VOCAB, "p.render._x"]);
  const ra = auditChange(base, side([...renderers, real, alike]), { maxTargets: 0 });
  for (const p of [ra.findings[0], ...ra.findings[0].alternatives]) {
    assert.ok(p.similarity >= SAME_API_MAX_SIMILARITY);
    assert.deepEqual(p.notes, []);
  }

  // too few siblings: with only VOCABULARY_SIBLINGS renderers besides G, F and G's old self
  // aside, the rule holds against G for fewer than VOCABULARY_SIBLINGS other functions
  const few = renderers.slice(0, VOCABULARY_SIBLINGS);
  const rf = auditChange(side([...few, real]), side([...few, real, f]), { maxTargets: 0 });
  for (const p of [rf.findings[0], ...rf.findings[0].alternatives]) {
    assert.deepEqual(p.notes, [], p.target.id);
  }
});

Deno.test("hand-built: methods calling their class's own methods are noted; same-api alone once the class is known; another class's method is not noted", () => {
  // a code generator: every visitor calls writeline, visit and indent
  const api = ["p.gen.Gen.writeline", "p.gen.Gen.visit", "p.gen.Gen.indent"];
  const visitors = ["visit_If", "visit_For", "visit_While", "visit_With"].map((n) => ({
    ...sideDef(`p.gen.Gen.${n}`, "p/gen.py", api),
    kind: "method" as const,
  }));
  const f = {
    ...sideDef("p.gen.Gen.visit_Try", "p/gen.py", [...api, "p.gen.Gen.outdent"]),
    kind: "method" as const,
    features: OTHER_SHAPE,
  };
  const r = auditChange(side(visitors), side([...visitors, f]), { maxTargets: 0 });
  const pairs = [r.findings[0], ...r.findings[0].alternatives];
  assert.equal(pairs.length, visitors.length);
  for (const p of pairs) assert.deepEqual(p.notes, ["module-vocabulary"]);
  // with Gen known as a class, its methods count as one helper: `same-api` explains the pair,
  // and one cause gets one factor (no `module-vocabulary` on top)
  const withClass = (s: Side): Side => ({ ...s, ids: [...s.ids, "p.gen.Gen"] });
  const rs = auditChange(withClass(side(visitors)), withClass(side([...visitors, f])), {
    maxTargets: 0,
  });
  for (const p of [rs.findings[0], ...rs.findings[0].alternatives]) {
    assert.deepEqual(p.notes, ["same-api"]);
  }
  // a method of another class calling the same methods: not in G's container, not noted
  const other = { ...f, id: "p.gen.Other.visit_Try" };
  const ro = auditChange(side(visitors), side([...visitors, other]), { maxTargets: 0 });
  for (const p of [ro.findings[0], ...ro.findings[0].alternatives]) assert.deepEqual(p.notes, []);
});

// ---- end to end, on Python code in a git repository --------------------------------------------

const RENDER = `def _prefix(ctx):
    return ctx.get("prefix", "op.")


def _ident(name):
    return str(name) if name is not None else None


def _gen_name(ctx, name):
    return "%sf(%r)" % (_prefix(ctx), _ident(name))


def add_table(table, ctx):
    args = [_ident(c) for c in table.columns]
    return "%screate_table(%r, %s, name=%s)" % (
        _prefix(ctx), _ident(table.name), ", ".join(args), _gen_name(ctx, table.name))


def drop_table(table, ctx):
    text = "%sdrop_table(%r" % (_prefix(ctx), _ident(table.name))
    if table.schema:
        text += ", schema=%r" % _ident(table.schema)
    if table.name:
        text += ", name=%s" % _gen_name(ctx, table.name)
    return text + ")"


def add_index(index, ctx):
    opts = {}
    for key, value in index.kwargs.items():
        opts[key] = value
    name = _gen_name(ctx, index.name)
    cols = ", ".join(repr(_ident(c)) for c in index.columns)
    return "%screate_index(%s, %r, [%s], **%r)" % (_prefix(ctx), name, _ident(index.table), cols, opts)


def drop_index(index, ctx):
    parts = [_gen_name(ctx, index.name)]
    while index.table is not None:
        parts.append(repr(_ident(index.table)))
        index = index.parent
    return _prefix(ctx) + "drop_index(" + ", ".join(parts) + ")"


def add_column(schema, tname, column, ctx):
    try:
        name = _ident(column.name)
    except AttributeError:
        name = None
    return "%sadd_column(%r, %s, %s, schema=%r)" % (
        _prefix(ctx), tname, name, _gen_name(ctx, column.key), schema)


def drop_column(schema, tname, column, ctx):
    with ctx.lock:
        prefix = _prefix(ctx)
    if not column:
        raise ValueError("no column")
    return prefix + "drop_column(%r, %r, name=%s)" % (
        _ident(tname), _ident(column.name), _gen_name(ctx, column))


def _colspec(fk):
    return "%s.%s" % (fk.table, fk.column)


def _fk_opts(fk):
    return [(k, v) for k, v in fk.options if v]


def _ondelete(fk):
    return fk.ondelete or "NO ACTION"


def render_foreign_key(fk, ctx):
    opts = _fk_opts(fk)
    if fk.ondelete:
        opts.append(("ondelete", _ondelete(fk)))
    return "%sForeignKeyConstraint(%r, %s)" % (
        _prefix(ctx), _colspec(fk), ", ".join("%s=%r" % o for o in opts))
`;

const NEW_RENDERER = `

def add_constraint(constraint, ctx):
    if constraint.deferrable:
        kind = "deferrable"
    else:
        kind = "immediate"
    label = _gen_name(ctx, constraint.name)
    return "%screate_constraint(%s, %r, %r)" % (_prefix(ctx), label, _ident(constraint.table), kind)
`;

const REAL_COPY = `

def add_fk_constraint(constraint, ctx):
    spec = _colspec(constraint)
    options = dict(_fk_opts(constraint))
    options["ondelete"] = _ondelete(constraint)
    return _prefix(ctx) + "create_foreign_key(%r, %r)" % (spec, sorted(options.items()))
`;

Deno.test("end to end: a new renderer using its module's vocabulary is noted and does not fail --fail-on; a real copy in the same module fails it", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-audit-vocab-" });
  await sh(repo, ["git", "init", "-q", "-b", "main"]);
  await write(repo, "mig/__init__.py", "");
  await write(repo, "mig/render.py", RENDER);
  const c0 = await commit(repo, "renderers");
  await write(repo, "mig/render.py", RENDER + NEW_RENDERER);
  const c1 = await commit(repo, "a new renderer");
  await write(repo, "mig/render.py", RENDER + NEW_RENDERER + REAL_COPY);
  const c2 = await commit(repo, "a copy of render_foreign_key");

  const r1 = await auditReport({ repo, cacheDir, base: c0, head: c1, maxTargets: 0 });
  const f1 = r1.findings.filter((x) => x.function.id === "mig.render.add_constraint");
  assert.equal(f1.length, 1);
  const pairs = [f1[0], ...f1[0].alternatives].filter((p) => p.kind === "reimplementation");
  assert.ok(pairs.length >= VOCABULARY_SIBLINGS + 1, `${pairs.length} rule hits`);
  let noted = 0;
  for (const p of pairs) {
    assert.ok(p.target.id.startsWith("mig.render."));
    if (p.similarity < SAME_API_MAX_SIMILARITY && !p.block) {
      assert.ok(p.notes.includes("module-vocabulary"), p.target.id);
      noted++;
    }
    assert.ok(p.confidence < DEFAULT_FAIL_ON, `${p.target.id} ${p.confidence}`);
  }
  assert.ok(noted >= VOCABULARY_SIBLINGS + 1);
  assert.equal(await quiet(["audit", repo, "--base", c0, "--head", c1]), 0);

  const r2 = await auditReport({ repo, cacheDir, base: c1, head: c2, maxTargets: 0 });
  const f2 = r2.findings.find((x) => x.function.id === "mig.render.add_fk_constraint")!;
  assert.equal(f2.kind, "reimplementation");
  assert.equal(f2.target.id, "mig.render.render_foreign_key");
  assert.deepEqual(f2.notes, []);
  assert.ok(f2.confidence >= DEFAULT_FAIL_ON);
  assert.equal(await quiet(["audit", repo, "--base", c1, "--head", c2]), 1);
});

// ---- test infrastructure ----------------------------------------------------------------------

const HELPERS = (cls: string) =>
  `import unittest


def _connect(host, port):
    return (host, port)


def _handshake(sock):
    return sock


def _log(msg):
    print(msg)


def start(host, port):
    sock = _connect(host, port)
    _handshake(sock)
    _log("started")
    return sock


class ${cls}(unittest.TestCase):
    def setUp(self):
        self.sock = start("localhost", 0)
`;

const RESTART = `

def restart(host, port):
    _log("restarting")
    conn = _connect(host, port)
    return _handshake(conn)
`;

Deno.test("end to end: a helper package imported only by tests is test code; one the package imports is not", async () => {
  const repo = await Deno.makeTempDir({ prefix: "reporeuse-audit-infra-" });
  await sh(repo, ["git", "init", "-q", "-b", "main"]);
  await write(repo, "pkg/__init__.py", "");
  await write(
    repo,
    "pkg/pool.py",
    "from toolbox.net import start\n\n\ndef open_pool(host):\n    return [start(host, 80)]\n",
  );
  // two helper packages, each with a TestCase: dummy only tests import, toolbox the package too
  for (const name of ["dummy", "toolbox"]) {
    await write(repo, `${name}/__init__.py`, "");
    await write(repo, `${name}/net.py`, HELPERS("ServerTestCase"));
  }
  await write(
    repo,
    "tests/test_pool.py",
    "from dummy.net import ServerTestCase\nfrom pkg.pool import open_pool\n\n\nclass TestPool(ServerTestCase):\n    def test_open(self):\n        assert open_pool('h')\n",
  );
  const c0 = await commit(repo, "layout");
  for (const name of ["dummy", "toolbox"]) {
    await write(repo, `${name}/net.py`, HELPERS("ServerTestCase") + RESTART);
  }
  const c1 = await commit(repo, "restart in both");
  const r = await auditReport({ repo, cacheDir, base: c0, head: c1 });
  const ctx = Object.fromEntries(r.changed.map((c) => [c.id, c.context]));
  assert.deepEqual(ctx, { "dummy.net.restart": "test", "toolbox.net.restart": "code" });
  const found = Object.fromEntries(
    r.findings.filter((x) => x.kind === "reimplementation").map((x) => [x.function.id, x]),
  );
  assert.equal(found["dummy.net.restart"].target.id, "dummy.net.start");
  assert.equal(found["dummy.net.restart"].context, "test");
  assert.equal(found["toolbox.net.restart"].target.id, "toolbox.net.start");
  assert.equal(found["toolbox.net.restart"].context, "code");
});

Deno.test("testInfrastructure: the unit is the top-level package beside a package under test", () => {
  type Ctx = "code" | "test";
  const mod = (module: string, file: string, imports: string[], holdsTest = false) => ({
    module,
    file,
    imports,
    holdsTest,
  });
  const contexts = (mods: { file: string }[]) =>
    new Map<string, Ctx>(
      mods.map((m) => [m.file, m.file.startsWith("test/") ? "test" : "code"]),
    );
  const urllib3 = [
    mod("test_pool", "test/test_pool.py", ["dummy.testcase", "dummy", "pkg.pool", "pkg"]),
    mod("dummy", "dummy/__init__.py", []),
    mod("dummy.testcase", "dummy/testcase.py", ["dummy.server", "dummy", "pkg.pool", "pkg"], true),
    mod("dummy.server", "dummy/server.py", ["dummy"]),
    mod("pkg", "pkg/__init__.py", ["pkg.pool"]),
    mod("pkg.pool", "pkg/pool.py", ["pkg"]),
  ];
  assert.deepEqual(
    [...testInfrastructure(urllib3, contexts(urllib3))].sort(),
    ["dummy/__init__.py", "dummy/server.py", "dummy/testcase.py"],
  );
  // the package importing the helper: not test code
  const used = urllib3.map((m) =>
    m.module === "pkg.pool" ? { ...m, imports: [...m.imports, "dummy.server", "dummy"] } : m
  );
  assert.deepEqual([...testInfrastructure(used, contexts(used))], []);
  // an example importing it: not only tests, not test code
  const example = [...urllib3, mod("demo", "docs/demo.py", ["dummy.server", "dummy"])];
  const exCtx = contexts(example);
  exCtx.set("docs/demo.py", "code");
  assert.deepEqual([...testInfrastructure(example, exCtx)], []);
  // holding no test code: a façade package only tests import (attrs' attrs over attr)
  const facade = [
    mod("test_x", "test/test_x.py", ["attrs", "attr"]),
    mod("attrs", "src/attrs/__init__.py", ["attr"]),
    mod("attr", "src/attr/__init__.py", []),
  ];
  assert.deepEqual([...testInfrastructure(facade, contexts(facade))], []);
  // the only package the tests import, holding a test helper class: the package under test
  const lib = [
    mod("test_x", "test/test_x.py", ["lib.test", "lib"]),
    mod("lib", "lib/__init__.py", ["lib.wrappers"]),
    mod("lib.test", "lib/test.py", ["lib.wrappers", "lib"], true),
    mod("lib.wrappers", "lib/wrappers.py", ["lib"]),
  ];
  assert.deepEqual([...testInfrastructure(lib, contexts(lib))], []);
});
