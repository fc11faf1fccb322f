import type { Command } from 'commander';
import type { CliContext } from './cli-context';
import type { Say } from './help-words';

/**
 * A command module adds its commands to the program; `context()` is made once the global options are parsed. `say`
 * words its help (descriptions of the commands, their options and arguments) in the run's language.
 */
export type CommandModule = (program: Command, context: () => CliContext, say: Say) => void;
