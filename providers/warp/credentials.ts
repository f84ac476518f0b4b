import { apiKey } from "../kit/index.js";

export const ENV = ["WARP_API_KEY", "WARP_TOKEN"];

export const warpKey = apiKey(ENV);
