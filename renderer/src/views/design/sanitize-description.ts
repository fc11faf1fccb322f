import DOMPurify from 'dompurify';

const ALLOWED_LINK = /^https?:\/\//i;

/**
 * The service's description HTML made inert: no script, no event handlers, no styles, no forms, no frames, and no
 * remote content (images, media and anything else that would load from elsewhere are dropped). Links keep only
 * http(s) addresses and open outside the window.
 */
export function sanitizeDescription(html: string): string {
  const purifier = DOMPurify();
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!ALLOWED_LINK.test(href)) node.removeAttribute('href');
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purifier.sanitize(html, {
    FORBID_TAGS: ['img', 'picture', 'source', 'video', 'audio', 'track', 'iframe', 'object', 'embed', 'svg', 'math', 'style', 'link', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style', 'srcset', 'background', 'poster', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}
