import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { touchDesign } from '../designs/design-repository';
import { loadOwnDesign, loadVisibleDesign } from '../designs/design-routes';
import { notFound, unprocessable } from '../http/errors';
import { notModifiedSince } from '../http/last-modified';
import { numericId } from '../http/params';
import { installStorage, removeQuietly, removeStorage } from '../media/file-store';
import { multipartRequired, receiveUploadForm, textFieldsFromBody, type UploadForm } from '../media/multipart-upload';
import type { ServiceContext } from '../server/service-context';
import { documentStorageKey, prepareDocumentDirectory } from './document-files';
import {
  deleteDocument, findDesignDocument, insertDocument, listDesignDocuments, updateDocument,
} from './document-repository';
import { serializeCreatedDocument, serializeDocument } from './document-serializer';

type DesignParams = { Params: { design_id: string } };
type DocumentParams = { Params: { design_id: string; id: string } };

/** Documents of a design (spec §4.3). Reads follow the design's visibility; writes need its owner. */
export function registerDocumentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const collection = '/v1/designs/:design_id/documents';
  const member = `${collection}/:id`;

  app.get<DesignParams>(collection, async (request) => {
    const design = loadVisibleDesign(ctx, request, request.params.design_id);
    return listDesignDocuments(ctx.db, design.id).map(serializeDocument);
  });

  app.get<DocumentParams>(member, async (request, reply) => {
    const design = loadVisibleDesign(ctx, request, request.params.design_id);
    const document = findDesignDocument(ctx.db, design.id, numericId(request.params.id, 'Document'));
    if (!document) throw notFound('Document');
    if (notModifiedSince(request, reply, document.updated_at)) return reply;
    return serializeDocument(document);
  });

  app.post<DesignParams>(collection, async (request, reply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    if (!request.isMultipart()) throw multipartRequired('document');
    const form = await receiveUploadForm(ctx, request, 'document');
    let staging: string | null = null;
    try {
      if (!form.file) throw unprocessable({ file: ["can't be blank"] });
      staging = prepareDocumentDirectory(ctx, form.file);
      const now = ctx.now();
      const document = insertDocument(ctx.db, {
        designId: design.id, userId: request.currentUser!.id,
        name: form.fields.name || form.file.fileName, description: form.fields.description ?? '',
        fileName: form.file.fileName, byteSize: form.file.bytes, modelhash: form.file.sha1,
        now, storageKeyFor: documentStorageKey,
      });
      try {
        installStorage(ctx, staging, document.storage_key);
      } catch (error) {
        deleteDocument(ctx.db, document.id);
        throw error;
      }
      staging = null;
      touchDesign(ctx.db, design.id, now);
      reply.code(201).header('location', `${collection.replace(':design_id', String(design.id))}/${document.id}`);
      return serializeCreatedDocument(document);
    } finally {
      form.discard();
      removeQuietly(staging);
    }
  });

  const update = async (request: FastifyRequest<DocumentParams>, reply: FastifyReply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    const document = findDesignDocument(ctx.db, design.id, numericId(request.params.id, 'Document'));
    if (!document) throw notFound('Document');
    const form: UploadForm = request.isMultipart()
      ? await receiveUploadForm(ctx, request, 'document')
      : { fields: textFieldsFromBody(request.body, 'document'), file: null, discard: () => {} };
    let staging: string | null = null;
    try {
      const { name, description } = form.fields;
      const file = form.file;
      if (file) {
        staging = prepareDocumentDirectory(ctx, file);
        installStorage(ctx, staging, document.storage_key);
        staging = null;
      }
      if (file || name || description !== undefined) {
        const now = ctx.now();
        updateDocument(ctx.db, document.id, {
          name: name || undefined, description,
          content: file ? { fileName: file.fileName, byteSize: file.bytes, modelhash: file.sha1 } : undefined,
        }, now);
        touchDesign(ctx.db, design.id, now);
      }
      return reply.code(204).send();
    } finally {
      form.discard();
      removeQuietly(staging);
    }
  };
  app.patch<DocumentParams>(member, update);
  app.put<DocumentParams>(member, update);

  app.delete<DocumentParams>(member, async (request, reply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    const document = findDesignDocument(ctx.db, design.id, numericId(request.params.id, 'Document'));
    if (!document) throw notFound('Document');
    deleteDocument(ctx.db, document.id);
    removeStorage(ctx, document.storage_key);
    touchDesign(ctx.db, design.id, ctx.now());
    return reply.code(204).send();
  });
}
