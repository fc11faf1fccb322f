import type { DesignFields } from '../api/service-client';
import { fieldList } from '../queue/field-words';
import { said } from '../queue/said';

/** The activity list's lines for what was done in the person's name (rule 4), in the window's own words. */

function changed(fields: DesignFields) {
  const list = fieldList(Object.keys(fields));
  return list ? { count: Object.keys(fields).length, fields: list } : { count: 0, fields: '' };
}

export const createdLine = (name: string) => said('activity.own.created', { name });
export const editSentLine = (name: string, fields: DesignFields) => said('activity.own.editSent', { name, ...changed(fields) });
export const editQueuedLine = (name: string, fields: DesignFields) => said('activity.own.editQueued', { name, ...changed(fields) });
export const publishedLine = (name: string) => said('activity.own.published', { name });
export const notPublishedLine = (name: string) => said('activity.own.notPublished', { name });
export const deletedLine = (name: string) => said('activity.own.deleted', { name });
