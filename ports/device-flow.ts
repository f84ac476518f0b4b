/** The OAuth device flow (GitHub Copilot login), as the CLI and the Raycast login view drive it. */
export interface DeviceCode {
  /** Secret: never shown or logged. */
  deviceCode: string;
  /** What the user types at the verification URL. */
  userCode: string;
  verificationUri: string;
  expiresAt: Date;
  intervalSeconds: number;
}

export interface DeviceFlowPollOptions {
  signal?: AbortSignal;
  /** Called after each "authorization_pending" or "slow_down" answer. */
  onPending?: (state: { intervalSeconds: number; slowDown: boolean }) => void;
}

export interface DeviceFlow {
  /** Ask for a device code. */
  start(signal?: AbortSignal): Promise<DeviceCode>;
  /**
   * Poll the token endpoint at the server's interval until the user authorizes (resolves the access
   * token), denies (QuotabarError code "unauthorized"), or the code expires (code "expired").
   * Aborting the signal rejects with an AbortError.
   */
  poll(code: DeviceCode, options?: DeviceFlowPollOptions): Promise<string>;
}
