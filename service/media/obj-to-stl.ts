import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/** A growable typed array, so big meshes do not become arrays of boxed numbers. */
class Growable<T extends Float32Array | Uint32Array> {
  length = 0;
  constructor(public data: T, private readonly make: (size: number) => T) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
}

/** 1-based or negative (relative) OBJ index → 0-based, or -1 when it is no valid index. */
function resolveIndex(token: string, vertexCount: number): number {
  const raw = Number.parseInt(token.split('/')[0] ?? '', 10);
  if (!Number.isFinite(raw) || raw === 0) return -1;
  const index = raw > 0 ? raw - 1 : vertexCount + raw;
  return index >= 0 ? index : -1;
}

export const STL_HEADER = 'binary STL converted from OBJ by design-sync';

/**
 * Converts a Wavefront OBJ file into a binary STL file: `v` vertices, `f` polygons triangulated as a fan
 * (v0, vi, vi+1); normals, texture coordinates and everything else are ignored; facet normals are computed.
 * Faces that name a vertex the file does not define are skipped. Returns the number of triangles written.
 */
export async function convertObjToStl(objPath: string, stlPath: string): Promise<number> {
  const vertices = new Growable(new Float32Array(3 * 1024), (n) => new Float32Array(n));
  const triangles = new Growable(new Uint32Array(3 * 1024), (n) => new Uint32Array(n));
  const lines = createInterface({ input: createReadStream(objPath), crlfDelay: Infinity });
  for await (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('v ') || trimmed.startsWith('v\t')) {
      const [, x, y, z] = trimmed.split(/\s+/);
      vertices.push(Number(x) || 0);
      vertices.push(Number(y) || 0);
      vertices.push(Number(z) || 0);
    } else if (trimmed.startsWith('f ') || trimmed.startsWith('f\t')) {
      const count = vertices.length / 3;
      const corners = trimmed.split(/\s+/).slice(1).map((token) => resolveIndex(token, count));
      for (let i = 1; i + 1 < corners.length; i++) {
        triangles.push(corners[0]!);
        triangles.push(corners[i]!);
        triangles.push(corners[i + 1]!);
      }
    }
  }

  const vertexCount = vertices.length / 3;
  const v = vertices.data;
  const file = await open(stlPath, 'w');
  try {
    const header = Buffer.alloc(84);
    header.write(STL_HEADER, 0, 'ascii');
    await file.write(header, 0, 84, 0);
    const batch = Buffer.alloc(50 * 4096);
    let inBatch = 0;
    let written = 0;
    let position = 84;
    const flush = async () => {
      await file.write(batch, 0, inBatch * 50, position);
      position += inBatch * 50;
      inBatch = 0;
    };
    const t = triangles.data;
    for (let i = 0; i < triangles.length; i += 3) {
      const a = t[i]!, b = t[i + 1]!, c = t[i + 2]!;
      if (a >= vertexCount || b >= vertexCount || c >= vertexCount) continue; // -1 wraps to 2^32-1 in Uint32Array
      const ax = v[a * 3]!, ay = v[a * 3 + 1]!, az = v[a * 3 + 2]!;
      const bx = v[b * 3]!, by = v[b * 3 + 1]!, bz = v[b * 3 + 2]!;
      const cx = v[c * 3]!, cy = v[c * 3 + 1]!, cz = v[c * 3 + 2]!;
      const ux = bx - ax, uy = by - ay, uz = bz - az;
      const wx = cx - ax, wy = cy - ay, wz = cz - az;
      let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
      const length = Math.hypot(nx, ny, nz);
      if (length > 0) {
        nx /= length;
        ny /= length;
        nz /= length;
      }
      const offset = inBatch * 50;
      const values = [nx, ny, nz, ax, ay, az, bx, by, bz, cx, cy, cz];
      for (let k = 0; k < 12; k++) batch.writeFloatLE(values[k]!, offset + k * 4);
      batch.writeUInt16LE(0, offset + 48);
      inBatch++;
      written++;
      if (inBatch === 4096) await flush();
    }
    if (inBatch > 0) await flush();
    const count = Buffer.alloc(4);
    count.writeUInt32LE(written, 0);
    await file.write(count, 0, 4, 80);
    return written;
  } finally {
    await file.close();
  }
}
