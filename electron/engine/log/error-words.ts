import type { EngineWords } from '../../../shared/i18n/engine-words';

/** What a system error (Node's errno codes) means, in words a person reads; its code stays for the engine log. */
const SYSTEM_ERROR_WORDS: Record<string, string> = {
  ENOENT: 'a file or folder it needs is not there',
  ENOTDIR: 'a path it needs is a file where a folder was expected',
  EISDIR: 'a path it needs is a folder where a file was expected',
  EACCES: 'it is not allowed to use a file or folder it needs (check the permissions)',
  EPERM: 'it is not allowed to use a file or folder it needs (check the permissions)',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EBUSY: 'a file it needs is in use by another program',
  EMFILE: 'too many files are open at once',
  ENFILE: 'too many files are open at once',
  EEXIST: 'a file or folder it makes is already there',
};

const SYSTEM_CODE = /^E[A-Z]{2,}$/;

/**
 * The words for a system error (a file that cannot be written, a disk that is full), or null when `error` is not
 * one. Never the code itself (ENOSPC…): that is in the engine log with the error.
 */
export function systemErrorWords(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !SYSTEM_CODE.test(code)) return null;
  return SYSTEM_ERROR_WORDS[code] ?? 'a file or folder it needs could not be used';
}

/**
 * A system error's words as facts (`engine.refusal.systemError`, chosen by its code), for a sentence said in the
 * person's language; null when `error` is not one.
 */
export function systemErrorFacts(error: unknown): EngineWords | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !SYSTEM_CODE.test(code)) return null;
  return { id: 'engine.refusal.systemError', values: { code: Object.hasOwn(SYSTEM_ERROR_WORDS, code) ? code : 'other' } };
}
