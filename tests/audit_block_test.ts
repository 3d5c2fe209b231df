/**
 * Copied blocks (lib/audit/block.ts) found by the audit in a small planted repository: a block
 * pasted into a larger, different function (its lines on both sides checked against where it was
 * planted), the same block with its locals renamed, a small verbatim copy, two new functions of
 * one change sharing a block, a block F already held, idioms too short to count, a copy in test
 * code, a block moved out of G rather than copied, and small blocks (one run of 25–49 tokens): a
 * paste found, the same run held by two functions (an idiom) or edited in one token not.
 */
import assert from "node:assert/strict";
import {
  auditChange,
  auditReport,
  BLOCK_MIN_DISTINCT,
  BLOCK_MIN_LINES,
  BLOCK_MIN_SMALL_TOKENS,
  BLOCK_MIN_TOKENS,
  BLOCK_MIN_WHOLE_LINES,
  BLOCK_MIN_WHOLE_TOKENS,
  blockIndex,
  copiedBlocks,
  DEFAULT_FAIL_ON,
  type Finding,
  formatText,
  loadSide,
  loadTokens,
  mayCopyBlock,
  type Pair,
  sections,
  type Side,
  type SideDef,
} from "../lib/audit/mod.ts";
import { BLOCK_START_TOKEN } from "../lib/audit/shape.ts";
import { commit, CONFIG_LOOP, sh, write } from "./audit_helpers.ts";

// named in every call (cacheDir), never set in Deno.env: the env is the whole process's, shared
// by every test file under --parallel
const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-audit-block-cache-" });

/** The block planted: a config parser's loop (builtins and `str` methods only: no callee key). */
const BLOCK = CONFIG_LOOP;

const indent = (lines: string[], n: number) => lines.map((l) => " ".repeat(n) + l);

const SERVER = [
  "import os",
  "",
  "",
  "def load_config(path):",
  '    """Read a config file."""',
  "    with open(path) as f:",
  "        text = f.read()",
  "    seen = {}",
  ...indent(BLOCK, 4),
  "    return seen",
  "",
];
/** load_config's block: lines 9–19 of pkg/server.py. */
const G_LINES: [number, number] = [9, 19];

const APP_HEAD = [
  "import socket",
  "",
  "",
  "def serve(host, port, text, backlog=5):",
  "    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
  "    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
  "    sock.bind((host, port))",
  "    sock.listen(backlog)",
  "    seen = dict()",
];
const APP_TAIL = [
  "    while True:",
  "        conn, addr = sock.accept()",
  "        conn.sendall(repr(seen).encode())",
  "        conn.close()",
  "",
];
const APP = [...APP_HEAD, ...APP_TAIL];

/** Idioms every function of the base already has, and that the idiom change repeats. */
const IDIOMS = `class Base:
    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent


class Child(Base):
    def __init__(self, name, parent=None):
        super().__init__(name, parent)
        self.children = []

    def find(self, key):
        if key is None:
            return None
        return self.children[key]
`;

/** A small function (few callees) copied verbatim in the small-copy change. */
const SMALL = `def parse_range(spec, size):
    start, _, end = spec.partition('-')
    if not start:
        first = max(0, size - int(end))
        last = size - 1
    elif not end:
        first, last = int(start), size - 1
    else:
        first, last = int(start), min(int(end), size - 1)
    return first, last
`;

const repo = await Deno.makeTempDir({ prefix: "reporeuse-audit-block-repo-" });
await sh(repo, ["git", "init", "-q", "-b", "main"]);
await write(repo, "pkg/__init__.py", "");
await write(repo, "pkg/server.py", SERVER.join("\n"));
await write(repo, "pkg/app.py", APP.join("\n"));
await write(repo, "pkg/idioms.py", IDIOMS);
await write(repo, "pkg/ranges.py", SMALL);
await write(repo, "tests/test_app.py", "def test_serve():\n    assert True\n");
const c0 = await commit(repo, "base");

async function plant(name: string, files: Record<string, string>, from = c0): Promise<string> {
  await sh(repo, ["git", "checkout", "-q", "-b", name, from]);
  for (const [path, text] of Object.entries(files)) await write(repo, path, text);
  return await commit(repo, name);
}

/** serve with the block pasted after its first lines: lines 10–20 of pkg/app.py. */
const PASTED = [...APP_HEAD, ...indent(BLOCK, 4), ...APP_TAIL];
const F_LINES: [number, number] = [APP_HEAD.length + 1, APP_HEAD.length + BLOCK.length];

/** The same block with every local renamed (names, not attributes or keywords). */
const RENAMES: Record<string, string> = {
  raw: "entry",
  line: "stripped",
  key: "name",
  value: "setting",
  seen: "found",
  text: "body",
};
function alphaRename(text: string): string {
  let out = text;
  for (const [from, to] of Object.entries(RENAMES)) {
    out = out.replace(new RegExp(`(?<![.\\w'])${from}(?![\\w'])(?!=)`, "g"), to);
  }
  return out;
}

const all = (f: Finding): Pair[] => [f, ...f.alternatives];
const blocks = (fs: Finding[]) => fs.flatMap(all).filter((p) => p.kind === "block");

/** The block pairs of a change planted on the base commit. */
async function plantedBlocks(name: string, files: Record<string, string>): Promise<Pair[]> {
  const head = await plant(name, files);
  return blocks((await auditReport({ repo, cacheDir, base: c0, head })).findings);
}

Deno.test("a block pasted into a larger, different function is found, with its lines on both sides", async () => {
  const head = await plant("pasted", { "pkg/app.py": PASTED.join("\n") });
  const r = await auditReport({ repo, cacheDir, base: c0, head });
  const found = blocks(r.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id]), [
    ["pkg.app.serve", "pkg.server.load_config"],
  ]);
  const [p] = found;
  assert.deepEqual(p.block?.lines, F_LINES);
  assert.deepEqual(p.block?.targetLines, G_LINES);
  assert.ok(p.block!.tokens >= BLOCK_MIN_TOKENS, `${p.block!.tokens} tokens`);
  assert.equal(p.context, "code");
  assert.deepEqual(p.notes, []);
  assert.ok(p.similarity < 0.9, "not a whole-function clone");
  assert.deepEqual(sections(r).map((s) => s.key), ["code"]);
  assert.match(formatText(r), /copies a block of pkg\.server\.load_config/);
  assert.match(
    formatText(r),
    new RegExp(`lines ${F_LINES[0]}–${F_LINES[1]} \\(the target's 9–19\\)`),
  );
});

Deno.test("the same block with its locals renamed is found the same", async () => {
  const text = PASTED.slice(0, APP_HEAD.length).join("\n") + "\n" +
    alphaRename(indent(BLOCK, 4).join("\n")) + "\n" + APP_TAIL.join("\n");
  assert.match(text, /for entry in body\.splitlines\(\):/);
  const found = await plantedBlocks("renamed", { "pkg/app.py": text });
  assert.deepEqual(
    found.map((p) => [p.function.id, p.target.id, p.block?.lines, p.block?.targetLines]),
    [["pkg.app.serve", "pkg.server.load_config", F_LINES, G_LINES]],
  );
});

Deno.test("a small verbatim copy of a function with few callees is found", async () => {
  const copy = SMALL.replace("def parse_range", "def byte_range");
  const head = await plant("small", { "pkg/http.py": "import os\n\n\n" + copy });
  const r = await auditReport({ repo, cacheDir, base: c0, head });
  const f = r.findings.find((x) => x.function.id === "pkg.http.byte_range");
  assert.ok(f, JSON.stringify(r.findings.map((x) => [x.kind, x.function.id])));
  assert.equal(f.target.id, "pkg.ranges.parse_range");
  assert.ok(f.kind === "block" || f.kind === "clone", f.kind);
  if (f.kind === "block") {
    // the whole body: from its first statement to its return, on both sides
    assert.deepEqual(f.block?.lines, [5, 13]);
    assert.deepEqual(f.block?.targetLines, [2, 10]);
  }
});

Deno.test("a block of the small copy, too small for the structural clone, is found as a copied block", async () => {
  // only the body's if/elif/else ladder (6 lines), pasted into a new function of another shape
  const ladder = SMALL.split("\n").slice(2, 9);
  const text = [
    "def window(spec, size, step):",
    "    start, end = spec.split(':')[0], spec.split(':')[-1]",
    ...ladder,
    "    out = []",
    "    while first <= last:",
    "        out.append(first)",
    "        first += step",
    "    return out",
    "",
  ].join("\n");
  const found = await plantedBlocks("ladder", { "pkg/window.py": text });
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.block?.lines]), [
    ["pkg.window.window", "pkg.ranges.parse_range", [3, 9]],
  ]);
});

Deno.test("two new functions of one change sharing a block: one finding, within the change", async () => {
  const a = [
    "def read_a(text, strict):",
    "    seen = {}",
    ...indent(BLOCK, 4),
    "    return seen",
    "",
  ];
  const b = [
    "def read_b(text, defaults):",
    "    seen = dict(defaults)",
    "    count = 0",
    ...indent(BLOCK, 4),
    "    count += len(seen)",
    "    return seen, count",
    "",
  ];
  // G is not in the base: the block exists only in the two new functions
  const base = await plant("within-base", { "pkg/server.py": "import os\n" });
  const head = await plant("within", { "pkg/readers.py": [...a, "", ...b].join("\n") }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  const found = blocks(r.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.within]), [
    ["pkg.readers.read_b", "pkg.readers.read_a", true],
  ]);
  assert.deepEqual(found[0].block?.targetLines, [3, 13]);
  assert.deepEqual(found[0].block?.lines, [a.length + 2 + 3, a.length + 2 + 13]);
  assert.equal(sections(r)[0].key, "within");
});

Deno.test("a block F already held before the change is not reported", async () => {
  const pasted = await plant("held", { "pkg/app.py": PASTED.join("\n") });
  // a later change edits serve elsewhere (a log line at the end) and leaves the block alone
  const edited = PASTED.join("\n").replace(
    "        conn.close()",
    "        conn.close()\n        print(addr)",
  );
  const head = await plant("held-edit", { "pkg/app.py": edited }, pasted);
  const r = await auditReport({ repo, cacheDir, base: pasted, head });
  assert.deepEqual(r.changed.map((c) => [c.id, c.status]), [["pkg.app.serve", "modified"]]);
  assert.deepEqual(blocks(r.findings), []);
});

Deno.test("idioms too short to count stay silent", async () => {
  const text = `from pkg.idioms import Base


class Leaf(Base):
    def __init__(self, name, parent=None):
        super().__init__(name, parent)
        self.children = []

    def find(self, key):
        if key is None:
            return None
        return self.children[key]

    def get(self, key, default=None):
        if key is None:
            return None
        if key not in self.children:
            return default
        return self.children[key]
`;
  const head = await plant("idioms", { "pkg/leaf.py": text });
  const r = await auditReport({ repo, cacheDir, base: c0, head });
  assert.deepEqual(blocks(r.findings), []);
});

/** A typed parameter list of five annotated, defaulted parameters (about 60 tokens over 7 lines). */
const TYPED_PARAMS = [
  "(",
  "    processors: Optional[Iterable[Processor]] = None,",
  "    wrapper_class: Optional[Type[BindableLogger]] = None,",
  "    context_class: Optional[Type[Context]] = None,",
  "    logger_factory: Optional[Callable[..., WrappedLogger]] = None,",
  "    cache_logger_on_first_use: Optional[bool] = None,",
  ") -> None:",
];

Deno.test("a shared typed signature is no copied block; the same body under it is", async () => {
  const configure = [
    "def configure" + TYPED_PARAMS[0],
    ...TYPED_PARAMS.slice(1),
    "    _CONFIG.is_configured = True",
    "    if processors is not None:",
    "        _CONFIG.default_processors = processors",
    "    if wrapper_class is not None:",
    "        _CONFIG.default_wrapper_class = wrapper_class",
    "    if context_class is not None:",
    "        _CONFIG.default_context_class = context_class",
    "    if logger_factory is not None:",
    "        _CONFIG.logger_factory = logger_factory",
    "",
  ];
  const base = await plant("signature-base", {
    "pkg/config.py": "from typing import Optional\n\n\n" + configure.join("\n"),
  });
  // the "Add types" commit: configure_once spells out configure's parameters and only calls it
  const once = [
    "",
    "",
    "def configure_once" + TYPED_PARAMS[0],
    ...TYPED_PARAMS.slice(1),
    "    if not _CONFIG.is_configured:",
    "        configure(",
    "            processors=processors,",
    "            wrapper_class=wrapper_class,",
    "            context_class=context_class,",
    "            logger_factory=logger_factory,",
    "            cache_logger_on_first_use=cache_logger_on_first_use,",
    "        )",
    "    else:",
    "        warnings.warn('Repeated configuration attempted.', RuntimeWarning)",
    "",
  ];
  const text = "from typing import Optional\n\n\n" + configure.join("\n") + once.join("\n");
  const head = await plant("signature", { "pkg/config.py": text }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  assert.deepEqual(r.changed.map((c) => [c.id, c.status]), [
    ["pkg.config.configure_once", "added"],
  ]);
  assert.deepEqual(blocks(r.findings), []);
  // configure's body pasted into a function of another signature and shape: a block of the body,
  // from its first statement (line 11), as before
  const copy = [
    "def reconfigure(settings, strict=False):",
    "    processors, wrapper_class = settings.processors, settings.wrapper_class",
    "    context_class, logger_factory = settings.context_class, settings.logger_factory",
    ...configure.slice(TYPED_PARAMS.length, TYPED_PARAMS.length + 9),
    "    if strict:",
    "        for key in settings.extra:",
    "            raise KeyError(key)",
    "    return _CONFIG",
    "",
  ];
  const head2 = await plant("signature-body", {
    "pkg/config.py": text + "\n\n" + copy.join("\n"),
  }, base);
  const r2 = await auditReport({ repo, cacheDir, base, head: head2 });
  const found = blocks(r2.findings).map((p) => [p.function.id, p.target.id, p.block?.targetLines]);
  assert.deepEqual(found, [["pkg.config.reconfigure", "pkg.config.configure", [11, 19]]]);
});

Deno.test("a copy with a name swapped stays one block: the unseeded runs beside a segment count", async () => {
  // tomlkit's Python 3.8 fix: __sub__ pastes __add__'s body with `.__add__` made `.__sub__` twice;
  // the identical run after the first swap (16 tokens) is too short to seed a window, and the run
  // before it (43) is under BLOCK_MIN_TOKENS
  const op = (name: string, tail: string[]) => [
    `    def ${name}(self, other):`,
    "        if PY38:",
    "            result = datetime(",
    ...["year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo"].map((a) =>
      `                self.${a},`
    ),
    `            ).${name}(other)`,
    "        else:",
    `            result = super(DateTime, self).${name}(other)`,
    "",
    ...tail,
    "",
  ];
  const add = op("__add__", ["        return self._new(result)"]);
  const sub = op("__sub__", [
    "        if isinstance(result, datetime):",
    "            result = self._new(result)",
    "",
    "        return result",
  ]);
  const cls = (...defs: string[][]) =>
    ["from datetime import datetime", "", "", "class DateTime(datetime):", ...defs.flat()].join(
      "\n",
    );
  const base = await plant("swap-base", { "pkg/dt.py": cls(add) });
  const head = await plant("swap", { "pkg/dt.py": cls(add, sub) }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  const found = blocks(r.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.block?.targetLines]), [
    ["pkg.dt.DateTime.__sub__", "pkg.dt.DateTime.__add__", [6, 18]],
  ]);
  // 43 tokens before the first swap and 16 between the two (the 4 after the second are fewer than
  // BLOCK_MIN_RUN: alike by chance as far as the tokens can tell)
  assert.equal(found[0].block?.tokens, 59);
  // a small operator beside its twin: its whole body but for the swapped name (7 tokens, then a
  // seeded run of 20) is no small function copied whole — the unseeded run decides nothing
  const small = (name: string) => [
    `    def ${name}(self, other):`,
    `        result = super().${name}(other)`,
    "        if result is NotImplemented:",
    "            return result",
    "        return self._new(result)",
    "",
  ];
  const base2 = await plant("twin-base", { "pkg/num.py": cls(small("__add__")) });
  const head2 = await plant(
    "twin",
    { "pkg/num.py": cls(small("__add__"), small("__sub__")) },
    base2,
  );
  assert.deepEqual(
    blocks((await auditReport({ repo, cacheDir, base: base2, head: head2 })).findings),
    [],
  );
});

Deno.test("a block copied into test code is reported in the test section", async () => {
  const text = [
    "def test_parse():",
    "    text = 'a = 1'",
    "    seen = {}",
    ...indent(BLOCK, 4),
    "    assert seen == {'a': '1'}",
    "",
  ].join("\n");
  const head = await plant("in-test", { "tests/test_app.py": text });
  const r = await auditReport({ repo, cacheDir, base: c0, head });
  const found = blocks(r.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.context]), [
    ["test_app.test_parse", "pkg.server.load_config", "test"],
  ]);
  assert.deepEqual(sections(r).map((s) => s.key), ["test"]);
});

Deno.test("a block moved out of G (not copied) is apart: relocated", async () => {
  const server = SERVER.join("\n").replace(
    indent(BLOCK, 4).join("\n") + "\n",
    "    seen.update(os.environ)\n",
  );
  const head = await plant("moved", {
    "pkg/server.py": server,
    "pkg/app.py": PASTED.join("\n"),
  });
  const r = await auditReport({ repo, cacheDir, base: c0, head });
  const found = blocks(r.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.notes]), [
    ["pkg.app.serve", "pkg.server.load_config", ["relocated"]],
  ]);
  assert.deepEqual(sections(r).map((s) => s.key), ["relocated"]);
});

Deno.test("hand-made sides: a def without tokens takes no part; a block under the minimum is silent", () => {
  const def = (id: string, tokens: number[]): SideDef => ({
    id,
    kind: "function",
    file: `p/${id}.py`,
    start: 1,
    end: 40,
    name: id,
    signature: `def ${id}()`,
    params: [],
    hash: id + tokens.length,
    size: 10,
    features: [7, 1],
    tokens,
    tokenLines: tokens.map((_, i) => 1 + (i >> 2)),
    callees: [],
    uses: [],
    context: "code",
    test: false,
  });
  const body = Array.from({ length: 120 }, (_, i) => 100 + ((i * 7) % 31));
  const side = (defs: SideDef[]) => ({
    rev: "x",
    files: defs.map((d) => ({ path: d.file, oid: String(d.hash) })),
    modules: {},
    defs,
    ids: defs.map((d) => d.id),
    errors: [],
  });
  const g = def("g", body);
  const tiny = def("f", [1, ...body.slice(0, BLOCK_MIN_SMALL_TOKENS - 1), 1]);
  const short = def("f", [1, ...body.slice(0, BLOCK_MIN_TOKENS - 1), 1]);
  const long = def("f", [1, ...body.slice(0, BLOCK_MIN_TOKENS + 10), 1]);
  const noTokens = { ...long, tokens: undefined, tokenLines: undefined, hash: "nt" };
  const kinds = (f: SideDef) =>
    auditChange(side([g]), side([g, f])).findings.flatMap(all).map((
      p,
    ) => [p.kind, p.block?.tokens]);
  assert.deepEqual(kinds(tiny), []);
  // under the minimum, one run, new, in g alone: a small block, under the default --fail-on
  assert.deepEqual(kinds(short), [["block", BLOCK_MIN_TOKENS - 1]]);
  const [small] = auditChange(side([g]), side([g, short])).findings;
  assert.ok(small.confidence < DEFAULT_FAIL_ON, `${small.confidence}`);
  assert.deepEqual(kinds(long), [["block", BLOCK_MIN_TOKENS + 10]]);
  assert.deepEqual(kinds(noTokens), []);
});

Deno.test("a history's next commit: the block index derived from the previous one finds what a fresh one finds", async () => {
  const pasted = await plant("derive-1", { "pkg/app.py": PASTED.join("\n") });
  const text = [
    "def again(text):",
    "    seen = dict()",
    ...indent(BLOCK, 4),
    "    return seen",
    "",
  ];
  const later = await plant("derive-2", {
    "pkg/again.py": text.join("\n"),
    "pkg/ranges.py": SMALL + "\n\ndef more(x):\n    return x\n",
  }, pasted);
  const [s0, s1, s2] = await Promise.all(
    [c0, pasted, later].map((rev) => loadSide(repo, rev, { cacheDir })),
  );
  auditChange(s0, s1); // builds s0's index, then hands it over to s1
  const derived = auditChange(s1, s2);
  const fresh = auditChange({ ...s1 }, s2); // another object: its index built anew
  assert.deepEqual(derived.findings, fresh.findings);
  assert.deepEqual(
    blocks(derived.findings).map((p) => [p.function.id, p.target.id]).sort(),
    // the block is in both (serve got it one commit earlier): one finding, the other an alternative
    [["pkg.again.again", "pkg.app.serve"], ["pkg.again.again", "pkg.server.load_config"]],
  );
});

Deno.test("twins edited together (old versions alike) are not duplicated within the change by a block", async () => {
  const method = (name: string, suffix: string, extra: string) =>
    `    def ${name}(self, name, value):
        try:
            if self.sock:${extra}
                self.sock.send("{0}:{1}|${suffix}".format(name, value))
        except Exception:
            pass
`;
  const extra = `
                name = self.prefix + name
                self.sent += len(name)`;
  const file = (x: string) => `class Stats:\n${method("gauge", "g", x)}\n${method("incr", "c", x)}`;
  const base = await plant("twins-base", { "pkg/stats.py": file("") });
  const head = await plant("twins-edit", { "pkg/stats.py": file(extra) }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  assert.deepEqual(r.changed.map((c) => c.status), ["modified", "modified"]);
  assert.deepEqual(blocks(r.findings), []);
  // the same two methods new in one change are duplicated within it (whole: a clone)
  const fresh = await plant("twins-new", { "pkg/stats.py": file(extra) });
  const found = (await auditReport({ repo, cacheDir, base: c0, head: fresh })).findings.flatMap(
    all,
  );
  assert.deepEqual(found.map((p) => [p.kind, p.function.id, p.target.id, p.within]), [
    ["clone", "pkg.stats.Stats.incr", "pkg.stats.Stats.gauge", true],
  ]);
});

Deno.test("a small function copied whole is found from 25 tokens; a one-line accessor is not", async () => {
  // the same two methods in two classes: the new one copies the old one whole
  const worker = (cls: string) =>
    `import os


class ${cls}:
    def is_parent_alive(self):
        if self.ppid != os.getppid():
            self.log.info("Parent changed, shutting down: %s", self)
            return False
        return True

    def getbuf(self):
        return self.buf
`;
  const base = await plant("whole-base", {
    "pkg/worker.py": worker("SyncWorker"),
  });
  const head = await plant("whole", {
    "pkg/threads.py": worker("ThreadWorker"),
  }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  assert.deepEqual(
    r.findings.flatMap(all).map((p) => [p.kind, p.function.id, p.target.id, p.block?.lines]),
    [[
      "block",
      "pkg.threads.ThreadWorker.is_parent_alive",
      "pkg.worker.SyncWorker.is_parent_alive",
      [6, 9],
    ]],
  );
});

/** Five lines choosing a quote character (about 30 tokens: under a block, over a small one). */
const QUOTE = [
  'if value.startswith("\'") and value.endswith("\'"):',
  "    quote = '\"'",
  "else:",
  '    quote = "\'"',
  "text = quote + value + quote",
];

/** A function holding {@link QUOTE} after a first line of its own. */
const quoting = (name: string, first: string, last: string) =>
  [`def ${name}(value):`, `    ${first}`, ...indent(QUOTE, 4), `    ${last}`, "", ""].join("\n");

/** An existing function of two lines, into which the change pastes {@link QUOTE}. */
const DESCRIBE = [
  "def describe(kind, value, width=20):",
  "    label = kind.upper().ljust(width)",
];

Deno.test("a small block pasted into an existing function is found, under the default --fail-on", async () => {
  const base = await plant("small-paste-base", {
    "pkg/quoting.py": quoting("quoted", "value = str(value)", "return text"),
    "pkg/describe.py": [...DESCRIBE, "    return label + str(value)", ""].join("\n"),
  });
  const head = await plant("small-paste", {
    "pkg/describe.py": [...DESCRIBE, ...indent(QUOTE, 4), "    return label + text", ""].join(
      "\n",
    ),
  }, base);
  const r = await auditReport({ repo, cacheDir, base, head });
  const found = blocks(r.findings);
  assert.deepEqual(
    found.map((p) => [p.function.id, p.target.id, p.block?.lines, p.block?.targetLines]),
    // from line 2: `(value)` ends both functions' first line
    [["pkg.describe.describe", "pkg.quoting.quoted", [2, 8], [2, 8]]],
  );
  const t = found[0].block!.tokens;
  assert.ok(t >= BLOCK_MIN_SMALL_TOKENS && t < BLOCK_MIN_TOKENS, `${t} tokens`);
  assert.equal(found[0].block!.segments, 1);
  assert.ok(found[0].confidence < DEFAULT_FAIL_ON, `${found[0].confidence}`);
});

Deno.test("a small block two functions already hold is the project's idiom: silent", async () => {
  const base = await plant("small-idiom-base", {
    "pkg/quoting.py": quoting("quoted", "value = str(value)", "return text") +
      quoting("shown", "value = repr(value)", "print(text)"),
    "pkg/describe.py": [...DESCRIBE, "    return label + str(value)", ""].join("\n"),
  });
  const head = await plant("small-idiom", {
    "pkg/describe.py": [...DESCRIBE, ...indent(QUOTE, 4), "    return label + text", ""].join(
      "\n",
    ),
  }, base);
  assert.deepEqual(blocks((await auditReport({ repo, cacheDir, base, head })).findings), []);
});

Deno.test("two new functions sharing a small block an unchanged function holds: pastes of it, not a pair within the change", async () => {
  const base = await plant("small-within-base", {
    "pkg/quoting.py": quoting("quoted", "value = str(value)", "return text"),
  });
  const head = await plant("small-within", {
    // two functions of other shapes, each with the quoting lines pasted in
    "pkg/show.py": [
      "def show_a(value, items, out):",
      "    for item in sorted(items, key=len):",
      "        out.write(item.title() + '\\n')",
      ...indent(QUOTE, 4),
      "    out.write(text)",
      "    out.flush()",
      "",
      "",
      "def show_b(value, width):",
      "    if width <= 0:",
      "        raise ValueError('width')",
      ...indent(QUOTE, 4),
      "    while len(text) < width:",
      "        text = ' ' + text",
      "    return text[:width]",
      "",
    ].join("\n"),
  }, base);
  const r0 = await auditReport({ repo, cacheDir, base, head });
  const found = blocks(r0.findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.within]).sort(), [
    ["pkg.show.show_a", "pkg.quoting.quoted", false],
    ["pkg.show.show_b", "pkg.quoting.quoted", false],
  ]);
  // show_a and show_b share the run and nothing else: no pair of them at all
  assert.deepEqual(r0.findings.flatMap(all).filter((p) => p.within), []);
});

Deno.test("a small block must be one identical run: the same lines with one token changed are silent", async () => {
  const base = await plant("small-edited-base", {
    "pkg/quoting.py": quoting("quoted", "value = str(value)", "return text"),
    "pkg/describe.py": [...DESCRIBE, "    return label + str(value)", ""].join("\n"),
  });
  // a literal made a name in the middle: two runs (20 and 16 tokens), neither a small block, nor
  // a block together
  const edited = QUOTE.map((l) => l.replace("quote = '\"'", "quote = DOUBLE"));
  assert.notDeepEqual(edited, QUOTE);
  const head = await plant("small-edited", {
    "pkg/describe.py": [...DESCRIBE, ...indent(edited, 4), "    return label + text", ""].join(
      "\n",
    ),
  }, base);
  assert.deepEqual(blocks((await auditReport({ repo, cacheDir, base, head })).findings), []);
});

Deno.test("F calling G does not excuse a block of G repeated in F", async () => {
  const text = [
    "from pkg.server import load_config",
    "",
    "",
    "def merged(path, text):",
    "    seen = dict(load_config(path))",
    ...indent(BLOCK, 4),
    "    return seen",
    "",
  ].join("\n");
  const found = await plantedBlocks("calls-g", { "pkg/merge.py": text });
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.block?.lines]), [
    // the block (lines 6–16) and the `return seen` after it, as in G
    ["pkg.merge.merged", "pkg.server.load_config", [6, 17]],
  ]);
});

Deno.test("a copy F held just under the minimum, lengthened by the change, is pre-existing", async () => {
  const withLines = (n: number) => [...APP_HEAD, ...indent(BLOCK.slice(0, n), 4), ...APP_TAIL];
  const before = await plant("short-copy", { "pkg/app.py": withLines(5).join("\n") });
  const r0 = await auditReport({ repo, cacheDir, base: c0, head: before });
  // 5 lines of the block are under a block's minimum: a small block, made by this change
  const small = blocks(r0.findings);
  assert.deepEqual(small.map((p) => [p.function.id, p.target.id, p.notes]), [
    ["pkg.app.serve", "pkg.server.load_config", []],
  ]);
  assert.ok(small[0].block!.tokens < BLOCK_MIN_TOKENS, `${small[0].block!.tokens} tokens`);
  const head = await plant("longer-copy", { "pkg/app.py": withLines(7).join("\n") }, before);
  const found = blocks((await auditReport({ repo, cacheDir, base: before, head })).findings);
  assert.deepEqual(found.map((p) => [p.function.id, p.target.id, p.notes]), [
    ["pkg.app.serve", "pkg.server.load_config", ["preexisting"]],
  ]);
  assert.ok(found[0].block!.tokens >= BLOCK_MIN_TOKENS);
});

Deno.test("mayCopyBlock is false only where no block can be found, even against F's own tokens", () => {
  // F: a def line, a suite of `n` tokens cycling through `distinct` codes over `span` lines; G: a
  // copy of F (the most any target can share with it), so that a block G yields is the largest
  let found = 0, skipped = 0;
  const least = Math.min(BLOCK_MIN_TOKENS, BLOCK_MIN_WHOLE_TOKENS);
  const mk = (id: string, tokens: number[], lines: number[]): SideDef => ({
    id,
    kind: "function",
    file: `p/${id}.py`,
    start: 1,
    end: lines[lines.length - 1],
    name: id,
    signature: `def ${id}()`,
    params: [],
    hash: id,
    size: 10,
    features: [7, 1],
    tokens,
    tokenLines: lines,
    callees: [],
    uses: [],
    context: "code",
    test: false,
  });
  for (
    const n of [least - 5, least - 1, least, least + 1, BLOCK_MIN_TOKENS, 2 * BLOCK_MIN_TOKENS]
  ) {
    for (const span of [1, BLOCK_MIN_WHOLE_LINES - 1, BLOCK_MIN_WHOLE_LINES, BLOCK_MIN_LINES, 9]) {
      for (const distinct of [BLOCK_MIN_DISTINCT - 1, BLOCK_MIN_DISTINCT, 17]) {
        // a def line of 4 tokens (the block start the 4th: the whole body from there), then the suite
        const body = Array.from({ length: n }, (_, i) => 100 + (i % distinct));
        const tokens = [10, 11, 12, BLOCK_START_TOKEN, ...body];
        const lines = tokens.map((_, i) => 1 + Math.floor((i * span) / tokens.length));
        const f = mk("f", tokens, lines), g = mk("g", [...tokens], [...lines]);
        // old versions: none (added), the same tokens (nothing new), one token of the suite changed
        const changed = [...tokens];
        changed[tokens.length >> 1] = 99;
        for (const old of [null, mk("f", [...tokens], lines), mk("f", changed, lines)]) {
          const blocks = copiedBlocks(f, old, blockIndex([g]), () => true, {
            also: () => [],
          });
          const may = mayCopyBlock(f, old);
          const what = `n=${n} span=${span} distinct=${distinct} old=${
            old ? old.tokens!.length : "none"
          }`;
          if (!may) assert.equal(blocks.size, 0, what);
          if (blocks.size) found++;
          if (!may) skipped++;
        }
      }
    }
  }
  // neither side of the check is empty: blocks were found, and the skip applied
  assert.ok(found > 0 && skipped > 0, `found ${found}, skipped ${skipped}`);
});

/** Sides of two revisions read from the cache (their tokens left on disk), or with every token read. */
async function cachedSides(base: string, head: string, read = false): Promise<[Side, Side]> {
  const [b, h] = await Promise.all([base, head].map((rev) => loadSide(repo, rev, { cacheDir })));
  if (read) { for (const s of [b, h]) loadTokens(s); }
  return [b, h];
}

Deno.test("cached sides: a change whose only finding is a copied block finds it; one with no block-sized addition reads no other function's tokens", async () => {
  const pasted = await plant("lazy-block", { "pkg/app.py": PASTED.join("\n") });
  // a two-line function: too few lines and tokens for any block
  const small = await plant("lazy-none", {
    "pkg/ranges.py": SMALL + "\n\ndef clamp(x, size):\n    return min(max(x, 0), size - 1)\n",
  });
  // a literal changed: a modified function with no new window (literals are one token code)
  const literal = await plant("lazy-literal", {
    "pkg/server.py": SERVER.join("\n").replace("bad line", "malformed line"),
  });
  // fill the cache (the first audit of a tree builds its side), then audit from it
  for (const head of [pasted, small, literal]) {
    await auditReport({ repo, cacheDir, base: c0, head });
  }

  const [b1, h1] = await cachedSides(c0, pasted);
  const r1 = auditChange(b1, h1);
  assert.deepEqual(r1.findings.flatMap(all).map((p) => [p.kind, p.function.id, p.target.id]), [
    ["block", "pkg.app.serve", "pkg.server.load_config"],
  ]);
  assert.deepEqual(r1.findings[0].block?.lines, F_LINES);
  assert.deepEqual(r1.findings[0].block?.targetLines, G_LINES);
  assert.deepEqual(r1, auditChange(...await cachedSides(c0, pasted, true)));

  const [b2, h2] = await cachedSides(c0, small);
  const r2 = auditChange(b2, h2);
  assert.deepEqual(r2.changed.map((c) => [c.id, c.status]), [["pkg.ranges.clamp", "added"]]);
  const clamp = h2.defs.find((d) => d.id === "pkg.ranges.clamp")!;
  assert.ok(clamp.tokens && clamp.tokens.length > 0, "the changed function's tokens were read");
  assert.equal(mayCopyBlock(clamp, null), false);
  // no block index was built: no function outside the change had its tokens read
  const unread = (s: Side) => s.defs.filter((d) => d.file !== "pkg/ranges.py" && d.tokens);
  assert.deepEqual([...unread(b2), ...unread(h2)].map((d) => d.id), []);
  assert.deepEqual(r2, auditChange(...await cachedSides(c0, small, true)));

  const [b3, h3] = await cachedSides(c0, literal);
  const r3 = auditChange(b3, h3);
  assert.deepEqual(r3.changed.map((c) => [c.id, c.status]), [
    ["pkg.server.load_config", "modified"],
  ]);
  const at = (s: Side) => s.defs.find((d) => d.id === "pkg.server.load_config")!;
  assert.equal(mayCopyBlock(at(h3), at(b3)), false);
  assert.equal(mayCopyBlock(at(h3), null), true, "as an added function it could hold a block");
  const outside = (s: Side) => s.defs.filter((d) => d.file !== "pkg/server.py" && d.tokens);
  assert.deepEqual([...outside(b3), ...outside(h3)].map((d) => d.id), []);
  assert.deepEqual(r3, auditChange(...await cachedSides(c0, literal, true)));
});

Deno.test("cached sides in a history: an index built late, then derived, finds what sides with every token find", async () => {
  // commit 1 has no block-sized addition (no index), commit 2 pastes the block (the index is built
  // on its base, then derived for commit 3), commit 3 pastes it again elsewhere
  const one = await plant("lazy-h1", {
    "pkg/ranges.py": SMALL + "\n\ndef clamp(x, size):\n    return min(max(x, 0), size - 1)\n",
  });
  const two = await plant("lazy-h2", { "pkg/app.py": PASTED.join("\n") }, one);
  const again = [
    "def again(text):",
    "    seen = dict()",
    ...indent(BLOCK, 4),
    "    return seen",
    "",
  ];
  const three = await plant("lazy-h3", { "pkg/again.py": again.join("\n") }, two);
  const revs = [c0, one, two, three];
  const run = async (read: boolean) => {
    // the cache filled first: every side below is read from it
    await Promise.all(revs.map((rev) => loadSide(repo, rev, { cacheDir })));
    const sides = await Promise.all(revs.map((rev) => loadSide(repo, rev, { cacheDir })));
    if (read) { for (const s of sides) loadTokens(s); }
    return sides.slice(1).map((head, i) => auditChange(sides[i], head));
  };
  const lazy = await run(false), full = await run(true);
  assert.deepEqual(lazy, full);
  assert.deepEqual(
    lazy.map((r) => blocks(r.findings).map((p) => [p.function.id, p.target.id]).sort()),
    [
      [],
      [["pkg.app.serve", "pkg.server.load_config"]],
      [["pkg.again.again", "pkg.app.serve"], ["pkg.again.again", "pkg.server.load_config"]],
    ],
  );
});
