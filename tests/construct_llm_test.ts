/**
 * The model client over HTTP (retries with backoff on 5xx/429, no retry on 401, cache keyed by
 * model + messages + parameters) and the strict walk-reply / synthesis-draft validators.
 */
import assert from "node:assert/strict";
import { ModelClient, ModelError } from "../lib/construct/llm.ts";
import { fillTemplate, validateWalkReply, WALK_PROMPT } from "../lib/construct/walk.ts";
import { namedEvidence, validateDraft } from "../lib/construct/synth.ts";
import { Cache } from "../lib/util/cache.ts";

function server(statuses: number[]) {
  const seen: { auth: string | null; body: Record<string, unknown> }[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    seen.push({ auth: req.headers.get("authorization"), body });
    const status = statuses[seen.length - 1] ?? 200;
    if (status !== 200) {
      return Response.json({ error: { message: `scripted ${status}`, type: "x" } }, { status });
    }
    return Response.json({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: body.model,
      choices: [{
        index: 0,
        message: { role: "assistant", content: `reply ${seen.length}` },
        finish_reason: "stop",
      }],
    });
  });
  return { s, seen, baseURL: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}/v1` };
}

Deno.test("llm: retries 5xx and 429 with backoff, then caches the reply", async () => {
  const { s, seen, baseURL } = server([500, 429, 200]);
  const root = await Deno.makeTempDir();
  try {
    const cache = new Cache("llm", 1, root);
    const c = new ModelClient({
      baseURL,
      model: "m1",
      apiKey: "k-1",
      retries: 3,
      backoffMs: 10,
      cache,
    });
    const messages = [{ role: "user" as const, content: "hello" }];
    assert.equal(await c.complete(messages), "reply 3");
    assert.equal(seen.length, 3);
    assert.equal(seen[0].auth, "Bearer k-1");
    assert.equal(seen[0].body.model, "m1");
    assert.equal(seen[0].body.temperature, 0);
    // same request: from the cache; another model: a new request
    assert.equal(await c.complete(messages), "reply 3");
    assert.equal(seen.length, 3);
    assert.equal(c.usage.cacheHits, 1);
    const other = new ModelClient({ baseURL, model: "m2", apiKey: "k-1", cache });
    assert.equal(await other.complete(messages), "reply 4");
    assert.notEqual(
      ModelClient.key("m1", messages, { temperature: 0 }),
      ModelClient.key("m1", messages, { temperature: 1 }),
    );
  } finally {
    await s.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm: a rejected key fails at once with one line that does not contain the key", async () => {
  const { s, seen, baseURL } = server([401, 200]);
  try {
    const c = new ModelClient({
      baseURL,
      model: "m",
      apiKey: "sk-very-secret",
      cache: null,
      backoffMs: 1,
    });
    const err = await c.complete([{ role: "user", content: "x" }]).catch((e) => e);
    assert.ok(err instanceof ModelError);
    assert.equal(err.message, `model endpoint ${baseURL} rejected the API key (401)`);
    assert.equal(seen.length, 1);
  } finally {
    await s.shutdown();
  }
});

Deno.test("llm: an unreachable endpoint is a ModelError after the retries", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const c = new ModelClient({
    baseURL: `http://127.0.0.1:${port}/v1`,
    model: "m",
    apiKey: "k",
    cache: null,
    retries: 1,
    backoffMs: 1,
  });
  await assert.rejects(
    c.complete([{ role: "user", content: "x" }]),
    (e) =>
      e instanceof ModelError &&
      e.message === `cannot reach model endpoint http://127.0.0.1:${port}/v1`,
  );
  assert.equal(c.usage.requests, 2);
});

Deno.test("walk: strict JSON replies are validated against the menu", () => {
  assert.deepEqual(validateWalkReply('{"action": "expand", "choice": 2, "reason": "r"}', 3), {
    action: "expand",
    choice: 2,
    reason: "r",
  });
  assert.throws(() => validateWalkReply('{"action": "expand", "choice": 4}', 3), /between 1 and 3/);
  assert.throws(() => validateWalkReply('{"action": "expand", "choice": "2"}', 3), /menu number/);
  assert.throws(() => validateWalkReply('{"action": "stop", "reason": "r"}', 3), /task_sketch/);
  assert.throws(() => validateWalkReply('{"action": "jump"}', 3), /"expand" or "stop"/);
  assert.throws(() => validateWalkReply("expand 2", 3), /not valid JSON/);
  assert.throws(() => validateWalkReply("[1]", 3), /not a JSON object/);
});

Deno.test("walk: the B.1 prompt is filled with str.format semantics", () => {
  const p = fillTemplate(WALK_PROMPT, {
    repo_name: "R",
    round_ctx: "C {x}",
    collected: "none",
    current_block: "cur",
    menu: "1. a",
    lo: 3,
    hi: 5,
  });
  assert.ok(p.includes("Repository: R\n\nC {x}\n"));
  assert.ok(p.includes("Collect 3-5 symbols"));
  assert.ok(p.includes('{"action": "expand" | "stop",\n"choice"'));
  assert.ok(p.endsWith('describing the task these symbols support>"}'));
  assert.throws(() => fillTemplate("{missing}", {}), /\{missing\} has no value/);
});

Deno.test("synthesis: drafts are checked block by block", () => {
  const good = {
    module_name: "level_tools",
    goal: "Order levels.",
    functions: [{ name: "f", signature: "def f(x)", returns: "list", behaviour: "b" }],
    solution: "from p.q import helper\n\ndef f(x):\n    return helper(x)\n",
    calls: [{ call: "f(1)", repr: "[1]" }],
    read_targets: [{ symbol: "p.q.helper", why: "zero handling" }],
  };
  const d = validateDraft(JSON.stringify(good), ["p.q.helper"], 1);
  assert.equal(d.moduleName, "level_tools");
  assert.deepEqual(d.calls, ["f(1)"]);
  const bad = {
    ...good,
    module_name: "LevelTools",
    goal: "Wrap helper() nicely.",
    solution: "def g(x):\n    return x\n\n\nclass Helper:\n    pass\n",
  };
  assert.throws(
    () => validateDraft(JSON.stringify(bad), ["p.q.helper"], 2),
    (e: Error) =>
      /module_name must be snake_case/.test(e.message) &&
      /exactly 2 functions/.test(e.message) &&
      /does not define f/.test(e.message) &&
      /names evidence symbol\(s\): p\.q\.helper/.test(e.message) &&
      /no module-level helpers allowed \(g, Helper\)/.test(e.message),
  );
  assert.deepEqual(namedEvidence("uses the helpers module", ["p.q.helper"]), []);
  assert.deepEqual(namedEvidence("calls p.q.helper", ["p.q.helper"]), ["p.q.helper"]);
});
