import { machineWide, homeOf, joinPath, type CredentialSource } from "../kit/index.js";
import { INSTALL_DIRS } from "./errors.js";

const BINARY = "kiro-cli";

/** kiro-cli's path: on PATH, else in one of the usual install folders. */
export const kiroBinary: CredentialSource<string> = machineWide({
  resolve: ({ env, processes }) =>
    processes.which(
      BINARY,
      INSTALL_DIRS.map((dir) => (dir.startsWith("~/") ? joinPath(homeOf(env), dir.slice(2)) : dir)),
    ),
});
