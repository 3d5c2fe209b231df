"""Which of the audit's signals separate real duplicates from idioms and false findings.

Python 3 standard library only. Two uses:

    python3 data/audit/signals.py [data/audit/eval/signals.jsonl]
    python3 data/audit/signals.py --build OUT.jsonl NAME=HISTORY.json@TOOL ...

`--build` joins hand labels (data/audit/eval/<NAME>.json, `labels`) with histories the audit
wrote (`reporeuse audit --history A..B --max-targets 0 --output HISTORY.json`): one row per labelled
finding of a report's first section — primary, in the project's own code, introduced by its commit
(none of lib/audit/evidence.ts's apart notes), not a candidate — with the verdict and the signals
the history records for the pair (kind, within the change, shape similarity, callee overlaps, block
size, shared and missing callees, notes, confidence, files). TOOL is the reporeuse commit that wrote
HISTORY; a project may have several label files (windows): rows are grouped by the label file's
`project`.

Without `--build` it reads the rows and prints, for three questions — strict (`real` against the
rest), lenient (`real` or `idiomatic` against `false`) and, among near-copies, real against
idiomatic:

- the area under the ROC curve (AUC) of the audit's confidence, with a 95 % interval from a
  bootstrap over projects (findings of one project are not independent);
- the AUC of a logistic regression on the signals, each project scored by a model fitted on the
  other projects only (leave one project out): what a model learnt from labelled projects would do
  on a project it has not seen;
- precision and share of the labelled positives kept at thresholds of the confidence;
- each signal's share of real findings among the near-copies that have it and that do not.

The signals are those of the history's rows (lib/audit/history.ts); nothing is computed from source.
"""

import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "eval", "signals.jsonl")
# lib/audit/evidence.ts APART_NOTES: pairs listed apart, never in a report's first section
APART = {"preexisting", "extracted", "relocated", "written-together"}
# lib/audit/idiom.ts: the idiom notes
IDIOMS = {"async-twin", "same-delegate", "same-api", "module-vocabulary", "same-edit", "template"}
# lib/audit/block.ts: a small block is a single run of fewer than 50 tokens
SMALL_BLOCK = 50
FIELDS = [
    "kind", "within", "similarity", "overlap", "weighted_overlap", "block_tokens", "confidence",
    "notes", "file", "target_file",
]


def build(out, specs):
    rows = []
    for spec in specs:
        name, rest = spec.split("=", 1)
        path, tool = rest.rsplit("@", 1)
        with open(os.path.join(HERE, "eval", name + ".json")) as f:
            data = json.load(f)
        labels = data["labels"]
        project = data["project"].rsplit("/", 1)[-1]
        verdicts = {(l["commit"][:8], l["function"], l["target"]): l["verdict"] for l in labels}
        with open(path) as f:
            history = json.load(f)
        seen = set()
        for x in history["findings"]:
            if not x["primary"] or x["context"] != "code" or x["kind"] == "candidate":
                continue
            if APART & set(x["notes"]):
                continue
            key = (x["commit"][:8], x["function"], x["target"])
            if key not in verdicts or key in seen:
                continue
            seen.add(key)
            row = {"project": project, "tool": tool, "commit": x["commit"][:8],
                   "function": x["function"], "target": x["target"], "verdict": verdicts[key]}
            row.update({k: x[k] for k in FIELDS})
            row["shared"] = len(x["shared"])
            row["missing"] = len(x["missing"])
            rows.append(row)
    rows.sort(key=lambda r: (r["project"], r["commit"], r["function"], r["target"]))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    os.replace(tmp, out)
    print(f"{len(rows)} labelled first-section findings written to {out}")


def container(name):
    return name.rsplit(".", 1)[0]


def leaf(name):
    return name.rsplit(".", 1)[-1]


def name_likeness(a, b):
    """Shared prefix and suffix of two names over the longer (parse_table, parse_nptable: 0.85)."""
    prefix = os.path.commonprefix([a, b])
    suffix = os.path.commonprefix([a[len(prefix):][::-1], b[len(prefix):][::-1]])
    return (len(prefix) + len(suffix)) / max(len(a), len(b))


def signals(r):
    """The signals of one row, as (name, value) pairs; booleans as 0/1."""
    tokens = r["block_tokens"] or 0
    small = r["kind"] == "block" and 0 < tokens < SMALL_BLOCK
    f, g = r["function"], r["target"]
    notes = set(r["notes"])
    return [
        ("re-implementation", r["kind"] == "reimplementation"),
        ("clone", r["kind"] == "clone"),
        ("block (50+ tokens)", r["kind"] == "block" and not small),
        ("small block", small),
        ("within the change", r["within"]),
        ("shape similarity", r["similarity"] or 0),
        ("weighted callee overlap", r["weighted_overlap"] or 0),
        ("callee overlap", r["overlap"] or 0),
        ("block tokens / 200", min(tokens, 200) / 200),
        ("shared callees / 10", r["shared"] / 10),
        ("missing callees / 10", r["missing"] / 10),
        ("same name, other container", leaf(f) == leaf(g) and container(f) != container(g)),
        ("same file", r["file"] == r["target_file"]),
        ("same container", container(f) == container(g)),
        ("name likeness", min(name_likeness(leaf(f), leaf(g)), 1)),
        ("private name", leaf(f).startswith("_") and not leaf(f).startswith("__")),
        ("dunder", leaf(f).startswith("__") and leaf(f).endswith("__")),
        ("an idiom note", bool(notes & IDIOMS)),
        ("different-code", "different-code" in notes),
    ]


def solve(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[p] = m[p], m[c]
        for i in range(c + 1, n):
            k = m[i][c] / m[c][c]
            for j in range(c, n + 1):
                m[i][j] -= k * m[c][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def sigmoid(z):
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(xs, ys, ridge=1.0, steps=25):
    """Logistic regression by Newton's method, an L2 penalty on every weight but the intercept."""
    n = len(xs[0])
    w = [0.0] * n
    for _ in range(steps):
        grad = [ridge * w[j] if j else 0.0 for j in range(n)]
        hess = [[(ridge if i == j and i else 0.0) for j in range(n)] for i in range(n)]
        for x, y in zip(xs, ys):
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            for i in range(n):
                grad[i] += (p - y) * x[i]
                s = p * (1 - p) * x[i]
                for j in range(n):
                    hess[i][j] += s * x[j]
        for i in range(n):
            hess[i][i] += 1e-9
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def auc(scores, labels):
    """Mann-Whitney AUC, ties counted half."""
    pairs = sorted(zip(scores, labels))
    ranks = [0.0] * len(pairs)
    i = 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        i = j
    pos = sum(1 for _, y in pairs if y)
    neg = len(pairs) - pos
    if not pos or not neg:
        return float("nan")
    return (sum(r for r, (_, y) in zip(ranks, pairs) if y) - pos * (pos + 1) / 2) / (pos * neg)


def bootstrap(rows, scores, labels, times=2000, seed=24):
    """95 % interval of the AUC, projects resampled with replacement."""
    rng = random.Random(seed)
    projects = sorted({r["project"] for r in rows})
    by = {p: [i for i, r in enumerate(rows) if r["project"] == p] for p in projects}
    values = []
    for _ in range(times):
        idx = [i for p in (rng.choice(projects) for _ in projects) for i in by[p]]
        a = auc([scores[i] for i in idx], [labels[i] for i in idx])
        if not math.isnan(a):
            values.append(a)
    values.sort()
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def leave_one_project_out(rows, labels):
    xs = [[1.0] + [float(v) for _, v in signals(r)] for r in rows]
    out = [0.0] * len(rows)
    for p in sorted({r["project"] for r in rows}):
        train = [i for i, r in enumerate(rows) if r["project"] != p]
        w = fit([xs[i] for i in train], [labels[i] for i in train])
        for i, r in enumerate(rows):
            if r["project"] == p:
                out[i] = sigmoid(sum(a * b for a, b in zip(w, xs[i])))
    return out


def pct(a, b):
    return f"{a}/{b} ({round(100 * a / b)} %)" if b else "–"


def study(path):
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    projects = sorted({r["project"] for r in rows})
    print(f"{len(rows)} labelled first-section findings of {len(projects)} projects ({path})")
    for p in projects:
        mine = [r for r in rows if r["project"] == p]
        counts = {v: sum(1 for r in mine if r["verdict"] == v) for v in ("real", "idiomatic", "false")}
        tools = ",".join(sorted({r["tool"] for r in mine}))
        print(f"  {p:12s} {len(mine):3d}  real {counts['real']:3d}  idiomatic {counts['idiomatic']:3d}"
              f"  false {counts['false']:3d}  (reporeuse {tools})")
    questions = [
        ("strict: real against idiomatic and false", rows, lambda r: r["verdict"] == "real"),
        ("lenient: real or idiomatic against false", rows, lambda r: r["verdict"] != "false"),
        ("near-copies: real against idiomatic", [r for r in rows if r["verdict"] != "false"],
         lambda r: r["verdict"] == "real"),
    ]
    print("\nAUC (95 % interval, projects resampled)      confidence           "
          "leave-one-project-out model")
    for title, sub, pos in questions:
        ys = [1 if pos(r) else 0 for r in sub]
        conf = [r["confidence"] for r in sub]
        model = leave_one_project_out(sub, ys)
        a, b = bootstrap(sub, conf, ys)
        c, d = bootstrap(sub, model, ys)
        print(f"  {title:42s} {auc(conf, ys):.2f} ({a:.2f}-{b:.2f})     {auc(model, ys):.2f} ({c:.2f}-{d:.2f})"
              f"   n {len(sub)}, positives {sum(ys)}")
    print("\nconfidence at or above   kept   strict precision      lenient precision     "
          "real kept      real or idiomatic kept")
    real = sum(1 for r in rows if r["verdict"] == "real")
    near = sum(1 for r in rows if r["verdict"] != "false")
    for t in (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85):
        kept = [r for r in rows if r["confidence"] >= t]
        s = sum(1 for r in kept if r["verdict"] == "real")
        l = sum(1 for r in kept if r["verdict"] != "false")
        print(f"  {t:<22.2f} {len(kept):5d}   {pct(s, len(kept)):20s}  {pct(l, len(kept)):20s}  "
              f"{pct(s, real):14s} {pct(l, near)}")
    print("\namong near-copies (real or idiomatic): real with the signal / without it")
    copies = [r for r in rows if r["verdict"] != "false"]
    for k, (name, value) in enumerate(signals(copies[0])):
        values = [signals(r)[k][1] for r in copies]
        if all(v in (0, 1, True, False) for v in values):
            w = [r for r, v in zip(copies, values) if v]
            wo = [r for r, v in zip(copies, values) if not v]
            print(f"  {name:28s} {pct(sum(1 for r in w if r['verdict'] == 'real'), len(w)):16s}"
                  f" {pct(sum(1 for r in wo if r['verdict'] == 'real'), len(wo))}")
        else:
            mean = lambda v: sum(v) / len(v) if v else float("nan")
            a = mean([v for r, v in zip(copies, values) if r["verdict"] == "real"])
            b = mean([v for r, v in zip(copies, values) if r["verdict"] != "real"])
            print(f"  {name:28s} mean {a:.2f} among real, {b:.2f} among idiomatic")


def main(argv):
    if argv and argv[0] == "--build":
        if len(argv) < 3:
            sys.exit("usage: signals.py --build OUT.jsonl NAME=HISTORY.json@TOOL ...")
        build(argv[1], argv[2:])
    elif argv and argv[0] in ("-h", "--help"):
        print(__doc__)
    else:
        study(argv[0] if argv else DEFAULT)


if __name__ == "__main__":
    main(sys.argv[1:])
