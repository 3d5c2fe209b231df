// writeReport (the writing half of reproduce) on hand-made frames: files, provenance, determinism;
// the reproduce task's option errors.
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { pruneCache, SIMULATED, tasksFrame, writeReport } from "../lib/report/mod.ts";
import { main } from "../tasks/reproduce.ts";
import { chromiumPath } from "../lib/report/browser.ts";
import {
  CONFIG_A,
  CONFIG_B,
  type Target,
  targetsFrame,
  turnsFrame,
} from "./fixtures/report/frames.ts";

function input(simulated: boolean) {
  const qwen = ["none", "interface", "source"].flatMap((memory, k) =>
    ["c1", "c2"].flatMap((chain) =>
      [1, 2].map((turn) => ({
        harness: "OpenCode",
        model: "Qwen3.7-plus",
        memory,
        chain,
        turn,
        reuse_repo: 0.2 + 0.1 * k,
        reuse_self: turn > 1 ? 0.3 * (k + 1) : null,
        tests: 3,
        pass_rate: 0.7,
      }))
    )
  );
  const cfg = { harness: "OpenCode", model: "GLM-5.3", memory: "interface", chain: "c1" };
  const targets: Target[] = [
    { ...cfg, turn: 1, target: "p.a", kind: "repo", read: true, reused: false },
    { ...cfg, turn: 2, target: "p.b", kind: "self", read: true, reused: true },
  ];
  return {
    scored: {
      turns: turnsFrame([...CONFIG_A, ...CONFIG_B, ...qwen]),
      targets: targetsFrame(targets),
    },
    tasks: tasksFrame([
      { chain: "c1", turn: 1, tests: 10, requirement_chars: 2000, functions: 3 },
      { chain: "c1", turn: 2, tests: 11, requirement_chars: 2600, functions: 3 },
    ]),
    corpus: "hand-made",
    simulated,
    provenance: simulated ? SIMULATED : "hand-made frames",
    source: "hand-made frames in tests/report_reproduce_test.ts.",
  };
}

async function read(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const sub of ["tables", "figures", "figures/print"]) {
    for await (const e of Deno.readDir(`${dir}/${sub}`)) {
      if (!e.isFile) continue;
      const bytes = await Deno.readFile(`${dir}/${sub}/${e.name}`);
      // PDFs compared byte for byte (latin1 keeps every byte), the rest as UTF-8 text
      const enc = e.name.endsWith(".pdf") ? "latin1" : "utf-8";
      out.set(`${sub}/${e.name}`, new TextDecoder(enc).decode(bytes));
    }
  }
  out.set("README.md", await Deno.readTextFile(`${dir}/README.md`));
  return out;
}

const FIGURES = [
  "lines_vs_recall",
  "memory_ablation",
  "per_turn",
  "read_unused",
  "reuse_vs_resolve",
];
const chromium = await chromiumPath();

Deno.test("writeReport: every table, interval file and figure; byte-identical on a second run", async () => {
  const dir1 = await Deno.makeTempDir(), dir2 = await Deno.makeTempDir();
  try {
    const res = await writeReport(input(true), { out: dir1, B: 50 });
    await writeReport(input(true), { out: dir2, B: 50 });
    const expected = [
      ...[1, 2, 3, 4, 5].flatMap((n) => ["md", "csv", "tex"].map((e) => `tables/table${n}.${e}`)),
      "tables/ci.md",
      ...FIGURES.flatMap((f) => [`figures/${f}.svg`, `figures/${f}.vl.json`]),
      // at the paper's column widths: SVG, and PDF where Chromium is installed
      ...FIGURES.flatMap((f) =>
        ["single", "double"].flatMap((size) => [
          `figures/print/${f}-${size}.svg`,
          ...(chromium ? [`figures/print/${f}-${size}.pdf`] : []),
        ])
      ),
      "README.md",
    ].sort();
    assert.deepEqual(res.files, expected);
    const a = await read(dir1), b = await read(dir2);
    assert.deepEqual([...a.keys()].sort(), expected);
    for (const [f, text] of a) assert.equal(b.get(f), text, `${f} differs between runs`);
    // simulated provenance everywhere
    for (const n of [1, 2, 3, 4, 5]) {
      assert.ok(a.get(`tables/table${n}.md`)!.includes(`> **Data: ${SIMULATED}**`));
      assert.ok(a.get(`tables/table${n}.csv`)!.split("\n")[1].startsWith(SIMULATED));
      assert.ok(a.get(`tables/table${n}.tex`)!.includes("SIMULATED corpus"));
    }
    assert.ok(a.get("tables/ci.md")!.includes(SIMULATED));
    assert.ok(a.get("tables/ci.md")!.includes("B = 50 replicates, seed = 20260"));
    assert.ok(
      a.get("tables/ci.md")!.includes("OpenCode · Qwen3.7-plus · interface vs B = OpenCode"),
    );
    assert.ok(a.get("figures/per_turn.svg")!.includes("SIMULATED corpus"));
    assert.ok(a.get("figures/per_turn.vl.json")!.includes(SIMULATED));
    assert.match(a.get("figures/print/per_turn-single.svg")!, /<svg[^>]* width="3\.33in"/);
    assert.match(a.get("figures/print/per_turn-double.svg")!, /<svg[^>]* width="7in"/);
    if (chromium) assert.ok(a.get("figures/print/per_turn-single.pdf")!.startsWith("%PDF"));
    assert.ok(
      a.get("README.md")!.startsWith(
        "# reporeuse — reproduced tables and figures\n\n> **SIMULATED",
      ),
    );
    assert.ok(a.get("README.md")!.includes("`tables/table2.md`"));
    assert.ok(a.get("tables/table2.md")!.includes("cells within tolerance"));
    assert.equal(res.agreement, a.get("tables/table2.md")!.match(/^Agreement.*$/m)![0]);
  } finally {
    await Deno.remove(dir1, { recursive: true });
    await Deno.remove(dir2, { recursive: true });
  }
});

Deno.test("writeReport: measured runs are labelled as such, not as simulated; errors listed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const inp = input(false);
    const errors = pl.DataFrame({
      path: ["runs/k/c1/turn2/log.json"],
      chain: ["c1"],
      turn: [2],
      config: ["k"],
      message: ["bad JSON, line 3"],
    });
    await Deno.mkdir(`${dir}/figures`, { recursive: true });
    await Deno.writeTextFile(`${dir}/figures/old_figure.svg`, "<svg/>"); // ours, from an earlier run
    await Deno.writeTextFile(`${dir}/figures/notes.txt`, "mine"); // the user's: kept
    const res = await writeReport({ ...inp, scored: { ...inp.scored, errors } }, {
      out: dir,
      B: 20,
    });
    await assert.rejects(() => Deno.stat(`${dir}/figures/old_figure.svg`));
    assert.equal(await Deno.readTextFile(`${dir}/figures/notes.txt`), "mine");
    const readme = await Deno.readTextFile(`${dir}/README.md`);
    assert.ok(readme.includes("> **Data: hand-made frames.**"));
    assert.ok(!readme.includes("SIMULATED"));
    assert.ok(readme.includes("Scoring problems: 1, listed in `errors.csv`"));
    assert.ok(res.files.includes("errors.csv"));
    assert.equal(
      await Deno.readTextFile(`${dir}/errors.csv`),
      'path,chain,turn,config,message\nruns/k/c1/turn2/log.json,c1,2,k,"bad JSON, line 3"\n',
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reproduce task: bad options are reported, not thrown", async () => {
  const err = console.error;
  const said: string[] = [];
  console.error = (m: string) => said.push(m);
  try {
    assert.equal(await main(["--bogus"]), 2);
    assert.equal(await main(["--scale", "huge"]), 1);
    assert.match(said.at(-1)!, /--scale must be 'paper' or 'small'/);
    assert.equal(await main(["--runs", "/nonexistent/corpus"]), 1);
    assert.match(said.at(-1)!, /--runs \/nonexistent\/corpus: not a directory/);
    assert.equal(await main(["--B", "x"]), 1);
  } finally {
    console.error = err;
  }
});

Deno.test("pruneCache: removes obsolete idle entries only", async () => {
  const root = await Deno.makeTempDir();
  try {
    const make = async (name: string, complete?: string, old = true) => {
      await Deno.mkdir(`${root}/${name}`);
      if (complete !== undefined) await Deno.writeTextFile(`${root}/${name}/.complete`, complete);
      const t = old ? new Date(Date.now() - 2 * 3600_000) : new Date();
      await Deno.utime(`${root}/${name}`, t, t);
    };
    await make("corpus-aa", "gen1 1 paper\n"); // current
    await make("corpus-aa.scored-11", "11\n"); // current scores
    await make("corpus-aa.scored-22", "22\n"); // other scorer version: obsolete
    await make("corpus-bb", "gen0 1 paper\n"); // same seed+scale, other generator: obsolete
    await make("corpus-cc", "gen0 1 small\n"); // other scale: kept
    await make("corpus-dd", "gen0 2 paper\n"); // other seed: kept
    await make("corpus-ee", "gen0 1 paper\n", false); // obsolete but recently used: kept
    await make("corpus-ff.scored-33", "33\n"); // corpus gone: obsolete
    await make("corpus-aa.1234.tmp"); // abandoned
    await pruneCache(root, {
      corpus: `${root}/corpus-aa`,
      scoredDir: `${root}/corpus-aa.scored-11`,
      seed: 1,
      scale: "paper",
    });
    const left = (await Array.fromAsync(Deno.readDir(root))).map((e) => e.name).sort();
    assert.deepEqual(left, [
      "corpus-aa",
      "corpus-aa.scored-11",
      "corpus-cc",
      "corpus-dd",
      "corpus-ee",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
