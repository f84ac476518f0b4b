import CacheClear from "./commands/cache-clear.js";
import ConfigPath from "./commands/config-path.js";
import ConfigSetKey from "./commands/config-set-key.js";
import ConfigShow from "./commands/config-show.js";
import ConfigValidate from "./commands/config-validate.js";
import Demo from "./commands/demo.js";
import Login from "./commands/login.js";
import Logout from "./commands/logout.js";
import Providers from "./commands/providers.js";
import Status from "./commands/status.js";
import Usage from "./commands/usage.js";

/** oclif's explicit command table (package.json `oclif.commands`). */
export const COMMANDS = {
  usage: Usage,
  providers: Providers,
  demo: Demo,
  login: Login,
  logout: Logout,
  status: Status,
  "config:path": ConfigPath,
  "config:show": ConfigShow,
  "config:validate": ConfigValidate,
  "config:set-key": ConfigSetKey,
  "cache:clear": CacheClear,
};
