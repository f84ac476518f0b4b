import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempHome } from "../../../test/helpers/harness.js";
import { claudeEntry } from "./claude-logs.js";
import { codexEntry, freshCodexState, type CodexState } from "./codex-logs.js";
import { AMOUNTS, entryOf, rowKey, type LineOutcome, type LogEntry, type RequestSink } from "./log-entry.js";
import { KEYED_WIDTH, SUM_WIDTH, type FileRecord } from "./log-index.js";
import { readLogFile } from "./log-read.js";

/*
 * readLogFile decodes lines as Latin-1 (line-files.ts says why) and reads a line from its UTF-8 when
 * a text it uses is past ASCII: what it counts must be what each line's UTF-8 says, whatever the
 * texts hold (dashes and quotes past U+00FF, Latin-1 letters, no-break spaces, escapes, bytes that
 * are not UTF-8 at all).
 */

const home = tempHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Texts of every kind, each standing for itself or for a marker where raw bytes go. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "\u00a0",
    "caf\u00e9",
    "\u2014 \u201cquoted\u201d",
    "\ud83d\ude80",
    "\u00e9\u0301",
    "claude-sonnet-4-5",
    "<synthetic>",
    "RAW",
  ),
);
/** Bytes past ASCII, valid UTF-8 or not, put where a text is "RAW". */
const raw = fc.uint8Array({ minLength: 1, maxLength: 6, min: 0x80, max: 0xff });

const claudeLine = fc.record({
  model: fc.oneof(fc.constantFrom("claude-sonnet-4-5", "claude-opus-4-5@20251101", "us.anthropic.claude-haiku-4-5-20251001-v1:0"), text),
  id: fc.oneof(fc.constantFrom("msg_1", "msg_2", "msg_vrtx_3"), text),
  requestId: fc.oneof(fc.constantFrom("req_1", "req_2"), text),
  sessionId: fc.oneof(fc.constant("5f0c0064-aaaa-4bbb-8ccc-000000000064"), text),
  timestamp: fc.oneof(fc.constantFrom("2026-10-29T14:09:50.945Z", "2026-10-29T16:09:50.945+02:00"), text),
  content: text,
  provider: fc.option(fc.oneof(fc.constant("Vertex"), text), { nil: undefined }),
  input: fc.nat({ max: 5000 }),
  output: fc.nat({ max: 5000 }),
  sidechain: fc.boolean(),
});

/** A line's bytes: its JSON (characters past ASCII written as UTF-8), with `bytes` where a text is RAW. */
function lineBytes(fields: Record<string, unknown>, bytes: Uint8Array): Buffer {
  const parts = JSON.stringify(fields).split("RAW");
  return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [Buffer.from(bytes), Buffer.from(part)])));
}

/** A record's amounts per row, summed over quarters and answers. */
function rowSums(record: FileRecord): Map<string, number[]> {
  const sums = new Map<string, number[]>();
  const add = (row: string, from: Float64Array, at: number) => {
    const into = sums.get(row) ?? new Array<number>(AMOUNTS).fill(0);
    for (let i = 0; i < AMOUNTS; i++) into[i] = (into[i] as number) + (from[at + i] as number);
    sums.set(row, into);
  };
  for (let i = 0; i < record.sums.length; i += SUM_WIDTH) add(record.rows[record.sums[i + 1] as number] as string, record.sums, i + 2);
  for (let i = 0; i < record.keyed.length; i += KEYED_WIDTH) add(record.rows[record.keyed[i + 2] as number] as string, record.keyed, i + 4);
  return sums;
}

/** The same from each line's UTF-8 read on its own (the last copy of an answer wins, as in a record). */
function expectedSums(entries: (LogEntry | null | "bad")[]): { sums: Map<string, number[]>; bad: number } {
  const answers = new Map<number, LogEntry>();
  const plain: LogEntry[] = [];
  let bad = 0;
  for (const entry of entries) {
    if (entry === "bad") bad++;
    else if (entry && entry.key === -1) plain.push(entry);
    else if (entry) answers.set(entry.key, entry);
  }
  const sums = new Map<string, number[]>();
  for (const entry of [...plain, ...answers.values()]) {
    const into = sums.get(rowKey(entry.row)) ?? new Array<number>(AMOUNTS).fill(0);
    entry.amounts.forEach((n, i) => (into[i] = (into[i] as number) + n));
    sums.set(rowKey(entry.row), into);
  }
  return { sums, bad };
}

let files = 0;
async function read(agent: "claude" | "codex", lines: Buffer[]) {
  const path = join(home, `${agent}-${files++}.jsonl`);
  writeFileSync(path, Buffer.concat(lines.flatMap((line) => [line, Buffer.from("\n")])));
  const { size, mtimeMs } = statSync(path);
  return (await readLogFile(agent, { path, size, mtimeMs }, null)).record;
}

/** Reads `lines` as one of `agent`'s files and checks it counts and skips what `readUtf8` makes of each line's UTF-8 text, in order. */
async function expectUtf8Counts(
  agent: "claude" | "codex",
  lines: Buffer[],
  readUtf8: (line: unknown, text: string, session: string, into: RequestSink) => LineOutcome,
): Promise<FileRecord> {
  const record = await read(agent, lines);
  const session = `${agent}-${files - 1}`;
  const expected = expectedSums(
    lines.map((line) => {
      const text = line.toString("utf8");
      return entryOf((into) => readUtf8(JSON.parse(text), text, session, into));
    }),
  );
  expect(rowSums(record)).toEqual(expected.sums);
  expect(record.skipped).toBe(expected.bad);
  return record;
}

describe("reading a log decoded as Latin-1", () => {
  it("counts what each Claude Code line's UTF-8 says", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(claudeLine, raw), { minLength: 1, maxLength: 12 }), async (drawn) => {
        const lines = drawn.map(([f, bytes]) =>
          lineBytes(
            {
              type: "assistant",
              isSidechain: f.sidechain,
              sessionId: f.sessionId,
              message: {
                id: f.id,
                model: f.model,
                content: [{ type: "text", text: f.content }],
                usage: { input_tokens: f.input, output_tokens: f.output },
              },
              requestId: f.requestId,
              timestamp: f.timestamp,
              ...(f.provider !== undefined ? { metadata: { provider: f.provider } } : {}),
            },
            bytes,
          ),
        );
        await expectUtf8Counts("claude", lines, (line, text, session, into) => claudeEntry(line, text, session, into));
      }),
      { numRuns: 150 },
    );
  });

  it("follows Codex's models and counts what each event's UTF-8 says", async () => {
    const model = fc.oneof(fc.constantFrom("gpt-5-codex", "openai/gpt-5.1"), text);
    const event = fc.record({ model: fc.option(model, { nil: undefined }), input: fc.nat({ max: 5000 }), output: fc.nat({ max: 5000 }) });
    const turn = fc.record({ turn: model });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.oneof(event, turn), raw), { minLength: 1, maxLength: 12 }), async (drawn) => {
        const lines = drawn.map(([f, bytes]) =>
          lineBytes(
            "turn" in f
              ? { timestamp: "2026-11-23T04:51:52.884Z", type: "turn_context", payload: { model: f.turn } }
              : {
                  timestamp: "2026-11-23T04:51:53.884Z",
                  type: "event_msg",
                  payload: {
                    type: "token_count",
                    info: {
                      last_token_usage: { input_tokens: f.input, output_tokens: f.output },
                      ...(f.model !== undefined ? { model: f.model } : {}),
                    },
                  },
                },
            bytes,
          ),
        );
        const state: CodexState = freshCodexState();
        const record = await expectUtf8Counts("codex", lines, (line, _text, session, into) => codexEntry(line, state, session, into));
        expect(record.state).toEqual(state);
      }),
      { numRuns: 150 },
    );
  });
});
