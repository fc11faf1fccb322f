import { isPlainTextDescription, plainTextParagraphs } from '../../../../shared/text/description-text';
import { sanitizeDescription } from './sanitize-description';

/**
 * The design's description: plain text (the live service's, with "\r\n") as paragraphs and line breaks, made of text
 * nodes only; HTML (the spec's) sanitized: no script, no handlers, no remote content.
 */
export function DesignDescription({ description }: { description: string }) {
  if (isPlainTextDescription(description)) {
    const paragraphs = plainTextParagraphs(description);
    if (paragraphs.length === 0) return null;
    return (
      <div className="design-description" data-format="text">
        {paragraphs.map((lines, p) => (
          <p key={p}>{lines.flatMap((line, l) => (l === 0 ? [line] : [<br key={`br${l}`} />, line]))}</p>
        ))}
      </div>
    );
  }
  return <div className="design-description" data-format="html" dangerouslySetInnerHTML={{ __html: sanitizeDescription(description) }} />;
}
