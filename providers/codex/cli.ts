import { homeOf, joinPath, QuotabarError, type CredentialSource } from "../kit/index.js";

/** Where `codex` is looked for besides PATH (npm's, Homebrew's, the usual user folders); `~/` is the user's home. */
export const INSTALL_DIRS = ["~/.local/bin", "~/.npm-global/bin", "~/.bun/bin", "/opt/homebrew/bin", "/usr/local/bin"];

/** The Codex CLI's path: $CODEX_CLI_PATH when it is one, else on PATH, else in the usual install folders. */
export const codexBinary: CredentialSource<string> = {
  async resolve({ env, processes }) {
    const given = env.CODEX_CLI_PATH?.trim();
    if (given) return processes.which(given);
    return processes.which(
      "codex",
      INSTALL_DIRS.map((dir) => (dir.startsWith("~/") ? joinPath(homeOf(env), dir.slice(2)) : dir)),
    );
  },
};

export const notInstalled = () =>
  new QuotabarError("not_installed", "Codex CLI not found.", {
    remedies: [{ kind: "install", tool: "the Codex CLI", command: "npm i -g @openai/codex", url: "https://github.com/openai/codex" }],
  });
