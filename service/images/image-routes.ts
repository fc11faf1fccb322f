import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { touchDesign } from '../designs/design-repository';
import { loadOwnDesign, loadVisibleDesign } from '../designs/design-routes';
import { notFound, unprocessable } from '../http/errors';
import { notModifiedSince } from '../http/last-modified';
import { numericId } from '../http/params';
import { installStorage, removeQuietly, removeStorage } from '../media/file-store';
import { multipartRequired, receiveUploadForm, textFieldsFromBody, type UploadForm } from '../media/multipart-upload';
import type { ServiceContext } from '../server/service-context';
import { imageStorageKey, prepareImageDirectory } from './image-files';
import { deleteImage, findDesignImage, insertImage, listDesignImages, updateImage } from './image-repository';
import { serializeImage } from './image-serializer';

type DesignParams = { Params: { design_id: string } };
type ImageParams = { Params: { design_id: string; id: string } };

/** Images of a design (spec §4.2). Reads follow the design's visibility; writes need its owner. */
export function registerImageRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const collection = '/v1/designs/:design_id/images';
  const member = `${collection}/:id`;

  app.get<DesignParams>(collection, async (request) => {
    const design = loadVisibleDesign(ctx, request, request.params.design_id);
    return listDesignImages(ctx.db, design.id).map(serializeImage);
  });

  app.get<ImageParams>(member, async (request, reply) => {
    const design = loadVisibleDesign(ctx, request, request.params.design_id);
    const image = findDesignImage(ctx.db, design.id, numericId(request.params.id, 'Image'));
    if (!image) throw notFound('Image');
    if (notModifiedSince(request, reply, image.updated_at)) return reply;
    return serializeImage(image);
  });

  app.post<DesignParams>(collection, async (request, reply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    if (!request.isMultipart()) throw multipartRequired('image');
    const form = await receiveUploadForm(ctx, request, 'image');
    let staging: string | null = null;
    try {
      if (!form.file) throw unprocessable({ file: ["can't be blank"] });
      staging = await prepareImageDirectory(ctx, form.file);
      const now = ctx.now();
      const image = insertImage(ctx.db, {
        designId: design.id, userId: request.currentUser!.id,
        name: form.fields.name || form.file.fileName, description: form.fields.description ?? '',
        fileName: form.file.fileName, now, storageKeyFor: imageStorageKey,
      });
      try {
        installStorage(ctx, staging, image.storage_key);
      } catch (error) {
        deleteImage(ctx.db, image);
        throw error;
      }
      staging = null;
      touchDesign(ctx.db, design.id, now);
      reply.code(201).header('location', `${collection.replace(':design_id', String(design.id))}/${image.id}`);
      return serializeImage(image);
    } finally {
      form.discard();
      removeQuietly(staging);
    }
  });

  const update = async (request: FastifyRequest<ImageParams>, reply: FastifyReply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    const image = findDesignImage(ctx.db, design.id, numericId(request.params.id, 'Image'));
    if (!image) throw notFound('Image');
    const form: UploadForm = request.isMultipart()
      ? await receiveUploadForm(ctx, request, 'image')
      : { fields: textFieldsFromBody(request.body, 'image'), file: null, discard: () => {} };
    let staging: string | null = null;
    try {
      const { name, description } = form.fields;
      if (form.file) {
        staging = await prepareImageDirectory(ctx, form.file);
        installStorage(ctx, staging, image.storage_key);
        staging = null;
      }
      if (form.file || name || description !== undefined) {
        const now = ctx.now();
        updateImage(ctx.db, image.id, { name: name || undefined, description, fileName: form.file?.fileName }, now);
        touchDesign(ctx.db, design.id, now);
      }
      return reply.code(204).send();
    } finally {
      form.discard();
      removeQuietly(staging);
    }
  };
  app.patch<ImageParams>(member, update);
  app.put<ImageParams>(member, update);

  app.delete<ImageParams>(member, async (request, reply) => {
    const design = loadOwnDesign(ctx, request, request.params.design_id);
    const image = findDesignImage(ctx.db, design.id, numericId(request.params.id, 'Image'));
    if (!image) throw notFound('Image');
    deleteImage(ctx.db, image);
    removeStorage(ctx, image.storage_key);
    touchDesign(ctx.db, design.id, ctx.now());
    return reply.code(204).send();
  });
}
