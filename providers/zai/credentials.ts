import { apiKey } from "../kit/index.js";

export const ENV = ["Z_AI_API_KEY"];

export const zaiKey = apiKey(ENV);
