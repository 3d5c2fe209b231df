/**
 * The evaluation's label files stay readable by the scripts that print the published figures
 * (docs/audit.md, "Evaluation"): data/audit/second_labeller.py checks its pairs against the label
 * files and stops on any mismatch, so a label appended later must not break an earlier round.
 */
import assert from "node:assert/strict";

const SCRIPT = new URL("../data/audit/second_labeller.py", import.meta.url).pathname;

async function rounds(round: string): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: [SCRIPT, "--round", round],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("second_labeller.py prints every round's published agreement from the label files", async () => {
  // the figures docs/audit.md gives for each round (agreement on the findings, three classes)
  assert.match(await rounds("6"), /the three\s+61\s+58\/61 \(95 %\)\s+0\.93/);
  assert.match(await rounds("7"), /the four, all\s+80\s+73\/80 \(91 %\)\s+0\.87/);
  assert.match(await rounds("9"), /the two\s+32\s+27\/32 \(84 %\)\s+0\.76/);
});
