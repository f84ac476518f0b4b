/** The package version (a test keeps it equal to package.json). */
export const VERSION = "0.1.0";
export const USER_AGENT = `quotabar/${VERSION}`;
