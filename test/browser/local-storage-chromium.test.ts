import { ClassicLevel } from "classic-level";
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStorageItem } from "../../adapters/browser/leveldb/chromium-local-storage.js";
import { readLevelDb } from "../../adapters/browser/leveldb/database.js";
import { batchOperations, logRecords } from "../../adapters/browser/leveldb/log-format.js";
import { readChromiumLocalStorage as readWithClassicLevel } from "../../adapters/browser/leveldb/local-storage-classic-level.js";
import { readChromiumLocalStorage as readPure } from "../../adapters/browser/leveldb/local-storage-pure.js";

/**
 * Both Local Storage readers against what a real Chromium writes: a headless Chromium loads a
 * loopback page that stores items (ASCII and Latin-1 values, format byte 1; Cyrillic and a check
 * mark, format byte 0), then changes some of them on a signal from this test. Chromium is launched
 * once, read while it runs (its LOCK held), stopped, and read again.
 */

const CANDIDATES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

function findChromium(): string | null {
  for (const candidate of CANDIDATES) {
    const paths = candidate.startsWith("/") ? [candidate] : (process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, candidate));
    for (const path of paths) {
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  return null;
}

const chromium = findChromium();
if (!chromium && !process.env.CI)
  console.log("local-storage-chromium: skipped, no Chromium or Chrome found on this machine (CI never skips)");
const suite = chromium || process.env.CI ? describe : describe.skip;

const ACCESS_TOKEN = `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ org_id: "org_TEST", iss: "https://api.minimax.example" })).toString("base64url")}.sig`;
const PHASE_ONE = {
  "workos:refresh-token": "rt_TESTabcdefghijklmnopqrstuvwxyz012345",
  "workos:access-token": ACCESS_TOKEN,
  unicode_key: "тест ✓",
  latin1_key: "café",
  ключ: "a key outside Latin-1",
  gone: "removed in phase two",
  version: "1",
};

function page(port: number): string {
  return `<!doctype html><meta charset="utf-8"><title>fixture</title><script>
const items = ${JSON.stringify(PHASE_ONE)};
for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
const poll = setInterval(async () => {
  if ((await (await fetch("/phase")).text()) !== "2") return;
  clearInterval(poll);
  localStorage.removeItem("gone");
  localStorage.setItem("version", "2");
  localStorage.setItem("phase", "two");
  await fetch("/applied");
}, 200);
</script><iframe src="http://tracker.other:${port}/frame"></iframe>`;
}
const FRAME = `<!doctype html><meta charset="utf-8"><script>localStorage.setItem("third", "party");</script>`;

suite("Chromium Local Storage written by a real Chromium", () => {
  let server: Server;
  let browser: ChildProcess | undefined;
  let phase = "1";
  let applied = false;
  let port = 0;
  let origin = "";
  let userData = "";
  let profile = "";

  const exited = () =>
    new Promise<void>((resolve) => {
      if (!browser || browser.exitCode !== null || browser.signalCode !== null) resolve();
      else browser.once("exit", () => resolve());
    });

  /** Polls the live directory with the pure reader until the items satisfy `done` (two minutes at most: a rate-limited commit waits one). */
  async function until(done: (items: LocalStorageItem[]) => boolean): Promise<LocalStorageItem[]> {
    let items: LocalStorageItem[] = [];
    for (let i = 0; i < 480; i++) {
      items = await readPure(profile, { origins: [origin] }).catch(() => []);
      if (done(items)) return items;
      await sleep(250);
    }
    throw new Error(`Chromium did not write the expected items; last read: ${JSON.stringify(items.map((item) => item.key))}`);
  }
  const plain = (items: LocalStorageItem[]) => items.map(({ origin, key, value }) => ({ origin, key, value }));

  beforeAll(async () => {
    if (!chromium) throw new Error("CI must run this test: install chromium (apt-get install chromium)");
    userData = mkdtempSync(join(tmpdir(), "quotabar-ls-chromium-"));
    profile = join(userData, "Default");
    server = createServer((request, response) => {
      if (request.url === "/applied") applied = true;
      response.writeHead(200, { "content-type": request.url === "/phase" ? "text/plain" : "text/html; charset=utf-8" });
      response.end(request.url === "/phase" ? phase : request.url === "/frame" ? FRAME : page(port));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    origin = `http://app.example.test:${port}`;
    browser = spawn(
      chromium,
      [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--password-store=basic",
        "--use-mock-keychain",
        `--user-data-dir=${userData}`,
        "--host-resolver-rules=MAP *.example.test 127.0.0.1, MAP tracker.other 127.0.0.1",
        `${origin}/`,
      ],
      { stdio: "ignore", detached: true }, // its own process group, so afterAll can end every child
    );
  }, 30_000);

  afterAll(async () => {
    if (browser?.pid) {
      try {
        process.kill(-browser.pid, "SIGKILL"); // the whole group: the browser and every helper process it started
      } catch {
        // already gone
      }
      await exited();
    }
    if (server) await new Promise((resolve) => server.close(resolve));
    if (userData) rmSync(userData, { recursive: true, force: true });
  }, 30_000);

  it("is read while Chromium runs: live in place by the pure reader, through a copy by classic-level", async () => {
    const first = await until((items) => items.length === Object.keys(PHASE_ONE).length);
    expect(plain(first)).toEqual(
      Object.entries(PHASE_ONE)
        .map(([key, value]) => ({ origin, key, value }))
        .sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
    expect(first[0]?.originModifiedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const live = new ClassicLevel(join(profile, "Local Storage", "leveldb"));
    await expect(live.open()).rejects.toMatchObject({ code: "LEVEL_DATABASE_NOT_OPEN", cause: { code: "LEVEL_LOCKED" } });
    expect(await readWithClassicLevel(profile, { origins: [origin] })).toEqual(first);
  }, 90_000);

  it("is read the same by both readers after later changes and Chromium's exit: newest values, deletions honoured", async () => {
    phase = "2"; // the page removes "gone", rewrites "version", adds "phase"; Chromium commits them as a later batch
    for (let i = 0; i < 200 && !applied; i++) await sleep(100);
    expect(applied).toBe(true);
    // Chromium commits a later batch on its own, rate-limited (about a minute after the first), or at a
    // graceful exit; under load a SIGTERM'd exit lost it: the batch is waited for on disk, then read
    // again after the exit
    await until((items) => items.some((item) => item.key === "phase") && !items.some((item) => item.key === "gone"));
    const pid = browser?.pid as number;
    process.kill(pid, "SIGTERM");
    await Promise.race([exited(), sleep(20_000)]);
    expect(browser?.exitCode !== null || browser?.signalCode !== null).toBe(true);

    const query = { origins: [origin, `http://tracker.other:${port}`] };
    const pure = await readPure(profile, query);
    expect(plain(pure).map((item) => [item.key, item.value])).toEqual([
      ["latin1_key", "café"],
      ["phase", "two"],
      ["unicode_key", "тест ✓"],
      ["version", "2"],
      ["workos:access-token", ACCESS_TOKEN],
      ["workos:refresh-token", PHASE_ONE["workos:refresh-token"]],
      ["ключ", "a key outside Latin-1"],
    ]); // the iframe's storage is partitioned under the top site: not the tracker's own
    expect(await readWithClassicLevel(profile, query)).toEqual(pure);
    expect(await readWithClassicLevel(profile, { origins: [origin], keys: ["workos:refresh-token"] })).toEqual(
      await readPure(profile, { origins: [origin], keys: ["workos:refresh-token"] }),
    );

    const raw = await readLevelDb(join(profile, "Local Storage", "leveldb"), () => true);
    const bytes = (key: string) => raw.get(Buffer.from(key, "utf8").toString("latin1"));
    const item = (key: Buffer) => raw.get(Buffer.concat([Buffer.from(`_${origin}\u0000`), key]).toString("latin1"));
    const latin1Key = (key: string) => Buffer.concat([Buffer.from([1]), Buffer.from(key, "latin1")]);
    expect(Buffer.from(bytes("VERSION") as Uint8Array).toString()).toBe("1");
    expect(bytes(`META:${origin}`)?.[0]).toBe(0x08);
    expect(bytes(`METAACCESS:${origin}`)).toBeDefined();
    expect(Buffer.from(item(latin1Key("workos:refresh-token")) as Uint8Array)[0]).toBe(1);
    expect(Buffer.from(item(latin1Key("latin1_key")) as Uint8Array).toString("hex")).toBe("01636166e9");
    expect(Buffer.from(item(latin1Key("unicode_key")) as Uint8Array)[0]).toBe(0);
    expect(item(Buffer.concat([Buffer.from([0]), Buffer.from("ключ", "utf16le")]))).toBeDefined();
    const dir = join(profile, "Local Storage", "leveldb");
    const logged = readdirSync(dir)
      .filter((name) => name.endsWith(".log"))
      .flatMap((name) => logRecords(readFileSync(join(dir, name))).flatMap(batchOperations));
    const gone = Buffer.concat([Buffer.from(`_${origin}\u0000`), latin1Key("gone")]);
    expect(logged.filter((op) => gone.equals(op.key)).map((op) => (op.value ? "put" : "delete"))).toEqual(["put", "delete"]);
    const partitioned = [...raw.keys()].filter((key) => key.startsWith(`_http://tracker.other:${port}/^0`));
    expect(partitioned).toHaveLength(1);
  }, 180_000);
});
