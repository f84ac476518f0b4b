// The module hooks test/helpers/load-trap.mjs registers: every module loaded is written down.
import { appendFileSync } from "node:fs";

let file;
export function initialize(data) {
  file = data?.file;
}
export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
