/**
 * The preview's handle on the provider simulator, which runs in a child process
 * (simulator-process.ts, through vite-node like the preview itself): its environment (keys and
 * QUOTABAR_ORIGIN_MAP), its providers and their scenarios, `play()` to switch scenarios and
 * `seedHome()` to lay out the local files of the providers read from a home.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PreviewError } from "./problems.js";

export type ToSimulator =
  | { kind: "play"; seq: number; scenarios: Record<string, string> }
  | { kind: "seed"; seq: number; home: string; providers: string[] }
  | { kind: "stop" };
/** A provider the simulator plays: its scenarios, and whether it is set up by files it lays out in a home (Claude Code's sign-in...). */
export interface SimulatedProvider {
  id: string;
  scenarios: string[];
  seedsHome: boolean;
}
export type FromSimulator =
  | { kind: "ready"; pid: number; env: Record<string, string>; providers: SimulatedProvider[] }
  | { kind: "played"; seq: number }
  | { kind: "failed"; seq: number; message: string };

const HERE = dirname(fileURLToPath(import.meta.url));
const EXTENSION = resolve(HERE, "..");
const REPO = resolve(EXTENSION, "..");
const VITE_NODE = join(REPO, "node_modules", "vite-node", "vite-node.mjs");
const START_TIMEOUT_MS = 60_000;

export class SimulatorProcess {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** The simulator's process id (not this process's). */
    readonly pid: number,
    private readonly environment: Record<string, string>,
    readonly providers: readonly Readonly<SimulatedProvider>[],
  ) {
    child.on("message", (message: FromSimulator) => {
      if (message.kind === "ready") return;
      const waiter = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      if (message.kind === "played") waiter?.resolve();
      else waiter?.reject(new PreviewError(`the simulator refused: ${message.message}`));
    });
    const failAll = (why: string) => {
      for (const waiter of this.waiting.values()) waiter.reject(new PreviewError(`the simulator process ${why}`));
      this.waiting.clear();
    };
    child.on("exit", (code) => failAll(`exited (${code})`));
    child.on("error", (error) => failAll(`failed (${error.message})`));
  }

  static async start(): Promise<SimulatorProcess> {
    if (!existsSync(VITE_NODE)) throw new PreviewError("vite-node is not installed: run npm ci at the repository root first");
    const child = fork(
      VITE_NODE,
      ["--root", EXTENSION, "--config", join(EXTENSION, "vitest.config.ts"), join(HERE, "simulator-process.ts")],
      { cwd: REPO, stdio: ["ignore", "ignore", "pipe", "ipc"], execArgv: [] },
    );
    let stderr = "";
    // the last of what it said, for the one line that explains a failed start
    child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-20_000)));
    const ready = await new Promise<Extract<FromSimulator, { kind: "ready" }>>((resolvePromise, reject) => {
      const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill();
        const lines = stderr.split("\n").filter((l) => l.trim() !== "");
        const detail = lines.find((l) => /^\s*\w*Error: /.test(l)) ?? lines.at(-1);
        reject(new PreviewError(`the simulator process ${why}${detail ? `: ${detail.trim()}` : ""}`));
      };
      child.once("exit", (code) => fail(`exited (${code})`));
      child.once("error", (error) => fail(`could not start (${error.message})`));
      child.on("message", (message: FromSimulator) => {
        if (message.kind !== "ready") return;
        clearTimeout(timer);
        child.removeAllListeners("exit");
        child.removeAllListeners("error");
        resolvePromise(message);
      });
    });
    return new SimulatorProcess(child, ready.pid, ready.env, ready.providers);
  }

  /** Keys and QUOTABAR_ORIGIN_MAP pointing quotabar at the simulator. */
  env(): Record<string, string> {
    return { ...this.environment };
  }

  /** The scenario each provider (or status page) plays; the ones not named play "ok", or their first. */
  play(scenarios: Record<string, string>): Promise<void> {
    const all = Object.fromEntries(
      this.providers.map((p) => [p.id, scenarios[p.id] ?? (p.scenarios.includes("ok") ? "ok" : p.scenarios[0]!)]),
    );
    const unknown = Object.keys(scenarios).filter((id) => !this.providers.some((p) => p.id === id));
    if (unknown.length > 0) return Promise.reject(new PreviewError(`the simulator has no provider ${unknown.join(", ")}`));
    return this.ask({ kind: "play", seq: ++this.seq, scenarios: all });
  }

  /** Lays out the files of `providers` (those that have any) under `home`, each in the scenario it plays now. */
  seedHome(home: string, providers: readonly string[]): Promise<void> {
    return this.ask({ kind: "seed", seq: ++this.seq, home, providers: [...providers] });
  }

  private ask(message: Extract<ToSimulator, { seq: number }>): Promise<void> {
    return new Promise<void>((resolvePromise, reject) => {
      if (!this.child.connected) return reject(new PreviewError("the simulator process is gone"));
      this.waiting.set(message.seq, { resolve: resolvePromise, reject });
      this.child.send(message satisfies ToSimulator);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolvePromise) => this.child.once("exit", () => resolvePromise()));
    if (this.child.connected) this.child.send({ kind: "stop" } satisfies ToSimulator);
    else this.child.kill();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
