// `deno task bench <name> --help` prints the named benchmark's own module doc and runs nothing
// (a benchmark run takes minutes; before, `--help` reached the script's strict option parser and
// ended in a stack trace).
import assert from "node:assert/strict";

const bench = new URL("../tasks/bench.ts", import.meta.url).pathname;

Deno.test("bench score --help prints the script's documentation and runs nothing", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", bench, "score", "--help"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const doc = Deno.readTextFileSync(new URL("../tasks/bench/score.ts", import.meta.url));
  // the doc's option lines come out as written, without the comment's leading " * "
  assert.ok(doc.includes(" * `--repeat R` scores each K R times"));
  assert.ok(out.includes("\n`--repeat R` scores each K R times"), out);
  assert.ok(out.startsWith("== bench score ==\nBenchmark: scoring"), out);
  assert.ok(!out.includes("@module"));
  assert.ok(!/bench (audit|graph|logs|view)/.test(out), "only the named script");
  // nothing was run: no corpus simulated, no "ok"/"exit" line of a finished script
  assert.ok(!/== score\.ts: (ok|exit)/.test(out), out);
});
