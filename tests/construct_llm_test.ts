/**
 * The model client over HTTP (retries with backoff on 5xx/429, no retry on 401, cache keyed by
 * model + messages + parameters) and the strict walk-reply / synthesis-draft validators.
 */
import assert from "node:assert/strict";
import { ModelClient, ModelError, parseJsonReply } from "../lib/construct/llm.ts";
import { fillTemplate, validateWalkReply, WALK_PROMPT } from "../lib/construct/walk.ts";
import { namedEvidence, validateDraft } from "../lib/construct/synth.ts";
import { Cache } from "../lib/util/cache.ts";
import { runCli } from "./cli_helpers.ts";

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

// ---- a misbehaving endpoint (issue 11, item 15): bounded time, bounded memory, nothing cached

/** A scripted endpoint on loopback: `reply(n, body)` answers the n-th request (1-based). */
function scripted(
  reply: (n: number, body: Record<string, unknown>) => Response | Promise<Response>,
) {
  const times: number[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    times.push(performance.now());
    return await reply(times.length, body);
  });
  return { s, times, baseURL: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}/v1` };
}

function completion(content: string): Response {
  return Response.json({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

/** Fails the test instead of hanging when `p` takes longer than `ms`. */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)
  );
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}

const X = [{ role: "user" as const, content: "x" }];

Deno.test("llm: a 429's Retry-After is waited for; a too long one fails at once, saying so", async () => {
  const { s, times, baseURL } = scripted((n) =>
    n === 1
      ? Response.json({ error: { message: "slow down" } }, {
        status: 429,
        headers: { "retry-after": "2" },
      })
      : completion("ok")
  );
  const long = scripted(() =>
    Response.json({ error: { message: "quota" } }, {
      status: 429,
      headers: { "retry-after": "3600" },
    })
  );
  try {
    const c = new ModelClient({ baseURL, model: "m", apiKey: "k", cache: null, backoffMs: 10 });
    assert.equal(await within(20_000, c.complete(X)), "ok");
    assert.equal(times.length, 2);
    assert.ok(times[1] - times[0] >= 1900, `retried after ${times[1] - times[0]} ms, not 2 s`);

    const d = new ModelClient({ baseURL: long.baseURL, model: "m", apiKey: "k", cache: null });
    const err = await within(20_000, d.complete(X).catch((e) => e));
    assert.ok(err instanceof ModelError);
    assert.equal(
      err.message,
      `model endpoint ${long.baseURL} answered 429: 429 quota; it asks to retry after 3600 s, ` +
        "longer than 120 s: try again later",
    );
    assert.equal(long.times.length, 1);
  } finally {
    await s.shutdown();
    await long.s.shutdown();
  }
});

Deno.test("llm: x-should-retry overrides the status, as in the SDK", async () => {
  const no = scripted(() =>
    Response.json({ error: { message: "down" } }, {
      status: 503,
      headers: { "x-should-retry": "false" },
    })
  );
  const yes = scripted((n) =>
    n === 1
      ? Response.json({ error: { message: "bad" } }, {
        status: 400,
        headers: { "x-should-retry": "true" },
      })
      : completion("ok")
  );
  try {
    const opts = { model: "m", apiKey: "k", cache: null, backoffMs: 1 };
    const err = await new ModelClient({ ...opts, baseURL: no.baseURL }).complete(X).catch((e) => e);
    assert.ok(err instanceof ModelError);
    assert.equal(no.times.length, 1);
    assert.equal(await new ModelClient({ ...opts, baseURL: yes.baseURL }).complete(X), "ok");
    assert.equal(yes.times.length, 2);
  } finally {
    await no.s.shutdown();
    await yes.s.shutdown();
  }
});

Deno.test("llm: an endpoint that never answers, or trickles its reply, fails at the deadline without retry", async () => {
  // accepts connections and never writes
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  // answers 200 at once, then one byte of body a second
  const trickle = scripted(() =>
    new Response(
      new ReadableStream({
        async pull(ctl) {
          await new Promise((r) => setTimeout(r, 1000));
          ctl.enqueue(new TextEncoder().encode(" "));
        },
      }),
      { headers: { "content-type": "application/json" } },
    )
  );
  try {
    const port = (silent.addr as Deno.NetAddr).port;
    for (const baseURL of [`http://127.0.0.1:${port}/v1`, trickle.baseURL]) {
      const c = new ModelClient({ baseURL, model: "m", apiKey: "k", cache: null, timeoutMs: 500 });
      const started = performance.now();
      const err = await within(15_000, c.complete(X).catch((e) => e));
      assert.ok(err instanceof ModelError, String(err));
      assert.equal(
        err.message,
        `model endpoint ${baseURL} did not answer within 0.5 s (raise the limit with --timeout)`,
      );
      assert.equal(c.usage.requests, 1);
      assert.ok(performance.now() - started < 5000);
    }
  } finally {
    silent.close();
    held.forEach((c) => c.close());
    await trickle.s.shutdown();
  }
});

Deno.test("llm: a reply over the size limit is refused while it is read", async () => {
  let sent = 0;
  const huge = scripted(() => {
    const head = new TextEncoder().encode('{"choices":[{"message":{"content":"');
    const block = new TextEncoder().encode("a".repeat(1 << 20));
    let i = 0;
    return new Response(
      new ReadableStream({
        pull(ctl) {
          const chunk = i++ === 0 ? head : i > 64 ? new TextEncoder().encode('"}}]}') : block;
          sent += chunk.length;
          ctl.enqueue(chunk);
          if (i > 64) ctl.close();
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  });
  try {
    const c = new ModelClient({
      baseURL: huge.baseURL,
      model: "m",
      apiKey: "k",
      cache: null,
      maxReplyBytes: 1 << 20,
    });
    const err = await within(20_000, c.complete(X).catch((e) => e));
    assert.ok(err instanceof ModelError, String(err));
    assert.equal(
      err.message,
      `model endpoint ${huge.baseURL} sent a reply over 1048576 bytes; refused ` +
        "(is it an OpenAI-compatible API?)",
    );
    assert.equal(c.usage.requests, 1);
    assert.ok(sent < 16 << 20, `the server sent ${sent} bytes before the client hung up`);
  } finally {
    await huge.s.shutdown();
  }
});

Deno.test("llm: a reply the caller rejects is neither cached nor replayed; a non-JSON body is an error", async () => {
  const replies = ["not json", '{"ok": 1}'];
  const { s, times, baseURL } = scripted((n) => completion(replies[n - 1] ?? "unexpected"));
  const html = scripted(() =>
    new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } })
  );
  const root = await Deno.makeTempDir();
  try {
    const cache = new Cache("llm", 1, root);
    const c = new ModelClient({ baseURL, model: "m", apiKey: "k", cache });
    // the first reply is returned (the caller says what is wrong) but not kept
    assert.equal(await c.complete(X, parseJsonReply), "not json");
    assert.equal(await c.complete(X, parseJsonReply), '{"ok": 1}');
    assert.equal(await c.complete(X, parseJsonReply), '{"ok": 1}');
    assert.equal(times.length, 2);
    assert.equal(c.usage.cacheHits, 1);
    // an entry an older version cached although it was unusable is asked for again
    const other = [{ role: "user" as const, content: "y" }];
    await cache.set(ModelClient.key("m", other, { temperature: 0 }), { content: "garbage" });
    assert.equal(await c.complete(other, parseJsonReply), "unexpected");
    assert.equal(times.length, 3);

    const h = new ModelClient({
      baseURL: html.baseURL,
      model: "m",
      apiKey: "k",
      cache,
      retries: 1,
    });
    const z = [{ role: "user" as const, content: "z" }];
    const err = await h.complete(z).catch((e) => e);
    assert.ok(err instanceof ModelError);
    assert.equal(
      err.message,
      `model endpoint ${html.baseURL} sent a reply without message content (not JSON)`,
    );
    assert.equal(html.times.length, 2);
    assert.equal(await cache.get(ModelClient.key("m", z, { temperature: 0 })), undefined);
  } finally {
    await s.shutdown();
    await html.s.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

const MINIREPO = new URL("./fixtures/construct/minirepo", import.meta.url).pathname;

/** `reporeuse build` on the mini fixture against `baseURL`, with its own TMPDIR. */
async function build(baseURL: string, ...extra: string[]) {
  const tmp = await Deno.makeTempDir();
  const out = await Deno.makeTempDir();
  const r = await runCli([
    "build",
    "--repo",
    MINIREPO,
    "--package",
    "mini",
    "--out",
    out,
    "--python",
    "/usr/bin/python3",
    "--base-url",
    baseURL,
    "--no-cache",
    "--turns",
    "1",
    ...extra,
  ], { env: { REPOREUSE_API_KEY: "k", TMPDIR: tmp }, timeoutMs: 90_000 });
  const left: string[] = [];
  for await (const e of Deno.readDir(tmp)) left.push(e.name);
  await Deno.remove(tmp, { recursive: true });
  await Deno.remove(out, { recursive: true });
  return { code: r.code, err: r.err.trim(), left };
}

Deno.test("build CLI: --timeout bounds a silent endpoint; a huge reply leaves no temp directory", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  const huge = scripted(() => {
    let i = 0;
    return new Response(
      new ReadableStream({
        pull(ctl) {
          if (i++ >= 200) return ctl.close(); // 200 MB if read to the end
          ctl.enqueue(new Uint8Array(1 << 20).fill(32));
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  });
  try {
    const url = `http://127.0.0.1:${(silent.addr as Deno.NetAddr).port}/v1`;
    const started = performance.now();
    const r = await build(url, "--timeout", "1");
    assert.equal(r.code, 2, r.err);
    assert.equal(
      r.err.split("\n").at(-1),
      `reporeuse build: model endpoint ${url} did not answer within 1 s (raise the limit with --timeout)`,
    );
    assert.ok(performance.now() - started < 60_000);
    assert.deepEqual(r.left, []);

    const h = await build(huge.baseURL);
    assert.equal(h.code, 2, h.err);
    assert.equal(
      h.err.split("\n").at(-1),
      `reporeuse build: model endpoint ${huge.baseURL} sent a reply over 8388608 bytes; refused ` +
        "(is it an OpenAI-compatible API?)",
    );
    assert.deepEqual(h.left, []);

    const bad = await build(url, "--timeout", "soon");
    assert.equal(bad.code, 2);
    assert.equal(
      bad.err,
      'reporeuse build: --timeout must be a positive number of seconds (got "soon")',
    );
  } finally {
    silent.close();
    held.forEach((c) => c.close());
    await huge.s.shutdown();
  }
});

Deno.test("build CLI: a host that drops connection attempts is one line within --timeout", async () => {
  // a listener that accepts nothing, with a backlog of one: once that slot is taken, the kernel
  // drops further connection attempts, as a firewall does
  const py = new Deno.Command("/usr/bin/python3", {
    args: [
      "-c",
      "import socket, time\n" +
      "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0)\n" +
      "print(s.getsockname()[1], flush=True); time.sleep(120)",
    ],
    stdout: "piped",
  }).spawn();
  try {
    const reader = py.stdout.getReader();
    const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
    reader.releaseLock();
    const first = await Deno.connect({ hostname: "127.0.0.1", port }); // fills the backlog
    try {
      const url = `http://127.0.0.1:${port}/v1`;
      const started = performance.now();
      const r = await build(url, "--timeout", "2");
      assert.equal(r.code, 2, r.err);
      assert.equal(
        r.err,
        `reporeuse build: cannot reach model endpoint ${url} (no connection within 2 s)`,
      );
      assert.ok(performance.now() - started < 30_000);
    } finally {
      first.close();
    }
  } finally {
    py.kill("SIGKILL");
    await py.status;
    await py.stdout.cancel().catch(() => {});
  }
});
