import type { OwnDesignNote } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';

/**
 * What an own design's waiting changes mean now, in words, in the language of `intl` (English by default): one
 * sentence a note ("Saved here; it is sent when the service is back."), said one after the other. The engine's English
 * `OwnDesignView.note` and the window's My designs both come from here; null when no note.
 */
export function ownDesignNoteWords(notes: readonly OwnDesignNote[], intl: Words = ENGLISH_INTL): string | null {
  if (notes.length === 0) return null;
  return notes.map((note) => ownDesignNoteSentence(note, intl)).join(' ');
}

export function ownDesignNoteSentence(note: OwnDesignNote, intl: Words = ENGLISH_INTL): string {
  switch (note.kind) {
    case 'edits-sending':
      return intl.formatMessage({ id: 'mine.note.editsSending' });
    case 'edits-waiting':
      return intl.formatMessage({ id: 'mine.note.editsWaiting' });
    case 'content-policy':
      return intl.formatMessage({ id: 'mine.note.contentPolicy' });
    case 'files-waiting':
      return intl.formatMessage({ id: 'mine.note.filesWaiting' }, { count: note.count });
  }
}
