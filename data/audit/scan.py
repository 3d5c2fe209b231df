#!/usr/bin/env python3
"""Candidate duplications of a first-parent window, for a recall sample (docs/audit.md, "Evaluation").

Standard library only; it reads the clone's objects (git ls-tree, cat-file, log) and never runs the
project's code nor imports reporeuse. For every first-parent commit of RANGE (oldest first), each
package function whose normalised body the commit changed (or added) is compared with every package
function of the commit's snapshot:

- ``ratio``: difflib's ratio over the two normalised bodies' tokens is at least 0.6 (``strong``) or
  0.5 (``weak``);
- ``run``: the two bodies share a run of at least 3 (``strong``) or 2 (``weak``) consecutive
  normalised lines, every line of the run one the commit added to the changed function.

A pair is printed the first time it is a candidate in the window (with ``preexisting`` when the
parent's versions of both functions were already a candidate by the same test). Then, from the
window's first commit to the end of TRACE (default: the clone's HEAD), a commit that removes a run of
at least 3 normalised lines from a function while another function of the parent keeps the same run,
and keeps it after the commit, is printed as a ``removed`` candidate (a copy taken back, the other
left), with the first window commit at which both functions held the run; so is a function the commit
deletes while an unchanged function keeps a body at least 0.9 alike (``deleted``: a module left behind
by a move and removed later), with the first window commit at which both existed so alike. Commit messages of the
window matching de-duplication words are listed as ``messages``.

Normalised: each function's body without its docstring, through ``ast.unparse`` (comments, layout and
quoting gone), one line per unparsed line, stripped. Package code: ``.py`` files under ``--package``
(default: every directory holding an ``__init__.py`` at the root or under ``src/``), test files out
(``test``/``tests``/``testing`` directories, ``test_*.py``, ``*_test.py``, ``conftest.py``). Function
names are ``module.Class.method`` (``module.outer.inner`` for nested functions), ``src/`` stripped.
A function and one nested in it are not compared. Bodies under ``--min-tokens`` tokens (default 25) are not compared by ratio; runs must hold at least
``--min-run-chars`` characters (default 40: three lines such as ``try:``/``pass``/``else:`` are not a
run).

    python3 data/audit/scan.py path/to/clone A..B [--trace HEAD] [--package src/pkg] > candidates.json

Output: one JSON object ``{range, commits, candidates: [...], removed: [...], messages: [...]}``.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import subprocess
import sys
import warnings
from collections import defaultdict

TEST_PART = re.compile(r"^(tests?|testing)$")
TEST_FILE = re.compile(r"(^test_.*|.*_test|^conftest)\.py$")
TOKEN = re.compile(r"\w+|[^\w\s]")
MESSAGE = re.compile(r"dedup|de-dup|duplicat|refactor|extract|\bshare|\bshared\b|\bDRY\b|helper", re.I)


def git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True, errors="replace"
    ).stdout


class Blobs:
    """Blob texts through one ``git cat-file --batch`` process."""

    def __init__(self, repo: str) -> None:
        self.proc = subprocess.Popen(
            ["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def read(self, sha: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write((sha + "\n").encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        size = int(header[2])
        data = self.proc.stdout.read(size + 1)[:-1]
        return data.decode("utf-8", "replace")


def is_test(path: str) -> bool:
    parts = path.split("/")
    return any(TEST_PART.match(p) for p in parts[:-1]) or bool(TEST_FILE.match(parts[-1]))


def module_name(path: str) -> str:
    parts = path[:-3].split("/")
    if parts[0] == "src":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def normalise(node: ast.AST) -> tuple[str, ...]:
    body = list(node.body)  # type: ignore[attr-defined]
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    lines: list[str] = []
    for stmt in body:
        for line in ast.unparse(stmt).splitlines():
            line = line.strip()
            if line:
                lines.append(line)
    return tuple(lines)


def functions(text: str, module: str) -> dict[str, tuple[str, ...]]:
    """Every function of a module, by qualified name, with its normalised body lines."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, tuple[str, ...]] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}.{child.name}"
                out.setdefault(name, normalise(child))
                walk(child, name)
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}.{child.name}")
            elif not isinstance(child, (ast.Lambda,)):
                walk(child, prefix)

    walk(tree, module)
    return out


class Snapshots:
    """Package functions of a commit's tree, parsed once per blob and module name (an identical
    file under another path is another module: a copied module, or one renamed with its package)."""

    def __init__(self, repo: str, package: list[str] | None) -> None:
        self.repo = repo
        self.package = package
        self.blobs = Blobs(repo)
        self.parsed: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}

    def package_files(self, commit: str) -> dict[str, str]:
        entries: dict[str, str] = {}
        for line in git(self.repo, "ls-tree", "-r", commit).splitlines():
            meta, path = line.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and path.endswith(".py"):
                entries[path] = sha
        paths = set(entries)
        keep: dict[str, str] = {}
        for path, sha in entries.items():
            if is_test(path):
                continue
            if self.package:
                if not any(path == p or path.startswith(p.rstrip("/") + "/") for p in self.package):
                    continue
            else:
                parts = path.split("/")
                root = 1 if parts[0] == "src" else 0
                if len(parts) < root + 2 or "/".join(parts[: root + 1]) + "/__init__.py" not in paths:
                    continue
            keep[path] = sha
        return keep

    def functions(self, commit: str) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for path, sha in self.package_files(commit).items():
            key = (sha, module_name(path))
            if key not in self.parsed:
                self.parsed[key] = functions(self.blobs.read(sha), key[1])
            for name, body in self.parsed[key].items():
                out.setdefault(name, body)
        return out


def tokens(lines: tuple[str, ...]) -> list[str]:
    return TOKEN.findall("\n".join(lines))


def ratio(a: list[str], b: list[str]) -> float:
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if sm.real_quick_ratio() < 0.5 or sm.quick_ratio() < 0.5:
        return 0.0
    return sm.ratio()


def added_lines(old: tuple[str, ...] | None, new: tuple[str, ...]) -> set[int]:
    """Indices of lines of ``new`` that are not matched to ``old``."""
    if old is None:
        return set(range(len(new)))
    added: set[int] = set()
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("insert", "replace"):
            added.update(range(j1, j2))
    return added


def runs(a: tuple[str, ...], b: tuple[str, ...], minimum: int, chars: int) -> list[tuple[int, int]]:
    """Shared runs of consecutive lines, at least ``minimum`` lines and ``chars`` characters: (start in a, length)."""
    out = []
    for i, _j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        if n >= minimum and sum(len(x) for x in a[i : i + n]) >= chars:
            out.append((i, n))
    return out


def has_run(hay: tuple[str, ...], block: tuple[str, ...]) -> bool:
    n = len(block)
    return any(hay[i : i + n] == block for i in range(len(hay) - n + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("clone", help="path to a git clone")
    ap.add_argument("range", help="first-parent range A..B (A exclusive)")
    ap.add_argument("--trace", default="HEAD", help="trace removed blocks up to this commit (default HEAD)")
    ap.add_argument("--package", action="append", help="package directory (repeatable; default: detected)")
    ap.add_argument("--min-tokens", type=int, default=25)
    ap.add_argument("--min-run-chars", type=int, default=40)
    args = ap.parse_args()
    repo = args.clone
    start, end = args.range.split("..")
    commits = git(repo, "rev-list", "--first-parent", "--reverse", f"{start}..{end}").split()
    snaps = Snapshots(repo, args.package)
    tok_cache: dict[tuple[str, ...], list[str]] = {}

    def toks(body: tuple[str, ...]) -> list[str]:
        t = tok_cache.get(body)
        if t is None:
            t = tok_cache[body] = tokens(body)
        return t

    def match(fa, fb, added):  # -> (level, test, value) or None
        best = None
        ta, tb = toks(fa), toks(fb)
        if len(ta) >= args.min_tokens and len(tb) >= args.min_tokens:
            r = ratio(ta, tb)
            if r >= 0.5:
                best = ("strong" if r >= 0.6 else "weak", "ratio", round(r, 3))
        if best is None or best[0] == "weak":
            for i, n in runs(fa, fb, 2, args.min_run_chars):
                k = max(
                    (len(s) for s in _spans(range(i, i + n), added)),
                    default=0,
                )
                if k >= 3:
                    return ("strong", "run", k)
                if k >= 2 and best is None:
                    best = ("weak", "run", k)
        return best

    seen: set[frozenset[str]] = set()
    candidates = []
    window_funcs: list[tuple[str, dict[str, tuple[str, ...]]]] = []
    prev_commit = git(repo, "rev-parse", f"{commits[0]}^").strip() if commits else None
    prev = snaps.functions(prev_commit) if prev_commit else {}
    for n, commit in enumerate(commits):
        cur = snaps.functions(commit)
        window_funcs.append((commit, cur))
        changed = [f for f, body in cur.items() if prev.get(f) != body]
        for f in changed:
            fa = cur[f]
            added = added_lines(prev.get(f), fa)
            if not added:
                continue
            for g, fb in cur.items():
                if g == f or g.startswith(f + ".") or f.startswith(g + "."):
                    continue  # a function and one nested in it
                key = frozenset((f, g))
                if key in seen:
                    continue
                m = match(fa, fb, added)
                if m is None:
                    continue
                seen.add(key)
                pre = False
                if f in prev and g in prev:
                    pm = match(prev[f], prev[g], set(range(len(prev[f]))))
                    pre = pm is not None and pm[1] == "ratio" and m[1] == "ratio"
                candidates.append(
                    {
                        "commit": commit,
                        "index": n + 1,
                        "function": f,
                        "target": g,
                        "level": m[0],
                        "test": m[1],
                        "value": m[2],
                        "new": f not in prev,
                        "targetChanged": prev.get(g) != fb,
                        "preexisting": pre,
                    }
                )
        prev = cur
        print(f"{n + 1}/{len(commits)} {commit[:8]} changed={len(changed)}", file=sys.stderr)

    # Blocks taken back from one function while the copy stays in another.
    removed = []
    trace = git(repo, "rev-list", "--first-parent", "--reverse", f"{start}..{args.trace}").split()
    in_window = dict(window_funcs)
    prev = snaps.functions(prev_commit) if prev_commit else {}
    for commit in trace:
        cur = in_window[commit] if commit in in_window else snaps.functions(commit)
        for f, old in prev.items():
            new = cur.get(f)
            if new is None:
                # a function deleted while a copy of it stays (a module left behind by a move)
                if len(toks(old)) < args.min_tokens:
                    continue
                for g, gb in cur.items():
                    if g == f or prev.get(g) != gb or g.startswith(f + ".") or f.startswith(g + "."):
                        continue
                    r = ratio(toks(old), toks(gb))
                    if r >= 0.9:
                        since = next(
                            (c for c, fs in window_funcs if f in fs and g in fs and ratio(toks(fs[f]), toks(fs[g])) >= 0.9),
                            None,
                        )
                        removed.append(
                            {"commit": commit, "function": f, "copy": g, "lines": len(old), "since": since, "deleted": True, "ratio": round(r, 3)}
                        )
                continue
            if new == old:
                continue
            for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
                if tag not in ("delete", "replace") or i2 - i1 < 3:
                    continue
                gone = old[i1:i2]
                for g, gb in prev.items():
                    if g == f or g not in cur or g.startswith(f + ".") or f.startswith(g + "."):
                        continue
                    for gi, n in runs(gone, gb, 3, args.min_run_chars):
                        block = gone[gi : gi + n]
                        if not has_run(cur[g], block):
                            continue
                        since = next(
                            (c for c, fs in window_funcs if has_run(fs.get(f, ()), block) and has_run(fs.get(g, ()), block)),
                            None,
                        )
                        removed.append(
                            {"commit": commit, "function": f, "copy": g, "lines": n, "since": since, "block": list(block)}
                        )
        prev = cur
    messages = [
        {"commit": c, "subject": s}
        for c, s in (
            line.split(" ", 1)
            for line in git(repo, "log", "--first-parent", "--format=%H %s", f"{start}..{end}").splitlines()
        )
        if MESSAGE.search(s)
    ]
    json.dump(
        {"range": args.range, "commits": len(commits), "candidates": candidates, "removed": removed, "messages": messages},
        sys.stdout,
        indent=1,
    )
    print()


def _spans(indices, added: set[int]):
    """Maximal consecutive runs of ``indices`` that are all in ``added``."""
    run: list[int] = []
    for i in indices:
        if i in added:
            run.append(i)
        else:
            if run:
                yield run
            run = []
    if run:
        yield run


if __name__ == "__main__":
    main()
