// The menu-bar command lives in menubar-raycast/; `ray build` wants an entry point per command in src/.
export { default } from "../../menubar-raycast/menu-bar-command.js";
