import { Command, type Argument, type HelpConfiguration, type Option } from 'commander';
import type { Words } from '../../shared/i18n/create-intl';
import type { MessageId } from '../../shared/i18n/messages';

/** A message of the catalogs in a run's words: what the help's descriptions are made with. */
export type Say = (id: MessageId, values?: Record<string, string | number>) => string;

export const sayWith = (words: Words): Say => (id, values) => words.formatMessage({ id }, values);

/** The headings commander's help is made with, and the catalogs' words for them. */
const TITLES: Readonly<Record<string, MessageId>> = {
  'Usage:': 'cli.help.title.usage',
  'Arguments:': 'cli.help.title.arguments',
  'Options:': 'cli.help.title.options',
  'Global Options:': 'cli.help.title.globalOptions',
  'Commands:': 'cli.help.title.commands',
};

/** What commander adds to an option's or argument's description (its default, its choices…), in the run's words. */
function extraWords(say: Say, item: Option | Argument, showDefault: boolean): string[] {
  const extra: string[] = [];
  if (item.argChoices) extra.push(say('cli.help.extra.choices', { choices: item.argChoices.map((choice) => JSON.stringify(choice)).join(', ') }));
  if (item.defaultValue !== undefined && showDefault) {
    extra.push(say('cli.help.extra.default', { value: item.defaultValueDescription ?? JSON.stringify(item.defaultValue) }));
  }
  if ('presetArg' in item && item.presetArg !== undefined && item.optional) extra.push(say('cli.help.extra.preset', { value: JSON.stringify(item.presetArg) }));
  if ('envVar' in item && item.envVar !== undefined) extra.push(say('cli.help.extra.env', { name: item.envVar }));
  return extra;
}

function withExtra(description: string, extra: string[]): string {
  if (extra.length === 0) return description;
  const added = `(${extra.join(', ')})`;
  return description ? `${description} ${added}` : added;
}

/**
 * Commander's help in a run's words: its headings, the `[options]` and `[command]` of its usage lines, what it adds to
 * descriptions. The descriptions themselves are the commands' (each command module words its own); the help option,
 * the help command and the version option are worded where the program is made (main.ts).
 */
export function wordedHelp(words: Words): HelpConfiguration {
  const say = sayWith(words);
  return {
    styleTitle: (title) => (TITLES[title] ? say(TITLES[title]) : title),
    styleOptionText: (text) => (text === '[options]' ? say('cli.help.usage.options') : text),
    styleSubcommandText: (text) => (text === '[command]' ? say('cli.help.usage.command') : text),
    optionDescription: (option) => withExtra(option.description, extraWords(say, option, option.required || option.optional || (option.isBoolean() && typeof option.defaultValue === 'boolean'))),
    argumentDescription: (argument) => withExtra(argument.description, extraWords(say, argument, true)),
  };
}

/**
 * Commander's own refusals (an unknown option or command, a missing argument…), by their words in commander's English
 * (its code says which refusal, the words name the option), and the catalogs' message for each. One whose words are
 * not these (a later commander) is said in its English: the CLI's language test fails on it.
 */
const REFUSALS: readonly { code: string; pattern: RegExp; say: (say: Say, match: RegExpExecArray) => string }[] = [
  {
    code: 'commander.unknownOption',
    pattern: /^error: unknown option '(.+?)'(?:\n\(Did you mean (.+)\?\))?$/,
    say: (say, [, option, suggestion]) => withSuggestion(say, say('cli.commander.unknownOption', { option: option! }), suggestion),
  },
  {
    code: 'commander.unknownCommand',
    pattern: /^error: unknown command '(.+?)'(?:\n\(Did you mean (.+)\?\))?$/,
    say: (say, [, command, suggestion]) => withSuggestion(say, say('cli.commander.unknownCommand', { command: command! }), suggestion),
  },
  { code: 'commander.missingArgument', pattern: /^error: missing required argument '(.+)'$/, say: (say, [, argument]) => say('cli.commander.missingArgument', { argument: argument! }) },
  { code: 'commander.optionMissingArgument', pattern: /^error: option '(.+)' argument missing$/, say: (say, [, option]) => say('cli.commander.optionMissingArgument', { option: option! }) },
  { code: 'commander.missingMandatoryOptionValue', pattern: /^error: required option '(.+)' not specified$/, say: (say, [, option]) => say('cli.commander.missingMandatoryOption', { option: option! }) },
  {
    code: 'commander.excessArguments',
    pattern: /^error: too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\.$/,
    say: (say, [, command, expected, got]) => say(command === undefined ? 'cli.commander.excessArguments' : 'cli.commander.excessArgumentsFor', { command: command ?? '', expected: Number(expected), got: Number(got) }),
  },
];

function withSuggestion(say: Say, refusal: string, suggestion: string | undefined): string {
  return suggestion === undefined ? refusal : `${refusal}\n${say('cli.commander.didYouMean', { suggestion })}`;
}

/** Commander's refusal in the run's words; its English when it is not one of REFUSALS. */
export function refusalWords(say: Say, message: string, code: string | undefined): string {
  for (const refusal of REFUSALS) {
    if (refusal.code !== code) continue;
    const match = refusal.pattern.exec(message);
    if (match) return refusal.say(say, match);
  }
  return message;
}

/** The program and each of its commands, refusing a mistaken call in the run's words (refusalWords). */
export class WordedCommand extends Command {
  constructor(name: string | undefined, private readonly say: Say) {
    super(name);
  }

  override createCommand(name?: string): Command {
    return new WordedCommand(name, this.say);
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    return super.error(refusalWords(this.say, message, errorOptions?.code), errorOptions);
  }
}
