import { createRequire } from "node:module";

/** What each optional native addon is for: the words of the error when it is missing. */
const FEATURES = {
  "better-sqlite3": "reading browser cookie databases",
  "classic-level": "reading Chromium's Local Storage",
  "@napi-rs/keyring": "the OS keyring (Keychain, Secret Service)",
} as const;
export type OptionalAddon = keyof typeof FEATURES;

/** An optional native addon is not installed here (npm skipped it, or it could not be built). */
export class MissingAddonError extends Error {
  override name = "MissingAddonError";
  constructor(readonly addon: OptionalAddon) {
    super(
      `${FEATURES[addon]} needs the optional package ${addon}, which is not installed here: reinstall quotabar where npm can fetch its prebuilt binary or build it (python3, make and a C++ compiler), or paste a cookie header / use an API key instead`,
    );
  }
}

/** The addon's module, loaded on first use; a MissingAddonError when npm did not install it. */
export function loadOptionalAddon<T>(addon: OptionalAddon): T {
  try {
    return createRequire(import.meta.url)(addon) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "MODULE_NOT_FOUND" || code === "ERR_DLOPEN_FAILED") throw new MissingAddonError(addon);
    throw error;
  }
}

/** Whether the addon can be loaded, without loading it. */
export function optionalAddonInstalled(addon: OptionalAddon): boolean {
  try {
    createRequire(import.meta.url).resolve(addon);
    return true;
  } catch {
    return false;
  }
}
