import { advice, apiKey, type Remedy } from "../kit/index.js";

export const ENV = ["KIMI_K2_API_KEY", "KIMI_API_KEY", "KIMI_KEY"];
export const SET_KEY: Remedy[] = [
  { kind: "set-key", provider: "kimik2", env: ENV },
  advice("Keys are at https://kimi-k2.ai/user-center/api-keys."),
];

export const kimik2Key = apiKey(ENV);
