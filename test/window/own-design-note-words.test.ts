import { describe, expect, it } from 'vitest';
import type { OwnDesignNote } from '../../shared/contract/views';
import { createTranslator } from '../../shared/i18n/create-intl';
import { ownDesignNoteWords } from '../../shared/own-designs/own-design-note-words';

const offlineUnaccepted: OwnDesignNote[] = [{ kind: 'edits-waiting' }, { kind: 'content-policy' }, { kind: 'files-waiting', count: 2 }];

describe('what an own design\'s waiting changes mean, in words', () => {
  it('says nothing when no note, and in English by default the sentences the engine\'s note has', () => {
    expect(ownDesignNoteWords([])).toBeNull();
    expect(ownDesignNoteWords([{ kind: 'edits-sending' }])).toBe('Saved here; it is being sent to the service.');
    expect(ownDesignNoteWords(offlineUnaccepted)).toBe(
      'Saved here; it is sent when the service is back. Nothing is sent until you accept the content policy in Sync. 2 file changes wait to be sent when the service is back.',
    );
    expect(ownDesignNoteWords([{ kind: 'files-waiting', count: 1 }])).toBe('1 file change waits to be sent when the service is back.');
  });

  it('says them in Dutch (je) and German (Sie), the count as each writes it', async () => {
    const dutch = await createTranslator('nl');
    const german = await createTranslator('de');
    expect(ownDesignNoteWords(offlineUnaccepted, dutch)).toBe(
      'Hier opgeslagen; het wordt verstuurd zodra de dienst terug is. Er wordt niets verstuurd tot je het inhoudsbeleid accepteert in Synchronisatie. 2 bestandswijzigingen wachten en worden verstuurd zodra de dienst terug is.',
    );
    expect(ownDesignNoteWords([{ kind: 'edits-sending' }, { kind: 'content-policy' }], german)).toBe(
      'Hier gespeichert; es wird an den Dienst gesendet. Es wird nichts gesendet, bis Sie die Inhaltsrichtlinie unter Synchronisierung akzeptieren.',
    );
    expect(ownDesignNoteWords([{ kind: 'files-waiting', count: 1500 }], german)).toBe('1.500 Dateiänderungen warten und werden gesendet, sobald der Dienst wieder erreichbar ist.');
  });
});
