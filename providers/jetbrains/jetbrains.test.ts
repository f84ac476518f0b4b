import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQuotabar, UsageDocumentSchema } from "../../index.js";
import { tempHome } from "../../test/helpers/harness.js";
import type * as Platform from "../kit/platform.js";
import { ideOf } from "./ides.js";
import { jetbrainsSnapshot, type JetBrainsReading } from "./policy.js";
import { minutesOf } from "./quota-file.js";
import { JETBRAINS_SCENARIOS, seedJetBrainsHome } from "./simulator.js";

// the IDE folders differ per system: tests choose the system, the default is the real one
const os = vi.hoisted(() => ({ platform: null as NodeJS.Platform | null }));
vi.mock("../kit/platform.js", async (importOriginal) => {
  const real = await importOriginal<typeof Platform>();
  return { hostOs: () => ({ ...real.hostOs(), ...(os.platform ? { platform: os.platform } : {}) }) };
});

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const QUOTA = (xml: string) => `<application>\n  <component name="AIAssistantQuotaManager2">\n${xml}\n  </component>\n</application>\n`;
const option = (name: string, json: string) =>
  `    <option name="${name}" value="${json.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}" />`;

const homes: string[] = [];
afterEach(() => {
  os.platform = null;
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(): string {
  const dir = tempHome();
  homes.push(dir);
  return dir;
}

/** `<base>/<folder>/options/AIAssistantQuotaManager2.xml` holding `xml`, written `hour` hours into 2026. */
function ide(base: string, folder: string, xml: string, hour = 0): string {
  const dir = join(base, folder, "options");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "AIAssistantQuotaManager2.xml");
  writeFileSync(file, xml);
  const at = new Date(Date.UTC(2026, 0, 1, hour));
  utimesSync(file, at, at);
  return file;
}

const linux = (root: string) => ({
  jetbrains: join(root, ".config", "JetBrains"),
  shared: join(root, ".local", "share", "JetBrains"),
  google: join(root, ".config", "Google"),
});

async function jetbrains(env: Record<string, string | undefined>) {
  const doc = await createQuotabar({ env }).usage({ providers: ["jetbrains"] });
  expect(UsageDocumentSchema.safeParse(doc).success).toBe(true);
  return doc.providers[0]!;
}

/** The answer from a fresh home whose only IDE holds `xml`. */
async function answerFor(xml: string, folder = "IntelliJIdea2025.1") {
  const root = home();
  ide(linux(root).jetbrains, folder, xml);
  return jetbrains({ HOME: root });
}

describe("jetbrains against a fixture home", () => {
  it("reads the reference file: monthly credits used of the allowance, the refill date, the plan and the IDE", async () => {
    const usage = await answerFor(fixture("intellij-idea.xml"));
    expect(usage).toMatchObject({ ok: true, source: "local", plan: "Available", secondary: null, tertiary: null, error: null });
    expect(usage.primary).toEqual({
      label: "Monthly credits",
      usedPercent: 27.14,
      used: 0.81,
      limit: 3,
      unit: "credits",
      unlimited: false,
      resetsAt: "2026-04-03T07:15:42.118Z",
      windowMinutes: 43200,
      note: "Refills 3 credits every 30 days",
    });
    expect(usage.details).toEqual([
      { label: "IDE", value: "IntelliJ IDEA 2025.1" },
      { label: "Left", value: "2.19 credits" },
    ]);
  });

  it("reads amounts in 1/100,000 of a credit, adds the top-up to what is left, and resets at quotaInfo.until without a next refill", async () => {
    const usage = await answerFor(fixture("top-up-no-refill.xml"));
    expect(usage.primary).toEqual({
      label: "Monthly credits",
      usedPercent: 56.62,
      used: 19.82,
      limit: 35,
      unit: "credits",
      unlimited: false,
      resetsAt: "2026-04-15T00:00:00.000Z",
      // no duration in the file: the calendar month up to the reset (15 March to 15 April)
      windowMinutes: 31 * 1440,
      note: null,
    });
    // tariffQuota.available 15.18 + topUpQuota.available 5, not maximum - current (15.18)
    expect(usage.details).toEqual([
      { label: "IDE", value: "IntelliJ IDEA 2025.1" },
      { label: "Left", value: "20.18 credits (5 top-up)" },
    ]);
    expect(usage.details.some((d) => d.label === "Warning")).toBe(false);
  });

  it.each([
    ["missing", ""],
    ["without next", option("nextRefill", '{"type":"Unknown","next":null,"tariff":{"amount":"1000000","duration":"P4W"}}')],
  ])("falls back to quotaInfo.until when nextRefill is %s, with the stated period as its window", async (_, refill) => {
    const quota = option("quotaInfo", '{"type":"Available","current":"250000","maximum":"1000000","until":"2026-05-01T00:00:00Z"}');
    const usage = await answerFor(QUOTA(`${refill}\n${quota}`));
    expect(usage.primary).toMatchObject({ used: 2.5, limit: 10, resetsAt: "2026-05-01T00:00:00.000Z" });
    // P4W is 28 days; without a duration, April (30 days) up to the reset
    expect(usage.primary?.windowMinutes).toBe(refill === "" ? 30 * 1440 : 28 * 1440);
    expect(usage.details).toContainEqual({ label: "Left", value: "7.5 credits" });
  });

  it("uses the IDE whose quota file changed last, across ~/.config/JetBrains, ~/.local/share/JetBrains and ~/.config/Google", async () => {
    const root = home();
    const { jetbrains: config, shared, google } = linux(root);
    ide(config, "IntelliJIdea2025.1", fixture("intellij-idea.xml"), 1);
    ide(shared, "PyCharm2024.3", fixture("pycharm.xml"), 5);
    const studio = ide(google, "AndroidStudio2025.1", fixture("android-studio.xml"), 3);
    let usage = await jetbrains({ HOME: root });
    expect(usage.details[0]).toEqual({ label: "IDE", value: "PyCharm 2024.3" });
    expect(usage.primary).toMatchObject({ usedPercent: 50, used: 1.5 });

    utimesSync(studio, new Date(Date.UTC(2026, 0, 2)), new Date(Date.UTC(2026, 0, 2)));
    usage = await jetbrains({ HOME: root });
    expect(usage.details[0]).toEqual({ label: "IDE", value: "Android Studio 2025.1" });
    expect(usage.plan).toBe("free");
    expect(usage.primary).toMatchObject({ usedPercent: 25, limit: 0.5, resetsAt: "2026-04-10T00:00:00.000Z", windowMinutes: 43200 });
  });

  it("breaks a tie in mtime by product name, then by the newest version", async () => {
    const root = home();
    const { jetbrains: config, google } = linux(root);
    ide(config, "IntelliJIdea2024.3", fixture("exhausted.xml"), 2);
    ide(config, "IntelliJIdea2025.1", fixture("intellij-idea.xml"), 2);
    ide(config, "IntelliJIdea2025.1.1", fixture("pycharm.xml"), 2);
    expect((await jetbrains({ HOME: root })).details[0]!.value).toBe("IntelliJ IDEA 2025.1.1");
    ide(google, "AndroidStudio2025.1", fixture("android-studio.xml"), 2);
    expect((await jetbrains({ HOME: root })).details[0]!.value).toBe("Android Studio 2025.1");
  });

  it("skips folders of no known IDE (Community's IdeaIC included) and IDEs without a quota file", async () => {
    const root = home();
    const { jetbrains: config } = linux(root);
    ide(config, "IdeaIC2025.1", fixture("exhausted.xml"), 9);
    ide(config, "Toolbox", fixture("exhausted.xml"), 9);
    mkdirSync(join(config, "WebStorm2025.1", "options"), { recursive: true });
    writeFileSync(join(config, "WebStorm2025.1", "options", "other.xml"), "<application/>");
    writeFileSync(join(config, "GoLand2025.1"), "a file, not a folder");
    ide(config, "pycharmCE2024.3", fixture("pycharm.xml"), 1);
    const usage = await jetbrains({ HOME: root });
    expect(usage.details[0]).toEqual({ label: "IDE", value: "PyCharm CE2024.3" });
  });

  it("reads numbers written as JSON numbers, single-quoted attributes, and lets amount/duration win over the tariff's", async () => {
    const usage = await answerFor(fixture("pycharm.xml"), "PyCharm2024.3");
    expect(usage.primary).toMatchObject({
      usedPercent: 50,
      used: 1.5,
      limit: 3,
      resetsAt: "2026-04-03T07:15:42.000Z",
      note: "Refills 2.5 credits every 30 days",
    });
  });

  it("follows XDG_CONFIG_HOME and XDG_DATA_HOME", async () => {
    const root = home();
    ide(join(root, "xdg-config", "JetBrains"), "GoLand2025.2", fixture("exhausted.xml"), 1);
    ide(join(root, "xdg-data", "JetBrains"), "RustRover2025.1", fixture("intellij-idea.xml"), 2);
    ide(linux(root).jetbrains, "CLion2025.1", fixture("pycharm.xml"), 3);
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, "xdg-config"), XDG_DATA_HOME: join(root, "xdg-data") };
    expect((await jetbrains(env)).details[0]!.value).toBe("RustRover 2025.1");
    expect((await jetbrains({ ...env, XDG_DATA_HOME: undefined })).details[0]!.value).toBe("GoLand 2025.2");
  });

  it("on macOS reads ~/Library/Application Support/JetBrains and the Google folder of Android Studio", async () => {
    os.platform = "darwin";
    const root = home();
    const support = join(root, "Library", "Application Support");
    ide(join(support, "JetBrains"), "IntelliJIdea2025.1", fixture("intellij-idea.xml"), 1);
    ide(join(support, "Google"), "AndroidStudio2025.1", fixture("android-studio.xml"), 2);
    ide(linux(root).jetbrains, "PyCharm2024.3", fixture("pycharm.xml"), 3);
    const usage = await jetbrains({ HOME: root });
    expect(usage.details[0]!.value).toBe("Android Studio 2025.1");
  });

  it("says so on Windows, where the IDE folders are not read", async () => {
    os.platform = "win32";
    const usage = await jetbrains({ HOME: home() });
    expect(usage.error).toMatchObject({ code: "unsupported_platform" });
  });

  it("is found, so enabled, exactly when a quota file exists", async () => {
    const root = home();
    const listing = async () => (await createQuotabar({ env: { HOME: root } }).listProviders()).find((p) => p.id === "jetbrains");
    expect(await listing()).toMatchObject({ credentialsFound: false, enabled: false, supported: true });
    ide(linux(root).jetbrains, "WebStorm2025.1", fixture("intellij-idea.xml"));
    expect(await listing()).toMatchObject({ credentialsFound: true, enabled: true });
    const doc = await createQuotabar({ env: { HOME: root } }).usage();
    expect(doc.providers.map((p) => p.id)).toContain("jetbrains");
  });
});

describe("jetbrains errors", () => {
  it("gives the spec's message when no IDE has a quota file: it exists only after AI Assistant was used", async () => {
    const root = home();
    mkdirSync(join(linux(root).jetbrains, "IntelliJIdea2025.1", "options"), { recursive: true });
    const usage = await jetbrains({ HOME: root });
    expect(usage.ok).toBe(false);
    expect(usage.error).toMatchObject({
      code: "not_installed",
      message: "No JetBrains IDE with AI Assistant detected. Install a JetBrains IDE and enable AI Assistant.",
    });
    expect(usage.error?.hint).toContain("Install a JetBrains IDE with the AI Assistant plugin (https://www.jetbrains.com/ai/).");
    expect(usage.error?.hint).toContain("only after it has been used once");
  });

  it("shows an exhausted quota without a refill as 100 % with no reset", async () => {
    const usage = await answerFor(fixture("exhausted.xml"));
    expect(usage.plan).toBe("free");
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 0.5, limit: 0.5, resetsAt: null, windowMinutes: null, note: null });
  });

  it("reports malformed XML as a parse error that says where, naming the IDE in the hint", async () => {
    const usage = await answerFor(fixture("malformed.xml"));
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toBe("Could not parse JetBrains AI quota: Invalid XML: Unclosed tag 'application' (line 1, column 1)");
    expect(usage.error?.hint).toContain("Use AI Assistant once in IntelliJ IDEA 2025.1 so it writes its quota file again.");
  });

  it("reports a quotaInfo that is not JSON", async () => {
    const usage = await answerFor(fixture("quota-not-json.xml"));
    expect(usage.error).toMatchObject({ code: "parse", message: "Could not parse JetBrains AI quota: Invalid JSON format in quotaInfo" });
  });

  it.each([
    ["no component", "<application />"],
    ["another component", '<application><component name="Other"><option name="quotaInfo" value="{}" /></component></application>'],
    ["no quotaInfo option", QUOTA(option("nextRefill", '{"next":"2026-04-03T07:15:42Z"}'))],
    ["an empty quotaInfo", QUOTA('    <option name="quotaInfo" value="  " />')],
  ])("says no quota information was found for %s", async (_, xml) => {
    const usage = await answerFor(xml);
    expect(usage.error).toMatchObject({ code: "parse", message: "No quota information found in the JetBrains AI configuration." });
  });

  it.each([
    ['{"type":"Available","current":"12"}', "quotaInfo has no maximum"],
    ['{"type":"Available","current":"12","maximum":"lots"}', 'quotaInfo.maximum is not a number: "lots"'],
    ['{"type":"Available","current":{"v":1},"maximum":"100"}', 'quotaInfo.current is not a number: {"v":1}'],
    ['["Available", 12, 100]', "Invalid JSON format in quotaInfo"],
  ])("names the quotaInfo field that cannot be read: %s", async (json, reason) => {
    const usage = await answerFor(QUOTA(option("quotaInfo", json)));
    expect(usage.error).toMatchObject({ code: "parse", message: `Could not parse JetBrains AI quota: ${reason}` });
  });

  it("keeps the meter when nextRefill is broken, with a warning instead of a reset", async () => {
    const broken = option("nextRefill", '{"type":"Known","next":');
    const usage = await answerFor(QUOTA(`${broken}\n${option("quotaInfo", '{"type":"Pro & Teams","current":"30","maximum":"120"}')}`));
    expect(usage.ok).toBe(true);
    expect(usage.plan).toBe("Pro & Teams");
    expect(usage.primary).toMatchObject({ usedPercent: 25, resetsAt: null, note: null });
    expect(usage.details).toContainEqual({ label: "Warning", value: "The refill date could not be read: nextRefill is not valid JSON." });
  });

  it("refuses XML nested deeper than the kit allows, and a negative amount", async () => {
    const root = home();
    const deep = `${"<a>".repeat(500)}${"</a>".repeat(500)}`;
    const file = ide(linux(root).jetbrains, "IntelliJIdea2025.1", deep);
    let usage = await jetbrains({ HOME: root });
    expect(usage.error?.message).toBe("Could not parse JetBrains AI quota: Invalid XML: Maximum nested tags exceeded");
    writeFileSync(file, QUOTA(option("quotaInfo", '{"current":"-5","maximum":"100"}')));
    usage = await jetbrains({ HOME: root });
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Could not parse JetBrains AI quota: quotaInfo.current must not be negative (got -5)",
    });
  });

  it("reports an IDE folder it cannot look into instead of claiming no IDE is there", async () => {
    const root = home();
    const dir = join(linux(root).jetbrains, "IntelliJIdea2025.1", "options");
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(dir, "AIAssistantQuotaManager2.xml"), join(dir, "AIAssistantQuotaManager2.xml"));
    const usage = await jetbrains({ HOME: root });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "Could not look for JetBrains IDEs: ELOOP" });
    expect(usage.error?.hint).toBe("Check that your user can read the IDE configuration folders.");
  });

  it.skipIf(process.getuid?.() === 0)("reports a quota file it may not read, without its path", async () => {
    const root = home();
    const file = ide(linux(root).jetbrains, "IntelliJIdea2025.1", fixture("intellij-idea.xml"));
    chmodSync(file, 0o000);
    const usage = await jetbrains({ HOME: root });
    chmodSync(file, 0o600);
    expect(usage.error).toMatchObject({ code: "parse", message: "Could not parse JetBrains AI quota: Failed to read file: EACCES" });
    expect(usage.error?.hint).toBe("Check that your user can read the quota file of IntelliJ IDEA 2025.1.");
  });
});

/** Every string inside a document entry. */
const texts = (value: unknown): string[] =>
  typeof value === "string" ? [value] : typeof value === "object" && value !== null ? Object.values(value).flatMap(texts) : [];

describe("jetbrains on hostile files", () => {
  const REFERENCE = {
    quotaInfo: { type: "Available", current: "81426.55", maximum: "300000", tariffQuota: { available: "218573.45" } },
    nextRefill: { type: "Known", next: "2026-04-03T07:15:42.118Z", amount: "300000", tariff: { amount: "300000", duration: "PT720H" } },
  };
  const FIELDS = [
    ["quotaInfo"],
    ["quotaInfo", "type"],
    ["quotaInfo", "current"],
    ["quotaInfo", "maximum"],
    ["nextRefill"],
    ["nextRefill", "next"],
    ["nextRefill", "amount"],
    ["nextRefill", "tariff"],
    ["nextRefill", "tariff", "duration"],
  ] as const;
  const hostile = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(-1, 0, 1e308, "NaN", "-5", "1e999", "", null, "\u001b]0;title\u0007\u001b[2J", `P${"9".repeat(40)}W`),
  );

  it("never throws: a valid document, possible values, and a parse error for a cut file", async () => {
    const root = home();
    const file = ide(linux(root).jetbrains, "IntelliJIdea2025.1", "");
    const mutation = fc.tuple(fc.constantFrom(...FIELDS), hostile, fc.option(fc.nat(), { nil: undefined }));
    await fc.assert(
      fc.asyncProperty(mutation, async ([path, value, cut]) => {
        const body = structuredClone(REFERENCE) as Record<string, Record<string, unknown>>;
        const [attribute, key, inner] = path as readonly string[];
        if (key === undefined) body[attribute!] = value as never;
        else if (inner === undefined) body[attribute!]![key] = value;
        else body[attribute!]![key] = { [inner]: value };
        const xml = QUOTA(
          Object.entries(body)
            .map(([name, json]) => option(name, JSON.stringify(json) ?? ""))
            .join("\n"),
        );
        writeFileSync(file, cut === undefined ? xml : xml.slice(0, cut % xml.length));
        const usage = await jetbrains({ HOME: root });
        expect(usage.ok || usage.error !== null).toBe(true);
        for (const n of [usage.primary?.used, usage.primary?.limit])
          if (typeof n === "number") expect(Number.isFinite(n) && n >= 0).toBe(true);
        // eslint-disable-next-line no-control-regex -- looking for control characters is the point
        expect(texts(usage).some((text) => /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text))).toBe(false);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe("jetbrains demo home", () => {
  it.each([
    [
      "ok",
      {
        ok: true,
        details: [
          { label: "IDE", value: "IntelliJ IDEA 2025.1" },
          { label: "Left", value: "2.19 credits" },
        ],
      },
    ],
    ["exhausted", { ok: true, primary: expect.objectContaining({ usedPercent: 100 }) }],
    ["malformed", { ok: false, error: expect.objectContaining({ code: "parse" }) }],
    ["not_detected", { ok: false, error: expect.objectContaining({ code: "not_installed" }) }],
  ] as const)("lays out scenario %s where this system's IDEs keep their files", async (scenario, expected) => {
    expect(JETBRAINS_SCENARIOS).toContain(scenario);
    const root = home();
    await seedJetBrainsHome(root, scenario, { now: new Date(Date.UTC(2026, 2, 1)) });
    expect(await jetbrains({ HOME: root })).toMatchObject(expected);
  });

  it("moves refill dates with the demo's date rewriter", async () => {
    const root = home();
    await seedJetBrainsHome(root, "ok", { dates: (text) => text.replaceAll("2026-04-03", "2027-01-05") });
    expect((await jetbrains({ HOME: root })).primary?.resetsAt).toBe("2027-01-05T07:15:42.118Z");
  });
});

describe("jetbrains pieces", () => {
  it("names IDE folders by the first matching prefix, case-insensitively", () => {
    expect(ideOf("IntelliJIdea2025.1")).toEqual({ product: "IntelliJ IDEA", version: "2025.1" });
    expect(ideOf("pycharmCE2024.3")).toEqual({ product: "PyCharm", version: "CE2024.3" });
    expect(ideOf("Rider")).toEqual({ product: "Rider", version: "Unknown" });
    expect(ideOf("IdeaIC2024.3")).toBeNull();
    expect(ideOf("AppCode2023.1")).toEqual({ product: "AppCode", version: "2023.1" });
  });

  it("reads ISO-8601 durations in whole minutes", () => {
    expect(minutesOf("PT720H")).toBe(43200);
    expect(minutesOf("P30D")).toBe(43200);
    expect(minutesOf("P1W")).toBe(10080);
    expect(minutesOf("P4W")).toBe(40320);
    expect(minutesOf("PT1H30M")).toBe(90);
    expect(minutesOf("P1M")).toBeNull();
    expect(minutesOf("PT0S")).toBeNull();
    expect(minutesOf("monthly")).toBeNull();
    expect(minutesOf(`P${"9".repeat(400)}D`)).toBeNull();
  });

  it("shows a quota without a positive allowance as 0 % with no limit, and words refill periods", () => {
    const reading: JetBrainsReading = {
      ide: "GoLand 2025.1",
      plan: null,
      used: 10,
      limit: 0,
      left: 0,
      topUpLeft: null,
      refillAt: null,
      refillAmount: 1000.5,
      refillMinutes: 90,
      warnings: [],
    };
    expect(jetbrainsSnapshot(reading).primary).toMatchObject({
      usedPercent: 0,
      used: 10,
      limit: null,
      note: "Refills 1,000.5 credits every 90 minutes",
    });
    expect(jetbrainsSnapshot({ ...reading, refillMinutes: 1440 }).primary?.note).toBe("Refills 1,000.5 credits every day");
    expect(jetbrainsSnapshot({ ...reading, refillMinutes: 120 }).primary?.note).toBe("Refills 1,000.5 credits every 2 hours");
    expect(jetbrainsSnapshot({ ...reading, refillMinutes: null }).primary?.note).toBe("Refills 1,000.5 credits");
  });
});
