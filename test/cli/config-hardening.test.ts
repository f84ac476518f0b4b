import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliResult, runCli, runProgram } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

const SECRET = "sk-or-v1-0123456789abcdef0123456789abcdef";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMzQ1In0.c2lnbmF0dXJlLXZhbHVl";
const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");
const NOBODY = 65534;

/** A fresh HOME with `~/.config/quotabar/config.json` holding `text`; returns the file. */
function configWith(text: string): { home: string; file: string } {
  const home = tempHome();
  mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
  const file = join(home, ".config", "quotabar", "config.json");
  writeFileSync(file, text);
  return { home, file };
}

/** The CLI as an unprivileged user: as root, uid nobody (root writes through any mode bits); otherwise ourselves. */
function runCliUnprivileged(args: string[], env: Record<string, string>, stdin = ""): Promise<CliResult> {
  const asRoot = process.getuid?.() === 0;
  return runProgram(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin,
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
}

/**
 * Whether the unprivileged user can run the CLI where this checkout is: as root, a clone under a
 * private directory (mktemp -d makes 0700 ones) is out of nobody's reach, and a permission denial
 * cannot be shown as root (root writes through any mode bits).
 */
const unprivilegedCanRun = (await runCliUnprivileged(["--version"], { HOME: "/" })).code === 0;
if (!unprivilegedCanRun) console.warn(`config-hardening: uid ${NOBODY} cannot reach ${BIN}: the permission-denied case is skipped`);

function expectConfigFailure(result: CliResult, ...phrases: string[]): void {
  expect(result.code).toBe(2);
  expect(result.stderr).not.toContain("This is a bug");
  for (const phrase of phrases) expect(result.stderr).toContain(phrase);
}

describe("a config file that cannot be written", () => {
  it("set-key and logout say which part of the path is not a directory, exit 2 and write nothing", async () => {
    const home = tempHome();
    const blocker = join(home, "not-a-dir");
    writeFileSync(blocker, "x");
    const env = { HOME: home, QUOTABAR_CONFIG: join(blocker, "config.json") };
    const set = await runCli(["config", "set-key", "warp", "--stdin"], env, "wk-0123456789abcdef0123\n");
    expectConfigFailure(set, `${blocker}/config.json: cannot write: ${blocker} is a file, not a directory`, "Hint: Move");
    const logout = await runCli(["logout", "warp"], env);
    expectConfigFailure(logout, `${blocker}/config.json: cannot read: ${blocker} is a file, not a directory`, "Hint: Move");
    expect(logout.stderr).not.toContain("Fix the file by hand");
    expect(readFileSync(blocker, "utf8")).toBe("x");
  });

  it("logout of a file it can read but not replace exits 2 with the path, even for root", async () => {
    // a name the file system takes, but whose lock file name is one byte over its limit
    const home = tempHome();
    const file = join(home, `${"c".repeat(246)}.json`);
    writeFileSync(file, JSON.stringify({ providers: [{ id: "warp", apiKey: "wk-0123456789abcdef0123" }] }));
    const result = await runCli(["logout", "warp"], { HOME: home, QUOTABAR_CONFIG: file });
    expectConfigFailure(result, `${file}: cannot write: the path is too long for the file system (ENAMETOOLONG)`, "shorter path");
    expect(readFileSync(file, "utf8")).toContain("wk-0123456789abcdef0123");
  });

  it.skipIf(!unprivilegedCanRun)(
    "set-key and logout in a directory without write permission exit 2 with the path and what to do",
    async () => {
      const { home, file } = configWith(JSON.stringify({ providers: [{ id: "warp", apiKey: "wk-0123456789abcdef0123" }] }));
      const dir = join(home, ".config", "quotabar");
      chmodSync(home, 0o755);
      chmodSync(join(home, ".config"), 0o755);
      chmodSync(file, 0o644);
      chmodSync(dir, 0o555);
      try {
        for (const [args, stdin] of [
          [["config", "set-key", "zai", "--stdin"], "a-zai-key-0123456789\n"],
          [["logout", "warp"], ""],
        ] as const) {
          const result = await runCliUnprivileged([...args], { HOME: home }, stdin);
          expectConfigFailure(
            result,
            `${file}: cannot write: permission denied in ${dir} (EACCES)`,
            `Hint: Make ${dir} and ${file} writable`,
          );
        }
      } finally {
        chmodSync(dir, 0o755);
      }
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ providers: [{ id: "warp", apiKey: "wk-0123456789abcdef0123" }] });
    },
  );
});

describe("config files as people keep them", () => {
  it("set-key writes through a symlinked config: the link stays, the target gets the key at 0600", async () => {
    const home = tempHome();
    mkdirSync(join(home, "dotfiles"));
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    const target = join(home, "dotfiles", "quotabar.json");
    writeFileSync(target, JSON.stringify({ providers: [{ id: "warp", apiKey: "wk-old-0123456789abcdef" }] }), { mode: 0o644 });
    const link = join(home, ".config", "quotabar", "config.json");
    symlinkSync(target, link);
    const result = await runCli(["config", "set-key", "warp", "--stdin"], { HOME: home }, "wk-new-0123456789abcdef\n");
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8")).providers).toEqual([{ id: "warp", apiKey: "wk-new-0123456789abcdef", enabled: true }]);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it("accepts a config saved with a byte order mark and saves it back without one", async () => {
    const { home, file } = configWith('\ufeff{\n  "providers": [{ "id": "zai", "region": "bigmodel-cn" }]\n}\n');
    expect(await runCli(["config", "validate"], { HOME: home })).toMatchObject({ code: 0 });
    expect((await runCli(["config", "set-key", "zai", "--stdin"], { HOME: home }, "a-zai-key-0123456789\n")).code).toBe(0);
    const written = readFileSync(file, "utf8");
    expect(written.startsWith("{")).toBe(true);
    expect(JSON.parse(written).providers[0]).toMatchObject({ id: "zai", region: "bigmodel-cn", apiKey: "a-zai-key-0123456789" });
  });

  it("reports wrong types at their line and column and exits 2", async () => {
    for (const [text, where] of [
      ['{\n  "providers": {}\n}', ":2:16: providers must be an array of provider entries"],
      ['{\n  "providers": [\n    "warp"\n  ]\n}', ":3:5: providers[0] must be an object (a provider entry)"],
      ['{\n  "timeoutSeconds": "x"\n}', ":2:21: timeoutSeconds must be a number of seconds from 1 to 600"],
    ]) {
      const { home, file } = configWith(text as string);
      const result = await runCli(["config", "validate"], { HOME: home });
      expectConfigFailure(result, `${file}${where}`);
    }
  });

  it("refuses a timeoutSeconds that would overflow the timer, before any provider is asked", async () => {
    const { home, file } = configWith('{\n  "providers": [{ "id": "warp" }],\n  "timeoutSeconds": 2147484\n}\n');
    for (const args of [["config", "validate"], ["-p", "warp", "--json"], []]) {
      const result = await runCli(args, { HOME: home });
      expect(result.code).toBe(2);
      expect(result.stdout + result.stderr).toContain(`${file}:3:21: timeoutSeconds must be a number of seconds from 1 to 600`);
    }
  });

  it("refuses a value nested 200,000 deep in validate and show alike, with line and column", async () => {
    const { home, file } = configWith(`{\n  "providers": [],\n  "deep": ${"[".repeat(200_000)}${"]".repeat(200_000)}\n}\n`);
    for (const args of [
      ["config", "validate"],
      ["config", "show"],
      ["config", "show", "--json"],
    ]) {
      const result = await runCli(args, { HOME: home });
      expect(result.code).toBe(2);
      expect(result.stdout + result.stderr).toContain(`${file}:3:74: values nested deeper than 64 levels`);
    }
  });
});

describe("config validate", () => {
  it("warns about an unknown provider id without printing a key pasted into it", async () => {
    const { home } = configWith(JSON.stringify({ providers: [{ id: SECRET }, { id: "not-a-provider" }] }));
    const result = await runCli(["config", "validate"], { HOME: home });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Warning: unknown provider id "not-a-provider" (kept, ignored)');
    expect(result.stderr).toContain('Warning: unknown provider id "sk-or-v1-***" (kept, ignored)');
    expect(result.stdout + result.stderr).not.toContain(SECRET.slice(9));
  });
});

describe("config show", () => {
  it("masks secrets by field name at any depth and by shape anywhere, and shows the rest", async () => {
    const config = {
      providers: [{ id: "openrouter", apiKey: SECRET, note: "keep me", headers: { Authorization: `Bearer ${SECRET.slice(9)}` } }],
      proxy: { url: "https://proxy.example", extra: `token ${SECRET.slice(9)}`, jwt: JWT },
      cookies: [{ name: "session", value: "plain-cookie-value-123" }],
      paste: "theme=dark; sid=plain-cookie-value-456",
      curl: `curl https://x -H 'Cookie: sid=plain-cookie-value-789'`,
      github: "ghp_0123456789abcdefghijklmnopqrstuv",
    };
    const { home } = configWith(JSON.stringify(config));
    for (const args of [
      ["config", "show"],
      ["config", "show", "--json"],
    ]) {
      const result = await runCli(args, { HOME: home });
      expect(result.code).toBe(0);
      for (const secret of [
        SECRET,
        SECRET.slice(9),
        JWT,
        "plain-cookie-value-123",
        "plain-cookie-value-456",
        "plain-cookie-value-789",
        "ghp_0123",
      ]) {
        expect(result.stdout).not.toContain(secret);
      }
      const shown = JSON.parse(result.stdout);
      expect(shown.providers[0]).toMatchObject({ id: "openrouter", note: "keep me", headers: { Authorization: "•••••••• (39 chars)" } });
      expect(shown.proxy.url).toBe("https://proxy.example");
      expect(shown.cookies[0].value).toBe("•••••••• (22 chars)");
    }
  });
});

describe("config set-key", () => {
  it("refuses a key with a line break or a NUL, exits 2 and stores nothing", async () => {
    const home = tempHome();
    const file = join(home, ".config", "quotabar", "config.json");
    for (const stdin of [
      "wk-first-line-0123\nwk-second-line-4567\n",
      "wk-0123\u0000456789abcdef\n",
      "wk-0123\r456789abcdef",
      "wk-01\u2028234",
    ]) {
      const result = await runCli(["config", "set-key", "warp", "--stdin"], { HOME: home }, stdin);
      expectConfigFailure(result, "spans several lines or holds a control character", "A key is one line of text.");
      expect(result.stderr).not.toContain("wk-0");
      expect(existsSync(file)).toBe(false);
    }
  });

  it("still takes a multi-line 'Copy as cURL' paste, its line continuations joined", async () => {
    const home = tempHome();
    const curl = `curl 'https://www.kimi.com/apiv2/x' \\\n  -H 'accept: */*' \\\n  -b 'kimi-auth=${JWT}'\n`;
    expect((await runCli(["config", "set-key", "kimi", "--stdin"], { HOME: home }, curl)).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(home, ".config", "quotabar", "config.json"), "utf8"));
    expect(saved.providers[0].apiKey).toBe(`curl 'https://www.kimi.com/apiv2/x' -H 'accept: */*' -b 'kimi-auth=${JWT}'`);
  });
});
