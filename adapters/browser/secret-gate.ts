import type { Clock } from "../../ports/clock.js";
import type { TextStore } from "../../ports/text-store.js";
import type { SafeStorageAnswer } from "./chromium/safe-storage.js";

/** What the gate let through: a password, or why none was asked for (and whether the item simply does not exist). */
export type GateAnswer = { password: string } | { skipped: string; missing?: boolean };

export interface SecretGateOptions {
  store: TextStore;
  clock: Clock;
  /** A person is waiting and may answer a prompt. */
  interactive: boolean;
  /** The global switch (config `browserSecrets`, Raycast's "Read browser secrets"). */
  allowed: () => Promise<boolean>;
}

/** After a denial a browser is left alone this long (as CodexBar does), so a dismissed prompt never comes straight back. */
export const COOLDOWN_MS = 6 * 60 * 60 * 1000;
const cooldownKey = (browser: string) => `browser-cooldown/${browser}`;

/**
 * The one door to the OS secret store for browser keys, so that prompts never come in storms: the
 * global switch, a per-browser cooldown after a denial (kept between runs), never in a run nobody
 * watches, and at most one read per browser for the life of this gate (one run).
 */
export class SecretGate {
  private readonly answers = new Map<string, Promise<GateAnswer>>();

  constructor(private readonly options: SecretGateOptions) {}

  /** `interactive: false` for a lookup nobody waits on, even in a run someone watches: answered from what this run already knows, or skipped. */
  password(browser: string, read: () => Promise<SafeStorageAnswer>, interactive = true): Promise<GateAnswer> {
    const known = this.answers.get(browser);
    if (known) return known;
    if (!this.options.interactive || !interactive) return this.ask(browser, null);
    const answer = this.ask(browser, read);
    this.answers.set(browser, answer);
    return answer;
  }

  /** Until when this browser is left alone after a denial; null when it is not. */
  async coolingUntil(browser: string): Promise<Date | null> {
    const text = await this.options.store.read(cooldownKey(browser)).catch(() => null);
    const until = text ? Date.parse((JSON.parse(text) as { until?: string }).until ?? "") : Number.NaN;
    return Number.isFinite(until) && until > this.options.clock.now().getTime() ? new Date(until) : null;
  }

  /** `read` null: a run nobody watches, which never asks. */
  private async ask(browser: string, read: (() => Promise<SafeStorageAnswer>) | null): Promise<GateAnswer> {
    if (!(await this.options.allowed())) return { skipped: "reading browser secrets is switched off" };
    const until = await this.coolingUntil(browser).catch(() => null);
    if (until) return { skipped: `access was denied; not asking again until ${until.toISOString()}` };
    if (!read) return { skipped: "its key is in the OS secret store, which only a run someone watches may ask" };
    let answer: SafeStorageAnswer;
    try {
      answer = await read();
    } catch (error) {
      return { skipped: `the OS secret store could not be asked: ${(error as Error).message}` };
    }
    if (answer.kind === "found") return { password: answer.password };
    if (answer.kind === "missing") return { skipped: answer.detail, missing: true };
    const next = new Date(this.options.clock.now().getTime() + COOLDOWN_MS);
    await this.options.store.write(cooldownKey(browser), JSON.stringify({ until: next.toISOString() })).catch(() => undefined);
    return { skipped: `${answer.detail}; not asking again until ${next.toISOString()}` };
  }
}
