import type { Remedy } from "../kit/index.js";

export const SIGN_IN: Remedy = { kind: "browser-sign-in", url: "https://app.factory.ai" };
export const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "factory", env: [], from: "app.factory.ai" };
