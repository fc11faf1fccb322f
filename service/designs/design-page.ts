import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isLicenseCode, LICENSES } from '../../shared';
import { layout } from '../authorization/authorization-templates';
import type { DesignRow, DocumentRow, ImageRow } from '../database/rows';
import { html } from '../http/safe-html';
import { imageRenditionPath } from '../media/urls';
import type { ServiceContext } from '../server/service-context';
import { findVisibleDesign } from './design-repository';
import { idOrSlug } from '../http/params';

/** A description's words, without its markup: the page shows text, never the author's HTML. */
function plainText(description: string): string {
  return description
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/?(p|div|li|br|h[1-6]|tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/**
 * The design's web page, which clients link to (spec §1 rule 1: link to the design, never to its 3D files).
 * Published designs only, as anyone without a session would see them. Part of the web site (its images are the API's
 * files, at ctx.origin: another port when the web site has its own).
 */
export function registerDesignPage(app: FastifyInstance, ctx: ServiceContext): void {
  app.get<{ Params: { id: string } }>('/designs/:id', async (request, reply) => {
    const design = findVisibleDesign(ctx.db, idOrSlug(request.params.id), null) as DesignRow | undefined;
    const nonce = randomBytes(16).toString('base64');
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' ${ctx.origin}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    if (!design) {
      return reply.code(404).send(layout('Design not found', nonce, html`<h1>Design not found</h1><p>There is no published design at this address.</p>`));
    }
    const owner = ctx.db.prepare('SELECT screen_name FROM users WHERE id = ?').get(design.user_id) as { screen_name: string };
    const images = ctx.db.prepare('SELECT * FROM images WHERE design_id = ? ORDER BY id').all(design.id) as ImageRow[];
    const documents = ctx.db.prepare('SELECT * FROM documents WHERE design_id = ? ORDER BY id').all(design.id) as DocumentRow[];
    const tags = ctx.db.prepare('SELECT t.name FROM taggings tg JOIN tags t ON t.id = tg.tag_id WHERE tg.design_id = ? ORDER BY t.name').all(design.id) as { name: string }[];
    const license = isLicenseCode(design.license) ? LICENSES[design.license] : null;
    const body = html`
      <h1>${design.name}</h1>
      <p class="muted">by ${owner.screen_name} · ${license ? license.title : design.license}</p>
      ${license?.attributionRequired ? html`<p>“${design.name}” by ${owner.screen_name}, licensed ${license.title}.</p>` : ''}
      <p><strong>${design.excerpt}</strong></p>
      ${images.map((image) => html`<img src="${ctx.origin}${imageRenditionPath(image, 'grid')}" alt="${image.name}" width="280" height="210"> `)}
      ${plainText(design.description).split('\n').map((line) => html`<p>${line}</p>`)}
      ${tags.length > 0 ? html`<p class="muted">Tags: ${tags.map((tag) => tag.name).join(', ')}</p>` : ''}
      ${documents.length > 0 ? html`<h2>Files</h2><ul>${documents.map((document) => html`<li>${document.name}</li>`)}</ul>` : ''}`;
    return reply.send(layout(design.name, nonce, body));
  });
}
