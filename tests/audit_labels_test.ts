/**
 * The evaluation's label files stay readable by the scripts that print the published figures
 * (docs/audit.md, "Evaluation"): data/audit/second_labeller.py checks its pairs against the label
 * files and stops on any mismatch, so a label appended later must not break an earlier round;
 * data/audit/signals.py prints the separability study from the committed rows.
 */
import assert from "node:assert/strict";

const data = (path: string) => new URL(`../data/audit/${path}`, import.meta.url).pathname;

/** What a script of data/audit prints (it must exit 0). */
async function script(name: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: [data(name), ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

const rounds = (round: string) => script("second_labeller.py", "--round", round);

Deno.test("second_labeller.py prints every round's published agreement from the label files", async () => {
  // the figures docs/audit.md gives for each round (agreement on the findings, three classes)
  assert.match(await rounds("6"), /the three\s+61\s+58\/61 \(95 %\)\s+0\.93/);
  assert.match(await rounds("7"), /the four, all\s+80\s+73\/80 \(91 %\)\s+0\.87/);
  assert.match(await rounds("9"), /the two\s+32\s+27\/32 \(84 %\)\s+0\.76/);
});

const signals = (file?: string) => script("signals.py", ...(file ? [data(file)] : []));

Deno.test("signals.py prints the published separability of the labelled findings, before and after different-code", async () => {
  const before = await signals("eval/signals-9f87356.jsonl");
  assert.match(before, /^180 labelled first-section findings of 11 projects/);
  assert.match(before, /lenient: real or idiomatic against false\s+0\.74 \(0\.66-0\.83\)/);
  assert.match(before, /near-copies: real against idiomatic\s+0\.60 \(0\.45-0\.73\)\s+0\.55/);
  const after = await signals();
  assert.match(after, /^186 labelled first-section findings of 11 projects/);
  assert.match(after, /strict: real against idiomatic and false\s+0\.69 \(0\.55-0\.80\)/);
  assert.match(after, /lenient: real or idiomatic against false\s+0\.90 \(0\.83-0\.97\)/);
  assert.match(after, /0\.50\s+108\s+56\/108 \(52 %\)\s+106\/108 \(98 %\)/);
  // the tenth blind round's two projects: real against idiomatic no better than chance
  const blind = await signals("eval/signals-round10.jsonl");
  assert.match(blind, /^57 labelled first-section findings of 2 projects/);
  assert.match(blind, /near-copies: real against idiomatic\s+0\.44 /);
});
