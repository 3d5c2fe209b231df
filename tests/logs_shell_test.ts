/**
 * Shell idioms: which lines each command shows, against a tiny workspace whose expected line
 * sets can be checked by eye. `m.py` has 12 lines `x1 = 1` … `x12 = 12`; `sub/a.py` 3 lines.
 * Observations are what GNU coreutils/grep/sed print for these files.
 */
import assert from "node:assert/strict";
import { analyzeShell, type Event, TurnWorkspace } from "../lib/logs/mod.ts";

const M = Array.from({ length: 12 }, (_, i) => `x${i + 1} = ${i + 1}`);
const A = ["def a():", "    return 1", ""];
const FILES: Record<string, string> = {
  "m.py": M.join("\n") + "\n",
  "sub/a.py": A.join("\n") + "\n",
};
const out = (ns: number[]) => ns.map((n) => M[n - 1] + "\n").join("");
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

async function run(
  command: string,
  output: string,
  opts: { rc?: number; ws?: boolean; shared?: TurnWorkspace } = {},
): Promise<Event[]> {
  const ws = opts.shared ??
    new TurnWorkspace(opts.ws === false ? undefined : (p) => FILES[p], "/testbed");
  return await analyzeShell(command, { ws, cwd: "", step: 0 }, {
    output,
    returncode: opts.rc ?? 0,
  });
}
const lines = (evs: Event[]) => evs.map((e) => e.lines);

Deno.test("head, tail, obsolete and +N forms", async () => {
  assert.deepEqual(lines(await run("head -5 m.py", out(range(1, 5)))), [{ "m.py": [[1, 5]] }]);
  assert.deepEqual(lines(await run("head m.py", out(range(1, 10)))), [{ "m.py": [[1, 10]] }]);
  assert.deepEqual(lines(await run("tail -n 3 m.py", out(range(10, 12)))), [{
    "m.py": [[10, 12]],
  }]);
  assert.deepEqual(lines(await run("tail -n +10 m.py", out(range(10, 12)))), [{
    "m.py": [[10, 12]],
  }]);
  assert.deepEqual(lines(await run("tail -2 m.py", out([11, 12]))), [{ "m.py": [[11, 12]] }]);
  assert.deepEqual(lines(await run("head -n 8 m.py | tail -n 3", out(range(6, 8)))), [{
    "m.py": [[6, 8]],
  }]);
  assert.deepEqual(lines(await run("head -n -10 m.py", out([1, 2]))), [{ "m.py": [[1, 2]] }]);
});

Deno.test("sed -n: ranges, several commands, $, regex and +N addresses", async () => {
  assert.deepEqual(lines(await run("sed -n '2p;5,6p' m.py", out([2, 5, 6]))), [{
    "m.py": [[2, 2], [5, 6]],
  }]);
  assert.deepEqual(lines(await run("sed -n '10,$p' m.py", out([10, 11, 12]))), [{
    "m.py": [[10, 12]],
  }]);
  assert.deepEqual(lines(await run("sed -n '/^x3 /,+2p' m.py", out([3, 4, 5]))), [{
    "m.py": [[3, 5]],
  }]);
  assert.deepEqual(lines(await run("sed -n '0,/x2/p' m.py", out([1, 2]))), [{ "m.py": [[1, 2]] }]);
  assert.deepEqual(lines(await run("sed -n -e '4p' -e '9p' m.py", out([4, 9]))), [{
    "m.py": [[4, 4], [9, 9]],
  }]);
  assert.deepEqual(lines(await run("sed '3q' m.py", out([1, 2, 3]))), [{ "m.py": [[1, 3]] }]);
  // b < a prints line a only
  assert.deepEqual(lines(await run("sed -n '7,3p' m.py", out([7]))), [{ "m.py": [[7, 7]] }]);
});

Deno.test("awk NR windows, cat -n and nl pipelines", async () => {
  assert.deepEqual(lines(await run("awk 'NR==4' m.py", out([4]))), [{ "m.py": [[4, 4]] }]);
  assert.deepEqual(
    lines(
      await run(
        "awk 'NR>=3 && NR<=5 {print NR\": \"$0}' m.py",
        "3: x3 = 3\n4: x4 = 4\n5: x5 = 5\n",
      ),
    ),
    [{ "m.py": [[3, 5]] }],
  );
  assert.deepEqual(
    lines(await run("cat -n m.py | sed -n '3,4p'", "     3\tx3 = 3\n     4\tx4 = 4\n")),
    [{ "m.py": [[3, 4]] }],
  );
  assert.deepEqual(lines(await run("nl -ba m.py | grep 'x7 '", "     7\tx7 = 7\n")), [{
    "m.py": [[7, 7]],
  }]);
  // the same without the workspace: numbers from the output
  assert.deepEqual(
    lines(await run("nl -ba m.py | grep 'x7 '", "     7\tx7 = 7\n", { ws: false })),
    [
      { "m.py": [[7, 7]] },
    ],
  );
});

Deno.test("grep: filters, several files, context without -n, -c and -l (Files only)", async () => {
  // x1 matches x1, x10, x11, x12
  assert.deepEqual(lines(await run("cat m.py | grep x1", out([1, 10, 11, 12]))), [{
    "m.py": [[1, 1], [10, 12]],
  }]);
  assert.deepEqual(
    lines(await run("grep 'x3 ' m.py sub/a.py", "m.py:x3 = 3\n")),
    [{ "m.py": [[3, 3]] }],
  );
  assert.deepEqual(
    lines(await run("grep -B 1 'x5 ' m.py", out([4, 5]))),
    [{ "m.py": [[4, 5]] }],
  );
  // two groups with a separator: 2±1 and 9±1
  assert.deepEqual(
    lines(
      await run(
        "grep -n -C 1 -E '^x(2|9) ' m.py",
        "1-x1 = 1\n2:x2 = 2\n3-x3 = 3\n--\n8-x8 = 8\n9:x9 = 9\n10-x10 = 10\n",
      ),
    ),
    [{ "m.py": [[1, 3], [8, 10]] }],
  );
  const c = await run("grep -c x1 m.py", "4\n");
  assert.deepEqual([c[0].kind, c[0].paths, c[0].lines], ["search", ["m.py"], {}]);
  const l = await run("grep -l return m.py sub/a.py", "sub/a.py\n");
  assert.deepEqual([l[0].kind, l[0].paths, l[0].lines], ["search", ["m.py", "sub/a.py"], {}]);
  const rl = await run("grep -rl return .", "./sub/a.py\n");
  assert.deepEqual([rl[0].paths, rl[0].lines], [["."], {}]);
  // files from a pipe
  const x = await run("find . -name '*.py' | xargs grep -n 'x7 '", "./m.py:7:x7 = 7\n");
  assert.deepEqual([x[0].paths, x[0].lines], [["m.py"], { "m.py": [[7, 7]] }]);
});

Deno.test("listings count toward Files, not Lines", async () => {
  for (
    const [cmd, paths] of [["ls", ["."]], ["ls -la sub", ["sub"]], ["find sub -name '*.py'", [
      "sub",
    ]], ["tree", ["."]]] as const
  ) {
    const e = await run(cmd, "whatever\n");
    assert.deepEqual([e[0].kind, e[0].paths, e[0].lines], ["list", paths, {}], cmd);
  }
});

Deno.test("chains: &&, ||, ;, cd and subshells", async () => {
  // cat fails, so sed never runs: nothing read
  const a = await run(
    "cat missing.py && sed -n '1,3p' m.py",
    "cat: missing.py: No such file or directory\n",
    { rc: 1 },
  );
  assert.deepEqual(lines(a), [{}]);
  // grep finds nothing (status 1), so the || branch runs
  const b = await run("grep -n nomatch m.py || sed -n '1,2p' m.py", out([1, 2]));
  assert.deepEqual(lines(b), [{}, { "m.py": [[1, 2]] }]);
  const c = await run("cd sub && cat a.py", A.join("\n") + "\n");
  assert.deepEqual(lines(c), [{ "sub/a.py": [[1, 3]] }]);
  const d = await run("(cd sub && head -n 1 a.py); head -n 1 m.py", "def a():\nx1 = 1\n");
  assert.deepEqual(lines(d), [{ "sub/a.py": [[1, 1]] }, { "m.py": [[1, 1]] }]);
  const e = await run("FOO=1 sed -n '1,3p' m.py 2>/dev/null | head -2", out([1, 2]));
  assert.deepEqual(lines(e), [{ "m.py": [[1, 2]] }]);
});

Deno.test("writes are not reads, and later commands see them", async () => {
  const ws = new TurnWorkspace((p) => FILES[p], "/testbed");
  const w1 = await run("echo 'y = 1' > new.py && cat new.py", "y = 1\n", { shared: ws });
  assert.deepEqual(w1.map((e) => [e.kind, e.paths, e.lines]), [["write", ["new.py"], {}], ["read", [
    "new.py",
  ], { "new.py": [[1, 1]] }]]);
  const w2 = await run("echo hi | tee t.txt", "hi\n", { shared: ws });
  assert.deepEqual(w2.map((e) => [e.kind, e.paths]), [["write", ["t.txt"]]]);
  const w3 = await run("cp m.py copy.py && sed -n '11,12p' copy.py", out([11, 12]), { shared: ws });
  assert.deepEqual(w3.map((e) => [e.kind, e.lines]), [["write", {}], ["read", {
    "copy.py": [[11, 12]],
  }]]);
  // sed -i deletes line 1: the new first line is "x2 = 2"
  const w4 = await run("sed -i '1d' m.py && head -n 1 m.py", "x2 = 2\n", { shared: ws });
  assert.deepEqual(w4.map((e) => [e.kind, e.lines]), [["write", {}], ["read", {
    "m.py": [[1, 1]],
  }]]);
  assert.deepEqual(ws.read("m.py"), M.slice(1).join("\n") + "\n");
  // a redirect into a file: nothing shown, nothing read
  const w5 = await run("cat m.py > /tmp/copy.txt", "", { shared: ws });
  assert.deepEqual(lines(w5), [{}]);
  const w6 = await run("cat > pkg.py <<'EOF'\nimport m\nprint(m.x1)\nEOF", "", { shared: ws });
  assert.deepEqual(w6.map((e) => [e.kind, e.paths]), [["write", ["pkg.py"]]]);
  assert.equal(ws.read("pkg.py"), "import m\nprint(m.x1)\n");
});

Deno.test("python -c reads, unknown words and unsupported constructs", async () => {
  assert.deepEqual(
    lines(await run(`python3 -c "print(open('sub/a.py').read())"`, A.join("\n") + "\n\n")),
    [{ "sub/a.py": [[1, 3]] }],
  );
  // readlines()[4:6] → lines 5–6, from the command alone without the workspace
  assert.deepEqual(
    lines(
      await run(
        `python -c "import sys; sys.stdout.writelines(open('m.py').readlines()[4:6])"`,
        out([5, 6]),
        { ws: false },
      ),
    ),
    [{ "m.py": [[5, 6]] }],
  );
  const v = await run("cat $FILE", "x\n");
  assert.equal(v[0].kind, "other");
  const f = await run("for f in *.py; do head -1 $f; done", "x1 = 1\n");
  assert.equal(f[0].kind, "other");
  const s = await run("if true; then cat m.py; fi", out(range(1, 12)));
  assert.equal(s[0].kind, "other");
  assert.equal((await run("cat 'unterminated", ""))[0].kind, "other");
});

Deno.test("truncated output: only the shown head and tail lines", async () => {
  // 300 lines of 40 chars = 12,000 chars: mini shows chars [0,5000) and [7000,12000)
  const big = Array.from(
    { length: 300 },
    (_, i) => `v${String(i + 1).padStart(4, "0")} = ${"z".repeat(31)}`,
  );
  const text = big.join("\n") + "\n";
  assert.equal(big[0].length, 39);
  const ws = new TurnWorkspace((p) => (p === "big.py" ? text : undefined), "/testbed");
  const ev = await analyzeShell("cat big.py", { ws, cwd: "", step: 0 }, {
    head: text.slice(0, 5000),
    tail: text.slice(-5000),
    elided: text.length - 10000,
    returncode: 0,
  });
  // head: 5000/40 = 125 whole lines; tail starts at char 7000 = line 176 exactly
  assert.deepEqual(ev[0].lines, { "big.py": [[1, 125], [176, 300]] });
  assert.equal(ev[0].placed, true);
  // nl -ba | sed -n '1,250p' cut the same way: numbers read from the shown text, no workspace.
  // 47 chars per numbered line × 250 = 11,750; the head ends inside line 107 (5000/47 = 106.4),
  // the tail starts at char 6750, inside line 144 (6750/47 = 143.6)
  const numbered = big.map((l, i) => `${String(i + 1).padStart(6)}\t${l}\n`).slice(0, 250).join("");
  assert.equal(numbered.length, 11750);
  const ev2 = await analyzeShell(
    "nl -ba big.py | sed -n '1,250p'",
    { ws: new TurnWorkspace(undefined, "/testbed"), cwd: "", step: 0 },
    { head: numbered.slice(0, 5000), tail: numbered.slice(-5000), returncode: 0 },
  );
  assert.deepEqual(ev2[0].lines, { "big.py": [[1, 107], [144, 250]] });
});

Deno.test("awk printing numbered lines, grep -r on a file, ripgrep", async () => {
  assert.deepEqual(
    lines(await run("awk '{print NR\": \"$0}' m.py | sed -n '3,4p'", "3: x3 = 3\n4: x4 = 4\n")),
    [{ "m.py": [[3, 4]] }],
  );
  assert.deepEqual(
    lines(
      await run(
        `awk 'NR>=11 {printf "%4d  %s\\n", NR, $0}' m.py`,
        "  11  x11 = 11\n  12  x12 = 12\n",
      ),
    ),
    [{ "m.py": [[11, 12]] }],
  );
  // grep -r with a single regular file prints no file names
  const g = await run("grep -rn 'x9 ' m.py", "9:x9 = 9\n");
  assert.deepEqual([g[0].paths, g[0].lines], [["m.py"], { "m.py": [[9, 9]] }]);
  // rg: recursive, names files, numbers only with -n
  const r = await run("rg -n 'return' .", "./sub/a.py:2:    return 1\n");
  assert.deepEqual([r[0].kind, r[0].paths, r[0].lines], ["search", ["."], {
    "sub/a.py": [[2, 2]],
  }]);
  const r2 = await run("rg 'x1[12]' m.py", "x11 = 11\nx12 = 12\n");
  assert.deepEqual(r2[0].lines, { "m.py": [[11, 12]] });
});

Deno.test("a non-zero status: the simulation decides what was shown", async () => {
  // one file missing: grep still printed the other's matches (status 2)
  const g = await run(
    "grep -n 'x4 ' m.py nope.py",
    "m.py:4:x4 = 4\ngrep: nope.py: No such file or directory\n",
    { rc: 2 },
  );
  assert.deepEqual(g[0].lines, { "m.py": [[4, 4]] });
  // without the workspace a failing last command reads nothing
  const h = await run("sed -n '1,2p' m.py", "sed: can't read m.py: No such file or directory\n", {
    rc: 2,
    ws: false,
  });
  assert.deepEqual([h[0].lines, h[0].note], [{}, "command failed: nothing read"]);
  // the read ran, then the script failed: the read counts
  const p = await run(
    "head -n 2 m.py && python run.py",
    out([1, 2]) + "Traceback (most recent call last):\n",
    {
      rc: 1,
    },
  );
  assert.deepEqual(lines(p), [{ "m.py": [[1, 2]] }, {}]);
});

Deno.test("head -c / tail -c: the lines the characters touch; pagers print files", async () => {
  // 7 chars per line ("x1 = 1\n"); 10 chars touch lines 1–2
  assert.deepEqual(lines(await run("head -c 10 m.py", "x1 = 1\nx2 ")), [{ "m.py": [[1, 2]] }]);
  // the last 12 chars: "11\n" of line 11 and "x12 = 12\n" (9 chars) → lines 11–12
  assert.deepEqual(lines(await run("tail -c 12 m.py", "11\nx12 = 12\n")), [{ "m.py": [[11, 12]] }]);
  assert.deepEqual(lines(await run("more sub/a.py", A.join("\n") + "\n")), [{
    "sub/a.py": [[1, 3]],
  }]);
});

Deno.test("without the workspace, a chain's output is split by what its parts print", async () => {
  const e = await run(
    "grep -n 'x9 ' m.py && sed -n '10,11p' m.py && head -n 1 sub/a.py",
    "9:x9 = 9\n" + out([10, 11]) + "def a():\n",
    { ws: false },
  );
  assert.deepEqual(lines(e), [{ "m.py": [[9, 9]] }, { "m.py": [[10, 11]] }, {
    "sub/a.py": [[1, 1]],
  }]);
});

Deno.test("scripts that write files make their content unknown; later reads use the output", async () => {
  const ws = new TurnWorkspace((p) => FILES[p], "/testbed");
  const edit = await run(
    "python3 - <<'EOF'\np = 'm.py'\ns = open(p).read().replace('x1 = 1', 'y1 = 1')\nopen(p, 'w').write(s)\nEOF",
    "",
    { shared: ws },
  );
  assert.deepEqual(edit.map((e) => [e.kind, e.paths]), [["write", ["m.py"]]]);
  const shown = "y1 = 1\n" + out(range(2, 12));
  const r = await run("cat m.py", shown, { shared: ws });
  assert.deepEqual([r[0].lines, r[0].placed], [{ "m.py": [[1, 12]] }, true]);
  const p = await run("perl -pi -e 's/x2/z2/' m.py && sed -n '2p' m.py", "z2 = 2\n", {
    shared: ws,
  });
  assert.deepEqual(p.map((e) => [e.kind, e.lines]), [["write", {}], ["read", {
    "m.py": [[2, 2]],
  }]]);
});

Deno.test("here-documents in lists and pipelines (tree-sitter hangs the rest of the line inside them)", async () => {
  const ws = new TurnWorkspace((p) => FILES[p], "/testbed");
  // the redirections after a list belong to its last command; cd carries to the next line
  const a = await run(
    "cd sub && cat << 'EOF' > b.py\nhello\nEOF\nsed -n '1,2p' a.py",
    "def a():\n    return 1\n",
    { shared: ws },
  );
  assert.deepEqual(a.map((e) => [e.kind, e.paths, e.lines]), [["write", ["sub/b.py"], {}], [
    "read",
    ["sub/a.py"],
    { "sub/a.py": [[1, 2]] },
  ]]);
  assert.equal(ws.read("sub/b.py"), "hello\n");
  // piped into python: cat's text is not shown, and it is no read
  const b = await run("cat <<EOF | python3\nprint(1)\nEOF", "1\n");
  assert.deepEqual(b.map((e) => e.kind), ["run"]);
  // `&& command` after the here-document start
  const c = await run("cat <<EOF > t.py && sed -n '3p' m.py\nx\nEOF", out([3]));
  assert.deepEqual(c.map((e) => [e.kind, e.lines]), [["write", {}], ["read", {
    "m.py": [[3, 3]],
  }]]);
  const d = await run(
    "cd sub && cat <<EOF | python3 && head -n 1 a.py\nprint(1)\nEOF",
    "1\ndef a():\n",
  );
  assert.deepEqual(d.map((e) => [e.kind, e.lines]), [["run", {}], ["read", {
    "sub/a.py": [[1, 1]],
  }]]);
});

Deno.test("without the workspace, a known separator splits two whole-file reads", async () => {
  const e = await run(
    'cat sub/a.py && echo "=== M ===" && cat m.py',
    A.join("\n") + "\n=== M ===\n" + out(range(1, 12)),
    { ws: false },
  );
  assert.deepEqual(lines(e), [{ "sub/a.py": [[1, 3]] }, {}, { "m.py": [[1, 12]] }]);
});
