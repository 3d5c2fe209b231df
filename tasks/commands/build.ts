/**
 * `deno task reporeuse build` — the construction pipeline (paper §3.1) over an OpenAI-compatible
 * API: guided evidence walks, task synthesis, execution verification; writes a verified chain in
 * the tasks format of the run-log layout.
 *
 * @module
 */
import { parseOptions } from "./_args.ts";
import {
  apiKeyFromEnv,
  buildChain,
  DEFAULT_TIMEOUT_MS,
  ModelClient,
  ModelError,
} from "../../lib/construct/mod.ts";

export const summary = "build verified task chains from a repository with a model (§3.1)";

export const help =
  `Usage: deno task reporeuse build --repo <W0> --package <name> --out <corpus> [options]

Builds one verified task chain from a repository with the paper's construction pipeline
(§3.1, Appendix B.1): guided evidence walks over the dependency graph, six-block task
synthesis, execution verification in a Python subprocess. Writes
<corpus>/tasks/<chain>/{chain.json, turn<N>/{requirement.md, solution.py, tests.json}}.

Model access: any OpenAI-compatible endpoint. The API key is read only from the environment
(REPOREUSE_API_KEY, else OPENAI_API_KEY). Responses are cached (keyed by SHA-256 of model,
messages and parameters; $REPOREUSE_CACHE_DIR), so a rerun costs nothing; a reply the pipeline
rejects (not the JSON it asked for) is never cached. A reply over 8 MiB is refused.

Options:
  --repo <dir>         W0: the repository root holding the package directory (required)
  --package <name>     package directory inside W0, e.g. seaborn (required)
  --out <dir>          corpus directory to write tasks/ into (required)
  --chain <id>         chain id (default <package>-001); with --chains, the id prefix
  --chains <n>         build n chains (<prefix>-001 …), each from another starting point (default 1)
  --base-url <url>     API base URL (default $REPOREUSE_BASE_URL or https://api.openai.com/v1)
  --model <name>       model (default $REPOREUSE_MODEL or gpt-4o)
  --turns <n>          turns per chain (default 5)
  --functions <n>      functions per turn (default 3)
  --lo <n> --hi <n>    evidence symbols per walk (default 3-5)
  --start <id>         starting symbol of turn 1 (default: a candidate chosen by --seed)
  --seed <n>           choice of starting points (default 0)
  --attempts <n>       attempts per turn before giving up (default 3)
  --min-cases <n>      fewest verified test cases per turn (default 5)
  --python <path>      interpreter with the repository's dependencies (default $REPOREUSE_PYTHON or python3)
  --retries <n>        retries of a failed model request (5xx, 429, connection), with exponential
                       backoff or the wait the endpoint's Retry-After asks, up to 120 s (default 3)
  --timeout <s>        deadline of one model request, reply included; a request that times out is
                       not retried (default 300)
  --no-cache           do not read or write the response cache
  --repo-name <name>   repository name in chain.json (default: the package)
  --version <v>        repository version in chain.json
  -h, --help           this help

Exit codes: 0 every chain written; 1 a chain could not be verified (the others are written);
2 bad usage, no API key or unreachable endpoint (one line on stderr).`;

function fail(message: string, code = 2): number {
  console.error(`reporeuse build: ${message}`);
  return code;
}

/**
 * Checks that the endpoint's host accepts TCP connections within `ms` (a clear error before any
 * work; a host that drops the connection attempt would otherwise hold it for minutes).
 */
async function reachable(baseURL: string, ms: number): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return `invalid --base-url ${JSON.stringify(baseURL)}`;
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), ms));
  const connecting = Deno.connect({ hostname, port });
  try {
    const conn = await Promise.race([connecting, late]);
    if (conn === "late") {
      connecting.then((c) => c.close(), () => {}); // whenever it ends
      return `cannot reach model endpoint ${baseURL} (no connection within ${ms / 1000} s)`;
    }
    conn.close();
    return null;
  } catch (e) {
    const why = e instanceof Deno.errors.ConnectionRefused
      ? "connection refused"
      : (e as Error).message.split("\n")[0];
    return `cannot reach model endpoint ${baseURL} (${why})`;
  } finally {
    clearTimeout(timer);
  }
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("reporeuse build", {
    args,
    options: {
      repo: { type: "string" },
      package: { type: "string" },
      out: { type: "string" },
      chain: { type: "string" },
      chains: { type: "string" },
      "base-url": { type: "string" },
      model: { type: "string" },
      turns: { type: "string" },
      functions: { type: "string" },
      lo: { type: "string" },
      hi: { type: "string" },
      start: { type: "string" },
      seed: { type: "string" },
      attempts: { type: "string" },
      "min-cases": { type: "string" },
      python: { type: "string" },
      retries: { type: "string" },
      timeout: { type: "string" },
      "no-cache": { type: "boolean" },
      "repo-name": { type: "string" },
      version: { type: "string" },
    },
    allowPositionals: false,
  }, " (see --help)");
  if (!parsed) return 2;
  const v = parsed.values;
  for (const k of ["repo", "package", "out"] as const) {
    if (!v[k]) return fail(`--${k} is required (see --help)`);
  }
  const ints: Record<string, number | undefined> = {};
  for (
    const k of [
      "turns",
      "functions",
      "lo",
      "hi",
      "seed",
      "attempts",
      "min-cases",
      "retries",
      "chains",
    ]
  ) {
    const raw = (v as Record<string, unknown>)[k];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) return fail(`--${k} must be a non-negative integer`);
    ints[k] = n;
  }
  let timeoutMs: number | undefined;
  if (v.timeout !== undefined) {
    const s = Number(v.timeout);
    if (!Number.isFinite(s) || s <= 0) {
      return fail(
        `--timeout must be a positive number of seconds (got ${JSON.stringify(v.timeout)})`,
      );
    }
    timeoutMs = s * 1000;
  }
  try {
    if (!(await Deno.stat(`${v.repo}/${v.package}`)).isDirectory) throw new Error();
  } catch {
    return fail(`${v.repo}/${v.package}: not a package directory`);
  }
  if (!apiKeyFromEnv()) {
    return fail("no API key: set REPOREUSE_API_KEY (or OPENAI_API_KEY) in the environment");
  }
  const baseURL = v["base-url"] ?? Deno.env.get("REPOREUSE_BASE_URL") ??
    "https://api.openai.com/v1";
  // behind a proxy only the HTTP client can tell; otherwise fail fast with one line
  const proxied = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].some((k) =>
    Deno.env.get(k)
  );
  const connectMs = Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, 30_000);
  const unreachable = proxied ? null : await reachable(baseURL, connectMs);
  if (unreachable) return fail(unreachable);
  try {
    const client = new ModelClient({
      baseURL,
      model: v.model ?? Deno.env.get("REPOREUSE_MODEL") ?? "gpt-4o",
      retries: ints.retries,
      timeoutMs,
      ...(v["no-cache"] ? { cache: null } : {}),
    });
    const count = ints.chains ?? 1;
    if (count > 1 && v.start) return fail("--start applies to one chain; drop it or --chains");
    let failed = 0;
    for (let i = 0; i < count; i++) {
      const chain = count === 1
        ? v.chain ?? `${v.package}-001`
        : `${v.chain ?? v.package}-${String(i + 1).padStart(3, "0")}`;
      try {
        const result = await buildChain(client, {
          repo: v.repo!,
          package: v.package!,
          out: v.out!,
          chain,
          repoName: v["repo-name"],
          version: v.version,
          turns: ints.turns,
          nfun: ints.functions,
          lo: ints.lo,
          hi: ints.hi,
          start: v.start,
          // chains differ by their starting points
          seed: (ints.seed ?? 0) + i * 101,
          attempts: ints.attempts,
          minCases: ints["min-cases"],
          python: v.python,
          log: (line) => console.error(`${chain}: ${line}`),
        });
        const cases = result.turns.reduce((s, t) => s + t.cases.length, 0);
        console.log(
          `wrote ${result.dir}: ${result.turns.length} turns, ${cases} verified cases, ${result.rejected.length} rejected attempts`,
        );
      } catch (e) {
        if (e instanceof ModelError) throw e;
        failed++;
        console.error(`reporeuse build: ${chain}: ${(e as Error).message.split("\n")[0]}`);
      }
    }
    console.log(
      `model requests ${client.usage.requests}, cache hits ${client.usage.cacheHits}, tokens ${client.usage.promptTokens}+${client.usage.completionTokens}`,
    );
    if (failed) return 1;
    return 0;
  } catch (e) {
    if (e instanceof ModelError) return fail(e.message);
    return fail((e as Error).message.split("\n")[0], 1);
  }
}
