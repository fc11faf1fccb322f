import { describe, expect, it } from 'vitest';
import { describeLabelledFieldErrors, FIELD_LABELS, fieldLabel, labelledFieldErrors } from '../../shared';
import { createTranslator } from '../../shared/i18n/create-intl';
import { fieldLabelWords, fieldMessageWords, problemWords, searchFailedWords, windowWords } from '../../renderer/src/views/problem-words';

describe('field names in the window\'s words', () => {
  it('names each field of a design with the label the window shows beside it', () => {
    expect(FIELD_LABELS).toMatchObject({ name: 'Name', excerpt: 'Summary', license: 'License', description: 'Description' });
    expect(fieldLabel('primary_image_id')).toBe('Cover image');
    expect(fieldLabel('primaryImageId')).toBe('Cover image');
  });

  it('makes words of a field it has no label for, never the raw name', () => {
    expect(fieldLabel('screen_name')).toBe('Screen name');
    expect(fieldLabel('realName')).toBe('Real name');
  });

  it('says a field error with the label: "Summary can\'t be blank"; an error of the whole design as it is', () => {
    expect(labelledFieldErrors({ excerpt: ["can't be blank"], base: ['design is locked'] })).toEqual(["Summary can't be blank", 'Design is locked']);
    expect(describeLabelledFieldErrors({ name: ['is too long (maximum is 255 characters)'], excerpt: ["can't be blank"] }))
      .toBe("Name is too long (maximum is 255 characters); Summary can't be blank");
  });
});

describe('a problem said once in the window\'s words', () => {
  it('says a message nested in itself once, without the system\'s error code', () => {
    expect(windowWords('The service cannot be reached (The service cannot be reached (ECONNREFUSED).).')).toBe('The service cannot be reached.');
    expect(windowWords('The service cannot be reached (The service cannot be reached (ECONNREFUSED).). Changes are kept and sent when it is back.'))
      .toBe('The service cannot be reached. Changes are kept and sent when it is back.');
    expect(windowWords('The service at 127.0.0.1:4010 cannot be reached (ECONNREFUSED); check that the service address is right.'))
      .toBe('The service at 127.0.0.1:4010 cannot be reached; check that the service address is right.');
  });

  it('leaves out the lines of a stack trace', () => {
    expect(windowWords('The design could not be read.\n    at readDesign (engine.js:10:5)\n    at run (engine.js:20:1)')).toBe('The design could not be read.');
  });

  it('leaves plain words and their brackets alone', () => {
    const plain = 'tool.exe: executable files (.exe) cannot be uploaded as documents';
    expect(windowWords(plain)).toBe(plain);
    expect(windowWords('Name is too long (maximum is 255 characters)')).toBe('Name is too long (maximum is 255 characters)');
  });

  it('says a refused field with its label rather than the service\'s field name', () => {
    expect(problemWords({ kind: 'validation', message: "excerpt can't be blank", fieldErrors: { excerpt: ["can't be blank"] } })).toBe("Summary can't be blank.");
    expect(problemWords({ kind: 'offline', message: 'The service cannot be reached (ECONNREFUSED).', maybeApplied: false })).toBe('The service cannot be reached.');
  });
});

describe('the contract\'s own refusals in the window\'s words', () => {
  it('says a refused setting with the label beside its field and in plain words, never the request\'s field name', () => {
    const refused = { kind: 'validation' as const, message: 'The settings.update request was refused: cacheLimitMb Too small: expected number to be >=50.', fieldErrors: { cacheLimitMb: ['Too small: expected number to be >=50'] } };
    expect(problemWords(refused)).toBe('Image cache limit must be at least 50.');
    expect(problemWords({ ...refused, fieldErrors: { cacheLimitMb: ['Invalid input: expected number, received null'] } })).toBe('Image cache limit must be a number.');
  });

  it('words the schema\'s messages as the service words its own, and leaves the service\'s words alone', () => {
    expect(fieldMessageWords('Too big: expected number to be <=1000000')).toBe('must be at most 1,000,000');
    expect(fieldMessageWords('Invalid input: expected int, received number')).toBe('must be a whole number');
    expect(fieldMessageWords('Too small: expected string to have >=1 characters')).toBe("can't be blank");
    expect(fieldMessageWords('Too big: expected string to have <=255 characters')).toBe('must be at most 255 characters long');
    expect(fieldMessageWords("can't be blank")).toBe("can't be blank");
  });
});

describe('a failed service search said once', () => {
  it('says the search failed only when the problem does not already say so, then that the cache was searched', () => {
    expect(searchFailedWords('The service\'s search failed (rate limited).')).toBe('The service\'s search failed (rate limited). The cached designs were searched.');
    expect(searchFailedWords('The service answered with an error (HTTP 500).')).toBe('The service\'s search failed: the service answered with an error (HTTP 500). The cached designs were searched.');
    expect(searchFailedWords('HTTP 502 from the proxy')).toBe('The service\'s search failed: HTTP 502 from the proxy. The cached designs were searched.');
    expect(searchFailedWords('')).toBe('The service\'s search failed. The cached designs were searched.');
  });
});

describe('problems in the window\'s language', () => {
  it('says a refused field with its label in the language, the service\'s own message as it sent it', async () => {
    const german = await createTranslator('de');
    const dutch = await createTranslator('nl');
    const refused = { kind: 'validation' as const, message: "excerpt can't be blank", fieldErrors: { excerpt: ["can't be blank"] } };
    expect(problemWords(refused, german)).toBe("Zusammenfassung: can't be blank.");
    expect(problemWords(refused, dutch)).toBe("Samenvatting: can't be blank.");
    expect(fieldLabelWords('screen_name', german)).toBe('Screen name');
  });

  it('words the contract\'s own refusals in the language, numbers as it writes them', async () => {
    const german = await createTranslator('de');
    const refused = { kind: 'validation' as const, message: 'refused', fieldErrors: { cacheLimitMb: ['Too small: expected number to be >=1500'] } };
    expect(problemWords(refused, german)).toBe('Maximale Größe des Bild-Caches: muss mindestens 1.500 sein.');
    expect(fieldMessageWords('Too big: expected string to have <=255 characters', await createTranslator('nl'))).toBe('mag hoogstens 255 tekens lang zijn');
  });

  it('says a failed service search in the language, the service\'s words kept', async () => {
    expect(searchFailedWords('HTTP 502 from the proxy', await createTranslator('nl')))
      .toBe('Zoeken op de dienst is mislukt: HTTP 502 from the proxy. Er is gezocht in de ontwerpen in de cache.');
  });
});
