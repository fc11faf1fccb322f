import type { CommandModule } from '../command-module';
import { designsCommand } from './designs';
import { ignoreCommand } from './ignore';
import { keepCommand } from './keep';
import { loginCommand } from './login';
import { logoutCommand } from './logout';
import { openCommand } from './open';
import { pullCommand } from './pull';
import { queueCommand } from './queue';
import { searchCommand } from './search';
import { showCommand } from './show';
import { statusCommand } from './status';
import { syncCommand } from './sync';
import { uiCommand } from './ui';
import { whoamiCommand } from './whoami';

export const COMMAND_MODULES: CommandModule[] = [
  loginCommand,
  logoutCommand,
  whoamiCommand,
  pullCommand,
  searchCommand,
  showCommand,
  designsCommand,
  keepCommand,
  openCommand,
  statusCommand,
  queueCommand,
  syncCommand,
  ignoreCommand,
  uiCommand,
];
