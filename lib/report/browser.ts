/**
 * A headless Chromium (Debian's `chromium`) driven through the Chrome DevTools protocol, and the
 * in-page checks of rendered charts: the real-browser test of the notebook HTML export and of the
 * figures (tests/notebooks_browser_test.ts), and the screenshots `deno task notebooks --html`
 * writes to out/notebooks/shots/.
 *
 * No npm driver: the protocol is JSON over one WebSocket, and only five commands are needed
 * (navigate, evaluate, viewport, screenshot, close).
 *
 * @module
 */

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a hermetic headless run (no network side traffic, no profile reuse). */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--mute-audio",
];

/** The Chromium executable: `$CHROMIUM` or /usr/bin/chromium, or undefined when absent. */
export async function chromiumPath(): Promise<string | undefined> {
  for (const p of [Deno.env.get("CHROMIUM"), CHROMIUM]) {
    if (!p) continue;
    try {
      if ((await Deno.stat(p)).isFile) return p;
    } catch {
      // not there
    }
  }
  return undefined;
}

interface Pending {
  resolve(v: Record<string, unknown>): void;
  reject(e: Error): void;
}

/** A running headless Chromium with one DevTools connection. */
export class Browser {
  #ws: WebSocket;
  #proc: Deno.ChildProcess;
  #profile: string;
  #next = 1;
  #pending = new Map<number, Pending>();
  #listeners: ((method: string, params: Record<string, unknown>, session?: string) => void)[] = [];

  private constructor(ws: WebSocket, proc: Deno.ChildProcess, profile: string) {
    this.#ws = ws;
    this.#proc = proc;
    this.#profile = profile;
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data));
      if (msg.id !== undefined) {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`CDP: ${msg.error.message}`));
        else p?.resolve(msg.result ?? {});
      } else if (msg.method) {
        for (const l of this.#listeners) l(msg.method, msg.params ?? {}, msg.sessionId);
      }
    };
  }

  /** Starts Chromium with a new empty profile; throws with a clear message when it cannot. */
  static async launch(opts: { executable?: string; timeoutMs?: number } = {}): Promise<Browser> {
    const exe = opts.executable ?? await chromiumPath();
    if (!exe) {
      throw new Error(
        "browser: Chromium not found (apt-get install -y chromium, or set $CHROMIUM)",
      );
    }
    const profile = await Deno.makeTempDir({ prefix: "reporeuse-chromium-" });
    const proc = new Deno.Command(exe, {
      args: [
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        "--remote-debugging-port=0",
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("browser: Chromium printed no DevTools address")),
        opts.timeoutMs ?? 30_000,
      );
      (async () => {
        let seen = "";
        const dec = new TextDecoder();
        for await (const chunk of proc.stderr) {
          seen += dec.decode(chunk);
          const m = seen.match(/DevTools listening on (ws:\/\/\S+)/);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
            break;
          }
        }
        reject(new Error(`browser: Chromium exited early:\n${seen.slice(-800)}`));
      })().catch(reject);
    });
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`browser: cannot connect to ${url}`));
    });
    return new Browser(ws, proc, profile);
  }

  /** Sends one protocol command (on a page session when `session` is given). */
  send(
    method: string,
    params: Record<string, unknown> = {},
    session?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params, sessionId: session }));
    });
  }

  /** Resolves on the first event `method` of `session` (after `timeoutMs`, rejects). */
  waitFor(method: string, session?: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#listeners = this.#listeners.filter((l) => l !== listener);
        reject(new Error(`browser: no ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (m: string, p: Record<string, unknown>, s?: string) => {
        if (m !== method || s !== session) return;
        clearTimeout(timer);
        this.#listeners = this.#listeners.filter((l) => l !== listener);
        resolve(p);
      };
      this.#listeners.push(listener);
    });
  }

  /**
   * Calls `listener` with every protocol event (method, params, session) until the returned
   * function is called.
   */
  onEvent(
    listener: (method: string, params: Record<string, unknown>, session?: string) => void,
  ): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Opens a new tab of `width` × `height` CSS pixels. */
  async newPage(width = 1280, height = 900): Promise<Page> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, String(targetId), String(sessionId));
    await this.send("Page.enable", {}, page.session);
    await this.send("Runtime.enable", {}, page.session);
    await page.viewport(width, height);
    return page;
  }

  /** Closes the browser and removes its profile. */
  async close(): Promise<void> {
    try {
      // the browser may already be gone; the process is killed below
      await this.send("Browser.close").catch(() => {});
      this.#ws.close();
    } finally {
      try {
        this.#proc.kill("SIGKILL");
      } catch {
        // already gone
      }
      // best-effort shutdown: the process may have exited already
      await this.#proc.status.catch(() => {});
      // best-effort shutdown: the stream may be closed already
      await this.#proc.stderr.cancel().catch(() => {});
      // best effort: a leftover profile in the temporary directory harms nothing
      await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
    }
  }
}

/** One tab. */
export class Page {
  constructor(readonly browser: Browser, readonly target: string, readonly session: string) {}

  /** Sets the viewport in CSS pixels (device scale 1). */
  async viewport(width: number, height: number): Promise<void> {
    await this.browser.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    }, this.session);
  }

  /** Navigates and waits for the load event (at most `timeoutMs`, default 60 s). */
  async goto(url: string, timeoutMs = 60_000): Promise<void> {
    const loaded = this.browser.waitFor("Page.loadEventFired", this.session, timeoutMs);
    const r = await this.browser.send("Page.navigate", { url }, this.session);
    if (r.errorText) throw new Error(`browser: cannot open ${url}: ${r.errorText}`);
    await loaded;
  }

  /** Evaluates an expression in the page (promises awaited); returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.browser.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    }, this.session);
    const ex = r.exceptionDetails as
      | { exception?: { description?: string }; text?: string }
      | undefined;
    if (ex) throw new Error(`browser: ${ex.exception?.description ?? ex.text}`);
    return (r.result as { value: T }).value;
  }

  /** Calls a self-contained function in the page with JSON arguments. */
  call<T>(fn: (...args: never[]) => unknown, ...args: unknown[]): Promise<T> {
    return this.evaluate<T>(`(${fn.toString()})(...${JSON.stringify(args)})`);
  }

  /** A PNG of a page region (document coordinates), or of the viewport. */
  async screenshot(clip?: { x: number; y: number; width: number; height: number }): Promise<
    Uint8Array
  > {
    const r = await this.browser.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
    }, this.session);
    const bin = atob(String(r.data));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  }

  /** Closes the tab. */
  async close(): Promise<void> {
    // the tab may be gone with its page already
    await this.browser.send("Target.closeTarget", { targetId: this.target }).catch(() => {});
  }
}
