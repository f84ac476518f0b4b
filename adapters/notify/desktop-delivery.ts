import type { Notification, Notifier } from "../../ports/notifier.js";
import type { ProcessRunner } from "../../ports/process-runner.js";

/**
 * A desktop's notifications through a program: the first failure is said once, through `warn`,
 * and nothing more is tried (a server or CI has no service; one line, not one per event).
 */
export abstract class DesktopDelivery implements Notifier {
  private gaveUp = false;

  constructor(
    protected readonly processes: ProcessRunner,
    private readonly warn: (line: string) => void,
  ) {}

  async notify(notification: Notification): Promise<void> {
    if (this.gaveUp) return;
    const failure = await this.deliver(notification).catch((error: unknown) => (error as Error).message);
    // deliveries run side by side: the first failure that comes back is the one said
    if (failure === null || this.gaveUp) return;
    this.gaveUp = true;
    this.warn(`No desktop notifications: ${failure}. --notify-command delivers events instead; --no-notify turns this off.`);
  }

  /** Shows the notification; what went wrong, or null. */
  protected abstract deliver(notification: Notification): Promise<string | null>;
}
