import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { filesUnder, readTail, scanLines, type LineScanOptions } from "./line-files.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "quotabar-lines-"));
  dirs.push(dir);
  return dir;
}

/** Every line handed over, with whether it was complete, and the scan. */
async function linesOf(path: string, options: Partial<LineScanOptions> = {}) {
  const seen: [string, boolean][] = [];
  const exact: boolean[] = [];
  const scan = await scanLines(path, {
    holding: "x",
    onLine: (text, complete, isExact) => {
      seen.push([text, complete]);
      exact.push(isExact);
      return options.onLine?.(text, complete, isExact);
    },
    ...Object.fromEntries(Object.entries(options).filter(([name]) => name !== "onLine")),
  });
  return { seen, exact, scan };
}

describe("kit line files: scanLines", () => {
  it("hands over the lines holding the text, whole across chunk edges, decoded as UTF-8", async () => {
    const file = join(tempDir(), "a.jsonl");
    const long = `x${"é".repeat(150_000)}`; // 300,001 bytes: longer than a 256 KiB chunk, so the buffer grows for it
    const lines = ["no match", long, "ab x", "", ...Array.from({ length: 8 }, () => `x${"y".repeat(300_000)}`), "12x45"];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { seen, scan } = await linesOf(file);
    expect(seen.map(([text]) => text)).toEqual([long, "ab x", ...lines.slice(4)]);
    expect(seen.every(([, complete]) => complete)).toBe(true);
    expect(scan).toEqual({
      end: Buffer.byteLength(`${lines.join("\n")}\n`),
      bytesRead: Buffer.byteLength(`${lines.join("\n")}\n`),
      tooLong: 0,
    });
  });

  it("offers each whole line holding the text as bytes first, and decodes only those not taken", async () => {
    const file = join(tempDir(), "a.jsonl");
    writeFileSync(file, "x taken\nnone\nx left\nx cut");
    const offered: string[] = [];
    const { seen } = await linesOf(file, {
      onBytes: (view, start, end) => {
        offered.push(view.toString("utf8", start, end));
        return view.toString("utf8", start, end).includes("taken");
      },
    });
    // the last line, without its newline yet, is decoded as before (it may still be written)
    expect(offered).toEqual(["x taken", "x left"]);
    expect(seen).toEqual([
      ["x left", true],
      ["x cut", false],
    ]);
  });

  it("keeps the file's first bytes when asked and the scan starts at 0 (all of a shorter file); none from an offset", async () => {
    const file = join(tempDir(), "a.jsonl");
    writeFileSync(file, "x1 first line\nx2\n");
    expect((await linesOf(file, { headBytes: 8 })).scan.head?.toString()).toBe("x1 first");
    expect((await linesOf(file, { headBytes: 64 })).scan.head?.toString()).toBe("x1 first line\nx2\n");
    expect((await linesOf(file, { headBytes: 8, from: 3 })).scan.head).toBeUndefined();
    expect((await linesOf(file)).scan.head).toBeUndefined();
  });

  it("starts at an offset, and leaves an unfinished last line for the next read unless it was whole", async () => {
    const file = join(tempDir(), "a.jsonl");
    writeFileSync(file, 'x1\nx2\n{"x":');
    const first = await linesOf(file, { onLine: () => false });
    expect(first.seen).toEqual([
      ["x1", true],
      ["x2", true],
      ['{"x":', false],
    ]);
    expect(first.scan.end).toBe(6);
    appendFileSync(file, "3}\nx4\n");
    const next = await linesOf(file, { from: first.scan.end });
    expect(next.seen).toEqual([
      ['{"x":3}', true],
      ["x4", true],
    ]);
    expect(next.scan).toMatchObject({ end: 17, bytesRead: 11 });
    // a last line without a newline that the reader says is whole counts as read
    appendFileSync(file, "x5");
    expect((await linesOf(file, { from: 17, onLine: () => true })).scan.end).toBe(19);
  });

  it("skips lines longer than the limit (counted), in a chunk or across many, and goes on after them", async () => {
    const file = join(tempDir(), "a.jsonl");
    writeFileSync(file, `x short\n${"x".repeat(5_000)}\nx after\n${"x".repeat(3 << 20)}\nx last\n`);
    const { seen, scan } = await linesOf(file, { maxLineBytes: 1_000 });
    expect(seen.map(([text]) => text)).toEqual(["x short", "x after", "x last"]);
    expect(scan.tooLong).toBe(2);
  });

  it("decodes as Latin-1 when asked, and says which lines read the same in UTF-8 (all ASCII)", async () => {
    const file = join(tempDir(), "a.jsonl");
    const lines = ['{"x":"plain"}', '{"x":"caf\u00e9 \u2014 \u201cquoted\u201d"}', '{"x":1}'];
    writeFileSync(file, `${lines.join("\n")}\n{"x":"tail \u2192"}`);
    const utf8 = await linesOf(file);
    expect(utf8.seen.map(([text]) => text)).toEqual([...lines, '{"x":"tail \u2192"}']);
    expect(utf8.exact).toEqual([true, true, true, true]);
    const latin1 = await linesOf(file, { latin1: true });
    expect(latin1.exact).toEqual([true, false, true, false]);
    // a character a byte: the bytes, and so the UTF-8 text, come back whole
    expect(latin1.seen.map(([text]) => Buffer.from(text, "latin1").toString("utf8"))).toEqual(utf8.seen.map(([text]) => text));
    expect(latin1.seen[1]?.[0]).not.toBe(lines[1]);
    expect(latin1.seen[0]?.[0]).toBe(lines[0]);
  });

  it("asks `accept` before handing a line over, and stops when the signal fires", async () => {
    const file = join(tempDir(), "a.jsonl");
    writeFileSync(file, "x keep\nx drop\n");
    expect((await linesOf(file, { accept: (text) => text.includes("keep") })).seen).toEqual([["x keep", true]]);
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(linesOf(file, { signal: controller.signal })).rejects.toThrow("stopped");
  });
});

describe("kit line files: filesUnder", () => {
  it("finds non-empty matching files at any depth; skips hidden entries, links to directories, missing roots and a root seen twice", async () => {
    const root = tempDir();
    mkdirSync(join(root, "p", "deep", "er"), { recursive: true });
    mkdirSync(join(root, ".hidden"));
    writeFileSync(join(root, "p", "a.jsonl"), "1");
    writeFileSync(join(root, "p", "deep", "er", "b.JSONL"), "22");
    writeFileSync(join(root, "p", "empty.jsonl"), "");
    writeFileSync(join(root, "p", "notes.txt"), "3");
    writeFileSync(join(root, ".hidden", "c.jsonl"), "4");
    symlinkSync(join(root, "p"), join(root, "loop"));
    const found = await filesUnder([root, join(root, "missing"), join(root, "loop", "..")], (name) =>
      name.toLowerCase().endsWith(".jsonl"),
    );
    expect(found.map((f) => [f.path.slice(root.length), f.size]).sort()).toEqual([
      ["/p/a.jsonl", 1],
      ["/p/deep/er/b.JSONL", 2],
    ]);
    expect(found.every((f) => f.mtimeMs > 0)).toBe(true);
  });
});

describe("kit line files: readTail", () => {
  it("reads a small file whole, and of a larger one the last bytes from the first whole line", async () => {
    const file = join(tempDir(), "q-client.log");
    writeFileSync(file, "first line\nsecond line\nthird\n");
    expect((await readTail(file, 1_000))?.text).toBe("first line\nsecond line\nthird\n");
    // 16 bytes back starts inside "second line": that cut line is left out
    expect(await readTail(file, 16)).toMatchObject({ text: "third\n", size: 29 });
    // 18 bytes back is where "second line" starts: it is whole
    expect((await readTail(file, 18))?.text).toBe("second line\nthird\n");
    expect((await readTail(file, 4))?.text).toBe("");
  });

  it("reads only the end of a 1 GB file", async () => {
    const file = join(tempDir(), "huge.log");
    writeFileSync(file, "");
    truncateSync(file, 1 << 30); // sparse: no gigabyte is written, nor read
    appendFileSync(file, "\nthe last answer\n");
    const tail = await readTail(file, 4 << 20);
    expect(tail?.text).toBe("the last answer\n");
    expect(tail?.size).toBe((1 << 30) + 17);
  });

  it("is null for a missing file, a directory and a FIFO (opened without waiting for a writer)", async () => {
    const dir = tempDir();
    expect(await readTail(join(dir, "missing.log"), 100)).toBeNull();
    expect(await readTail(dir, 100)).toBeNull();
    execFileSync("mkfifo", [join(dir, "fifo.log")]);
    expect(await readTail(join(dir, "fifo.log"), 100)).toBeNull();
  });
});
