// Figures (vega-lite specs + headless SVG) and the Jupyter display objects.
import assert from "node:assert/strict";
import {
  Chart,
  chart,
  linesRecallFigure,
  memoryFigure,
  perTurnFigure,
  readUnusedFigure,
  reuseResolveFigure,
  Table,
  table2,
  targetOutcomes,
  VEGA_LITE_MIME,
} from "../lib/report/mod.ts";
import { PAPER_LAYER } from "../lib/report/style.ts";
import {
  CONFIG_A,
  CONFIG_B,
  type Target,
  targetsFrame,
  turnsFrame,
} from "./fixtures/report/frames.ts";

const SIM = "SIMULATED corpus — not measured agent runs";
const display = Symbol.for("Jupyter.display");

Deno.test("perTurnFigure: per-turn values per configuration, provenance in the title, SVG", async () => {
  const c = perTurnFigure(turnsFrame([...CONFIG_A, ...CONFIG_B]), { provenance: SIM });
  const spec = c.toSpec();
  assert.equal(spec.$schema, "https://vega.github.io/schema/vega-lite/v5.json");
  assert.equal(spec.title.subtitle[0], `Data: ${SIM}`);
  const v = spec.data.values as Record<string, unknown>[];
  const at = (metric: string, harness: string, turn: number, source = "computed") =>
    v.find((x) =>
      x.metric === metric && x.harness === harness && x.turn === turn && x.source === source
    )?.value;
  // the paper's Table 3 first/last-turn values of the same configurations
  assert.equal(at("Recall (repo) (%)", "OpenCode", 1, "paper"), 86.7);
  assert.equal(at("Reuse (self) (%)", "mini-SWE-agent", 2, "paper"), 80.9);
  assert.equal(at("C_dup (%, lower is better)", "OpenCode", 5, "paper"), 50.7);
  assert.equal(v.filter((x) => x.source === "paper").length, 12);
  assert.equal(at("Recall (repo) (%)", "OpenCode", 1), 75);
  assert.equal(at("Recall (repo) (%)", "OpenCode", 3), 100);
  assert.equal(at("Reuse (self) (%)", "OpenCode", 2), 25);
  assert.equal(at("Reuse (self) (%)", "OpenCode", 1), undefined); // undefined at turn 1: dropped
  assert.equal(at("C_dup (%, lower is better)", "OpenCode", 2), 50);
  assert.equal(at("C_dup (%, lower is better)", "mini-SWE-agent", 3), 0);
  const svg = await c.toSVG();
  assert.ok(svg.startsWith("<svg"));
  assert.ok(svg.includes("SIMULATED corpus"));
  assert.equal(await c.toSVG(), svg); // deterministic (memoised and re-rendered alike)
  assert.equal(
    await perTurnFigure(turnsFrame([...CONFIG_A, ...CONFIG_B]), { provenance: SIM }).toSVG(),
    svg,
  );
});

Deno.test("scatter figures: one point per configuration; the paper's under it; model by shape too", async () => {
  const f = turnsFrame([...CONFIG_A, ...CONFIG_B]);
  const rr = reuseResolveFigure(f).toSpec();
  // layers, bottom to top: dashed links computed → paper, the paper's (hollow), computed points
  type Layer = {
    name?: string;
    mark: { type?: string; shape?: string };
    data: { values: unknown[] };
  };
  const paperIdx = rr.layer.findIndex((l: Layer) => l.name === PAPER_LAYER);
  const computedIdx = rr.layer.length - 1;
  assert.ok(
    paperIdx >= 0 && paperIdx < computedIdx,
    "the paper's marks are drawn under the computed",
  );
  const pts = rr.layer[computedIdx].data.values as Record<string, number | string>[];
  const ref = rr.layer[paperIdx].data.values as Record<string, number | string>[];
  assert.deepEqual(ref.map((p) => [p.harness, p.reuse_repo, p.resolve]), [
    ["mini-SWE-agent", 55.3, 44.3],
    ["OpenCode", 56.1, 44.3],
  ]);
  assert.equal(rr.layer[paperIdx].encoding.opacity.datum, "paper (Table 2)"); // its legend entry
  assert.equal(rr.layer[paperIdx].mark.shape, "diamond");
  assert.equal(rr.layer.length, 3);
  // a redundant channel for models: shape; the harness: filled (OpenCode) or hollow
  const enc = rr.layer[computedIdx].encoding;
  assert.equal(enc.shape.field, "model");
  assert.equal(enc.color.field, "model");
  assert.deepEqual(pts.map((p) => [p.harness, p.fill_key]).sort(), [
    ["OpenCode", "GLM-5.3"],
    ["mini-SWE-agent", "hollow"],
  ]);
  assert.equal(reuseResolveFigure(f, { paper: false }).toSpec().layer.length, 1);
  assert.equal(pts.length, 2);
  const a = pts.find((p) => p.harness === "OpenCode")!;
  assert.ok(Math.abs(Number(a.reuse_repo) - 55) < 1e-9);
  assert.ok(Math.abs(Number(a.resolve) - 60) < 1e-9);
  const lr = linesRecallFigure(f).toSpec();
  const b = (lr.layer.at(-1).data.values as Record<string, number | string>[]).find((p) =>
    p.harness === "mini-SWE-agent"
  )!;
  assert.equal(b.lines, 1000);
  assert.ok(Math.abs(Number(b.recall_repo) - 40) < 1e-9);
  assert.ok((await linesRecallFigure(f).toSVG()).includes("Lines viewed vs repository recall"));
});

Deno.test("memoryFigure: bars per memory setting with interval rules, the paper's beside them", async () => {
  assert.equal(memoryFigure(turnsFrame(CONFIG_A)), undefined);
  const base = { harness: "OpenCode", model: "Qwen3.7-plus", chain: "c", turn: 1, tests: 1 };
  const f = turnsFrame([
    { ...base, memory: "interface", reuse_repo: 0.5, pass_rate: 1 },
    { ...base, memory: "none", reuse_repo: 0.25, pass_rate: 0.5 },
  ]);
  const interval = { estimate: 50, low: 40, high: 60, replicates: 10, B: 10, seed: 1, level: 0.95 };
  const c = memoryFigure(f, { intervals: { "interface:reuse_repo": interval } })!;
  const spec = c.toSpec();
  // two panels: higher-is-better metrics, then C_dup (lower is better)
  assert.deepEqual(spec.hconcat.map((p: { title: { text: string } }) => p.title.text), [
    "Higher is better",
    "Lower is better",
  ]);
  assert.equal(spec.hconcat[0].layer.length, 3); // bars, interval rules, the paper's Table 4
  assert.deepEqual(spec.hconcat[1].layer[0].transform[0].filter.oneOf, ["c_dup"]);
  // paper layers are named uniquely (vega-lite shares the data of equally named layers)
  const names = spec.hconcat.map((p: { layer: { name?: string }[] }) => p.layer.at(-1)!.name);
  assert.equal(new Set(names).size, 2);
  const v = spec.data.values as Record<string, unknown>[];
  const cell = (memory: string, metric: string, source = "computed") =>
    v.find((x) => x.memory === memory && x.metric === metric && x.source === source);
  assert.deepEqual(cell("Interface memory", "reuse_repo"), {
    memory: "Interface memory",
    metric: "reuse_repo",
    value: 50,
    low: 40,
    high: 60,
    paper: 50.5,
    slot: "Interface memory",
    source: "computed",
    label: "Reuse (repo)",
  });
  // the paper's value in the slot right of its bar
  assert.equal(cell("Interface memory", "reuse_repo", "paper")?.slot, "Interface memory (paper)");
  assert.equal(cell("No memory", "c_dup")?.paper, 65.1);
  assert.equal(cell("No memory", "pass")?.value, 50);
  assert.equal(cell("No memory", "reuse_self"), undefined); // undefined at turn 1
  assert.ok((await c.toSVG()).startsWith("<svg"));
});

Deno.test("targetOutcomes / readUnusedFigure: never read vs read but not reused, by hand", async () => {
  const cfg = { harness: "OpenCode", model: "M", memory: "interface", chain: "c" };
  const rows: Target[] = [
    { ...cfg, turn: 1, target: "a", kind: "repo", read: true, reused: true },
    { ...cfg, turn: 1, target: "b", kind: "repo", read: false, reused: true },
    { ...cfg, turn: 1, target: "c", kind: "repo", read: true, reused: false },
    { ...cfg, turn: 1, target: "d", kind: "repo", read: true, reused: false },
    { ...cfg, turn: 2, target: "e", kind: "self", read: false, reused: false },
    { ...cfg, turn: 2, target: "f", kind: "self", read: false, reused: false, implemented: false },
    { ...cfg, memory: "none", turn: 1, target: "a", kind: "repo", read: false, reused: false },
  ];
  const t = targetsFrame(rows);
  const out = targetOutcomes(t, (k) => k.memory === "interface");
  assert.deepEqual(out.map((o) => [o.kind, o.turn, o.outcome, o.count, o.share]), [
    ["repo", 1, "reused (read)", 1, 25],
    ["repo", 1, "reused (not read)", 1, 25],
    ["repo", 1, "read but not reused", 2, 50],
    ["self", 2, "never read", 1, 100], // the unimplemented target is left out
  ]);
  const c = readUnusedFigure(t, { provenance: SIM });
  assert.equal((c.toSpec().data.values as unknown[]).length, 4); // interface memory only
  assert.ok((await c.toSVG()).includes("never read"));
});

Deno.test("Chart display bundle: vega-lite v5 MIME + SVG + text; JSON-safe", async () => {
  const c = chart({
    title: "T",
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: [{ x: 1, y: NaN, z: 3n }, { x: 2, y: 4, z: Infinity }] },
    mark: "point",
    encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } },
  });
  assert.ok(c instanceof Chart);
  // deno-lint-ignore no-explicit-any
  const bundle = await (c as any)[display]();
  assert.deepEqual(
    Object.keys(bundle).sort(),
    [VEGA_LITE_MIME, "image/svg+xml", "text/plain"].sort(),
  );
  assert.equal(bundle[VEGA_LITE_MIME].$schema, "https://vega.github.io/schema/vega-lite/v5.json");
  assert.deepEqual(bundle[VEGA_LITE_MIME].data.values, [{ x: 1, y: null, z: 3 }, {
    x: 2,
    y: 4,
    z: null,
  }]);
  assert.equal(bundle["text/plain"], "T");
  assert.ok(String(bundle["image/svg+xml"]).startsWith("<svg"));
  JSON.stringify(bundle); // no BigInt anywhere
});

Deno.test("Table display bundle: HTML, Markdown and plain text", () => {
  const t = new Table(table2(turnsFrame(CONFIG_A), { provenance: SIM }));
  // deno-lint-ignore no-explicit-any
  const bundle = (t as any)[display]();
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/markdown", "text/plain"]);
  assert.ok(bundle["text/html"].includes("<table>") && bundle["text/html"].includes(SIM));
  assert.ok(bundle["text/markdown"].startsWith("## Table 2"));
  assert.ok(bundle["text/plain"].includes("55.0 (56.1, -1.1)"));
  assert.equal(String(t), bundle["text/plain"]);
});
