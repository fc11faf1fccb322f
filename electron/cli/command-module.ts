import type { Command } from 'commander';
import type { CliContext } from './cli-context';

/** A command module adds its commands to the program; `context()` is made once the global options are parsed. */
export type CommandModule = (program: Command, context: () => CliContext) => void;
