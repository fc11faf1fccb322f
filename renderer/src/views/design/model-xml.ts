/**
 * XML for the model worker, which has no DOMParser: @xmldom/xmldom's standard DOM (namespaces resolved as XML says,
 * so a 3MF extension is found whatever prefix a file gives it). A part that is not well-formed XML is refused with
 * the part named.
 */
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { UnreadableModelError } from './model-parts';

export type { XmlElement };

/**
 * The root element of an XML part, or why not (its name in `part`, such as "3D/3dmodel.model"; null when the part is
 * the whole file).
 */
export function parseXmlPart(bytes: Uint8Array, part: string | null): XmlElement {
  return parseXmlText(decodeXmlPart(bytes, part), part);
}

const namedPart = (part: string | null) => ({ whole: part === null ? 'yes' : 'no', part: part ?? '' });

/** An XML part's bytes as text (UTF-8), or why not. */
export function decodeXmlPart(bytes: Uint8Array, part: string | null): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableModelError('design.model.error.xmlNotUtf8', namedPart(part));
  }
}

/** The root element of an XML part's text, or why not (as parseXmlPart). */
export function parseXmlText(text: string, part: string | null): XmlElement {
  const named = namedPart(part);
  let root: XmlElement | null;
  try {
    const parser = new DOMParser({
      locator: false,
      onError(level, message) {
        if (level !== 'warning') throw new Error(message);
      },
    });
    root = parser.parseFromString(text, 'application/xml').documentElement;
  } catch (error) {
    // The parser's own words (English, as xmldom says them) for where the XML breaks.
    const why = error instanceof Error ? error.message.split('\n')[0]!.replace(/^\[xmldom [\w ]+\]\s*/, '') : String(error);
    throw new UnreadableModelError('design.model.error.xmlMalformed', { ...named, why: why.replace(/\.$/, '') });
  }
  if (!root) throw new UnreadableModelError('design.model.error.xmlNoRoot', named);
  return root;
}

/** The element children of an element, in order (a DOM walk: cheaper than a live node list on large meshes). */
export function* childElements(element: XmlElement, namespace?: string, localName?: string): Generator<XmlElement> {
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const child = node as XmlElement;
    if (namespace !== undefined && child.namespaceURI !== namespace) continue;
    if (localName !== undefined && child.localName !== localName) continue;
    yield child;
  }
}

/** The first element child with that namespace and name, or null. */
export function childElement(element: XmlElement, namespace: string, localName: string): XmlElement | null {
  for (const child of childElements(element, namespace, localName)) return child;
  return null;
}

/** An attribute read as a number; null when absent; refused (naming it) when present and not a number. */
export function numberAttribute(element: XmlElement, name: string, part: string): number | null {
  const text = element.getAttribute(name);
  if (text === null || text === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new UnreadableModelError('design.model.error.xmlNotNumber', { part, element: element.localName ?? '', attribute: name, text });
  return value;
}
