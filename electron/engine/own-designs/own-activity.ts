import type { DesignFields } from '../api/service-client';

/** The activity list's lines for what was done in the person's name (rule 4), in the window's own words. */

const FIELD_WORDS: Record<string, string> = { name: 'name', excerpt: 'summary', license: 'license', description: 'description', primary_image_id: 'cover image' };

function changed(fields: DesignFields): string {
  const words = Object.keys(fields).map((field) => FIELD_WORDS[field] ?? field);
  return words.length > 0 ? ` (${words.join(', ')})` : '';
}

export const createdLine = (name: string) => `You created the design “${name}” as a draft.`;
export const editSentLine = (name: string, fields: DesignFields) => `You changed the design “${name}”${changed(fields)}.`;
export const editQueuedLine = (name: string, fields: DesignFields) => `You changed the design “${name}”${changed(fields)}: saved here, it is sent when the service is back.`;
export const publishedLine = (name: string) => `You published the design “${name}”.`;
export const notPublishedLine = (name: string) =>
  `The service would not publish the design “${name}”: none of the ways of asking it to publish worked. The design is still a draft; nothing else changed.`;
export const deletedLine = (name: string) => `You deleted the design “${name}” on the service.`;
