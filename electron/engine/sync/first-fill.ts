import { said, type Said } from '../queue/said';

/** What the first sync of design folders brought (a first sync, a new design's folder), told once for all of them. */
export interface FirstFill {
  downloaded: number;
  adopted: number;
  folders: Set<string>;
}

export const emptyFirstFill = (): FirstFill => ({ downloaded: 0, adopted: 0, folders: new Set() });

export function describeFirstFill(fill: FirstFill): Said {
  const facts = { folders: fill.folders.size, downloaded: fill.downloaded, adopted: fill.adopted };
  if (fill.downloaded === 0) return said('activity.sync.firstFillLinked', facts);
  return said(fill.adopted > 0 ? 'activity.sync.firstFillDownloadedAndLinked' : 'activity.sync.firstFillDownloaded', facts);
}
