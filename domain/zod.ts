/**
 * zod for every schema of quotabar: its small API (zod/mini: functions instead of methods, a third
 * of the code to load and cheaper schemas to build, which a one-provider refresh feels), set up once.
 * English messages, as zod's full API gives them (zod/mini loads no locale by itself); parsers are
 * interpreted, not compiled per object schema (jitless): a run parses each schema a few times, so
 * compiling would cost more than it saves. Import it as `import * as z from ".../domain/zod.js"`:
 * a bundler then keeps only the functions used.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config({ ...en(), jitless: true });

export * from "zod/mini";
