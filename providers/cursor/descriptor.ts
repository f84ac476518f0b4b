import { describeProvider } from "../../domain/descriptor.js";

export const descriptor = describeProvider({
  id: "cursor",
  name: "Cursor",
  auth: ["Manual cookie header", "Browser cookies of cursor.com (Safari first)", "The Cursor app's sign-in (state.vscdb, read only)"],
  dashboardUrl: "https://cursor.com/dashboard?tab=usage",
  status: { kind: "polled", feed: "statuspage", url: "https://status.cursor.com" },
  credentialEnv: ["CURSOR_COOKIE"],
  settings: [
    {
      field: "cookieHeader",
      title: "Cursor Cookie Header",
      description:
        "Empty: the browsers' cookies for cursor.com are read (signed in there), else the Cursor app's own sign-in. Or paste the Cookie header of a signed-in cursor.com/dashboard (from the browser's developer tools); it must carry the session cookie.",
      placeholder: "WorkosCursorSessionToken=…",
    },
  ],
});
