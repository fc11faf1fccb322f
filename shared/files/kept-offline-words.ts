import type { KeptDesignView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import { wordedOr } from '../i18n/engine-words';
import { formatBytes } from '../i18n/format';

type KeptFacts = Pick<KeptDesignView, 'state' | 'filesHere' | 'filesTotal' | 'bytesHere' | 'current' | 'problem' | 'problemWords'>;

/**
 * Where a design kept offline is, in one sentence in the language of `intl` (English by default; the messages
 * design.kept.* the window's design page says it with): "Kept offline: 6 files, 2.3 MB.", "Downloading Bracket.stl
 * (3 of 6) 45%…", "Waiting for the service: 2 of 6 files here.", or what stopped it (the engine's words).
 */
export function keptOfflineWords(kept: KeptFacts, intl: Words = ENGLISH_INTL): string {
  const counts = { here: kept.filesHere, total: kept.filesTotal };
  switch (kept.state) {
    case 'ready':
      return intl.formatMessage({ id: 'design.kept.ready' }, { total: kept.filesTotal, size: formatBytes(intl, kept.bytesHere) });
    case 'downloading': {
      if (!kept.current) {
        return kept.filesTotal === 0 ? intl.formatMessage({ id: 'design.kept.listing' }) : intl.formatMessage({ id: 'design.kept.downloading' }, counts);
      }
      const file = { name: kept.current.name, index: Math.min(kept.filesHere + 1, kept.filesTotal), total: kept.filesTotal };
      return kept.current.bytesTotal
        ? intl.formatMessage({ id: 'design.kept.downloadingFileShare' }, { ...file, share: Math.floor((100 * kept.current.bytesDone) / kept.current.bytesTotal) / 100 })
        : intl.formatMessage({ id: 'design.kept.downloadingFile' }, file);
    }
    case 'queued':
      return kept.filesTotal === 0 ? intl.formatMessage({ id: 'design.kept.queuedEmpty' }) : intl.formatMessage({ id: 'design.kept.queued' }, counts);
    case 'waiting':
      return kept.filesTotal === 0 ? intl.formatMessage({ id: 'design.kept.waitingEmpty' }) : intl.formatMessage({ id: 'design.kept.waiting' }, counts);
    case 'problem':
      return kept.problem
        ? intl.formatMessage({ id: 'design.kept.problem' }, { ...counts, problem: wordedOr(intl, kept.problemWords, kept.problem) })
        : intl.formatMessage({ id: 'design.kept.problemUnknown' }, counts);
  }
}
