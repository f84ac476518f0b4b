import { execFile } from "node:child_process";
import { isAscii } from "node:buffer";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeBytesEntry } from "./claude-bytes.js";
import { claudeEntry } from "./claude-logs.js";
import { entryOf, type LineOutcome, type LogEntry, type RequestSink } from "./log-entry.js";

/*
 * The WebAssembly reader of Claude Code lines must count a line exactly as JSON.parse and
 * claudeEntry do (log-read.ts: decoded as Latin-1, read again from its UTF-8 when a text it uses is
 * past ASCII), or leave it to them (null): whatever the line holds, written by Claude Code or not.
 */

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** What log-read.ts makes of one line's bytes without the WebAssembly reader. */
function parsedEntry(bytes: Buffer): LogEntry | null | "bad" | "invalid" {
  let invalid = false;
  const entry = entryOf((into) => {
    const once = (text: string, exact: boolean): LineOutcome | "invalid" => {
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        return "invalid";
      }
      return typeof line === "object" && line !== null && !Array.isArray(line)
        ? claudeEntry(line, text, "file-session", into, exact)
        : "bad";
    };
    let outcome = once(bytes.toString("latin1"), isAscii(bytes));
    if (outcome === "again") outcome = once(bytes.toString("utf8"), true);
    if (outcome === "invalid") invalid = true;
    return outcome === "invalid" ? "none" : outcome;
  });
  return invalid ? "invalid" : entry;
}

/** What the WebAssembly reader makes of it: "parse" when it leaves the line to JSON.parse. */
function bytesEntry(bytes: Buffer): LogEntry | null | "bad" | "parse" {
  let left = false;
  // read from the middle of a larger buffer, as a scan's chunk holds a line
  const view = Buffer.concat([Buffer.from('{"before":1}\n'), bytes, Buffer.from("\n{}")]);
  const entry = entryOf((into: RequestSink) => {
    const outcome = claudeBytesEntry(view, 13, 13 + bytes.length, "file-session", into);
    left = outcome === null;
    return outcome ?? "none";
  });
  return left ? "parse" : entry;
}

const sample = {
  parentUuid: "5b1c2d3e",
  isSidechain: false,
  userType: "external",
  cwd: "/Users/me/src/app",
  sessionId: "39d4b923-8273-4c35-ad9c-e098395286f1",
  version: "2.1.70",
  gitBranch: "main",
  message: {
    id: "msg_01NrvWoSMk2Eig6vkCgyRZqc",
    type: "message",
    role: "assistant",
    model: "claude-opus-4-7",
    content: [{ type: "text", text: "Done: the parser reads each line." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: 6,
      cache_creation_input_tokens: 1389,
      cache_read_input_tokens: 50352,
      cache_creation: { ephemeral_5m_input_tokens: 1389, ephemeral_1h_input_tokens: 0 },
      output_tokens: 3922,
      service_tier: "standard",
    },
  },
  requestId: "req_011CaLLcFQD712ZnCTxHFk71",
  type: "assistant",
  uuid: "9a0e4f5a",
  timestamp: "2026-04-23T07:51:34.428Z",
};

const line = (value: unknown) => Buffer.from(JSON.stringify(value));
const withMessage = (message: Record<string, unknown>) => line({ ...sample, message: { ...sample.message, ...message } });
const withUsage = (usage: Record<string, unknown>) => withMessage({ usage: { ...sample.message.usage, ...usage } });

describe("Claude Code lines read from their bytes", () => {
  it("is the WebAssembly its AssemblyScript source compiles to", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, "scripts", "build-wasm.mjs"), "--check"], { cwd: ROOT });
    expect(stdout).toContain("up to date");
  });

  it("reads Claude Code's request lines itself, as the parse would", () => {
    for (const bytes of [
      line(sample),
      line({ ...sample, isSidechain: true }),
      withMessage({ id: "msg_vrtx_01abc", model: "claude-opus-4-7" }),
      withMessage({ model: "claude-sonnet-4-5@20250929" }),
      withMessage({ model: "us.anthropic.claude-haiku-4-5-20251001-v1:0" }),
      withUsage({ cache_creation: undefined }),
      withUsage({ cache_creation_input_tokens: undefined, cache_read_input_tokens: undefined }),
      line({ ...sample, requestId: undefined }),
      line({ ...sample, sessionId: undefined }),
      // past ASCII only where it is not read
      withMessage({ content: [{ type: "text", text: "caf\u00e9 \u2014 \u201cdone\u201d \ud83d\ude80" }] }),
      Buffer.from(JSON.stringify(sample, null, 2)),
    ]) {
      const entry = bytesEntry(bytes);
      expect(entry).not.toBe("parse");
      expect(entry).toEqual(parsedEntry(bytes));
    }
  });

  it("grows its memory for a long line, reads on after it, and leaves a line past 4 MB to the parse", () => {
    const long = withMessage({ content: [{ type: "text", text: "a long answer ".repeat(20_000) }] }); // 280 KB: past the first 64 KB page
    const huge = withMessage({ content: [{ type: "text", text: "x".repeat(4.5 * 2 ** 20) }] });
    for (const bytes of [long, line(sample), huge, line({ ...sample, isSidechain: true })]) {
      const entry = bytesEntry(bytes);
      if (bytes === huge) expect(entry).toBe("parse");
      else expect(entry).toEqual(parsedEntry(bytes));
    }
  });

  it("leaves what is not the usual shape to the parse", () => {
    const text = JSON.stringify(sample);
    for (const bytes of [
      Buffer.from(text.slice(0, -1)), // cut short: not JSON
      Buffer.from(text.replace('"model":', '"model":"claude-haiku-4-5","model":')), // a key twice
      Buffer.from(text.replace('"model"', '"mod\\u0065l"')), // a key with an escape
      Buffer.from(text.replace('"input_tokens":6', '"input_tokens":6.0')), // a count as a fraction
      Buffer.from(text.replace('"input_tokens":6', '"input_tokens":"6"')), // a count as text
      Buffer.from(text.replace("Done:", "Done:\u0001")), // a raw control character: not JSON
      withMessage({ model: "claude-\u00e9" }), // a read text past ASCII
      withMessage({ model: "claude-opus-4-7\\n" }), // an escape in a read text
      line({ ...sample, metadata: { provider: "vertexai" } }), // metadata that may name Vertex
      line({ ...sample, deep: JSON.parse("[".repeat(80) + "]".repeat(80)) }), // nested deeper than it follows
      line([sample]), // not an object
    ]) {
      expect(bytesEntry(bytes)).toBe("parse");
    }
  });

  it("reads the time of a line as timeOf does, in the forms lines have and in any other", () => {
    const instant = fc.date({ min: new Date("2000-01-01T00:00:00.000Z"), max: new Date("2199-12-31T23:59:59.999Z"), noInvalidDate: true });
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    const withOffset = fc.tuple(instant, offset).map(([date, minutes]) => {
      const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 23);
      const sign = minutes < 0 ? "-" : "+";
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${local}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
    });
    // the read forms with any digits: months, days, hours and offsets that are not real ones
    const odd = fc.stringMatching(/^2\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/);
    const timestamp = fc.oneof(
      instant.map((date) => date.toISOString()),
      withOffset,
      odd,
      fc.constantFrom("2024-02-29T12:00:00.000Z", "2100-02-29T12:00:00.000Z", "2026-04-23T07:51:34Z", "2026-04-23T07:51:34.428z"),
    );
    fc.assert(
      fc.property(timestamp, (time) => {
        const bytes = line({ ...sample, timestamp: time });
        const fromBytes = bytesEntry(bytes);
        expect(fromBytes).not.toBe("parse");
        expect(fromBytes).toEqual(parsedEntry(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("counts any line as the parse does, or leaves it to the parse", () => {
    const plain = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.constantFrom("claude-opus-4-7", "claude-sonnet-4-5@20250929", "eu.anthropic.claude-opus-4-5-20251101-v1:0"),
      },
      fc.constantFrom("<synthetic>", "", " "),
      fc.string({ maxLength: 10 }),
      fc.string({ unit: "binary", maxLength: 6 }),
    );
    /** Mostly there, sometimes not (JSON.stringify leaves an undefined member out). */
    const often = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 20 });
    const id = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom("msg_01a", "msg_vrtx_01b", "req_011C", "req_vrtx_02") },
      plain,
      fc.constantFrom("", 7),
    );
    const count = fc.oneof(
      { weight: 60, arbitrary: fc.nat({ max: 300_000 }) },
      fc.constantFrom(0, -1, 1.5, 1e21, 2 ** 53, 123_456_789_012_345, "12", null, true),
    );
    const usage = fc.record({
      input_tokens: often(count),
      output_tokens: often(count),
      cache_creation_input_tokens: fc.option(count, { nil: undefined }),
      cache_read_input_tokens: fc.option(count, { nil: undefined }),
      cache_creation: fc.option(
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ ephemeral_5m_input_tokens: often(count), ephemeral_1h_input_tokens: often(count) }) },
          fc.constantFrom(null, 3),
        ),
        { nil: undefined },
      ),
      service_tier: fc.constant("standard"),
    });
    const message = fc.record({
      id: often(id),
      type: fc.constant("message"),
      model: often(fc.oneof({ weight: 8, arbitrary: plain }, fc.constantFrom(null, 5))),
      content: fc.array(fc.record({ type: fc.constant("text"), text: plain }), { maxLength: 2 }),
      usage: often(fc.oneof({ weight: 12, arbitrary: usage }, fc.constantFrom(null, "usage"))),
    });
    const top = fc.record({
      parentUuid: fc.constant("p"),
      isSidechain: often(fc.constantFrom(true, false, false, "true", null)),
      sessionId: often(fc.oneof({ weight: 4, arbitrary: fc.constant("s-1") }, plain, fc.constant(""))),
      message: often(fc.oneof({ weight: 12, arbitrary: message }, fc.constantFrom(null, [1], "m"))),
      requestId: often(id),
      timestamp: often(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom("2026-04-23T07:51:34.428Z", "2026-04-23T09:51:34.428+02:00") },
          fc.constantFrom("1999-01-01T00:00:00.000Z", "2026-04-23"),
          plain,
        ),
      ),
      metadata: fc.option(fc.constantFrom({ provider: "vertex" }, { gcpProject: "p" }, { client: "cli" }, { note: "GCP" }), {
        nil: undefined,
        freq: 2,
      }),
    });
    // the members in any order
    const shuffled = (value: unknown): fc.Arbitrary<unknown> =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? fc.shuffledSubarray(Object.entries(value), { minLength: Object.keys(value).length }).map((entries) => Object.fromEntries(entries))
        : fc.constant(value);
    const object = top.chain((value) => shuffled(value));
    // texts changed after JSON.stringify: whitespace, a key twice or escaped, a cut, a byte replaced, deep nesting
    const edit = fc.oneof(
      { weight: 24, arbitrary: fc.constant((text: string) => text) },
      fc.constant((text: string) => text.replaceAll(",", ", ").replaceAll(":", " :\t")),
      fc.constant((text: string) => text.replace('"requestId":', '"requestId":"req_x","requestId":')),
      fc.constant((text: string) => text.replace('"usage":', '"usage":{},"usage":')),
      fc.constant((text: string) => text.replace('"timestamp"', '"t\\u0069mestamp"')),
      fc.constant((text: string) => text.replace(/"input_tokens":(\d+)/, '"input_tokens":0$1')),
      fc.constant((text: string) => text.replace(/"output_tokens":(\d+)/, '"output_tokens":$1e0')),
      fc.constant((text: string) => `${text.slice(0, -1)},"deep":${"[".repeat(70)}${"]".repeat(70)}}`),
      fc.nat().map((at) => (text: string) => text.slice(0, at % (text.length + 1))),
      fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, c]) => (text: string) => {
        const i = at % Math.max(text.length, 1);
        return text.slice(0, i) + String.fromCharCode(c) + text.slice(i + 1);
      }),
    );
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(object, edit, fc.boolean(), (value, change, rawBytes) => {
        const text = change(JSON.stringify(value));
        // Claude Code writes UTF-8; a changed byte may make it invalid UTF-8 (written as Latin-1)
        const bytes = Buffer.from(text, rawBytes ? "latin1" : "utf8");
        const fromBytes = bytesEntry(bytes);
        runs++;
        if (fromBytes === "parse") return;
        read++;
        expect(fromBytes).toEqual(parsedEntry(bytes));
      }),
      { numRuns: 4000 },
    );
    // most lines were read from their bytes: the property is not met by leaving everything to the parse
    expect(read / runs).toBeGreaterThan(0.2);
  });
});
