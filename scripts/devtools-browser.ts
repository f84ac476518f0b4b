import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/**
 * Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON
 * messages ended by a NUL, commands on the child's fd 3, answers and events on its fd 4), so a test
 * can load a page, type into it and read what it shows, with no package and no port. Everything is
 * asynchronous: the browser never holds the test's event loop.
 */
export interface BrowserOptions {
  /** Chromium's `--host-resolver-rules` (e.g. `MAP quotabar.test 127.0.0.1`): a page reached by a name that is not loopback. */
  hostRules?: string;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(method: string, params: Record<string, unknown>, sessionId?: string) => void>();
  private readonly profile: string;
  private readonly child: ChildProcess;
  private stderr = "";

  private constructor(binary: string, options: BrowserOptions) {
    this.profile = mkdtempSync(join(tmpdir(), "quotabar-devtools-"));
    this.child = spawn(
      binary,
      [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--hide-scrollbars",
        "--disable-font-subpixel-positioning",
        "--remote-debugging-pipe",
        `--user-data-dir=${this.profile}`,
        ...(options.hostRules ? [`--host-resolver-rules=${options.hostRules}`] : []),
        "about:blank",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    this.child.stderr?.on("data", (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    let buffered = "";
    (this.child.stdio[4] as Readable).on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let end: number;
      while ((end = buffered.indexOf("\0")) >= 0) {
        this.dispatch(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
        buffered = buffered.slice(end + 1);
      }
    });
    this.child.once("exit", () => {
      for (const { reject } of this.pending.values()) reject(new Error(`Chromium exited: ${this.stderr.trim().split("\n").at(-1) ?? ""}`));
      this.pending.clear();
    });
  }

  static async launch(binary: string, options: BrowserOptions = {}): Promise<Browser> {
    const browser = new Browser(binary, options);
    await browser.send("Browser.getVersion");
    return browser;
  }

  private dispatch(message: Record<string, unknown>): void {
    if (typeof message.id === "number") {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      const error = message.error as { message?: string } | undefined;
      if (error) pending?.reject(new Error(error.message ?? "DevTools error"));
      else pending?.resolve((message.result ?? {}) as Record<string, unknown>);
    } else if (typeof message.method === "string") {
      for (const listener of this.listeners)
        listener(message.method, (message.params ?? {}) as Record<string, unknown>, message.sessionId as string | undefined);
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(listener: (method: string, params: Record<string, unknown>, sessionId?: string) => void): void {
    this.listeners.add(listener);
  }

  /** A new tab of `width` x `height` CSS pixels (`scale` device pixels each), `colorScheme` as the system's. */
  async newPage(options: { width: number; height: number; scale?: number; colorScheme?: "light" | "dark" }): Promise<Page> {
    const { targetId } = (await this.send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const page = new Page(this, sessionId);
    await Promise.all([
      this.send("Page.enable", {}, sessionId),
      this.send("Runtime.enable", {}, sessionId),
      this.send("Log.enable", {}, sessionId),
    ]);
    await this.send(
      "Emulation.setDeviceMetricsOverride",
      { width: options.width, height: options.height, deviceScaleFactor: options.scale ?? 1, mobile: false },
      sessionId,
    );
    await this.send(
      "Emulation.setEmulatedMedia",
      { features: [{ name: "prefers-color-scheme", value: options.colorScheme ?? "light" }] },
      sessionId,
    );
    return page;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
      await this.send("Browser.close").catch(() => undefined);
      const killer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  /** What the page wrote to its console and Chromium logged for it (a refused script, a policy violation). */
  readonly console: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
  ) {
    browser.on((method, params, session) => {
      if (session !== sessionId) return;
      if (method === "Runtime.consoleAPICalled")
        this.console.push(
          (params.args as { value?: unknown; description?: string }[]).map((a) => String(a.value ?? a.description)).join(" "),
        );
      if (method === "Log.entryAdded") this.console.push(String((params.entry as { text?: string }).text));
      if (method === "Runtime.exceptionThrown") this.console.push(`exception: ${JSON.stringify(params.exceptionDetails)}`);
    });
  }

  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) =>
      this.browser.on((method, _params, session) => session === this.sessionId && method === "Page.loadEventFired" && resolve()),
    );
    const { errorText } = (await this.browser.send("Page.navigate", { url }, this.sessionId)) as { errorText?: string };
    if (errorText) throw new Error(`Chromium could not load ${url}: ${errorText}`);
    await loaded;
  }

  /** The value of `expression` in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = (await this.browser.send(
      "Runtime.evaluate",
      { expression, returnByValue: true, awaitPromise: true },
      this.sessionId,
    )) as { result: { value?: T }; exceptionDetails?: { text?: string; exception?: { description?: string } } };
    if (answer.exceptionDetails)
      throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? "exception"}`);
    return answer.result.value as T;
  }

  /** Polls `expression` until it is truthy; its value. */
  async waitFor<T>(expression: string, timeoutMs = 30_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.evaluate<T>(expression);
      if (value) return value;
      if (Date.now() > until) throw new Error(`the page never showed ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Types `text` into the focused element, as keys would. */
  async type(text: string): Promise<void> {
    await this.browser.send("Input.insertText", { text }, this.sessionId);
  }

  async press(key: "Enter" | "Tab"): Promise<void> {
    const code = { Enter: 13, Tab: 9 }[key];
    const base = { key, code: key, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code };
    await this.browser.send(
      "Input.dispatchKeyEvent",
      { type: "keyDown", ...base, ...(key === "Enter" ? { text: "\r" } : {}) },
      this.sessionId,
    );
    await this.browser.send("Input.dispatchKeyEvent", { type: "keyUp", ...base }, this.sessionId);
  }

  /** A PNG of the window, or of the whole page (beyond the window when it is longer). */
  async screenshot({ fullPage = true } = {}): Promise<Buffer> {
    const { cssContentSize } = (await this.browser.send("Page.getLayoutMetrics", {}, this.sessionId)) as {
      cssContentSize: { width: number; height: number };
    };
    const clip = { x: 0, y: 0, width: Math.ceil(cssContentSize.width), height: Math.ceil(cssContentSize.height), scale: 1 };
    const { data } = (await this.browser.send(
      "Page.captureScreenshot",
      { format: "png", ...(fullPage ? { captureBeyondViewport: true, clip } : {}) },
      this.sessionId,
    )) as { data: string };
    return Buffer.from(data, "base64");
  }
}
