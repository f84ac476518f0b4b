#!/usr/bin/env node
import { execute } from "@oclif/core";
import { withDefaultCommand } from "../dist/oclif-cli/default-command.js";

await execute({ args: withDefaultCommand(process.argv.slice(2)), dir: import.meta.url });
