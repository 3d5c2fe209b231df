#!/usr/bin/python3
"""Score a corpus as N shards on a Dask cluster, then aggregate the frames with dask.dataframe.

Each shard is one task: `reporeuse score <corpus> --shard i/N --partitioned --out <out>/shard-i`,
run as its own process on whichever Dask worker is free (a failed shard is retried once). The
shards' hive-partitioned frames (<out>/shard-i/turns/harness=…/model=…/memory=…/part-….csv) are then
read with dask.dataframe, and per-configuration aggregates printed as JSON: the same numbers as

    deno task reporeuse query --scored <out>/shard-0 … (each shard directory) "SELECT …"

Without --scheduler a LocalCluster of --local-workers processes is started on this machine; with
--scheduler tcp://host:8786 the tasks go to a running cluster (`dask-scheduler`, and on each
machine `dask-worker tcp://host:8786 --nworkers 1 --nthreads 1`): every worker machine needs the
repository at the same path (--repo), Deno, and the corpus and output directory on a shared file
system. See docs/scale.md.

Debian 12's Dask has no Parquet engine (no pyarrow or fastparquet packages), so this reads the CSV
copy of each turns part that `score --partitioned` writes beside its Parquet; with pyarrow,
`dd.read_parquet(f"{out}/shard-*/turns")` reads the Parquet parts instead.

Run it with Debian's Python (/usr/bin/python3), which has python3-dask and python3-distributed.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the turns columns the aggregates use, with their pandas dtypes (nullable where the frame is)
TURN_DTYPES = {
    "harness": "string",
    "model": "string",
    "memory": "string",
    "chain": "string",
    "turn": "Int64",
    "reuse_repo": "float64",
    "recall_repo": "float64",
    "reimplemented": "Int64",
    "lines": "Int64",
    "dup_chain": "boolean",
}


def score_shard(index, count, corpus, out, repo, deno, threads, timeout):
    """One shard, as its own `score` process; returns its exit code and the end of its stderr.

    (`threads`, not `workers`: Client.map takes `workers` for itself.)
    """
    cmd = [
        deno, "run", "-A", os.path.join(repo, "tasks", "cli.ts"), "score", corpus,
        "--out", os.path.join(out, f"shard-{index}"), "--shard", f"{index}/{count}",
        "--partitioned", "--workers", str(threads),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=repo)
    return {"shard": index, "code": done.returncode, "stderr": done.stderr[-2000:]}


def aggregates(out):
    """Per-configuration turns, mean reuse and recall (nulls skipped), re-implementations, Lines."""
    files = sorted(glob.glob(os.path.join(out, "shard-*", "turns", "*", "*", "*", "part-*.csv")))
    if not files:
        raise SystemExit(f"no turns parts under {out}/shard-*/turns")
    turns = dd.read_csv(files, usecols=list(TURN_DTYPES), dtype=TURN_DTYPES, keep_default_na=False,
                        na_values=[""])
    keys = ["harness", "model", "memory"]
    agg = turns.groupby(keys).agg({
        "turn": "count",
        "reuse_repo": "mean",
        "recall_repo": "mean",
        "reimplemented": "sum",
        "lines": "sum",
    }).compute().reset_index().sort_values(keys)
    rows = []
    for r in agg.itertuples(index=False):
        rows.append({
            "harness": r.harness, "model": r.model, "memory": r.memory, "turns": int(r.turn),
            "reuse_repo": None if r.reuse_repo != r.reuse_repo else float(r.reuse_repo),
            "recall_repo": None if r.recall_repo != r.recall_repo else float(r.recall_repo),
            "reimplemented": int(r.reimplemented), "lines": int(r.lines),
        })
    return rows


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpus", required=True, help="corpus directory (docs/run-logs.md)")
    p.add_argument("--out", required=True, help="output directory: one shard-<i>/ per shard")
    p.add_argument("--shards", type=int, default=4, help="number of shards N (default 4)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: local)")
    p.add_argument("--local-workers", type=int, default=os.cpu_count() or 2,
                   help="worker processes of the local cluster (default: the cores)")
    p.add_argument("--workers", type=int, default=1,
                   help="scorer threads per shard process (default 1: one core per task)")
    p.add_argument("--repo", default=REPO, help="the reporeuse checkout on every worker")
    p.add_argument("--deno", default=shutil.which("deno") or "deno", help="deno on every worker")
    p.add_argument("--timeout", type=float, default=6 * 3600, help="seconds per shard")
    a = p.parse_args(argv)
    corpus, out = os.path.abspath(a.corpus), os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(score_shard, range(a.shards), count=a.shards, corpus=corpus, out=out,
                             repo=a.repo, deno=a.deno, threads=a.workers, timeout=a.timeout,
                             pure=False, retries=1)
        results = client.gather(futures)
    finally:
        client.close()
    failed = [r for r in results if r["code"] != 0]
    for r in failed:
        print(f"shard {r['shard']} failed (exit {r['code']}):\n{r['stderr']}", file=sys.stderr)
    if failed:
        return 1
    print(json.dumps({"shards": [os.path.join(out, f"shard-{i}") for i in range(a.shards)],
                      "configs": aggregates(out)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
