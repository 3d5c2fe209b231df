#!/usr/bin/env python3
"""Issue 24: are "parallel implementations kept apart on purpose" overrides of one interface?

A development measurement (docs/audit.md, "Issue 24: same-name overrides ..."). It reads every
label file (data/audit/eval/*.json: `labels`, `duplications`, `jscpdLabels`) and, for each pair
F -> G, finds the two defs in the project's history at the label's commit (G at its first parent
when the commit removed it) with Python's own `ast` -- it does not import or call reporeuse --
and asks, of each pair, a list of structural variants of one hypothesis:

  V1   F and G have the same name (functions or methods)
  V2   the same name, methods of two different classes
  V2a  ... and the two classes are named differently
  V3   V2, and the two classes share an ancestor class of the repository
  V4   V2, and the two classes share an ancestor anywhere (an outside base such as
       `asyncio.Protocol` by the text of its name)
  V5   V3, and such a common ancestor defines the method (an override of one interface)
  V6   V5, and that base method is abstract: `@abstractmethod`, a body that only raises
       NotImplementedError, `pass`, `...` or a docstring
  V7   V2, and the name is a dunder or an asyncio protocol callback (`connection_made`, ...)
  V8   V2, and V4 or V7
  V9   V5, and neither F nor G calls the base method
  V10  the same name, in sibling modules (one package, two modules: one backend or dialect each)
  V11  V10, the classes named differently (or module functions)
  V12  any names, methods of two classes with a common ancestor of the repository
  V13  any names, two classes, a common ancestor defines F's name

It prints, per variant, how many labelled pairs match by verdict (labels real / idiomatic /
false, the recall samples' real duplications, jscpd's labelled clones). With `--history
project=h.json` (an `audit --history ... --max-targets 0 --format json` run over the labels'
range) it also simulates each variant as a note on that history: every introduced pair in the
project's code it matches (not already noted) gets x0.45, as an idiom (lib/audit/evidence.ts), each
changed function's leading pair is chosen again (kind first, then confidence), and it prints the
top-20 figures of tasks/audit_eval.ts and every labelled or recall-sample pair the note demoted.

  python3 data/audit/overrides.py --repo alembic=path/to/alembic --repo uvicorn=... \\
      [--history uvicorn=h.json ...] [--variants V2,V4] [--rows rows.json]

A project without `--repo` is skipped. Approximations, stated: classes are matched by name over
the whole tree (two classes of one name are one); an outside base is its text as written; source
in Python 2 is converted with lib2to3 (Python <= 3.12) before parsing.
"""
import argparse
import ast
import glob
import json
import os
import re
import subprocess
import sys
import warnings
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
NOTE_FACTOR = 0.45  # an idiom's factor (lib/audit/evidence.ts NOTE_FACTOR)
APART = ("preexisting", "extracted", "relocated")
IDIOMS = ("async-twin", "same-delegate", "same-api", "module-vocabulary", "same-edit", "template")
KIND_ORDER = {"reimplementation": 0, "clone": 1, "block": 2, "candidate": 3}
ASYNCIO_PROTOCOL = {"connection_made", "connection_lost", "data_received", "eof_received",
                    "pause_writing", "resume_writing", "datagram_received", "error_received"}


class Repo:
    """A git repository read through `git` (a clone or a bare directory), its trees parsed once."""

    def __init__(self, path):
        self.path = path
        self.trees, self.blobs, self.classes = {}, {}, {}

    def git(self, *args):
        return subprocess.run(["git", "-C", self.path, *args], capture_output=True).stdout

    def tree(self, commit):
        if commit not in self.trees:
            files = {}
            for line in self.git("ls-tree", "-r", commit).decode("utf-8", "replace").splitlines():
                meta, path = line.split("\t", 1)
                _, typ, sha = meta.split()
                if typ == "blob" and path.endswith(".py"):
                    files[path] = sha
            self.trees[commit] = files
        return self.trees[commit]

    def parse(self, sha):
        if sha not in self.blobs:
            src = self.git("cat-file", "blob", sha)
            try:
                self.blobs[sha] = ast.parse(src)
            except (SyntaxError, ValueError):
                try:
                    self.blobs[sha] = ast.parse(py2to3(src.decode("utf-8", "replace")))
                except Exception:  # noqa: BLE001 - an unparsable file is left out
                    self.blobs[sha] = None
        return self.blobs[sha]

    def class_index(self, commit):
        """Class name -> [(path, ClassDef)] over the whole tree at a commit."""
        if commit not in self.classes:
            idx = defaultdict(list)
            for p, sha in self.tree(commit).items():
                t = self.parse(sha)
                if t is not None:
                    for n in ast.walk(t):
                        if isinstance(n, ast.ClassDef):
                            idx[n.name].append((p, n))
            self.classes[commit] = idx
        return self.classes[commit]


_refactor = None


def py2to3(text):
    global _refactor
    if _refactor is None:
        warnings.filterwarnings("ignore")
        from lib2to3.refactor import RefactoringTool, get_fixers_from_package
        _refactor = RefactoringTool(get_fixers_from_package("lib2to3.fixes"))
    return str(_refactor.refactor_string(text if text.endswith("\n") else text + "\n", "<blob>"))


def module_ids(files):
    """path -> module id: the path from the highest directory reached through __init__.py files."""
    packages = {os.path.dirname(p) for p in files if p.endswith("__init__.py")}
    out = {}
    for p in files:
        parts = p[:-3].split("/")
        d = parts[:-1]
        i = len(d)
        while i > 0 and "/".join(d[:i]) in packages:
            i -= 1
        out[p] = ".".join(d[i:] + ([] if parts[-1] == "__init__" else [parts[-1]]))
    return out


DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def locate(repo, commit, ident):
    """(path, module id, [defs along the qualified name]) of an id at a commit, or None."""
    files = repo.tree(commit)
    mids = module_ids(files)
    best = None
    for p, m in mids.items():
        if m and ident.startswith(m + ".") and (best is None or len(m) > len(mids[best])):
            best = p
    if best is None:
        return None
    t = repo.parse(files[best])
    if t is None:
        return None
    chain, body = [], t.body
    for name in ident[len(mids[best]) + 1:].split("."):
        found = next((n for n in body if isinstance(n, DEFS) and n.name == name), None)
        if found is None:  # a def under `if`/`try` at this level
            found = next((n for n in ast.walk(ast.Module(body=body, type_ignores=[]))
                          if isinstance(n, DEFS) and n.name == name), None)
        if found is None:
            return None
        chain.append(found)
        body = found.body
    return best, mids[best], chain


def name_text(e):
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        t = name_text(e.value)
        return (t + "." if t else "") + e.attr
    if isinstance(e, ast.Call):
        return (name_text(e.func) or "") + "()"
    if isinstance(e, ast.Subscript):
        return name_text(e.value)
    return None


def ancestors(repo, commit, cls):
    """{name: ClassDef or None}: the repository's ancestor classes by name, outside ones as `ext:text`."""
    idx = repo.class_index(commit)
    out, todo, seen = {}, [cls], set()
    while todo:
        c = todo.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        for b in c.bases:
            t = name_text(b)
            if not t or t == "object":
                continue
            found = [n for _, n in idx.get(t.split(".")[-1].rstrip("()"), []) if n is not c]
            for n in found:
                out.setdefault(n.name, n)
                todo.append(n)
            if not found:
                out["ext:" + t] = None
    return out


def method(cls, name):
    return next((n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == name), None)


def abstract(fn):
    """`@abstractmethod`, or a body (docstring aside) that is empty, `pass`, `...` or raises NotImplementedError."""
    if any((name_text(d) or "").endswith(("abstractmethod", "abstractproperty")) for d in fn.decorator_list):
        return True
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body:
        return True
    if len(body) != 1:
        return False
    s = body[0]
    if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                   and s.value.value is Ellipsis):
        return True
    if isinstance(s, ast.Raise) and s.exc is not None:
        return "NotImplemented" in (name_text(s.exc.func if isinstance(s.exc, ast.Call) else s.exc) or "")
    return False


def calls_base(fn, name):
    """`super().name(...)` or `Base.name(self, ...)` in fn."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == name:
            v = n.func.value
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
                return True
            if isinstance(v, (ast.Name, ast.Attribute)) and (name_text(v) or "")[:1].isupper():
                return True
    return False


def analyse(repo, pair):
    """The structural facts of one pair {commit, function, target}."""
    c = pair["commit"]
    parent = repo.git("rev-parse", c + "^").decode().strip()
    f = locate(repo, c, pair["function"]) or locate(repo, parent, pair["function"])
    g, gside = locate(repo, c, pair["target"]), c
    if g is None:
        g, gside = locate(repo, parent, pair["target"]), parent
    fname, gname = pair["function"].split(".")[-1], pair["target"].split(".")[-1]
    row = {"same_name": fname == gname, "found": bool(f and g),
           "dunder": fname == gname and bool(re.match(r"^__\w+__$", fname)),
           "protocol_name": fname in ASYNCIO_PROTOCOL}
    if not (f and g):
        return row
    (fpath, fmod, fchain), (gpath, gmod, gchain) = f, g
    fcls = fchain[-2] if len(fchain) >= 2 and isinstance(fchain[-2], ast.ClassDef) else None
    gcls = gchain[-2] if len(gchain) >= 2 and isinstance(gchain[-2], ast.ClassDef) else None
    pkg = lambda m: m.rsplit(".", 1)[0] if "." in m else ""  # noqa: E731
    row.update(f_class=fcls.name if fcls else None, g_class=gcls.name if gcls else None,
               same_module=fmod == gmod, sibling_modules=fmod != gmod and pkg(fmod) == pkg(gmod),
               two_classes=bool(fcls and gcls and (fpath, fcls.name) != (gpath, gcls.name)))
    if row["two_classes"]:
        fa, ga = ancestors(repo, c, fcls), ancestors(repo, gside, gcls)
        common = set(fa) & set(ga)
        row["common_any"] = sorted(common)
        row["common_repo"] = sorted(k for k in common if not k.startswith("ext:"))
        defs = [m for k in row["common_repo"] for m in [method(fa.get(k) or ga[k], fname)] if m]
        row["base_defines"] = bool(defs)
        row["base_abstract"] = any(abstract(m) for m in defs)
        row["calls_base"] = calls_base(fchain[-1], fname) or calls_base(gchain[-1], gname)
    return row


def two(r):
    return r["same_name"] and r.get("two_classes", False)


VARIANTS = {
    "V1": ("the same name", lambda r: r["same_name"]),
    "V2": ("the same name, methods of two classes", two),
    "V2a": ("V2, classes named differently", lambda r: two(r) and r["f_class"] != r["g_class"]),
    "V3": ("V2 + a common ancestor in the repository", lambda r: two(r) and bool(r["common_repo"])),
    "V4": ("V2 + a common ancestor anywhere", lambda r: two(r) and bool(r["common_any"])),
    "V5": ("V3 + the ancestor defines the method", lambda r: two(r) and r["base_defines"]),
    "V6": ("V5 + that method abstract", lambda r: two(r) and r["base_abstract"]),
    "V7": ("V2 + a dunder or asyncio protocol name", lambda r: two(r) and (r["dunder"] or r["protocol_name"])),
    "V8": ("V2 + (V4 or V7)", lambda r: two(r) and (bool(r["common_any"]) or r["dunder"] or r["protocol_name"])),
    "V9": ("V5 + neither calls the base method", lambda r: two(r) and r["base_defines"] and not r["calls_base"]),
    "V10": ("the same name, sibling modules", lambda r: r["same_name"] and r.get("sibling_modules", False)),
    "V11": ("V10, classes named differently or functions", lambda r: r["same_name"] and r.get("sibling_modules", False)
            and (r.get("f_class") is None or r.get("f_class") != r.get("g_class"))),
    "V12": ("any names, two classes with a common ancestor in the repository",
            lambda r: r.get("two_classes", False) and bool(r["common_repo"])),
    "V13": ("any names, two classes, a common ancestor defines F's name",
            lambda r: r.get("two_classes", False) and r["base_defines"]),
}


def matches(row, v):
    return row["found"] and bool(VARIANTS[v][1](row))


def simulate(project, labels, repo, history, variants, memo):
    """Each variant as a x0.45 note on one history: top-20 figures and the labelled pairs it demotes."""
    lab = {(x["commit"], x["function"], x["target"]): x["verdict"] for x in labels["labels"]}
    dups = {(d["commit"], frozenset((d["function"], d["target"]))) for d in labels["duplications"]}
    rows = json.load(open(history))["findings"]

    def facts(r):
        k = (r["commit"], r["function"], r["target"])
        if k not in memo:
            memo[k] = analyse(repo, r)
        return memo[k]

    def figures(rs, title):
        intro = [r for r in rs if r["primary"] and r["context"] == "code" and r["kind"] != "candidate"
                 and not any(n in r["notes"] for n in APART)]
        intro.sort(key=lambda r: (-r["confidence"], r["commit"], r["function"]))
        top = intro[:labels["top"]]
        v = [lab.get((r["commit"], r["function"], r["target"])) for r in top]
        conf = [x for r, x in zip(top, v) if r["confidence"] >= 0.5]
        rule = sum(1 for r in intro if r["kind"] == "reimplementation" and r["confidence"] >= 0.5)
        print(f"  {title:5} introduced {len(intro)}; top {len(top)}: strict {v.count('real')}, lenient "
              f"{v.count('real') + v.count('idiomatic')}, unlabelled {v.count(None)}; at >= 0.5: strict "
              f"{conf.count('real')}/{len(conf)}; rule findings >= 0.5: {rule}")

    print(f"{project} ({history})")
    figures(rows, "as is")
    for v in variants:
        out, demoted = [], []
        for r in rows:
            r2 = dict(r)
            if r["context"] == "code" and r["kind"] != "candidate" \
                    and not any(n in r["notes"] for n in APART + IDIOMS) and matches(facts(r), v):
                r2["confidence"] = round(r["confidence"] * NOTE_FACTOR, 3)
                demoted.append((r, r2))
            out.append(r2)
        groups = defaultdict(list)
        for r in out:
            groups[(r["commit"], r["function"])].append(r)
        for g in groups.values():
            if any(r["primary"] for r in g):
                pool = [r for r in g if not any(n in r["notes"] for n in APART)] or g
                best = min(pool, key=lambda r: (KIND_ORDER[r["kind"]], -r["confidence"]))
                for r in g:
                    r["primary"] = r is best
        figures(out, v)
        for r, r2 in demoted:
            verdict = lab.get((r["commit"], r["function"], r["target"]))
            sample = (r["commit"], frozenset((r["function"], r["target"]))) in dups
            if verdict or sample or (r["primary"] and r["confidence"] >= 0.5):
                print(f"    {v}: {r['kind']} {r['confidence']:.3f} -> {r2['confidence']:.3f} {r['commit'][:8]} "
                      f"{r['function']} -> {r['target']}: {verdict or 'unlabelled'}"
                      f"{' (recall sample: real)' if sample else ''}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", action="append", default=[], help="project=path (a clone or bare git dir)")
    ap.add_argument("--history", action="append", default=[], help="project=history.json")
    ap.add_argument("--variants", default="V2,V3,V4,V6,V8,V10")
    ap.add_argument("--labels", default=os.path.join(HERE, "eval"))
    ap.add_argument("--rows", help="write every pair's facts here (JSON)")
    ap.add_argument("--list", help="print the pairs one variant matches")
    a = ap.parse_args()
    repos = {k: Repo(v) for k, v in (x.split("=", 1) for x in a.repo)}
    rows, memos = [], defaultdict(dict)
    for path in sorted(glob.glob(os.path.join(a.labels, "*.json"))):
        project = os.path.basename(path)[:-5]
        if project not in repos:
            print(f"{project}: no --repo, skipped", file=sys.stderr)
            continue
        L = json.load(open(path))
        for kind, key in (("label", "labels"), ("dup", "duplications"), ("jscpd", "jscpdLabels")):
            for x in L.get(key, []):
                r = analyse(repos[project], x)
                memos[project][(x["commit"], x["function"], x["target"])] = r
                rows.append({"project": project, "kind": kind, "verdict": x.get("verdict", "real"),
                             "commit": x["commit"][:8], "function": x["function"], "target": x["target"], **r})
    if a.rows:
        json.dump(rows, open(a.rows, "w"), indent=1)
    found = [r for r in rows if r["found"]]
    print(f"{len(rows)} labelled pairs, {len(found)} found in their commits' trees "
          f"({len(rows) - len(found)} not: jscpd fragments outside functions, unparsable files)")
    print(f"{'variant':<62} labels real/idiomatic/false | recall samples (real) | jscpd real/idiomatic/false")

    def line(title, pred):
        c = Counter((r["kind"], r["verdict"]) for r in found if pred(r))
        print(f"{title:<62} {c['label', 'real']:3}/{c['label', 'idiomatic']:3}/{c['label', 'false']:3} | "
              f"{c['dup', 'real']:3} | {c['jscpd', 'real']:3}/{c['jscpd', 'idiomatic']:3}/{c['jscpd', 'false']:3}")
    for v, (title, _) in VARIANTS.items():
        line(f"{v} {title}", lambda r, v=v: matches(r, v))
    line("all found", lambda r: True)
    if a.list:
        for r in found:
            if matches(r, a.list):
                print(f"  {r['project']} {r['kind']} {r['verdict']} {r['commit']} {r['function']} -> {r['target']}"
                      f" | common {r.get('common_any')}")
    for k, h in (x.split("=", 1) for x in a.history):
        L = json.load(open(os.path.join(a.labels, k + ".json")))
        simulate(k, L, repos[k], h, a.variants.split(","), memos[k])


if __name__ == "__main__":
    main()
