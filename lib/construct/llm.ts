/**
 * Model access for the construction pipeline through `npm:openai` against any OpenAI-compatible
 * endpoint: configurable base URL and model, the API key only from the environment
 * (`REPOREUSE_API_KEY`, else `OPENAI_API_KEY`; never logged), retries with exponential backoff,
 * and a content-hash response cache (keyed by SHA-256 of model + messages + parameters) so that a
 * rerun of the pipeline costs nothing.
 *
 * @module
 */
import OpenAI from "openai";
import { Cache, sha256 } from "../util/cache.ts";

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
  /** First backoff delay in ms, doubled per retry (default 1000). */
  backoffMs?: number;
  /** Per-request timeout in ms (default 600 000). */
  timeoutMs?: number;
  /** Response cache; `null` disables it (default: the `llm` namespace of the content-hash cache). */
  cache?: Cache | null;
}

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
      maxRetries: 0,
      timeout: config.timeoutMs ?? 600_000,
    });
    this.#cache = config.cache === undefined ? new Cache("llm", 1) : config.cache;
  }

  /** The cache key of a request. */
  static key(model: string, messages: ChatMessage[], params: object): string {
    return sha256(JSON.stringify({ model, messages, params }));
  }

  /** The assistant's reply text to `messages` (from the cache when the same request was made). */
  async complete(messages: ChatMessage[]): Promise<string> {
    const params = { temperature: this.config.temperature ?? 0 };
    const key = ModelClient.key(this.config.model, messages, params);
    const cached = await this.#cache?.get<{ content: string }>(key);
    if (cached) {
      this.usage.cacheHits++;
      return cached.content;
    }
    const retries = this.config.retries ?? 3;
    const backoff = this.config.backoffMs ?? 1000;
    let last = "";
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1)));
      try {
        this.usage.requests++;
        const res = await this.#client.chat.completions.create({
          model: this.config.model,
          messages,
          ...params,
        });
        const content = res.choices?.[0]?.message?.content;
        if (typeof content !== "string") {
          last = "the reply has no message content";
          continue;
        }
        this.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        this.usage.completionTokens += res.usage?.completion_tokens ?? 0;
        await this.#cache?.set(key, { content });
        return content;
      } catch (e) {
        last = describe(e, this.config.baseURL);
        if (!retryable(e)) break;
      }
    }
    throw new ModelError(last);
  }
}

function retryable(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true;
  if (e instanceof OpenAI.APIError) {
    const s = e.status ?? 0;
    return s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

function describe(e: unknown, baseURL: string): string {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return `model endpoint ${baseURL} timed out`;
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
