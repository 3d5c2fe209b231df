// Colour-vision simulation and colour differences (lib/report/colour.ts), and the project's
// palettes checked with them.
import assert from "node:assert/strict";
import {
  colourClashes,
  deltaE2000,
  MIN_SERIES_DELTA_E,
  parseColour,
  simulate,
  toLab,
} from "../lib/report/colour.ts";
import { memoryScale, MODEL_COLORS, OUTCOME_COLORS, OUTCOME_LABELS } from "../lib/report/style.ts";

Deno.test("deltaE2000 matches Sharma, Wu & Dalal's (2005) test data", () => {
  const pairs: [[number, number, number], [number, number, number], number][] = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[50, 2.5, 0], [50, 0, -2.5], 4.3065],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ];
  for (const [a, b, e] of pairs) {
    assert.ok(Math.abs(deltaE2000(a, b) - e) < 1e-4, `${a} ${b}: ${deltaE2000(a, b)} ≠ ${e}`);
  }
});

Deno.test("toLab: sRGB white, black and red as CIELAB (D65)", () => {
  const near = (x: number[], y: number[]) =>
    x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) < 0.05, `${x} ≉ ${y}`));
  near(toLab([1, 1, 1]), [100, 0, 0]);
  near(toLab([0, 0, 0]), [0, 0, 0]);
  near(toLab(parseColour("#ff0000")!), [53.24, 80.09, 67.2]);
});

Deno.test("simulate (Machado 2009): greys unchanged; red and green collapse for deuteranopes", () => {
  const grey = parseColour("#808080")!;
  for (const d of ["deuteranopia", "protanopia", "tritanopia"] as const) {
    simulate(grey, d).forEach((c, i) => assert.ok(Math.abs(c - grey[i]) < 0.01, d));
  }
  const red = toLab(simulate(parseColour("#d62728")!, "deuteranopia"));
  const green = toLab(simulate(parseColour("#2ca02c")!, "deuteranopia"));
  assert.ok(deltaE2000(red, green) < MIN_SERIES_DELTA_E);
  assert.ok(deltaE2000(toLab(parseColour("#d62728")!), toLab(parseColour("#2ca02c")!)) > 50);
});

Deno.test("the project's palettes stay distinguishable under simulated deuteranopia and protanopia", () => {
  assert.deepEqual(colourClashes(Object.values(MODEL_COLORS)), []);
  const outcomes = Object.values(OUTCOME_LABELS).map((l) => OUTCOME_COLORS[l]);
  assert.deepEqual(colourClashes(outcomes), []);
  for (const model of Object.keys(MODEL_COLORS)) {
    assert.deepEqual(
      colourClashes(memoryScale(["none", "interface", "source"], model).range),
      [],
      model,
    );
  }
});
