import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CURSOR_SIM } from "../../providers/cursor/simulator.js";
import { runCli } from "../helpers/cli.js";
import { writeCursorState } from "../helpers/cursor-state.js";
import { tempHome, useSimulator } from "../helpers/harness.js";

/** `quotabar -p cursor` as a user runs it (the built bin): with CURSOR_COOKIE, or a HOME holding only the Cursor app's state. */
const sim = useSimulator();

const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
      )
    : [];

describe("quotabar -p cursor", () => {
  it("reads usage with CURSOR_COOKIE, as JSON and as text", async () => {
    const json = await runCli(["-p", "cursor", "--json"], sim.env());
    expect(json.stderr).toBe("");
    const usage = JSON.parse(json.stdout).providers[0];
    expect(usage).toMatchObject({ id: "cursor", name: "Cursor", ok: true, source: "web", plan: "Pro" });
    expect(usage.primary).toMatchObject({ label: "Total", usedPercent: 0.44, windowMinutes: 44_640 });
    expect(usage.secondary).toMatchObject({ label: "Auto + Composer", usedPercent: 0.36 });
    expect(usage.tertiary).toMatchObject({ label: "API", usedPercent: 0.71 });
    const text = await runCli(["-p", "cursor", "--source", "web", "--no-color"], sim.env());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Total +░+ +0\.4% · reset/);
    expect(text.stdout).toContain("Included usage: $0.86 of $20.00");
    expect(text.stdout).toContain("Account: dev@company.example");
  });

  it("from a HOME holding only the Cursor app's state.vscdb: reads it unchanged, keeps the header, never prints the token", async () => {
    const home = tempHome();
    try {
      const { path } = writeCursorState(home, {
        "cursorAuth/accessToken": CURSOR_SIM.appToken,
        "cursorAuth/refreshToken": "sim-refresh-1",
      });
      const before = readFileSync(path);
      const modified = statSync(path).mtimeMs;
      // no OS keyring (no D-Bus session): the header is kept in the 0600 file beside the config
      const env = sim.env({ HOME: home, CURSOR_COOKIE: undefined, QUOTABAR_SECRET_STORE: undefined, DBUS_SESSION_BUS_ADDRESS: undefined });
      const first = await runCli(["-p", "cursor", "--json"], env);
      const usage = JSON.parse(first.stdout).providers[0];
      expect(usage, first.stderr).toMatchObject({ ok: true, source: "web", plan: "Pro", primary: { usedPercent: 0.44 } });
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(statSync(path).mtimeMs).toBe(modified);
      expect(readdirSync(join(home, ".config", "Cursor", "User", "globalStorage"))).toEqual(["state.vscdb"]);

      // the next run needs no copy of the database: the header kept from the first answers
      rmSync(join(home, ".config", "Cursor"), { recursive: true });
      const second = await runCli(["-p", "cursor", "--json"], env);
      expect(JSON.parse(second.stdout).providers[0]).toMatchObject({ ok: true });
      const secrets = join(home, ".config", "quotabar", "secrets.json");
      expect(statSync(secrets).mode & 0o777).toBe(0o600);

      for (const out of [first.stdout, first.stderr, second.stdout, second.stderr]) expect(out).not.toContain(CURSOR_SIM.appToken);
      for (const file of files(join(home, ".cache"))) expect(readFileSync(file, "utf8"), file).not.toContain(CURSOR_SIM.appToken);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("`quotabar cookies cursor` names the Cursor app's sign-in when it is chosen, and why an expired one is not", async () => {
    const home = tempHome();
    try {
      const env = sim.env({ HOME: home, CURSOR_COOKIE: undefined });
      writeCursorState(home, { "cursorAuth/accessToken": CURSOR_SIM.appToken });
      const chosen = await runCli(["cookies", "cursor", "--json"], env);
      expect(JSON.parse(chosen.stdout).chosen).toMatchObject({
        browser: "cursor-app",
        profile: "state.vscdb",
        cookieNames: ["WorkosCursorSessionToken"],
      });
      rmSync(join(home, ".config", "Cursor"), { recursive: true });
      writeCursorState(home, { "cursorAuth/accessToken": CURSOR_SIM.expiredAppToken });
      const expired = JSON.parse((await runCli(["cookies", "cursor", "--json"], env)).stdout);
      expect(expired.chosen).toBeNull();
      expect(expired.notes).toContainEqual(
        expect.objectContaining({ browser: "cursor-app", outcome: "error", detail: expect.stringMatching(/sign-in has expired/) }),
      );
      for (const out of [chosen.stdout, chosen.stderr]) expect(out).not.toContain(CURSOR_SIM.appToken);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("demo: shows cursor, and a signed-out Cursor with how to sign in", async () => {
    const home = tempHome();
    try {
      const result = await runCli(["demo", "--json", "--scenario", "cursor=signed_out"], { HOME: home });
      const cursor = JSON.parse(result.stdout).providers.find((p: { id: string }) => p.id === "cursor");
      expect(cursor).toMatchObject({ ok: false, error: { code: "unauthorized" } });
      expect(cursor.error.hint).toContain("https://cursor.com/dashboard?tab=usage");
      const ok = JSON.parse((await runCli(["demo", "--json"], { HOME: home })).stdout).providers.find(
        (p: { id: string }) => p.id === "cursor",
      );
      expect(ok).toMatchObject({ ok: true, plan: "Pro", primary: { label: "Total" } });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
