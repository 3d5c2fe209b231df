/**
 * The construction pipeline over HTTP: the real `npm:openai` client talks to a local
 * OpenAI-compatible server started by the test (127.0.0.1, port 0) that answers from a script.
 * Covers a walk (with an invalid reply re-asked), a synthesis (a requirement naming an evidence
 * symbol is rejected), verification dropping erroring/unstable calls and regenerating a turn with
 * too few cases, the resolver-based reuse check, the response cache, and the `build` CLI errors.
 */
import assert from "node:assert/strict";
import { ModelClient } from "../lib/construct/llm.ts";
import { buildChain } from "../lib/construct/pipeline.ts";
import { verifyTurn } from "../lib/construct/execution.ts";
import { calledSymbols } from "../lib/construct/reuse.ts";
import { Cache } from "../lib/util/cache.ts";
import { prepareWorkspace } from "../lib/protocol/prepare.ts";
import { runCli } from "./cli_helpers.ts";

const PY = "/usr/bin/python3";
const FIXTURE = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;
const ROOT = new URL("..", import.meta.url).pathname;

interface Msg {
  role: string;
  content: string;
}

/** A scripted OpenAI-compatible server; `reply` maps a request's messages to the answer text. */
function scriptedServer(reply: (messages: Msg[]) => string) {
  const requests: Msg[][] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return new Response("not found", { status: 404 });
    }
    const body = await req.json();
    requests.push(body.messages);
    const content = reply(body.messages);
    return Response.json({
      id: `chatcmpl-${requests.length}`,
      object: "chat.completion",
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { server, requests, baseURL: `http://127.0.0.1:${port}/v1` };
}

const SOLUTION = `from mini._impl.rank import rank_scores
from mini._impl.scale import normalize


def band_labels(values, bands=3):
    scores = rank_scores(values)
    labels = []
    for s in scores:
        index = int(s * bands)
        if index == bands:
            index = bands - 1
        labels.append(index)
    return labels


def stretch(values, lo, hi):
    if lo >= hi:
        raise ValueError("lo must be below hi")
    out = normalize(values, lo, hi)
    return [round(v, 3) for v in out]
`;

const FUNCTIONS = [
  {
    name: "band_labels",
    signature: "def band_labels(values, bands=3)",
    returns: "list[int], one band index per value, in input order",
    behaviour: "Assign each value to one of `bands` equal bands by its dense rank.",
  },
  {
    name: "stretch",
    signature: "def stretch(values, lo, hi)",
    returns: "list[float] rounded to 3 decimals, in input order",
    behaviour: "Linearly map the values onto [lo, hi]; a constant input maps to lo.",
  },
];

function draft(goal: string, calls: string[]): string {
  return JSON.stringify({
    module_name: "score_bands",
    goal,
    functions: FUNCTIONS,
    solution: SOLUTION,
    calls: calls.map((call) => ({ call, repr: "?" })),
    read_targets: [{ symbol: "mini._impl.scale.normalize", why: "constant vectors map to lo" }],
  });
}

const GOOD_CALLS = [
  "band_labels([3, 1, 2])",
  "band_labels([5, 5, 5])",
  "band_labels([10, 20], bands=2)",
  "stretch([0, 5, 10], 0, 100)",
  "stretch([1, 2, 4], -1, 1)",
  "stretch([2, 2], 3, 4)",
  "stretch([1, 2], 5, 1)", // raises ValueError → dropped
  "band_labels([1, 2]) + [__import__('time').time_ns()]", // differs between runs → dropped
  "band_labels([])", // raises (min of an empty sequence) → dropped
];

/** Expected values, worked by hand from the fixture (dense ranks → [0, 1] → bands). */
const GOOD_EXPECTED = [
  "[2, 0, 1]",
  "[0, 0, 0]",
  "[0, 1]",
  "[0.0, 50.0, 100.0]",
  "[-1.0, -0.333, 1.0]",
  "[3, 3]",
];

const SOLUTION2 = `from mini._impl.score_bands import band_labels
from mini._impl.rank import dense_rank


def band_counts(values, bands=3):
    labels = band_labels(values, bands)
    counts = [0] * bands
    for label in labels:
        counts[label] += 1
    return counts


def rank_pairs(values):
    ranks = dense_rank(values)
    pairs = sorted(zip(ranks, values))
    result = []
    for rank, value in pairs:
        result.append((value, rank))
    return result
`;

const DRAFT2 = JSON.stringify({
  module_name: "rank_report",
  goal: "Report how many values fall in each band, and list values with their ranks.",
  functions: [
    {
      name: "band_counts",
      signature: "def band_counts(values, bands=3)",
      returns: "list[int] of length `bands`, counts per band in band order",
      behaviour: "Count the values falling in each band.",
    },
    {
      name: "rank_pairs",
      signature: "def rank_pairs(values)",
      returns: "list of (value, rank) tuples ordered by rank, then value",
      behaviour: "Pair each value with its dense rank.",
    },
  ],
  solution: SOLUTION2,
  calls: [
    "band_counts([3, 1, 2])",
    "band_counts([5, 5, 5])",
    "band_counts([10, 20], bands=2)",
    "rank_pairs([30, 10, 20, 10])",
    "rank_pairs([])",
    "rank_pairs(['b', 'a'])",
  ].map((call) => ({ call, repr: "?" })),
  read_targets: [],
});

/** Worked by hand: bands of turn 1 ([2, 0, 1], [0, 0, 0], [0, 1]) counted; dense ranks paired. */
const EXPECTED2 = [
  "[1, 1, 1]",
  "[3, 0, 0]",
  "[1, 1]",
  "[(10, 1), (10, 1), (20, 2), (30, 3)]",
  "[]",
  "[('a', 1), ('b', 2)]",
];

const GOAL =
  "Group measurements into a fixed number of bands by their rank, and rescale values onto a target interval.";

/** The script: one invalid walk reply, expand to normalize, stop; then synthesis drafts. */
function pipelineScript() {
  let invalidSent = false;
  return (messages: Msg[]): string => {
    const first = messages[0].content;
    if (first.startsWith("You are assembling an *evidence pack*")) {
      if (first.includes("Round 2.")) {
        return JSON.stringify({ action: "stop", reason: "r", task_sketch: "Report bands." });
      }
      if (!invalidSent) {
        invalidSent = true;
        return "I would pick normalize next.";
      }
      const collected =
        first.split("## Symbols collected so far")[1].split("## Current position")[0];
      if (!collected.includes("mini._impl.scale.normalize")) {
        const m = /^(\d+)\. `mini\._impl\.scale\.normalize`/m.exec(first);
        assert.ok(m, "normalize is on the menu");
        return JSON.stringify({ action: "expand", choice: Number(m[1]), reason: "scales ranks" });
      }
      return JSON.stringify({
        action: "stop",
        reason: "enough",
        task_sketch: "Band and rescale values by rank.",
      });
    }
    if (first.startsWith("You are authoring a programming task")) {
      if (first.includes("### Round 1 – `mini._impl.score_bands`")) return DRAFT2;
      if (first.includes("## Problem with the previous attempt")) return draft(GOAL, GOOD_CALLS);
      if (messages.length === 1) {
        return draft("Use normalize to rescale values, then band them.", GOOD_CALLS);
      }
      // the corrected draft of attempt 1 keeps too few working calls
      return draft(GOAL, ["band_labels([])", "stretch([1, 2], 5, 1)", "band_labels([3, 1, 2])"]);
    }
    throw new Error(`unexpected prompt: ${first.slice(0, 80)}`);
  };
}

Deno.test("construct: walk, synthesis, verification with regeneration, cache — over HTTP", async () => {
  const { server, requests, baseURL } = scriptedServer(pipelineScript());
  const out = await Deno.makeTempDir();
  const cacheRoot = await Deno.makeTempDir();
  try {
    const client = new ModelClient({
      baseURL,
      model: "scripted",
      apiKey: "test-key",
      cache: new Cache("llm", 1, cacheRoot),
      retries: 0,
    });
    const opts = {
      repo: FIXTURE,
      package: "mini",
      out,
      chain: "mini-001",
      turns: 2,
      nfun: 2,
      lo: 2,
      hi: 3,
      start: "mini._impl.rank.rank_scores",
      python: PY,
    };
    const result = await buildChain(client, opts);

    // the walk: B.1 prompt, the invalid reply answered and re-asked, then expand and stop; the
    // invalid reply was not cached, so attempt 2's walk asks the first prompt again (4 requests)
    const walkPrompts = requests.filter((m) =>
      m[0].content.startsWith("You are assembling") && m[0].content.includes("Round 1.")
    );
    assert.equal(walkPrompts.length, 4);
    assert.equal(walkPrompts[3].length, 1);
    assert.match(walkPrompts[0][0].content, /Repository: mini\n/);
    assert.match(walkPrompts[0][0].content, /## Menu – you may expand ONE of these, or stop/);
    assert.match(walkPrompts[0][0].content, /Collect 2-3 symbols/);
    assert.match(walkPrompts[0][0].content, /\{"action": "expand" \| "stop",/);
    assert.match(walkPrompts[1][2].content, /^Invalid reply: reply is not valid JSON/);
    const turn = result.turns[0];
    assert.deepEqual(turn.evidence.symbols, [
      "mini._impl.rank.rank_scores",
      "mini._impl.scale.normalize",
    ]);
    assert.equal(turn.evidence.sketch, "Band and rescale values by rank.");

    // the synthesis: the draft naming an evidence symbol was rejected with the reason
    const synth = requests.filter((m) => m[0].content.startsWith("You are authoring"));
    assert.match(synth[0][0].content, /3\. functions: 2 functions/);
    assert.match(synth[1][2].content, /names evidence symbol\(s\): mini\._impl\.scale\.normalize/);

    // verification: attempt 1 kept 1 case → regenerated; attempt 2 dropped 3 calls
    assert.equal(result.rejected.length, 1);
    assert.match(result.rejected[0].reason, /too few verified cases \(1 of 3 kept/);
    assert.match(synth[2][0].content, /## Problem with the previous attempt\n\ntoo few verified/);
    assert.equal(turn.module, "mini._impl.score_bands");
    assert.equal(turn.path, "mini/_impl/score_bands.py");
    assert.deepEqual(turn.cases.map((c) => c.expected), GOOD_EXPECTED);
    assert.deepEqual(turn.dropped.map((d) => d.call), GOOD_CALLS.slice(6));
    assert.match(turn.dropped[0].reason, /^raised ValueError: lo must be below hi/);
    assert.equal(turn.dropped[1].reason, "unstable repr across runs");
    assert.match(turn.dropped[2].reason, /^raised ValueError/);

    // written in the layout's tasks format
    const chain = JSON.parse(await Deno.readTextFile(`${out}/tasks/mini-001/chain.json`));
    assert.equal(chain.repo.package, "mini");
    assert.equal(
      await Deno.realPath(`${out}/tasks/mini-001/${chain.repo.workspace}`),
      await Deno.realPath(FIXTURE),
    );
    assert.equal(chain.turns[0].path, "mini/_impl/score_bands.py");
    const tests = JSON.parse(await Deno.readTextFile(`${out}/tasks/mini-001/turn1/tests.json`));
    assert.deepEqual(tests.cases[0], {
      id: "case_01",
      call: "band_labels([3, 1, 2])",
      expected: "[2, 0, 1]",
    });
    assert.equal(await Deno.readTextFile(`${out}/tasks/mini-001/turn1/solution.py`), SOLUTION);
    const requirement = await Deno.readTextFile(`${out}/tasks/mini-001/turn1/requirement.md`);
    assert.ok(requirement.startsWith(GOAL));
    assert.ok(!/normalize|rank_scores/.test(requirement));
    // turn 2 departs from the turn-1 artifact, with the nearest unused internal symbol injected
    const walk2 = requests.find((m) => m[0].content.includes("Round 2."))![0].content;
    assert.match(walk2, /departs from `mini\._impl\.score_bands\.band_labels`/);
    assert.match(walk2, /The nearby repository symbol `mini\._impl\.rank\.dense_rank`, not used/);
    const t2 = result.turns[1];
    assert.deepEqual(t2.evidence.symbols, [
      "mini._impl.score_bands.band_labels",
      "mini._impl.rank.dense_rank",
    ]);
    assert.equal(t2.evidence.injected, "mini._impl.rank.dense_rank");
    assert.equal(t2.path, "mini/_impl/rank_report.py");
    assert.deepEqual(t2.cases.map((c) => c.expected), EXPECTED2);
    const req2 = await Deno.readTextFile(`${out}/tasks/mini-001/turn2/requirement.md`);
    assert.match(req2, /### Round 1 – `mini\._impl\.score_bands`\n\n- `band_labels`/);
    // the independent re-check ran both turns again from a fresh W0
    assert.deepEqual(result.recheck, [
      { turn: 1, cases: 6, failed: [] },
      { turn: 2, cases: 6, failed: [] },
    ]);
    const n = requests.length;
    // turn 1: 3 walk + 2 synthesis (attempt 1) + 1 walk (its invalid first reply was not
    // cached) + 1 synthesis (attempt 2); turn 2: 1 walk + 1 synthesis
    assert.equal(n, 9);

    // a rerun (the CLI, on the same response cache) exits 0, writes the same chain and asks the
    // server only for the one reply that was rejected (the draft naming an evidence symbol)
    const out3 = await Deno.makeTempDir();
    const r = await cli([
      "build",
      ...["--repo", FIXTURE, "--package", "mini", "--out", out3, "--chain", "mini-001"],
      ...["--turns", "1", "--functions", "2", "--lo", "2", "--hi", "3"],
      ...["--start", "mini._impl.rank.rank_scores", "--python", PY],
      ...["--base-url", baseURL, "--model", "scripted"],
    ], { REPOREUSE_API_KEY: "test-key", REPOREUSE_CACHE_DIR: cacheRoot });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /wrote .*mini-001: 1 turns, 6 verified cases, 1 rejected attempts/);
    assert.match(r.stdout, /model requests 1, cache hits \d+/);
    assert.equal(requests.length, n + 1);
    assert.match(requests[n][0].content, /^You are authoring/);
    assert.equal(requests[n].length, 1);
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(`${out3}/tasks/mini-001/turn1/tests.json`)).cases,
      turn.cases,
    );
    await Deno.remove(out3, { recursive: true });
  } finally {
    await server.shutdown();
    await Deno.remove(out, { recursive: true });
    await Deno.remove(cacheRoot, { recursive: true });
  }
});

Deno.test("construct: the reuse check rejects a reference that does not call its evidence", async () => {
  const ws = await Deno.makeTempDir();
  try {
    await prepareWorkspace(FIXTURE, ws, { package: "mini", python: PY });
    const noCall = SOLUTION.replace(
      "    out = normalize(values, lo, hi)",
      "    _ = normalize  # imported and referenced, never called\n" +
        "    vmin, vmax = min(values), max(values)\n" +
        "    out = [lo + (v - vmin) / ((vmax - vmin) or 1) * (hi - lo) for v in values]",
    );
    const turn = {
      module: "mini._impl.score_bands",
      path: "mini/_impl/score_bands.py",
      functions: FUNCTIONS,
      solution: noCall,
      calls: GOOD_CALLS,
    };
    const opts = {
      workspace: ws,
      evidence: ["mini._impl.rank.rank_scores", "mini._impl.scale.normalize"],
      calledSymbols: (w: string, t: typeof turn) => calledSymbols(w, t, { package: "mini" }),
      python: PY,
    };
    const rejected = await verifyTurn(turn, opts);
    assert.equal(rejected.ok, false);
    assert.deepEqual(rejected.problems, [
      "reference does not call evidence symbol(s): mini._impl.scale.normalize",
    ]);
    // the rejected module is not left in the reference workspace
    await assert.rejects(Deno.stat(`${ws}/mini/_impl/score_bands.py`));
    // a module that already exists is never overwritten
    const clash = await verifyTurn({
      ...turn,
      path: "mini/_impl/rank.py",
      module: "mini._impl.rank",
    }, opts);
    assert.deepEqual(clash.problems, [
      "mini/_impl/rank.py already exists in the repository: choose another module name",
    ]);
    assert.match(await Deno.readTextFile(`${ws}/mini/_impl/rank.py`), /def dense_rank/);
    // the genuine reference passes and stays installed for later turns
    const ok = await verifyTurn({ ...turn, solution: SOLUTION }, opts);
    assert.equal(ok.ok, true, ok.problems.join("; "));
    assert.equal(await Deno.readTextFile(`${ws}/mini/_impl/score_bands.py`), SOLUTION);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

async function cli(args: string[], env: Record<string, string>) {
  const r = await runCli(args, {
    cwd: ROOT,
    // the key only from these variables: blank them unless the test sets them
    env: { REPOREUSE_API_KEY: "", OPENAI_API_KEY: "", ...env },
  });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("construct: build CLI errors are one clear line", async () => {
  const out = await Deno.makeTempDir();
  const base = ["build", "--repo", FIXTURE, "--package", "mini", "--out", out];
  const env: Record<string, string> = {};
  try {
    const port = closedPort();
    const unreachable = await cli([...base, "--base-url", `http://127.0.0.1:${port}/v1`], {
      ...env,
      REPOREUSE_API_KEY: "sk-secret-test-key",
    });
    assert.notEqual(unreachable.code, 0);
    assert.equal(
      unreachable.stderr.trim(),
      `reporeuse build: cannot reach model endpoint http://127.0.0.1:${port}/v1 (connection refused)`,
    );
    assert.ok(!unreachable.stderr.includes("sk-secret-test-key"));

    const noKey = await cli([...base, "--base-url", `http://127.0.0.1:${port}/v1`], env);
    assert.notEqual(noKey.code, 0);
    assert.equal(
      noKey.stderr.trim(),
      "reporeuse build: no API key: set REPOREUSE_API_KEY (or OPENAI_API_KEY) in the environment",
    );

    const missing = await cli(["build", "--repo", FIXTURE], env);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.trim().split("\n").length, 1);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
