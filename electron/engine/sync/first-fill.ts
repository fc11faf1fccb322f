/** What the first sync of design folders brought (a first sync, a new design's folder), told once for all of them. */
export interface FirstFill {
  downloaded: number;
  adopted: number;
  folders: Set<string>;
}

export const emptyFirstFill = (): FirstFill => ({ downloaded: 0, adopted: 0, folders: new Set() });

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function describeFirstFill(fill: FirstFill): string {
  const into = count(fill.folders.size, 'design folder', 'design folders');
  const same = fill.adopted > 0 ? `${count(fill.adopted, 'file', 'files')} already here ${fill.adopted === 1 ? 'was' : 'were'} the same as on the service` : '';
  if (fill.downloaded === 0) return `In ${into}, ${same}: linked, nothing downloaded or sent.`;
  return `Downloaded ${count(fill.downloaded, 'file', 'files')} into ${into}${same ? `; ${same}` : ''}.`;
}
