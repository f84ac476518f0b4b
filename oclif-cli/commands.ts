import Bar from "./commands/bar.js";
import CacheClear from "./commands/cache-clear.js";
import ConfigPath from "./commands/config-path.js";
import ConfigSetKey from "./commands/config-set-key.js";
import ConfigShow from "./commands/config-show.js";
import ConfigValidate from "./commands/config-validate.js";
import Cost from "./commands/cost.js";
import Cookies from "./commands/cookies.js";
import Demo from "./commands/demo.js";
import History from "./commands/history.js";
import Login from "./commands/login.js";
import Logout from "./commands/logout.js";
import Providers from "./commands/providers.js";
import RefreshSession from "./commands/refresh-session.js";
import Serve from "./commands/serve.js";
import Status from "./commands/status.js";
import Usage from "./commands/usage.js";
import Watch from "./commands/watch.js";

/**
 * Every command, by id: the one place a command is registered (an import and a line here). The
 * build (scripts/build.mjs) reads this table and gives each command its own small module,
 * dist/oclif-cli/commands/<topic>/<name>.js, listed in oclif.manifest.json: a run loads only the
 * command it runs. `quotabar --help` is written from it too (oclif-cli/root-help.ts).
 */
export const COMMANDS = {
  usage: Usage,
  providers: Providers,
  demo: Demo,
  login: Login,
  logout: Logout,
  status: Status,
  cost: Cost,
  cookies: Cookies,
  watch: Watch,
  bar: Bar,
  serve: Serve,
  history: History,
  "refresh-session": RefreshSession,
  "config:path": ConfigPath,
  "config:show": ConfigShow,
  "config:validate": ConfigValidate,
  "config:set-key": ConfigSetKey,
  "cache:clear": CacheClear,
};
