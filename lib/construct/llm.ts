/**
 * Model access for the construction pipeline through `npm:openai` against any OpenAI-compatible
 * endpoint: configurable base URL and model, the API key only from the environment
 * (`REPOREUSE_API_KEY`, else `OPENAI_API_KEY`; never logged), and a content-hash response cache
 * (keyed by SHA-256 of model + messages + parameters) so that a rerun of the pipeline costs
 * nothing.
 *
 * A misbehaving endpoint costs bounded time and memory: each request (reply body included) has
 * a deadline, and one that times out is not retried (it would most likely time out again);
 * 408/409/429/5xx and connection failures are retried with exponential backoff, waiting what a
 * `Retry-After` / `retry-after-ms` header asks (a wait longer than `maxRetryAfterS` fails at
 * once, saying so); a reply body over `maxReplyBytes` is refused while it is read. Only replies
 * the caller accepts are cached, so a malformed reply is never replayed.
 *
 * @module
 */
import OpenAI from "openai";
import { Cache, sha256 } from "../util/mod.ts";

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Configuration of {@link ModelClient}. */
export interface ModelConfig {
  /** Base URL of the OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  model: string;
  /** API key; defaults to {@link apiKeyFromEnv}. */
  apiKey?: string;
  temperature?: number;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** First backoff delay in ms, doubled per retry (default 1000); `Retry-After` takes precedence. */
  backoffMs?: number;
  /** Deadline of one request, reply body included, in ms (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Longest `Retry-After` wait honoured, in seconds (default 120); a longer one fails at once. */
  maxRetryAfterS?: number;
  /** Largest reply body accepted, in bytes (default {@link MAX_REPLY_BYTES}). */
  maxReplyBytes?: number;
  /** Response cache; `null` disables it (default: the `llm` namespace of the content-hash cache). */
  cache?: Cache | null;
}

/** Default deadline of one model request: 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Default limit of a reply body: 8 MiB (a chat completion is a few KB to a few hundred KB). */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** A model call that failed for good: the message is one clear line (never contains the key). */
export class ModelError extends Error {
  override name = "ModelError";
}

/** The API key from the environment, if any. */
export function apiKeyFromEnv(): string | undefined {
  return Deno.env.get("REPOREUSE_API_KEY") || Deno.env.get("OPENAI_API_KEY") || undefined;
}

/** Usage counters of a client (cache hits cost nothing). */
export interface ModelUsage {
  requests: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
}

/** A chat-completion client with retries and a response cache. */
export class ModelClient {
  readonly config: ModelConfig;
  readonly usage: ModelUsage = { requests: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 };
  #client: OpenAI;
  #cache: Cache | null;

  constructor(config: ModelConfig) {
    const apiKey = config.apiKey ?? apiKeyFromEnv();
    if (!apiKey) {
      throw new ModelError(
        "no API key: set REPOREUSE_API_KEY (or OPENAI_API_KEY) in the environment",
      );
    }
    this.config = config;
    this.#client = new OpenAI({
      baseURL: config.baseURL,
      apiKey,
      maxRetries: 0, // retried below, where Retry-After, timeouts and oversized replies are handled
      timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: boundedFetch(config.maxReplyBytes ?? MAX_REPLY_BYTES),
    });
    this.#cache = config.cache === undefined ? new Cache("llm", 1) : config.cache;
  }

  /** The cache key of a request. */
  static key(model: string, messages: ChatMessage[], params: object): string {
    return sha256(JSON.stringify({ model, messages, params }));
  }

  /**
   * The assistant's reply text to `messages` (from the cache when the same request was made).
   * `accept` (e.g. a reply validator) throws on a reply the caller cannot use: such a reply is
   * returned but not cached, and a cached reply it rejects is asked for again.
   */
  async complete(
    messages: ChatMessage[],
    accept: (text: string) => unknown = () => {},
  ): Promise<string> {
    const params = { temperature: this.config.temperature ?? 0 };
    const key = ModelClient.key(this.config.model, messages, params);
    const cached = await this.#cache?.get<{ content: string }>(key);
    if (typeof cached?.content === "string" && accepts(accept, cached.content)) {
      this.usage.cacheHits++;
      return cached.content;
    }
    const content = await this.#request(messages, params);
    if (accepts(accept, content)) await this.#cache?.set(key, { content });
    return content;
  }

  async #request(messages: ChatMessage[], params: { temperature: number }): Promise<string> {
    const { baseURL } = this.config;
    const retries = this.config.retries ?? 3;
    const backoff = this.config.backoffMs ?? 1000;
    const maxWaitS = this.config.maxRetryAfterS ?? 120;
    let last = "";
    let wait = 0;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, wait));
      wait = backoff * 2 ** attempt;
      try {
        this.usage.requests++;
        const res = await this.#client.chat.completions.create({
          model: this.config.model,
          messages,
          ...params,
        });
        const content = res?.choices?.[0]?.message?.content;
        if (typeof content !== "string") {
          last = `model endpoint ${baseURL} sent a reply without message content` +
            (typeof res === "string" ? " (not JSON)" : "");
          continue;
        }
        this.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        this.usage.completionTokens += res.usage?.completion_tokens ?? 0;
        return content;
      } catch (e) {
        if (e instanceof OpenAI.APIConnectionTimeoutError) {
          const s = (this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000;
          throw new ModelError(
            `model endpoint ${baseURL} did not answer within ${s} s (raise the limit with --timeout)`,
          );
        }
        if (e instanceof OpenAI.APIConnectionError && e.cause instanceof ReplyTooLarge) {
          throw new ModelError(`model endpoint ${baseURL} ${e.cause.message}`);
        }
        last = describe(e, baseURL);
        if (!retryable(e)) break;
        const asked = retryAfterMs((e as { headers?: Headers }).headers);
        if (asked !== undefined) {
          if (asked > maxWaitS * 1000) {
            throw new ModelError(
              `${last}; it asks to retry after ${Math.ceil(asked / 1000)} s, ` +
                `longer than ${maxWaitS} s: try again later`,
            );
          }
          wait = asked;
        }
      }
    }
    throw new ModelError(last);
  }
}

function accepts(accept: (text: string) => unknown, text: string): boolean {
  try {
    accept(text);
    return true;
  } catch {
    // the reply is not one `accept` takes: the caller asks again or reports it
    return false;
  }
}

/**
 * The wait a response asks for before a retry, in ms: `retry-after-ms`, else `Retry-After` as
 * seconds or an HTTP date; undefined when it asks nothing (or nothing readable).
 *
 * @example
 * ```ts
 * import { retryAfterMs } from "./llm.ts";
 * console.assert(retryAfterMs(new Headers({ "retry-after": "2" })) === 2000);
 * console.assert(retryAfterMs(new Headers({ "retry-after-ms": "150" })) === 150);
 * console.assert(retryAfterMs(new Headers()) === undefined);
 * ```
 */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get("retry-after")?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** A reply body over the size limit (thrown inside the SDK's fetch, read back as its cause). */
class ReplyTooLarge extends Error {
  override name = "ReplyTooLarge";
}

/**
 * `fetch` that reads the whole reply body before handing it on, refusing it as soon as it passes
 * `maxBytes` (so a runaway reply never fills memory). The body is read inside the SDK's request
 * deadline, which thereby covers it too.
 */
function boundedFetch(maxBytes: number): typeof fetch {
  const limit = `sent a reply over ${maxBytes} bytes; refused (is it an OpenAI-compatible API?)`;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      // the reply is refused anyway (below); a body already closed changes nothing
      await res.body.cancel().catch(() => {});
      throw new ReplyTooLarge(limit);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of res.body) {
      total += chunk.length;
      if (total > maxBytes) {
        // leaving the loop early cancels the body
        throw new ReplyTooLarge(limit);
      }
      chunks.push(chunk);
    }
    return new Response(new Blob(chunks as BlobPart[]), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** As the SDK decides: the endpoint's `x-should-retry` header first, then the status. */
function retryable(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true;
  if (e instanceof OpenAI.APIError) {
    const says = e.headers?.get("x-should-retry");
    if (says === "true" || says === "false") return says === "true";
    const s = e.status ?? 0;
    return s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

function describe(e: unknown, baseURL: string): string {
  if (e instanceof OpenAI.APIConnectionError) return `cannot reach model endpoint ${baseURL}`;
  if (e instanceof OpenAI.AuthenticationError) {
    return `model endpoint ${baseURL} rejected the API key (401)`;
  }
  if (e instanceof OpenAI.APIError) {
    const msg = String(e.message ?? "").split("\n")[0].slice(0, 200);
    return `model endpoint ${baseURL} answered ${e.status ?? "an error"}: ${msg}`;
  }
  return `model request to ${baseURL} failed: ${(e as Error)?.message ?? e}`;
}

/**
 * Parses a strict JSON object reply (a surrounding markdown code fence is tolerated). Throws an
 * Error describing what is wrong.
 *
 * @example
 * ```ts
 * import { parseJsonReply } from "./llm.ts";
 * const fence = "`".repeat(3);
console.assert(parseJsonReply(`${fence}json\n{"action": "stop"}\n${fence}`).action === "stop");
console.assert(parseJsonReply(' {"choice": 2} ').choice === 2);
 * ```
 */
export function parseJsonReply(text: string): Record<string, unknown> {
  let t = text.trim();
  const fence = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(t);
  if (fence) t = fence[1].trim();
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch (e) {
    throw new Error(`reply is not valid JSON (${(e as Error).message})`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new Error("reply is not a JSON object");
  }
  return value as Record<string, unknown>;
}
