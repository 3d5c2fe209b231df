"""Agreement between the first and the second labeller of issue 24's sixth round.

Python 3 standard library only; it reads label files, nothing else (it runs no audit):

    python3 data/audit/second_labeller.py [data/audit/eval]

- second-labeller.json: the second labeller's verdicts (labelled without reading the first
  labeller's files) on every labelled finding and every sampled duplication of structlog,
  packaging and tomlkit;
- eval/{structlog,packaging,tomlkit}.json: the first labeller's `labels` (findings) and
  `duplications` (the recall sample: every item is a real duplication by construction).

It prints, for the findings, percent agreement and Cohen's kappa over the three verdicts (real,
idiomatic, false) and over strict verdicts (real against the rest), per project and together, the
confusion matrix, every disagreement; agreement on the recall sample; and strict and lenient
precision of the top findings by each labeller's verdicts:

- the sixth round's top (reporeuse 76bf6ac, the `tool` of the label files): the labels not added
  later. Labels added in the seventh session open their note with "[seventh session"; the others
  come first in file order, and their order is the rank (every rank docs/audit.md gives for the
  sixth round matches the file position; checked below for the ranks it names), at most `top` of
  them (structlog has 12 introduced findings, so its top is all 12);
- the seventh session's top (development measurement, branch blk, merged in 655f628): the sixth
  round's top without the pairs docs/audit.md ("signatures out of copied blocks") says left it
  (seven signature findings gone, two getter pairs now reported the other way round, one pair now an
  alternative), plus the labels added in the seventh session ("the pair entered the top 20").
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

PROJECTS = ["structlog", "packaging", "tomlkit"]
CLASSES = ["real", "idiomatic", "false"]
NEW = "[seventh session"

# docs/audit.md, "Issue 24: signatures out of copied blocks ...": ranks in the sixth round's top
# (main, 76bf6ac) that the section names; used only to check that file order is the rank.
DOC_RANKS = {
    "structlog": {
        ("_config.configure", "_config.configure_once"): 5,
        ("_loggers.WriteLogger.__setstate__", "_loggers.PrintLogger.__setstate__"): 10,
        ("_loggers.WriteLogger.__getstate__", "_loggers.PrintLogger.__getstate__"): 3,
        ("_loggers.WriteLogger.msg", "_loggers.BytesLogger.msg"): 4,
        ("_loggers.BytesLogger.msg", "_loggers.PrintLogger.msg"): 9,
    },
    "packaging": {
        ("pylock.PackageArchive.__init__", "pylock.PackageVcs.__init__"): 1,
        ("pylock.Package.__init__", "pylock.Pylock.__init__"): 3,
        ("pylock.Pylock.__init__", "pylock.PackageVcs.__init__"): 8,
        ("pylock._get_sequence", "pylock._get_sequence_of_objects"): 13,
        ("pylock._get_sequence_as", "pylock._get_sequence_of_objects"): 2,
        ("pylock._get_as", "pylock._get_object"): 7,
        ("release_build", "_check_git_state"): 15,
    },
    "tomlkit": {
        ("items.DateTime.__new__", "items.Time.__new__"): 14,
        ("items.Time.__init__", "items.DateTime.__init__"): 16,
        ("container.Container._render_table", "container.Container._render_aot_table"): 6,
        ("container.Container._insert_before", "container.Container._insert_at"): 7,
        ("items.Table.raw_append", "items.Table.append"): 13,
        ("items.DateTime.__sub__", "items.DateTime.__add__"): 15,
        ("items.AoT.insert", "items.Table.append"): 17,
    },
}

# The same section: pairs of the sixth round's top that are not in the seventh session's top.
LEFT_TOP = {
    "structlog": [("_config.configure", "_config.configure_once")],
    "packaging": [
        ("pylock.PackageArchive.__init__", "pylock.PackageVcs.__init__"),
        ("pylock.Package.__init__", "pylock.Pylock.__init__"),
        ("pylock.Pylock.__init__", "pylock.PackageVcs.__init__"),
        ("pylock._get_sequence", "pylock._get_sequence_of_objects"),
        ("pylock._get_sequence_as", "pylock._get_sequence_of_objects"),  # now the other way round
        ("pylock._get_as", "pylock._get_object"),  # now the other way round
    ],
    "tomlkit": [
        ("items.DateTime.__new__", "items.Time.__new__"),
        ("items.Time.__init__", "items.DateTime.__init__"),
        ("items.AoT.insert", "items.Table.append"),  # now an alternative
    ],
}


def short(name: str) -> str:
    """A dotted path without its top-level package (noxfile functions keep their name)."""
    head, _, rest = name.partition(".")
    return rest if head in ("structlog", "packaging", "tomlkit", "tomllib") else rest or head


def pair_key(p: dict) -> tuple[str, str, str]:
    return (p["commit"], p["function"], p["target"])


def kappa(a: list[str], b: list[str]) -> float | None:
    n = len(a)
    if not n:
        return None
    po = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    return None if pe == 1 else (po - pe) / (1 - pe)


def strict(v: str) -> str:
    return "real" if v == "real" else "not"


def fmt_k(k: float | None) -> str:
    return "undefined" if k is None else f"{k:.2f}"


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f} %)" if b else "–"


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "eval"
    second = json.loads((Path(__file__).parent / "second-labeller.json").read_text())
    assert second["labeller"] == "second"
    by_project: dict[str, dict] = {}
    for name in PROJECTS:
        first = json.loads((root / f"{name}.json").read_text())
        mine = [p for p in second["pairs"] if p["project"] == first["project"]]
        by_project[name] = {"first": first, "mine": mine}

    # ---- findings: agreement ----
    print("Findings: first labeller (data/audit/eval/<project>.json labels) vs second labeller")
    print(
        f"{'project':<10} {'n':>3}  {'3-class agree':>14} {'kappa':>6}  "
        f"{'strict agree':>14} {'kappa':>6}"
    )
    all_a: list[str] = []
    all_b: list[str] = []
    disagreements = []
    for name in PROJECTS:
        first, mine = by_project[name]["first"], by_project[name]["mine"]
        m = {pair_key(p): p for p in mine if p["kind"] == "finding"}
        labels = first["labels"]
        assert set(m) == {pair_key(lab) for lab in labels}, f"{name}: pair sets differ"
        a = [lab["verdict"] for lab in labels]
        b = [m[pair_key(lab)]["verdict"] for lab in labels]
        all_a += a
        all_b += b
        agree = sum(x == y for x, y in zip(a, b))
        sagree = sum(strict(x) == strict(y) for x, y in zip(a, b))
        print(
            f"{name:<10} {len(a):>3}  {pct(agree, len(a)):>14} {fmt_k(kappa(a, b)):>6}  "
            f"{pct(sagree, len(a)):>14} "
            f"{fmt_k(kappa([strict(x) for x in a], [strict(y) for y in b])):>6}"
        )
        for lab in labels:
            mv = m[pair_key(lab)]["verdict"]
            if mv != lab["verdict"]:
                disagreements.append((name, lab, mv, m[pair_key(lab)]["note"]))
    agree = sum(x == y for x, y in zip(all_a, all_b))
    sagree = sum(strict(x) == strict(y) for x, y in zip(all_a, all_b))
    print(
        f"{'the three':<10} {len(all_a):>3}  {pct(agree, len(all_a)):>14} "
        f"{fmt_k(kappa(all_a, all_b)):>6}  {pct(sagree, len(all_a)):>14} "
        f"{fmt_k(kappa([strict(x) for x in all_a], [strict(y) for y in all_b])):>6}"
    )
    print("\nConfusion (rows: first labeller, columns: second labeller), all 61 findings")
    conf = Counter(zip(all_a, all_b))
    print(f"{'':<10}" + "".join(f"{c:>10}" for c in CLASSES) + f"{'total':>8}")
    for r in CLASSES:
        row = [conf[(r, c)] for c in CLASSES]
        print(f"{r:<10}" + "".join(f"{x:>10}" for x in row) + f"{sum(row):>8}")
    cols = [sum(conf[(r, c)] for r in CLASSES) for c in CLASSES]
    print(f"{'total':<10}" + "".join(f"{x:>10}" for x in cols) + f"{sum(cols):>8}")
    print("\nDisagreements (findings):")
    for name, lab, mv, mnote in disagreements:
        print(
            f"- {name} {lab['commit'][:8]} {short(lab['function'])} -> {short(lab['target'])}: "
            f"first {lab['verdict']}, second {mv}"
        )

    # ---- duplications ----
    print("\nRecall sample (first labeller's duplications: all real by construction)")
    tot_n = tot_real = 0
    for name in PROJECTS:
        first, mine = by_project[name]["first"], by_project[name]["mine"]
        m = {pair_key(p): p for p in mine if p["kind"] == "duplication"}
        dups = first["duplications"]
        assert set(m) == {pair_key(d) for d in dups}, f"{name}: duplication sets differ"
        real = sum(m[pair_key(d)]["verdict"] == "real" for d in dups)
        tot_n += len(dups)
        tot_real += real
        print(f"{name:<10} second labeller real: {pct(real, len(dups))}")
        for d in dups:
            if m[pair_key(d)]["verdict"] != "real":
                print(f"  - not real: {short(d['function'])} -> {short(d['target'])}")
    print(
        f"{'the three':<10} agreement {pct(tot_real, tot_n)} "
        "(kappa undefined: the first labeller's sample has one class)"
    )

    # ---- precision of the tops ----
    for title, which in (
        ("Sixth round's top (reporeuse 76bf6ac; blind)", "sixth"),
        ("Seventh session's top (branch blk, merged 655f628; development)", "seventh"),
    ):
        print(f"\n{title}: strict (lenient) precision by each labeller")
        tf = tm = lf = lm = tn = 0
        for name in PROJECTS:
            first, mine = by_project[name]["first"], by_project[name]["mine"]
            m = {pair_key(p): p for p in mine if p["kind"] == "finding"}
            labels = first["labels"]
            old = [lab for lab in labels if not lab["note"].startswith(NEW)]
            new = [lab for lab in labels if lab["note"].startswith(NEW)]
            assert labels[: len(old)] == old, f"{name}: seventh-session labels are not appended"
            assert len(old) <= first["top"]
            for i, lab in enumerate(old):
                want = DOC_RANKS[name].get((short(lab["function"]), short(lab["target"])))
                assert want in (None, i + 1), f"{name}: file position {i + 1} is not rank {want}"
            if which == "sixth":
                top = old
            else:
                gone = set(LEFT_TOP[name])
                top = [
                    lab for lab in old if (short(lab["function"]), short(lab["target"])) not in gone
                ] + new
                assert len(top) <= first["top"]
            fr = sum(lab["verdict"] == "real" for lab in top)
            fl = sum(lab["verdict"] in ("real", "idiomatic") for lab in top)
            sr = sum(m[pair_key(lab)]["verdict"] == "real" for lab in top)
            sl = sum(m[pair_key(lab)]["verdict"] in ("real", "idiomatic") for lab in top)
            tf, tm, lf, lm, tn = tf + fr, tm + sr, lf + fl, lm + sl, tn + len(top)
            print(
                f"{name:<10} first {pct(fr, len(top))} ({pct(fl, len(top))}); "
                f"second {pct(sr, len(top))} ({pct(sl, len(top))})"
            )
        print(
            f"{'the three':<10} first {pct(tf, tn)} ({pct(lf, tn)}); "
            f"second {pct(tm, tn)} ({pct(lm, tn)})"
        )


if __name__ == "__main__":
    main()
