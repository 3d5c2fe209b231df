#!/usr/bin/env python3
"""Candidate duplications in a first-parent history, for a recall sample (docs/audit.md, "Evaluation").

The seventh blind round's second scan (markdown, sqlparse), written beside data/audit/scan.py (the
round's other scan, which normalises through `ast` and so cannot read Python 2 sources such as
sqlparse before 0.2): the same tests, with functions found line by line.

Standard library only; it reads the clone's objects with `git` and never imports or runs the
project's code, nor reporeuse. For every first-parent commit of the range (oldest first) it takes
the package's functions at the commit and at its first parent and reports:

- `ratio`: a function the commit changed (new, or its normalised body differs) whose normalised
  body is at least `--ratio` alike (difflib ratio over lines) to another package function's at the
  same commit; both bodies at least `--min-lines` lines;
- `run`: a changed function sharing a run of at least `--run` consecutive normalised lines with
  another package function, the run holding a line the commit added to the changed function (runs
  made only of trivial lines such as `else:` or `return None` are not counted);
- `removal`: a commit from the range's start to `--trace-to` (default HEAD) deleting a run of at
  least `--run` normalised lines from a function while another function still holds the run, traced
  back to the commit of the range at which both functions first held it;

each at a strict tier (`--ratio`, `--run`; defaults 0.6 and 3) and a loose one (`--loose-ratio`,
`--loose-run`; 0.5 and 2). A pair whose old versions (at the parent) already met the same test is
pre-existing and only counted (`--keep-preexisting` lists it). Commit messages of the range are
searched for de-duplications (`--words`). Functions are found by indentation and a small lexer of
strings, comments and brackets, not by `ast`: Python 2 sources (print statements, `except X, e`)
are read the same way as Python 3. A body is the def's suite without its docstring; a normalised
line is a physical line with comments removed and runs of white space made one space; empty lines
are dropped. Nested functions are functions of their own (and lines of their parent); a
function is never paired with one nested in it. Functions
under test directories (`tests?/`, `testing/`, `test_*.py`, `*_test.py`, `conftest.py`) are not
package code.

    python3 data/audit/scan_lines.py path/to/clone A..B [--package markdown] > candidates.json

Output: one JSON object, `{range, package, commits, functions, candidates, preexisting, messages}`;
each candidate `{commit, date, subject, kind, tier, function, target, ratio, run, lines, new}`
(`function`: the changed function or the one that received the copy later; `target`: the other;
`new`: whether the target is new in the same commit; `lines`: the shared run's first lines).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from difflib import SequenceMatcher

TRIVIAL = {
    "else:", "try:", "finally:", "pass", "return", "break", "continue", "return None",
    "return True", "return False", "return self", "return result", ")", "]", "}", "),", "],",
    "},", "raise", "except:", "else :", "yield", "return res", "return ret",
}
WORDS = r"dedup|de-dup|duplicat|refactor|extract|\bshare|\bshared|\bDRY\b|helper|reuse|re-use|common code|consolidat|unify|factor out"
TEST_RE = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.py$|(^|/)conftest\.py$")
DEF_RE = re.compile(r"^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)")
CLASS_RE = re.compile(r"^(\s*)class\s+([A-Za-z_]\w*)")
STRING_START = re.compile(r"""^[rRuUbBfF]{0,2}('''|\"\"\"|'|")""")


def git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True, errors="replace"
    ).stdout


def lex(text: str) -> list[tuple[str, bool, bool]]:
    """Per physical line: (code without comments, starts a statement, ends inside brackets/string)."""
    out = []
    depth = 0
    quote = ""  # the open string's quote, '' when none
    cont = False  # previous line ended with a backslash
    for line in text.split("\n"):
        starts = depth == 0 and not quote and not cont
        code = []
        i = 0
        n = len(line)
        while i < n:
            c = line[i]
            if quote:
                if c == "\\":
                    code.append(line[i:i + 2])
                    i += 2
                    continue
                if line.startswith(quote, i):
                    code.append(quote)
                    i += len(quote)
                    quote = ""
                    continue
                code.append(c)
                i += 1
                continue
            if c == "#":
                break
            if c in "'\"":
                q = line[i:i + 3] if line[i:i + 3] in ("'''", '"""') else c
                quote = q
                code.append(q)
                i += len(q)
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth = max(0, depth - 1)
            code.append(c)
            i += 1
        if quote and len(quote) == 1:
            quote = ""  # an unterminated one-quote string ends with its line
        s = "".join(code).rstrip()
        cont = s.endswith("\\") and not quote
        out.append((s, starts, bool(depth or quote or cont)))
    return out


def norm(s: str) -> str:
    return " ".join(s.split())


def module_name(path: str) -> str:
    p = path[:-3].replace("/", ".")
    if p.endswith(".__init__"):
        p = p[: -len(".__init__")]
    return p


def functions(path: str, text: str) -> dict[str, dict]:
    """qualname -> {body: [normalised lines], lines: [file line numbers, 1-based], start, end}."""
    lines = lex(text)
    n = len(lines)
    mod = module_name(path)
    out: dict[str, dict] = {}
    stack: list[tuple[int, str, str]] = []  # (indent, kind, name)
    for i, (code, starts, _) in enumerate(lines):
        if not starts or not code.strip():
            continue
        indent = len(code) - len(code.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        m = DEF_RE.match(code) or CLASS_RE.match(code)
        if not m:
            continue
        kind = "def" if DEF_RE.match(code) else "class"
        name = m.group(2)
        qual = ".".join([mod] + [s[2] for s in stack] + [name])
        stack.append((indent, kind, name))
        if kind != "def":
            continue
        # the header statement ends where brackets close
        j = i
        while j < n - 1 and lines[j][2]:
            j += 1
        body_idx = []
        k = j + 1
        while k < n:
            c, st, _ = lines[k]
            if c.strip() and st and len(c) - len(c.lstrip()) <= indent:
                break
            body_idx.append(k)
            k += 1
        if not any(lines[x][0].strip() for x in body_idx):
            # a one-line def: the suite follows the colon on the header line
            tail = lines[j][0]
            m2 = re.search(r"\)\s*(->[^:]*)?:\s*(.+)$", tail)
            header_rest = m2.group(2) if m2 else ""
            body = [norm(header_rest)] if header_rest else []
            out[unique(out, qual)] = {"body": body, "lines": [j + 1] * len(body), "start": i + 1, "end": j + 1}
            continue
        # drop the docstring: a first statement that is only a string
        first = next(x for x in body_idx if lines[x][0].strip())
        if STRING_START.match(lines[first][0].strip()):
            e = first
            while e < k - 1 and lines[e][2]:
                e += 1
            stmt = " ".join(lines[x][0].strip() for x in range(first, e + 1))
            if re.fullmatch(r"""([rRuUbB]{0,2}('''|\"\"\"|'|").*?\2\s*)+""", stmt, re.S):
                body_idx = [x for x in body_idx if x > e]
        body, nums = [], []
        for x in body_idx:
            s = norm(lines[x][0])
            if s:
                body.append(s)
                nums.append(x + 1)
        last = body_idx[-1] + 1 if body_idx else j + 1
        out[unique(out, qual)] = {"body": body, "lines": nums, "start": i + 1, "end": last}
    return out


def unique(d: dict, q: str) -> str:
    if q not in d:
        return q
    i = 2
    while f"{q}#{i}" in d:
        i += 1
    return f"{q}#{i}"


class Snapshots:
    """Package functions of a commit's tree, parsed once per blob."""

    def __init__(self, repo: str, packages: list[str]):
        self.repo = repo
        self.packages = packages
        self.blobs: dict[str, dict] = {}
        self.trees: dict[str, dict[str, dict]] = {}

    def files(self, commit: str) -> list[tuple[str, str]]:
        if not commit:
            return []
        out = []
        for line in git(self.repo, "ls-tree", "-r", commit, "--", *self.packages).splitlines():
            meta, path = line.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and path.endswith(".py") and not TEST_RE.search(path):
                out.append((path, sha))
        return out

    def at(self, commit: str) -> dict[str, dict]:
        if commit in self.trees:
            return self.trees[commit]
        fns: dict[str, dict] = {}
        files = self.files(commit)
        missing = [sha for _, sha in files if sha not in self.blobs]
        if missing:
            texts = cat_blobs(self.repo, missing)
            for sha in missing:
                self.blobs[sha] = {"_text": None, "_sha": sha, "_raw": texts[sha]}
        for path, sha in files:
            b = self.blobs[sha]
            key = "_fns:" + path
            if key not in b:
                b[key] = functions(path, b["_raw"])
            for q, f in b[key].items():
                fns[q] = dict(f, path=path)
        self.trees[commit] = fns
        return fns


def cat_blobs(repo: str, shas: list[str]) -> dict[str, str]:
    p = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch"], input=("\n".join(shas) + "\n").encode(),
        capture_output=True, check=True,
    ).stdout
    out = {}
    i = 0
    for sha in shas:
        nl = p.index(b"\n", i)
        header = p[i:nl].split()
        size = int(header[2])
        out[sha] = p[nl + 1: nl + 1 + size].decode("utf-8", "replace")
        i = nl + 1 + size + 1
    return out


def added_lines(repo: str, parent: str, commit: str, packages: list[str]) -> dict[str, set[int]]:
    """File -> line numbers (in the commit's version) the commit added."""
    args = ["diff", "-U0", "--no-color", "--no-renames", parent or EMPTY, commit, "--", *packages]
    out: dict[str, set[int]] = defaultdict(set)
    path = None
    for line in git(repo, *args).splitlines():
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@") and path:
            m = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(m.group(1)), int(m.group(2) or "1")
            out[path].update(range(start, start + count))
    return out


EMPTY = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def meaningful(run: list[str], min_lines: int) -> bool:
    real = [s for s in run if s not in TRIVIAL and len(s) > 3]
    return len(real) >= min(min_lines, 2) and sum(len(s) for s in real) >= 30


def longest_runs(a: list[str], b: list[str]) -> list[tuple[int, int, int]]:
    """Maximal common runs (i in a, j in b, length), by dynamic programming."""
    prev = [0] * (len(b) + 1)
    ends = []
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        ai = a[i - 1]
        for j in range(1, len(b) + 1):
            if ai == b[j - 1]:
                cur[j] = prev[j - 1] + 1
        for j in range(1, len(b) + 1):
            if cur[j] and (i == len(a) or j == len(b) or a[i] != b[j]):
                ends.append((i - cur[j], j - cur[j], cur[j]))
        prev = cur
    return ends


def ratio(a: list[str], b: list[str]) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def pair_test(fa: dict, fb: dict, added_idx: set[int] | None, args) -> dict | None:
    """The strongest tier a pair meets: ratio and/or a run holding an added line of fa."""
    a, b = fa["body"], fb["body"]
    res = None
    if min(len(a), len(b)) >= args.min_lines and 2 * min(len(a), len(b)) / (len(a) + len(b)) >= args.loose_ratio:
        r = ratio(a, b)
        if r >= args.loose_ratio:
            res = {"kind": "ratio", "tier": "strict" if r >= args.ratio else "loose", "ratio": round(r, 3)}
    best = None
    for i, j, k in longest_runs(a, b):
        if k < args.loose_run:
            continue
        if added_idx is not None and not any(x in added_idx for x in range(i, i + k)):
            continue
        if not meaningful(a[i:i + k], k):
            continue
        if best is None or k > best[2]:
            best = (i, j, k)
    if best:
        tier = "strict" if best[2] >= args.run else "loose"
        run = {"run": best[2], "lines": a[best[0]:best[0] + min(best[2], 4)]}
        if res is None or (tier == "strict" and res["tier"] == "loose"):
            res = dict(res or {}, kind="run" if res is None else res["kind"] + "+run", tier=tier, **run)
            if "ratio" not in res:
                res["ratio"] = round(ratio(a, b), 3)
        else:
            res.update(run)
            res["kind"] = res["kind"] + "+run"
    return res


def candidates_of(fa: dict, fns: dict, index: dict[str, set[str]], name: str) -> set[str]:
    """Functions sharing at least one non-trivial line with fa (the only ones either test can hold)."""
    c: set[str] = set()
    for s in set(fa["body"]):
        if s in TRIVIAL or len(s) <= 3:
            continue
        c |= index.get(s, set())
    c.discard(name)
    return c


def build_index(fns: dict) -> dict[str, set[str]]:
    index: dict[str, set[str]] = defaultdict(set)
    for q, f in fns.items():
        for s in f["body"]:
            index[s].add(q)
    return index


def base(q: str) -> str:
    return q.split("#", 1)[0]


def related(q: str, g: str) -> bool:
    """The same function, or one nested in the other (its lines are the other's lines)."""
    a, b = base(q), base(g)
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("clone")
    ap.add_argument("range", help="A..B, first-parent, A excluded")
    ap.add_argument("--package", action="append", help="package directory (repeatable; default: the top-level dirs with __init__.py)")
    ap.add_argument("--ratio", type=float, default=0.6)
    ap.add_argument("--run", type=int, default=3)
    ap.add_argument("--loose-ratio", type=float, default=0.5)
    ap.add_argument("--loose-run", type=int, default=2)
    ap.add_argument("--min-lines", type=int, default=3, help="both bodies at least this many lines for the ratio test")
    ap.add_argument("--trace-to", default="HEAD", help="removals are traced from the range's start to this commit")
    ap.add_argument("--no-trace", action="store_true")
    ap.add_argument("--keep-preexisting", action="store_true")
    ap.add_argument("--words", default=WORDS, help="regular expression for commit messages (case-insensitive)")
    args = ap.parse_args()
    repo = args.clone
    a, b = args.range.split("..")
    packages = args.package or sorted(
        {p.split("/")[0] for p in git(repo, "ls-tree", "-r", "--name-only", b).splitlines()
         if p.count("/") == 1 and p.endswith("/__init__.py") and not TEST_RE.search(p)}
    )
    commits = git(repo, "rev-list", "--first-parent", "--reverse", f"{a}..{b}").split()
    snaps = Snapshots(repo, packages)
    candidates, preexisting = [], Counter()
    seen_pairs: set[tuple] = set()
    meta = {}
    for n, c in enumerate(commits):
        info = git(repo, "show", "-s", "--format=%P%x00%ad%x00%s", "--date=short", c).split("\x00")
        parent = info[0].split()[0] if info[0].split() else ""
        meta[c] = {"date": info[1], "subject": info[2].strip()}
        new, old = snaps.at(c), snaps.at(parent)
        changed = [q for q, f in new.items() if q not in old or old[q]["body"] != f["body"]]
        if not changed:
            continue
        added = added_lines(repo, parent, c, packages)
        index = build_index(new)
        old_index = None
        for q in changed:
            f = new[q]
            adds = added.get(f["path"], set())
            added_idx = {i for i, ln in enumerate(f["lines"]) if ln in adds}
            for g in sorted(candidates_of(f, new, index, q)):
                if related(q, g):
                    continue
                res = pair_test(f, new[g], added_idx, args)
                if not res:
                    continue
                key = (c,) + tuple(sorted((q, g)))
                if key in seen_pairs:
                    continue
                was = None
                if q in old and g in old:
                    was = pair_test(old[q], old[g], None, args)
                if was and (was["tier"] == "strict" or res["tier"] == "loose"):
                    preexisting[res["tier"]] += 1
                    if not args.keep_preexisting:
                        continue
                    res["preexisting"] = True
                seen_pairs.add(key)
                candidates.append(dict(
                    commit=c, date=meta[c]["date"], subject=meta[c]["subject"], function=q, target=g,
                    new=g not in old, **res,
                ))
        print(f"scan: {n + 1}/{len(commits)} {c[:8]} {len(changed)} changed, {len(candidates)} candidates", file=sys.stderr)

    removals = [] if args.no_trace else trace(repo, snaps, commits, args, packages, meta)
    msgs = []
    word_re = re.compile(args.words, re.I)
    for c in commits:
        body = git(repo, "show", "-s", "--format=%B", c)
        if word_re.search(body):
            msgs.append({"commit": c, "date": meta[c]["date"], "subject": meta[c]["subject"],
                         "words": sorted({m.group(0).lower() for m in word_re.finditer(body)})})
    order = {"strict": 0, "loose": 1}
    candidates.sort(key=lambda x: (order[x["tier"]], -x.get("run", 0), -x.get("ratio", 0)))
    json.dump({
        "range": args.range, "package": packages, "commits": len(commits),
        "functions": {"first": len(snaps.at(commits[0])) if commits else 0, "last": len(snaps.at(commits[-1])) if commits else 0},
        "tests": {"ratio": args.ratio, "run": args.run, "loose_ratio": args.loose_ratio, "loose_run": args.loose_run},
        "candidates": candidates + removals, "preexisting": dict(preexisting), "messages": msgs,
    }, sys.stdout, indent=1)
    print(file=sys.stdout)


def trace(repo, snaps, window, args, packages, meta):
    """Runs of lines a commit removes from a function while another function keeps them."""
    start = window[0] if window else None
    later = git(repo, "rev-list", "--first-parent", "--reverse", f"{start}^..{args.trace_to}").split() if start else []
    in_window = set(window)
    out = []
    seen = set()
    for n, c in enumerate(later):
        parents = git(repo, "show", "-s", "--format=%P", c).split()
        if not parents:
            continue
        parent = parents[0]
        new, old = snaps.at(c), snaps.at(parent)
        index = None
        for q, f in old.items():
            g_new = new.get(q)
            if g_new is not None and g_new["body"] == f["body"]:
                continue
            remaining = Counter(g_new["body"]) if g_new else Counter()
            # lines of the old body no longer in the new one
            gone = []
            for i, s in enumerate(f["body"]):
                if remaining[s] > 0:
                    remaining[s] -= 1
                else:
                    gone.append(i)
            if len(gone) < args.loose_run:
                continue
            if index is None:
                index = build_index(old)
            for g in candidates_of(f, old, index, q):
                if related(q, g) or g not in new:
                    continue
                for i, j, k in longest_runs(f["body"], old[g]["body"]):
                    if k < args.loose_run or not meaningful(f["body"][i:i + k], k):
                        continue
                    if sum(1 for x in range(i, i + k) if x in gone) < k:
                        continue
                    run = f["body"][i:i + k]
                    if not contains(new[g]["body"], run):
                        continue  # the copy did not stay
                    key = (q, g, tuple(run))
                    if key in seen:
                        continue
                    seen.add(key)
                    intro = introduced(snaps, window, q, g, run)
                    if intro is None:
                        continue
                    ic, first, second = intro
                    out.append(dict(
                        commit=ic, date=meta[ic]["date"], subject=meta[ic]["subject"], kind="removal",
                        tier="strict" if k >= args.run else "loose", function=first, target=second,
                        run=k, lines=run[:4], removed_at=c, new=None,
                        removed_subject=git(repo, "show", "-s", "--format=%s", c).strip(),
                    ))
        if n % 50 == 0:
            print(f"trace: {n + 1}/{len(later)}", file=sys.stderr)
    return out


def contains(body: list[str], run: list[str]) -> bool:
    k = len(run)
    return any(body[i:i + k] == run for i in range(len(body) - k + 1))


def introduced(snaps, window, q, g, run):
    """The first commit of the window at which both q and g hold run: (commit, later holder, other)."""
    prev_q = prev_g = None
    for n, c in enumerate(window):
        fns = snaps.at(c)
        hq = q in fns and contains(fns[q]["body"], run)
        hg = g in fns and contains(fns[g]["body"], run)
        if hq and hg:
            if n == 0 and prev_q is None:
                # held already at the window's start: out of the window
                parent_fns = snaps.at(git(snaps.repo, "rev-parse", c + "^").strip())
                if q in parent_fns and g in parent_fns and contains(parent_fns[q]["body"], run) and contains(parent_fns[g]["body"], run):
                    return None
            later = q if not prev_q else g
            return c, later, (g if later == q else q)
        prev_q, prev_g = hq, hg
    return None


if __name__ == "__main__":
    main()
