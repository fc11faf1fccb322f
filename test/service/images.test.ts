import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_RENDITIONS, imageShape, urlRef, type Image } from '../../shared';
import { NOT_AUTHORIZED_MESSAGE } from '../../service/http/errors';
import { IMAGE_RENDITION_SIZES } from '../../service/media/renditions';
import { expectEmpty, expectExactShape, json } from '../support/conformance';
import { startTestService, type TestService } from '../../harness/local-service';
import { bytesOf, createDesign, fixture, getDesign, tempLeftovers, uploadForm } from './upload-helpers';

let service: TestService;
let owner: string;
let other: string;

beforeAll(async () => {
  service = await startTestService();
  owner = service.addUser('image-owner').token;
  other = service.addUser('image-other').token;
});
afterAll(() => service.stop());

const imagesPath = (designId: number) => `/v1/designs/${designId}/images`;

async function upload(designId: number, fileName: string, content: Uint8Array, fields: { name?: string; description?: string } = {}): Promise<Image> {
  const response = await service.request('POST', imagesPath(designId), { token: owner, body: uploadForm('image', fileName, content, fields) });
  return json<Image>(response, 201);
}

async function refusal(designId: number, fileName: string, content: Uint8Array): Promise<string[]> {
  const response = await service.request('POST', imagesPath(designId), { token: owner, body: uploadForm('image', fileName, content) });
  const body = await json<{ errors: Record<string, string[]> }>(response, 422);
  expect(Object.keys(body)).toEqual(['errors']);
  expect(Object.keys(body.errors)).toEqual(['file']);
  return body.errors.file!;
}

/** Expected rendition size for an upright source of width x height (sharp rounds the free side; ±1 is tolerated). */
function expectedSize(width: number, height: number, rendition: keyof typeof IMAGE_RENDITION_SIZES): { width: number; height: number } {
  const size = IMAGE_RENDITION_SIZES[rendition];
  if (size.fit === 'cover') return { width: size.width, height: size.height };
  const scale = Math.min(1, size.width / width, size.height / height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

describe('POST /v1/designs/:design_id/images', () => {
  it('answers 201 with the Image: every §2.2 field, name defaulting to the file name, and a Location', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', imagesPath(design.id), { token: owner, body: uploadForm('image', 'gear.png', fixture('images/png-sample.png')) });
    const image = await json<Image>(response, 201);
    expectExactShape(imageShape, image);
    expectExactShape({ url: urlRef.shape.url, ...Object.fromEntries(IMAGE_RENDITIONS.map((r) => [r, urlRef.strict()])) }, image.file);
    expect(response.headers.get('location')).toBe(`${imagesPath(design.id)}/${image.id}`);
    expect(image).toMatchObject({
      name: 'gear.png', description: '', imagable_id: design.id, imagable_type: 'Design', contribution_id: null,
    });
    expect(image.user_id).toBe((await getDesign(service, owner, design.id)).user_id);
    expect(image.created_at).toBe(image.updated_at);
    for (const rendition of IMAGE_RENDITIONS) expect(image.file[rendition].url).toMatch(/^\/uploads\/.+\.jpg$/);
  });

  it('takes name and description from image[name] and image[description], also when they come after the file', async () => {
    const design = await createDesign(service, owner);
    const form = new FormData();
    form.append('image[file]', new Blob([fixture('images/jpg-sample.jpg')]), 'photo.jpg');
    form.append('image[name]', 'Assembled gear');
    form.append('image[description]', '<p>After <b>printing</b></p>');
    const image = await json<Image>(await service.request('POST', imagesPath(design.id), { token: owner, body: form }), 201);
    expect(image).toMatchObject({ name: 'Assembled gear', description: '<p>After <b>printing</b></p>' });
  });

  it('accepts a bare "file" part', async () => {
    const design = await createDesign(service, owner);
    const form = new FormData();
    form.append('file', new Blob([fixture('images/jpg-sample.jpg')]), 'bare.jpg');
    expect((await json<Image>(await service.request('POST', imagesPath(design.id), { token: owner, body: form }), 201)).name).toBe('bare.jpg');
  });

  it('makes the first image the primary image of a design and bumps the design\'s updated_at', async () => {
    const design = await createDesign(service, owner);
    const first = await upload(design.id, 'one.jpg', fixture('images/jpg-sample.jpg'));
    await upload(design.id, 'two.jpg', fixture('images/jpg-sample.jpg'));
    const after = await getDesign(service, owner, design.id);
    expect(after.primary_image_id).toBe(first.id);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(design.updated_at));
  });

  it('keeps a unicode file name: name, URL and download all round-trip', async () => {
    const design = await createDesign(service, owner);
    const fileName = 'Zahnrad Übersicht 齿轮 #1.png';
    const image = await upload(design.id, fileName, fixture('images/png-sample.png'));
    expect(image.name).toBe(fileName);
    expect(decodeURIComponent(image.file.url!.split('/').pop()!)).toBe(fileName);
    expect(await bytesOf(await service.request('GET', image.file.url!, { token: owner }))).toEqual(fixture('images/png-sample.png'));
    await bytesOf(await service.request('GET', image.file.small.url!, { token: owner }));
  });

  it('refuses a missing file with 422 {"errors":{"file":["can\'t be blank"]}}', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', imagesPath(design.id), { token: owner, body: uploadForm('image', null, null, { name: 'x' }) });
    expect(await json(response, 422)).toEqual({ errors: { file: ["can't be blank"] } });
  });

  it('answers a body that is not multipart/form-data with a clear JSON error', async () => {
    const design = await createDesign(service, owner);
    const response = await service.request('POST', imagesPath(design.id), { token: owner, json: { image: { name: 'x' } } });
    const body = await json<{ error: string }>(response, 415);
    expect(body.error).toMatch(/multipart\/form-data/);
  });

  it('answers a malformed multipart body (no boundary, a part cut short) with 400 JSON and leaves no temporary file', async () => {
    const design = await createDesign(service, owner);
    const noBoundary = await service.request('POST', imagesPath(design.id), { token: owner, body: 'abc', headers: { 'content-type': 'multipart/form-data' } });
    expect((await json<{ error: string }>(noBoundary, 400)).error).toMatch(/malformed/);
    const cut = '--b\r\nContent-Disposition: form-data; name="image[file]"; filename="a.png"\r\n\r\nabc';
    const cutShort = await service.request('POST', imagesPath(design.id), { token: owner, body: cut, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    expect((await json<{ error: string }>(cutShort, 400)).error).toMatch(/malformed/);
    expect(tempLeftovers(service)).toEqual([]);
  });
});

describe('accepted image types', () => {
  const accepted = [
    ['jpg', 'jpg-sample.jpg', 'image/jpeg', 123, 456],
    ['progressive jpg', 'jpg-progressive.jpg', 'image/jpeg', 123, 456],
    ['large jpg', 'jpg-large.jpg', 'image/jpeg', 1600, 1200],
    ['png', 'png-sample.png', 'image/png', 123, 456],
    ['bmp', 'bmp-sample.bmp', 'image/bmp', 123, 456],
    ['little-endian tiff', 'tiff-little-endian.tiff', 'image/tiff', 123, 456],
    ['big-endian tiff', 'tiff-big-endian.tiff', 'image/tiff', 123, 456],
    ['JPEG-compressed tiff', 'tiff-jpeg.tiff', 'image/tiff', 123, 456],
  ] as const;

  let designId: number;
  beforeAll(async () => {
    designId = (await createDesign(service, owner)).id;
  });

  it.each(accepted)('%s: keeps the original byte for byte and makes every rendition a JPEG of the expected size', async (_label, file, contentType, width, height) => {
    const content = fixture(`images/${file}`);
    const image = await upload(designId, file, content);
    const original = await service.request('GET', image.file.url!, { token: owner });
    expect(original.headers.get('content-type')).toBe(contentType);
    expect(await bytesOf(original)).toEqual(content);
    for (const rendition of IMAGE_RENDITIONS) {
      const response = await service.request('GET', image.file[rendition].url!, { token: owner });
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(await bytesOf(response)).metadata();
      const expected = expectedSize(width, height, rendition);
      expect(meta.format, rendition).toBe('jpeg');
      expect(Math.abs(meta.width - expected.width), `${rendition} width ${meta.width} vs ${expected.width}`).toBeLessThanOrEqual(1);
      expect(Math.abs(meta.height - expected.height), `${rendition} height ${meta.height} vs ${expected.height}`).toBeLessThanOrEqual(1);
    }
  });

  it('turns images upright by their EXIF orientation (a 1x2 JPEG tagged rotate-90 becomes 2x1)', async () => {
    const image = await upload(designId, 'flipped.jpg', fixture('images/jpg-1x2-flipped-big-endian.jpg'));
    const large = await sharp(await bytesOf(await service.request('GET', image.file.large.url!, { token: owner }))).metadata();
    expect({ width: large.width, height: large.height }).toEqual({ width: 2, height: 1 });
  });

  it('reads BMP colours in the right channel order', async () => {
    // A 16x16 24-bit BMP, rows stored bottom-up, pixels stored B,G,R: the lower half pure red, the upper half pure blue.
    const side = 16;
    const header = Buffer.alloc(54);
    header.write('BM', 0, 'latin1');
    header.writeUInt32LE(54 + side * side * 3, 2);
    header.writeUInt32LE(54, 10);
    header.writeUInt32LE(40, 14);
    header.writeInt32LE(side, 18);
    header.writeInt32LE(side, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(24, 28);
    header.writeUInt32LE(side * side * 3, 34);
    const rows = Array.from({ length: side }, (_, storedRow) => Array.from({ length: side }, () => (storedRow < side / 2 ? [0, 0, 255] : [255, 0, 0])).flat());
    const pixels = Buffer.from(rows.flat());
    const image = await upload(designId, 'two-colours.bmp', Buffer.concat([header, pixels]));
    const { data, info } = await sharp(await bytesOf(await service.request('GET', image.file.large.url!, { token: owner })))
      .raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const close = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - expected[i]!) < 60);
    expect(close(pixel(0, 0), [0, 0, 255]), `top-left ${pixel(0, 0)} should be blue`).toBe(true);
    expect(close(pixel(0, side - 1), [255, 0, 0]), `bottom-left ${pixel(0, side - 1)} should be red`).toBe(true);
  });

  it('decodes the BMP fixture to the same picture as the PNG fixture', async () => {
    const bmp = await upload(designId, 'sample.bmp', fixture('images/bmp-sample.bmp'));
    const png = await upload(designId, 'sample.png', fixture('images/png-sample.png'));
    const stats = async (image: Image) => (await sharp(await bytesOf(await service.request('GET', image.file.medium.url!, { token: owner }))).stats()).channels.map((c) => c.mean);
    const [a, b] = [await stats(bmp), await stats(png)];
    for (let i = 0; i < 3; i++) expect(Math.abs(a[i]! - b[i]!), `channel ${i}: ${a} vs ${b}`).toBeLessThan(8);
  });
});

describe('refused images', () => {
  let designId: number;
  beforeAll(async () => {
    designId = (await createDesign(service, owner)).id;
  });

  it('refuses a .gif by its type, naming the file and the accepted types', async () => {
    const [message] = await refusal(designId, 'anim.gif', fixture('images/gif-sample.gif'));
    expect(message).toMatch(/anim\.gif/);
    expect(message).toMatch(/jpg, jpeg, tiff, bmp, png/);
  });

  it('refuses a GIF renamed .png, saying it is a GIF', async () => {
    const [message] = await refusal(designId, 'disguised.png', fixture('images/gif-sample.gif'));
    expect(message).toMatch(/disguised\.png/);
    expect(message).toMatch(/GIF/);
  });

  it('refuses a corrupt PNG (a signature and nothing usable)', async () => {
    const [message] = await refusal(designId, 'invalid-truncated.png', fixture('images/invalid-truncated.png'));
    expect(message).toMatch(/invalid-truncated\.png: cannot be read as an image/);
  });

  it('refuses a text file named .jpg and a file without an extension', async () => {
    expect((await refusal(designId, 'notes.jpg', Buffer.from('just text')))[0]).toMatch(/notes\.jpg.*not a JPEG, PNG, TIFF or BMP/);
    expect((await refusal(designId, 'README', fixture('images/png-sample.png')))[0]).toMatch(/README: a file without an extension/);
  });

  it('leaves no temporary files behind after refusals', async () => {
    await refusal(designId, 'broken.png', fixture('images/invalid-truncated.png'));
    expect(tempLeftovers(service)).toEqual([]);
  });
});

describe('GET /v1/designs/:design_id/images and /:id', () => {
  it('lists a design\'s images ordered by id and reads one by numeric id', async () => {
    const design = await createDesign(service, owner);
    const a = await upload(design.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    const b = await upload(design.id, 'b.png', fixture('images/png-sample.png'));
    const list = await json<Image[]>(await service.request('GET', imagesPath(design.id), { token: owner }), 200);
    expect(list.map((image) => image.id)).toEqual([a.id, b.id]);
    for (const image of list) expectExactShape(imageShape, image);
    expect(await json(await service.request('GET', `${imagesPath(design.id)}/${b.id}`, { token: owner }), 200)).toEqual(b);
  });

  it('answers 404 JSON for an unknown id, a non-numeric id, and an image of another design', async () => {
    const design = await createDesign(service, owner);
    const elsewhere = await createDesign(service, owner);
    const image = await upload(elsewhere.id, 'x.jpg', fixture('images/jpg-sample.jpg'));
    for (const path of [`${imagesPath(design.id)}/999999`, `${imagesPath(design.id)}/abc`, `${imagesPath(design.id)}/${image.id}`]) {
      expect(await json<{ error: string }>(await service.request('GET', path, { token: owner }), 404)).toHaveProperty('error');
    }
  });

  it('hides the images of another user\'s draft (404) and shows those of a published design to anyone', async () => {
    const draft = await createDesign(service, owner);
    await upload(draft.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    await json(await service.request('GET', imagesPath(draft.id), { token: other }), 404);
    await json(await service.request('GET', imagesPath(draft.id)), 404);
    const published = await createDesign(service, owner, { publish: true });
    const image = await upload(published.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    expect(await json<Image[]>(await service.request('GET', imagesPath(published.id)), 200)).toHaveLength(1);
    await bytesOf(await service.request('GET', image.file.url!));
  });
});

describe('PATCH/PUT /v1/designs/:design_id/images/:id', () => {
  it('answers 204 with an empty body to a request with only a name (multipart or JSON), and the name changes', async () => {
    const design = await createDesign(service, owner);
    const image = await upload(design.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    const path = `${imagesPath(design.id)}/${image.id}`;
    await expectEmpty(await service.request('PATCH', path, { token: owner, body: uploadForm('image', null, null, { name: 'Renamed' }) }), 204);
    expect((await json<Image>(await service.request('GET', path, { token: owner }), 200)).name).toBe('Renamed');
    await expectEmpty(await service.request('PUT', path, { token: owner, json: { image: { name: 'Via JSON', description: 'd' } } }), 204);
    const read = await json<Image>(await service.request('GET', path, { token: owner }), 200);
    expect(read).toMatchObject({ name: 'Via JSON', description: 'd', file: image.file });
    expect(Date.parse(read.updated_at)).toBeGreaterThan(Date.parse(image.updated_at));
  });

  it('replaces the file: new original, new renditions, new URLs; the name stays', async () => {
    const design = await createDesign(service, owner);
    const image = await upload(design.id, 'before.jpg', fixture('images/jpg-1x2-flipped-big-endian.jpg'), { name: 'Kept' });
    const path = `${imagesPath(design.id)}/${image.id}`;
    await expectEmpty(await service.request('PUT', path, { token: owner, body: uploadForm('image', 'after.png', fixture('images/png-sample.png')) }), 204);
    const read = await json<Image>(await service.request('GET', path, { token: owner }), 200);
    expect(read.name).toBe('Kept');
    expect(read.file.url).toMatch(/after\.png$/);
    expect(await bytesOf(await service.request('GET', read.file.url!, { token: owner }))).toEqual(fixture('images/png-sample.png'));
    const large = await sharp(await bytesOf(await service.request('GET', read.file.large.url!, { token: owner }))).metadata();
    expect({ width: large.width, height: large.height }).toEqual({ width: 123, height: 456 });
    await json(await service.request('GET', image.file.url!, { token: owner }), 404);
  });

  it('refuses a replacement that is not an accepted image with 422 and keeps the old file', async () => {
    const design = await createDesign(service, owner);
    const image = await upload(design.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    const path = `${imagesPath(design.id)}/${image.id}`;
    const response = await service.request('PATCH', path, { token: owner, body: uploadForm('image', 'b.gif', fixture('images/gif-sample.gif')) });
    expect((await json<{ errors: { file: string[] } }>(response, 422)).errors.file[0]).toMatch(/b\.gif/);
    expect(await bytesOf(await service.request('GET', image.file.url!, { token: owner }))).toEqual(fixture('images/jpg-sample.jpg'));
  });
});

describe('DELETE /v1/designs/:design_id/images/:id', () => {
  it('answers 204 with an empty body, removes the files, and moves the primary image to the next one, then to null', async () => {
    const design = await createDesign(service, owner);
    const first = await upload(design.id, 'a.jpg', fixture('images/jpg-sample.jpg'));
    const second = await upload(design.id, 'b.jpg', fixture('images/jpg-sample.jpg'));
    const stored = join(service.dataDir, 'files', 'images', String(first.id));
    expect(existsSync(stored)).toBe(true);
    await expectEmpty(await service.request('DELETE', `${imagesPath(design.id)}/${first.id}`, { token: owner }), 204);
    expect(existsSync(stored)).toBe(false);
    await json(await service.request('GET', `${imagesPath(design.id)}/${first.id}`, { token: owner }), 404);
    await json(await service.request('GET', first.file.url!, { token: owner }), 404);
    expect((await getDesign(service, owner, design.id)).primary_image_id).toBe(second.id);
    await expectEmpty(await service.request('DELETE', `${imagesPath(design.id)}/${second.id}`, { token: owner }), 204);
    expect((await getDesign(service, owner, design.id)).primary_image_id).toBeNull();
  });
});

describe('permissions on image writes', () => {
  let designId: number;
  let imageId: number;
  beforeAll(async () => {
    designId = (await createDesign(service, owner, { publish: true })).id;
    imageId = (await upload(designId, 'a.jpg', fixture('images/jpg-sample.jpg'))).id;
  });

  const writes = () => [
    ['POST', imagesPath(designId), () => uploadForm('image', 'x.jpg', fixture('images/jpg-sample.jpg'))],
    ['PATCH', `${imagesPath(designId)}/${imageId}`, () => uploadForm('image', null, null, { name: 'hijacked' })],
    ['PUT', `${imagesPath(designId)}/${imageId}`, () => uploadForm('image', null, null, { name: 'hijacked' })],
    ['DELETE', `${imagesPath(designId)}/${imageId}`, () => undefined],
  ] as const;

  it('answers another user with 403 and the §7 body', async () => {
    for (const [method, path, body] of writes()) {
      expect(await json(await service.request(method, path, { token: other, body: body() }), 403), `${method} ${path}`)
        .toEqual({ error: NOT_AUTHORIZED_MESSAGE });
    }
    expect(NOT_AUTHORIZED_MESSAGE).toBe('You are not authorized to access this page.');
  });

  it('answers a request without a token with 401', async () => {
    for (const [method, path, body] of writes()) {
      expect(await json(await service.request(method, path, { body: body() }), 401), `${method} ${path}`).toHaveProperty('error');
    }
  });

  it('answers 404 for writes to an unknown design or image', async () => {
    await json(await service.request('POST', imagesPath(999999), { token: owner, body: uploadForm('image', 'x.jpg', fixture('images/jpg-sample.jpg')) }), 404);
    await json(await service.request('DELETE', `${imagesPath(designId)}/999999`, { token: owner }), 404);
    await json(await service.request('PATCH', `${imagesPath(designId)}/999999`, { token: owner, json: { image: { name: 'x' } } }), 404);
  });

  it('left the image untouched', async () => {
    expect((await json<Image>(await service.request('GET', `${imagesPath(designId)}/${imageId}`), 200)).name).toBe('a.jpg');
  });
});
