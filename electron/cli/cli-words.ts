import type { Command } from 'commander';
import { createTranslator, type IntlShape } from '../../shared/i18n/create-intl';
import { environmentLanguages, LANGUAGES, matchLocale, PSEUDO_LOCALE, resolveLocale, type LanguageSetting, type Locale } from '../../shared/i18n/locales';
import { engineLog } from '../engine/log/engine-log';
import { profilePaths } from '../engine/profile/profile';
import { fileSettingsStore } from '../engine/settings/settings-store';
import { CliError, DEFAULT_PROFILE_DIR } from './cli-context';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The language of a command's words: --lang (a language's code, or a locale such as de_AT.UTF-8), else the profile's
 * language setting (Settings → Language), else the environment's (LC_ALL, LC_MESSAGES, LANG, then LANGUAGE), else
 * English. A --lang design-sync does not speak is refused, naming the ones it does.
 */
export function cliLocale(lang: string | undefined, setting: LanguageSetting | undefined, env: Environment): Locale {
  if (lang === undefined) return resolveLocale(setting, environmentLanguages(env));
  const asked = lang.trim();
  const matched = matchLocale([asked]);
  // matchLocale answers English for what it does not know: English only when English was asked for.
  if (matched !== 'en' || /^en([-_.@]|$)/i.test(asked)) return matched;
  const spoken = LANGUAGES.map((language) => `${language.code} (${language.name})`).join(', ');
  throw CliError.of('cli.lang.notSpoken', { lang, languages: spoken, pseudo: PSEUDO_LOCALE });
}

/** The profile's language setting; undefined where it is not set, there is no profile, or the settings file cannot be read (said in the log). */
function profileLanguage(settingsFile: string | null): LanguageSetting | undefined {
  if (settingsFile === null) return undefined;
  try {
    return fileSettingsStore(settingsFile).read().language;
  } catch (error) {
    engineLog.warn('cli', 'the language setting could not be read: the environment\'s language is used', error);
    return undefined;
  }
}

/** The words and formats of a command, in its language (cliLocale), dates and numbers as the environment's region writes them. */
export function cliWords(lang: string | undefined, settingsFile: string | null, env: Environment = process.env): Promise<IntlShape> {
  const locale = cliLocale(lang, profileLanguage(settingsFile), env);
  return createTranslator(locale, environmentLanguages(env));
}

/** A command's words: its program's --lang, the context's profile (cliWords). */
export function commandWords(program: Command, ctx: { profile: { settingsFile: string } }): Promise<IntlShape> {
  return cliWords(program.opts<{ lang?: string }>().lang, ctx.profile.settingsFile);
}

/** The value of a global option in the arguments as typed (`--lang de` or `--lang=de`, the last one winning), before `--`. */
function optionValue(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (arg === flag && index + 1 < argv.length) value = argv[++index];
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
  }
  return value;
}

/**
 * The words of a run, known before its arguments are parsed (the help, commander's own refusals): --lang and
 * --profile read from the arguments as typed, then as cliWords. A --lang design-sync does not speak is refused
 * (`withLang` false: the words the run has without it, those the refusal is said in).
 */
export function startWords(argv: readonly string[], env: Environment = process.env, withLang = true): Promise<IntlShape> {
  const root = optionValue(argv, '--profile') ?? env.DESIGN_SYNC_PROFILE ?? DEFAULT_PROFILE_DIR;
  return cliWords(withLang ? optionValue(argv, '--lang') : undefined, profilePaths(root).settingsFile, env);
}
