/**
 * Tests of the simulated corpus (lib/simulate): determinism, layout, valid Python (CPython ast),
 * calibration of the planted truth, and recovery of every planted decision by the scorer.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  buildCorpus,
  compareTruth,
  configId,
  CONFIGS,
  interpolate,
  readTruth,
  simulateCorpus,
  turnRates,
} from "../lib/simulate/mod.ts";
import { validateCorpus } from "../lib/layout/mod.ts";
import { scoreRows } from "../lib/frames/mod.ts";

let small: Promise<string> | undefined;
/** One small corpus on disk shared by the tests of this file (seed 11). */
function smallCorpus(): Promise<string> {
  small ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "simulate_test_" });
    await simulateCorpus(dir, { seed: 11, scale: "small" });
    return dir;
  })();
  return small;
}

function csvRows(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split("\n");
  const cols = head.split(",");
  return rows.map((r) => {
    // truth CSVs quote no field with a comma except none: model names and ids have no commas
    const v = r.split(",");
    return Object.fromEntries(cols.map((c, i) => [c, v[i]]));
  });
}

Deno.test("interpolate: endpoints and mean hold for monotone and shifted curves", () => {
  for (
    const [a, b, m, n] of [[0.863, 0.388, 0.527, 5], [0.813, 0.761, 0.757, 5], [
      0.147,
      0.6,
      0.427,
      5,
    ], [0.922, 0.793, 0.842, 4]]
  ) {
    const v = interpolate(a, b, m, n);
    assert.equal(v.length, n);
    assert.ok(Math.abs(v[0] - a) < 1e-12 && Math.abs(v[n - 1] - b) < 1e-12);
    assert.ok(Math.abs(v.reduce((s, x) => s + x, 0) / n - m) < 1e-9, `mean of ${v}`);
  }
  // C_dup curves are cumulative: never decreasing
  for (const c of CONFIGS) {
    const r = turnRates(c).cdup;
    for (let i = 1; i < r.length; i++) assert.ok(r[i] >= r[i - 1]);
  }
});

/** SHA-256 of every file under a directory, by relative path. */
function fileHashes(dir: string, rel = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of Deno.readDirSync(rel ? `${dir}/${rel}` : dir)) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) { for (const [k, v] of fileHashes(dir, p)) out.set(k, v); }
    else out.set(p, createHash("sha256").update(Deno.readFileSync(`${dir}/${p}`)).digest("hex"));
  }
  return out;
}

Deno.test("same seed → byte-identical files; another seed → different files", async () => {
  const first = await smallCorpus();
  const again = await Deno.makeTempDir({ prefix: "simulate_again_" });
  const { turns } = await simulateCorpus(again, { seed: 11, scale: "small" });
  assert.equal(turns, 300);
  const a = fileHashes(first);
  const b = fileHashes(again);
  assert.ok(a.size > 1000, `files: ${a.size}`);
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
  for (const [p, h] of a) assert.equal(b.get(p), h, p);
  await Deno.remove(again, { recursive: true });
  const other = buildCorpus({ seed: 12, scale: "small" });
  const changed = [...other.files].filter(([p, t]) =>
    a.get(p) !== createHash("sha256").update(t).digest("hex")
  );
  assert.ok(changed.length > other.files.size / 2, "another seed changes most files");
});

Deno.test("distinct replicas: the first is the corpus itself, the others new runs of the same tasks", async () => {
  const a = fileHashes(await smallCorpus());
  const two = buildCorpus({ seed: 11, scale: "small", replicas: 2 });
  assert.equal(two.turns, 600);
  // replica 1, W0, tasks and truth: byte-identical to the corpus without replicas
  for (const [p, h] of a) {
    assert.equal(createHash("sha256").update(two.files.get(p) ?? "").digest("hex"), h, p);
  }
  const extra = [...two.files.keys()].filter((p) => !a.has(p));
  for (const c of CONFIGS) {
    const id = configId(c);
    const config = JSON.parse(two.files.get(`runs/${id}~r2/config.json`)!);
    assert.equal(config.model, `${c.model} r2`);
    assert.equal(config.memory, c.memory);
  }
  assert.ok(extra.every((p) => /^runs\/[^/]+~r2\//.test(p)), "only runs/<config>~r2/ is added");
  // drawn anew: the second replica's logs are not the first's
  const logs = extra.filter((p) => /\/log\.(json|jsonl|traj)$/.test(p));
  assert.ok(logs.length >= 250, `logs: ${logs.length}`);
  const same = logs.filter((p) => {
    const orig = p.replace(/~r2\//, "/");
    return two.files.get(orig) === two.files.get(p);
  });
  assert.ok(same.length < logs.length / 10, `${same.length} of ${logs.length} logs repeated`);
  const check = await Deno.makeTempDir({ prefix: "simulate_replicas_" });
  for (const [p, t] of two.files) {
    await Deno.mkdir(`${check}/${p.slice(0, p.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${check}/${p}`, t);
  }
  assert.deepEqual(await validateCorpus(check), []);
  await Deno.remove(check, { recursive: true });
});

Deno.test("small corpus: layout validates, one run turn per config × chain × turn", async () => {
  const dir = await smallCorpus();
  assert.deepEqual(await validateCorpus(dir), []);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "corpus.json",
    "repos",
    "runs",
    "tasks",
    "truth",
  ]);
  const configs = [...Deno.readDirSync(`${dir}/runs`)].map((e) => e.name).sort();
  assert.equal(configs.length, 10);
  const keys = configs.map((c) =>
    JSON.parse(Deno.readTextFileSync(`${dir}/runs/${c}/config.json`))
  );
  assert.equal(keys.filter((k) => k.memory === "interface").length, 8);
  assert.deepEqual(
    keys.filter((k) => k.memory !== "interface").map((k) => `${k.harness}/${k.model}/${k.memory}`)
      .sort(),
    ["OpenCode/Qwen3.7-plus/none", "OpenCode/Qwen3.7-plus/source"],
  );
  const turns = csvRows(await Deno.readTextFile(`${dir}/truth/turns.csv`));
  assert.equal(turns.length, 300);
  // reuse is realised through every import style agents use
  const subs = [...Deno.readDirSync(`${dir}/runs`)].flatMap((c) =>
    [...Deno.readDirSync(`${dir}/runs/${c.name}`)].filter((e) => e.isDirectory).flatMap((ch) =>
      [1, 2, 3, 4, 5].map((t) => {
        try {
          return Deno.readTextFileSync(`${dir}/runs/${c.name}/${ch.name}/turn${t}/submission.py`);
        } catch {
          return "";
        }
      })
    )
  ).join("\n");
  assert.match(subs, /^from [\w.]+ import \w+ as \w+/m, "aliased import");
  assert.match(subs, /^import [\w.]+ as \w+_mod$/m, "module attribute import");
  assert.match(subs, /^from \.+[\w.]* import /m, "relative import");
  assert.match(subs, /key=\w+\)|map\(\w+, /, "function references");
  // both mini-SWE-agent trajectory versions and both OpenCode read dialects occur
  const formats = new Set<string>();
  for (const c of configs) {
    for (const ch of Deno.readDirSync(`${dir}/runs/${c}`)) {
      if (!ch.isDirectory) continue;
      for (let t = 1; t <= 5; t++) {
        for (const f of Deno.readDirSync(`${dir}/runs/${c}/${ch.name}/turn${t}`)) {
          if (!f.name.startsWith("log.")) continue;
          const log = JSON.parse(
            Deno.readTextFileSync(`${dir}/runs/${c}/${ch.name}/turn${t}/${f.name}`),
          );
          formats.add(
            log.trajectory_format ??
              `opencode-${String(log.info.version).startsWith("1.1") ? "old" : "new"}`,
          );
        }
      }
    }
  }
  assert.deepEqual([...formats].sort(), [
    "mini-swe-agent-1",
    "mini-swe-agent-1.1",
    "opencode-new",
    "opencode-old",
  ]);
});

Deno.test("small corpus: W0, reference solutions and submissions parse with CPython ast; truth line ranges equal ast", async () => {
  const dir = await smallCorpus();
  const script = `
import ast, csv, json, os, sys
root = sys.argv[1]
n = 0
for dp, _, fs in os.walk(root):
    for f in fs:
        if f.endswith(".py"):
            ast.parse(open(os.path.join(dp, f)).read(), os.path.join(dp, f)); n += 1
cfg = {}
for d in os.listdir(root + "/runs"):
    c = json.load(open(f"{root}/runs/{d}/config.json")); cfg[(c["harness"], c["model"], c["memory"])] = d
bad = 0; rows = 0; chains = {}; parsed = {}
for r in csv.DictReader(open(root + "/truth/targets.csv")):
    if r["implemented"] != "true": continue
    if r["chain"] not in chains: chains[r["chain"]] = json.load(open(f"{root}/tasks/{r['chain']}/chain.json"))
    ch = chains[r["chain"]]
    if r["kind"] == "repo":
        path = f"{root}/repos/{ch['repo']['name']}/{r['file']}"
    else:
        t = next(x["turn"] for x in ch["turns"] if x["path"] == r["file"])
        path = f"{root}/runs/{cfg[(r['harness'], r['model'], r['memory'])]}/{r['chain']}/turn{t}/submission.py"
    name = r["target"].rsplit(".", 1)[1]
    if path not in parsed: parsed[path] = {d.name: (d.lineno, d.end_lineno) for d in ast.parse(open(path).read()).body if isinstance(d, ast.FunctionDef)}
    defs = parsed[path]
    rows += 1
    bad += defs.get(name) != (int(r["start"]), int(r["end"]))
print(json.dumps({"files": n, "rows": rows, "bad": bad}))
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, dir],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.ok(r.files > 300, `python files: ${r.files}`);
  assert.ok(r.rows > 500);
  assert.equal(r.bad, 0);
});

Deno.test("planted truth matches the calibration (paper-scale chains, all 10 configurations)", async () => {
  // rates of the planted truth are checked on the paper's 75 chains (no logs written)
  const { Rng } = await import("../lib/simulate/rng.ts");
  const { generatePackage } = await import("../lib/simulate/package.ts");
  const { generateChains } = await import("../lib/simulate/tasks.ts");
  const { simulateConfig } = await import("../lib/simulate/runs.ts");
  const root = new Rng(21);
  const repos = ["a", "b", "c"].map((n) =>
    generatePackage(root.fork(n), {
      repo: `pk${n}`,
      pkg: `pk${n}`,
      coreModules: 14,
      utilModules: 6,
    })
  );
  const chains = generateChains(root.fork("chains"), repos, 75);
  // Table 1: ~1.9 repo and ~2.4 self targets per turn from turn 2, 3 functions, ~10.8 cases
  const later = chains.flatMap((c) => c.turns.slice(1));
  const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(avg(later.map((t) => t.repoTargets.length)) - 1.9) < 0.15);
  assert.ok(Math.abs(avg(later.map((t) => t.selfTargets.length)) - 2.4) < 0.2);
  assert.ok(Math.abs(avg(chains.flatMap((c) => c.turns).map((t) => t.tests.length)) - 10.8) < 0.4);
  assert.ok(
    chains.every((c) =>
      c.turns[0].selfTargets.length === 0 && c.turns.every((t) => t.functions.length === 3)
    ),
  );
  for (const calib of CONFIGS) {
    const sim = simulateConfig(
      root.fork(calib.model + calib.memory + calib.harness),
      calib,
      chains,
    );
    const perTurn = (f: (t: (typeof sim.turns)[0][0]) => number | null) =>
      [1, 2, 3, 4, 5].map((t) => {
        const v = sim.turns.map((l) => f(l[t - 1])).filter((x): x is number => x !== null);
        return v.length ? avg(v) : null;
      }).filter((x): x is number => x !== null);
    const rate = (kind: string, key: "read" | "reused") => (t: (typeof sim.turns)[0][0]) => {
      const x = t.targets.filter((g) => g.kind === kind);
      return x.length ? x.filter((g) => g[key]).length / x.length : null;
    };
    const macro = (f: Parameters<typeof perTurn>[0]) => avg(perTurn(f));
    const label = `${calib.harness}/${calib.model}/${calib.memory}`;
    const close = (got: number, want: number, tol: number, what: string) =>
      assert.ok(
        Math.abs(got - want) <= tol,
        `${label} ${what}: ${(got * 100).toFixed(1)} vs ${(want * 100).toFixed(1)}`,
      );
    close(macro(rate("repo", "reused")), calib.reuseRepo, 0.02, "reuse_repo");
    close(macro(rate("self", "reused")), calib.reuseSelf, 0.02, "reuse_self");
    close(macro(rate("repo", "read")), calib.recallRepo, 0.02, "recall_repo");
    close(macro(rate("self", "read")), calib.recallSelf, 0.02, "recall_self");
    close(
      macro((t) => t.passed.filter(Boolean).length / t.passed.length),
      calib.pass,
      0.02,
      "pass",
    );
    close(macro((t) => (t.passed.every(Boolean) ? 1 : 0)), calib.resolve, 0.02, "resolve");
    // T1 / T5 of Table 3/5
    const t1 = perTurn(rate("repo", "read"));
    close(t1[0], calib.ends.recallRepo[0], 0.02, "recall_repo T1");
    close(t1[4], calib.ends.recallRepo[1], 0.02, "recall_repo T5");
    const cdup = [1, 2, 3, 4, 5].map((t) =>
      avg(
        sim.turns.map((l) => (l.slice(0, t).some((x) =>
            x.targets.some((g) => g.reimplemented)
          )
          ? 1
          : 0)
        ),
      )
    );
    close(avg(cdup), calib.cdup, 0.03, "C_dup");
    close(cdup[0], calib.ends.cdup[0], 0.03, "C_dup T1");
    close(cdup[4], calib.ends.cdup[1], 0.03, "C_dup T5");
  }
});

Deno.test("scoring the small corpus recovers every planted decision, with no extra targets", async () => {
  const dir = await smallCorpus();
  const cacheDir = await Deno.makeTempDir();
  const s = await scoreRows(dir, { cache: false, cacheDir, workers: 0 });
  assert.deepEqual(s.errors, []);
  assert.equal(s.turns.length, 300);
  const { targets: truth, turns } = await readTruth(dir);
  const cmp = compareTruth(truth, s.targets, { onlyScoredConfigs: true });
  assert.ok(cmp.planted > 400, `planted targets: ${cmp.planted}`);
  assert.deepEqual(cmp.missing, []);
  assert.deepEqual(cmp.extra, [], "no extra targets");
  assert.deepEqual(cmp.mismatches.slice(0, 10), []);
  assert.equal(cmp.matched, cmp.planted);
  // the compared subset exercises every kind of decision
  const sub = truth.filter((r) =>
    cmp.planted &&
    s.turns.some((x) => x.model === r.model && x.memory === r.memory && x.harness === r.harness)
  );
  const count = (f: (r: Record<string, string>) => boolean) => sub.filter(f).length;
  assert.ok(count((r) => r.reimplemented === "true") >= 5, "re-implementations");
  assert.ok(
    count((r) => r.reimplemented_by.split(".").pop() === r.target.split(".").pop()) >= 1,
    "local redefinitions",
  );
  assert.ok(count((r) => r.implemented === "false") >= 1, "self targets never implemented");
  assert.ok(count((r) => r.read === "false" && r.reused === "true") >= 5, "reused unread");
  assert.ok(count((r) => r.read === "true" && r.reused === "false") >= 5, "read, not reused");
  const keysOf = new Set(s.turns.map((r) => `${r.harness}|${r.model}|${r.memory}`));
  // turn-level truth: tests, passed, submitted
  const planted = turns.filter((r) => keysOf.has(`${r.harness}|${r.model}|${r.memory}`));
  assert.equal(planted.length, 300);
  const scored = new Map(
    s.turns.map((r) => [[r.harness, r.model, r.memory, r.chain, r.turn].join("|"), r]),
  );
  for (const t of planted) {
    const r = scored.get([t.harness, t.model, t.memory, t.chain, t.turn].join("|"))!;
    assert.equal(String(r.submitted), t.submitted);
    assert.equal(String(r.tests), t.tests);
    assert.equal(String(r.passed), t.passed);
    assert.equal(String(r.reimplemented), t.reimplemented);
    // Files and Lines as the planner counted them (distinct paths; distinct (file, line) pairs)
    assert.equal(String(r.files), t.files_planned, `files of ${t.chain}/${t.turn}`);
    assert.equal(String(r.lines), t.lines_planned, `lines of ${t.chain}/${t.turn}`);
  }
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("CLI: --help and option errors", async () => {
  const { main } = await import("../tasks/simulate.ts");
  assert.equal(await main(["--help"]), 0);
  assert.equal(await main([]), 2);
  assert.equal(await main(["--out", "/tmp/x", "--scale", "huge"]), 2);
  assert.equal(await main(["--out", "/tmp/x", "--seed", "-3"]), 2);
  // a non-empty directory that is not a simulated corpus is refused, nothing is written
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
  assert.equal(await main(["--out", dir, "--scale", "small"]), 1);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["notes.txt"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "cleanup shared small corpus",
  fn: async () => {
    if (small) await Deno.remove(await small, { recursive: true });
  },
});
