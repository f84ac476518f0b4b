import { describe, expect, it } from "vitest";
import { languageServer } from "../../providers/antigravity/language-server.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { ProcessRunner, RunningProcess } from "../../ports/process-runner.js";

/**
 * Antigravity's language server is found in the process table and handed the CSRF token; its
 * answers become the meters. Only a process of the user quotabar runs as is trusted: anyone on the
 * machine can start a program named like it (with a plain-http "extension server port" of their
 * choosing) and answer "Impersonated Plan, 99 %". A real process of another user (started with
 * setpriv where the tests run as root) is refused in providers/antigravity/antigravity.test.ts, beside
 * the other tests that start language servers: the process table is the machine's, and tests in other
 * files running meanwhile would see it.
 */

const SERVER = "/opt/Antigravity/resources/app/extensions/antigravity/bin/language_server_linux_x64";
const COMMAND = `${SERVER} --enable_lsp --extension_server_port 52871 --csrf_token 7c1e2b9a-4d0f-4a55-9b1e-3f2d8c6a0e11 --app_data_dir antigravity`;
const ME = 1000;

/** A runner whose process table and user are given: no program is ever run. */
function runner(table: RunningProcess[], me: number | null = ME): ProcessRunner {
  return {
    run: async () => {
      throw new Error("no program runs in this test");
    },
    which: async () => null,
    processTable: async () => table,
    ...(me === null ? {} : { userId: () => me }),
  };
}

const find = (processes: ProcessRunner) =>
  languageServer.resolve({ processes, entry: { id: "antigravity" } } as unknown as CredentialContext);

describe("a fake process table", () => {
  it("accepts the language server of the user quotabar runs as", async () => {
    expect(await find(runner([{ pid: 4242, command: COMMAND, uid: ME }]))).toMatchObject({ pid: 4242, extensionServerPort: 52871 });
  });

  it("refuses one of another user, and says so", async () => {
    await expect(find(runner([{ pid: 4242, command: COMMAND, uid: 65534 }]))).rejects.toMatchObject({
      code: "not_configured",
      message:
        "Antigravity language server not detected: the one running (pid 4242) belongs to another user (uid 65534), and quotabar only talks to your own.",
    });
  });

  it("takes the user's own when another user's runs too, whatever the order", async () => {
    const table = [
      { pid: 10, command: COMMAND, uid: 65534 },
      { pid: 11, command: COMMAND, uid: ME },
    ];
    expect((await find(runner(table)))?.pid).toBe(11);
  });

  it("refuses a process whose user is unknown, and any process when quotabar cannot say who it runs as", async () => {
    await expect(find(runner([{ pid: 4242, command: COMMAND, uid: null }]))).rejects.toThrow("belongs to an unknown user");
    await expect(find(runner([{ pid: 4242, command: COMMAND, uid: ME }], null))).rejects.toThrow("belongs to another user (uid 1000)");
  });

  it("reads the user from ps where there is no /proc (macOS)", async () => {
    const ps: ProcessRunner = {
      which: async (command) => `/bin/${command}`,
      run: async () => ({ exitCode: 0, stdout: `  4242   502 ${COMMAND}\n`, stderr: "", timedOut: false }),
      userId: () => 501,
    };
    await expect(find(ps)).rejects.toThrow("(pid 4242) belongs to another user (uid 502)");
    expect(await find({ ...ps, userId: () => 502 })).toMatchObject({ pid: 4242 });
  });
});
