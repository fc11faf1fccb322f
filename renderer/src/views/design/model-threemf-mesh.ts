/**
 * A 3MF model part's big lists, read straight from its text: the vertices and triangles of its meshes are most of a
 * large file (millions of elements), and a DOM of them costs seconds and gigabytes in the model worker. Each
 * `<vertices>` or `<triangles>` element whose content is only plain `<vertex x y z/>` or `<triangle v1 v2 v3 …/>`
 * elements (numbers as attributes, nothing else) is read here into typed arrays and taken out of the text the XML
 * parser sees, its start tag marked with the list's number; anything else in such a list (a comment, an entity, a
 * value that is not a number, a vertex without z as the Slice extension writes them) leaves it to the XML parser, so
 * the reader's errors and words stay the same.
 */

/** The attribute that marks an element whose content was read here: its value is the list's index. */
export const LIFTED_ATTRIBUTE = 'designsync-lifted';

/** A mesh's vertices: x, y, z of each. */
export interface LiftedVertices { kind: 'vertices'; xyz: Float64Array; count: number }

/**
 * A mesh's triangles: corners (v1, v2, v3 of each), and where a triangle has them its properties (pid, p1, p2, p3; NaN
 * where absent). `properties` is null when no triangle has one.
 */
export interface LiftedTriangles { kind: 'triangles'; corners: Float64Array; properties: Float64Array | null; count: number }

export type LiftedList = LiftedVertices | LiftedTriangles;

const SPACE = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;
const TRIANGLE_NAMES: readonly string[] = ['v1', 'v2', 'v3', 'pid', 'p1', 'p2', 'p3'];
/** An attribute's name as XML allows it (with a prefix or not). */
const ATTRIBUTE_NAME = /^[A-Za-z_][\w.:-]*$/;
/** Lists shorter than this are left to the XML parser (its DOM of them costs nothing worth saving). */
const LIFT_FROM_CHARACTERS = 64 * 1024;

/**
 * Reads the elements of one list between `from` and `to` (its content), each named `prefix` + `element`; null when
 * anything in it is not such an element with plain attributes.
 */
function readList(text: string, from: number, to: number, prefix: string, element: 'vertex' | 'triangle'): LiftedList | null {
  const name = prefix + element;
  const names = element === 'vertex' ? ['x', 'y', 'z'] : TRIANGLE_NAMES;
  const width = names.length;
  // A first guess of the count from the content's length, grown when short.
  let values = new Float64Array(Math.max(16, Math.ceil((to - from) / (element === 'vertex' ? 40 : 35))) * width);
  let count = 0;
  let anyProperty = false;
  const seen = new Array<boolean>(width);
  let at = from;
  for (;;) {
    while (at < to && SPACE(text.charCodeAt(at))) at++;
    if (at >= to) break;
    if (text.charCodeAt(at) !== 60 /* < */ || !text.startsWith(name, at + 1)) return null;
    at += 1 + name.length;
    if (!SPACE(text.charCodeAt(at)) && text.charCodeAt(at) !== 47 /* / */) return null;
    if ((count + 1) * width > values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    const base = count * width;
    seen.fill(false);
    for (;;) {
      while (at < to && SPACE(text.charCodeAt(at))) at++;
      if (at >= to) return null;
      if (text.charCodeAt(at) === 47 /* / */) {
        if (text.charCodeAt(at + 1) !== 62 /* > */) return null;
        at += 2;
        break;
      }
      const equals = text.indexOf('=', at);
      if (equals < 0 || equals >= to) return null;
      const attribute = text.slice(at, equals).trimEnd();
      at = equals + 1;
      while (at < to && SPACE(text.charCodeAt(at))) at++;
      const quote = text.charCodeAt(at);
      if (quote !== 34 && quote !== 39) return null;
      const end = text.indexOf(quote === 34 ? '"' : "'", at + 1);
      if (end < 0 || end >= to) return null;
      const index = names.indexOf(attribute);
      if (index >= 0) {
        if (seen[index]) return null;
        const raw = text.slice(at + 1, end);
        // Empty, an entity, or not a number: the XML parser's path says which, as it always has.
        if (raw.trim() === '' || raw.includes('&')) return null;
        const value = Number(raw);
        if (!Number.isFinite(value)) return null;
        values[base + index] = value;
        seen[index] = true;
        if (index >= 3) anyProperty = true;
      } else if (!ATTRIBUTE_NAME.test(attribute)) {
        return null;
      }
      at = end + 1;
      if (!SPACE(text.charCodeAt(at)) && text.charCodeAt(at) !== 47) return null;
    }
    for (let k = 0; k < width; k++) {
      if (seen[k]) continue;
      // A vertex needs all three; a triangle's corners are checked by the reader (as missing ones always were).
      if (element === 'vertex') return null;
      values[base + k] = Number.NaN;
    }
    count++;
  }
  if (element === 'vertex') return { kind: 'vertices', xyz: values.subarray(0, count * 3), count };
  const corners = new Float64Array(count * 3);
  let properties: Float64Array | null = null;
  if (anyProperty) properties = new Float64Array(count * 4);
  for (let t = 0; t < count; t++) {
    corners[t * 3] = values[t * 7]!;
    corners[t * 3 + 1] = values[t * 7 + 1]!;
    corners[t * 3 + 2] = values[t * 7 + 2]!;
    if (properties) for (let k = 0; k < 4; k++) properties[t * 4 + k] = values[t * 7 + 3 + k]!;
  }
  return { kind: 'triangles', corners, properties, count };
}

/**
 * The text with its large plain vertex and triangle lists taken out (each start tag marked with LIFTED_ATTRIBUTE),
 * and those lists read. Text without such lists comes back as it was.
 */
export function liftMeshLists(text: string): { text: string; lists: LiftedList[] } {
  const lists: LiftedList[] = [];
  const kept: string[] = [];
  let copied = 0;
  const opening = /<([A-Za-z_][\w.-]*:)?(vertices|triangles)([^<>]*)>/g;
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const [tag, prefix = '', list, attributes = ''] = match;
    if (attributes.endsWith('/')) continue;
    const start = match.index + tag.length;
    const close = `</${prefix}${list}`;
    const end = text.indexOf(close, start);
    if (end < 0) break;
    opening.lastIndex = end;
    if (end - start < LIFT_FROM_CHARACTERS) continue;
    const read = readList(text, start, end, prefix, list === 'vertices' ? 'vertex' : 'triangle');
    if (!read) continue;
    kept.push(text.slice(copied, start - 1), ` ${LIFTED_ATTRIBUTE}="${lists.length}">`);
    copied = end;
    lists.push(read);
  }
  if (lists.length === 0) return { text, lists };
  kept.push(text.slice(copied));
  return { text: kept.join(''), lists };
}
