import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { loginCommand } from './login';
import { logoutCommand } from './logout';
import { pullCommand } from './pull';
import { queueCommand } from './queue';
import { searchCommand } from './search';
import { showCommand } from './show';
import { statusCommand } from './status';
import { syncCommand } from './sync';
import { uiCommand } from './ui';
import { whoamiCommand } from './whoami';

/** A command module adds its commands to the program; `context()` is made once the global options are parsed. */
export type CommandModule = (program: Command, context: () => CliContext) => void;

export const COMMAND_MODULES: CommandModule[] = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  pullCommand,
  searchCommand,
  showCommand,
  statusCommand,
  queueCommand,
  syncCommand,
  uiCommand,
];
