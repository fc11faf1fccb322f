/**
 * Parametric, closed (watertight) triangle meshes for the demo seed, and their binary STL / ASCII OBJ forms.
 * Units are millimetres; z is up. Every mesh is wound counter-clockwise seen from outside, so the normals
 * computed from the winding point outwards.
 */

export type Vec3 = readonly [number, number, number];
export type Vec2 = readonly [number, number];
export type Triangle = readonly [Vec3, Vec3, Vec3];

export interface Mesh {
  triangles: Triangle[];
}

export type ShapeSpec =
  | { kind: 'box'; width: number; depth: number; height: number }
  | { kind: 'cylinder'; radius: number; height: number; segments?: number }
  | { kind: 'cone'; radius: number; height: number; segments?: number }
  | { kind: 'gear'; teeth: number; radius: number; toothDepth: number; thickness: number }
  | { kind: 'vase'; radius: number; height: number; wall: number; waist: number; segments?: number }
  | { kind: 'bracket'; length: number; height: number; width: number; thickness: number }
  | { kind: 'ring'; innerRadius: number; outerRadius: number; height: number; segments?: number }
  | { kind: 'clip'; radius: number; wall: number; width: number; opening: number }
  | { kind: 'stand'; width: number; depth: number; height: number; angle: number }
  | { kind: 'dome'; radius: number; segments?: number };

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

export function triangleNormal([a, b, c]: Triangle): Vec3 {
  const n = cross(sub(b, a), sub(c, a));
  const length = Math.hypot(n[0], n[1], n[2]);
  return length === 0 ? [0, 0, 0] : [n[0] / length, n[1] / length, n[2] / length];
}

function isDegenerate(t: Triangle): boolean {
  const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  return Math.hypot(n[0], n[1], n[2]) < 1e-9;
}

/** Enclosed volume by the divergence theorem: positive when the mesh is wound outwards. */
export function signedVolume(mesh: Mesh): number {
  let volume = 0;
  for (const [a, b, c] of mesh.triangles) volume += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  return volume / 6;
}

/** Drops degenerate triangles and turns the mesh outside-out if it was built inside-out. */
function finish(triangles: Triangle[]): Mesh {
  const mesh = { triangles: triangles.filter((t) => !isDegenerate(t)) };
  if (signedVolume(mesh) < 0) mesh.triangles = mesh.triangles.map(([a, b, c]) => [a, c, b] as Triangle);
  return mesh;
}

function signedArea(polygon: Vec2[]): number {
  let area = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x1, y1] = polygon[i]!;
    const [x2, y2] = polygon[(i + 1) % polygon.length]!;
    area += x1 * y2 - x2 * y1;
  }
  return area / 2;
}

function pointInTriangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2): boolean {
  const side = (p1: Vec2, p2: Vec2, p3: Vec2) => (p1[0] - p3[0]) * (p2[1] - p3[1]) - (p2[0] - p3[0]) * (p1[1] - p3[1]);
  const d1 = side(p, a, b);
  const d2 = side(p, b, c);
  const d3 = side(p, c, a);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** Ear clipping of a simple counter-clockwise polygon; returns index triples, counter-clockwise. */
export function triangulatePolygon(polygon: Vec2[]): [number, number, number][] {
  const remaining = polygon.map((_, i) => i);
  const result: [number, number, number][] = [];
  let guard = polygon.length * polygon.length;
  while (remaining.length > 3 && guard-- > 0) {
    let clipped = false;
    for (let i = 0; i < remaining.length; i++) {
      const ia = remaining[(i + remaining.length - 1) % remaining.length]!;
      const ib = remaining[i]!;
      const ic = remaining[(i + 1) % remaining.length]!;
      const [a, b, c] = [polygon[ia]!, polygon[ib]!, polygon[ic]!];
      const convex = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 1e-12;
      if (!convex) continue;
      const blocked = remaining.some((j) => j !== ia && j !== ib && j !== ic && pointInTriangle(polygon[j]!, a, b, c));
      if (blocked) continue;
      result.push([ia, ib, ic]);
      remaining.splice(i, 1);
      clipped = true;
      break;
    }
    if (!clipped) throw new Error('triangulatePolygon: the polygon is not simple');
  }
  if (remaining.length === 3) result.push([remaining[0]!, remaining[1]!, remaining[2]!]);
  return result;
}

/** A prism: the polygon (in the xy plane) extruded from z = 0 to z = height. */
export function extrude(polygon: Vec2[], height: number): Mesh {
  const ccw = signedArea(polygon) < 0 ? [...polygon].reverse() : polygon;
  const triangles: Triangle[] = [];
  const bottom = (p: Vec2): Vec3 => [p[0], p[1], 0];
  const top = (p: Vec2): Vec3 => [p[0], p[1], height];
  for (const [i, j, k] of triangulatePolygon(ccw)) {
    triangles.push([top(ccw[i]!), top(ccw[j]!), top(ccw[k]!)]);
    triangles.push([bottom(ccw[i]!), bottom(ccw[k]!), bottom(ccw[j]!)]);
  }
  for (let i = 0; i < ccw.length; i++) {
    const a = ccw[i]!;
    const b = ccw[(i + 1) % ccw.length]!;
    triangles.push([bottom(a), bottom(b), top(b)], [bottom(a), top(b), top(a)]);
  }
  return finish(triangles);
}

/**
 * A solid of revolution about the z axis. The profile is a list of (radius, z) points; it is closed
 * (last point joined to the first). Points on the axis (radius 0) give fans; degenerate triangles are dropped.
 */
export function revolve(profile: Vec2[], segments: number, phase = 0): Mesh {
  const triangles: Triangle[] = [];
  const at = (p: Vec2, step: number): Vec3 => {
    if (p[0] === 0) return [0, 0, p[1]];
    const angle = phase + (2 * Math.PI * (step % segments)) / segments;
    return [p[0] * Math.cos(angle), p[0] * Math.sin(angle), p[1]];
  };
  for (let i = 0; i < profile.length; i++) {
    const p = profile[i]!;
    const q = profile[(i + 1) % profile.length]!;
    if (p[0] === 0 && q[0] === 0) continue; // along the axis: no surface
    for (let s = 0; s < segments; s++) {
      triangles.push([at(p, s), at(q, s), at(q, s + 1)], [at(p, s), at(q, s + 1), at(p, s + 1)]);
    }
  }
  return finish(triangles);
}

function circle(radius: number, segments: number): Vec2[] {
  return Array.from({ length: segments }, (_, i) => {
    const angle = (2 * Math.PI * i) / segments;
    return [radius * Math.cos(angle), radius * Math.sin(angle)] as Vec2;
  });
}

function gearOutline(teeth: number, radius: number, toothDepth: number): Vec2[] {
  const points: Vec2[] = [];
  const root = radius - toothDepth;
  for (let t = 0; t < teeth; t++) {
    const base = (2 * Math.PI * t) / teeth;
    const pitch = (2 * Math.PI) / teeth;
    // Root land, flank up, tip land, flank down: a trapezoidal tooth.
    for (const [fraction, r] of [[0, root], [0.2, root], [0.35, radius], [0.65, radius], [0.8, root]] as const) {
      const angle = base + fraction * pitch;
      points.push([r * Math.cos(angle), r * Math.sin(angle)]);
    }
  }
  return points;
}

function clipOutline(radius: number, wall: number, opening: number): Vec2[] {
  // A "C": an arc of a thick ring with a gap of `opening` degrees at the top.
  const half = (opening * Math.PI) / 360;
  const start = Math.PI / 2 + half;
  const end = Math.PI / 2 - half + 2 * Math.PI;
  const steps = 40;
  const outer: Vec2[] = [];
  const inner: Vec2[] = [];
  for (let i = 0; i <= steps; i++) {
    const angle = start + ((end - start) * i) / steps;
    outer.push([(radius + wall) * Math.cos(angle), (radius + wall) * Math.sin(angle)]);
    inner.push([radius * Math.cos(angle), radius * Math.sin(angle)]);
  }
  return [...outer, ...inner.reverse()];
}

function standOutline(depth: number, height: number, angle: number): Vec2[] {
  // Side profile (x = depth, y = height) of a phone stand: a base, a leaning back and a front lip.
  const lean = Math.tan(((90 - angle) * Math.PI) / 180) * height;
  return [
    [0, 0], [depth, 0], [depth, 4], [depth * 0.35 + lean * 0.1, 4], [depth * 0.35 + lean + 4, height],
    [depth * 0.35 + lean, height], [depth * 0.3, 8], [10, 8], [10, 16], [6, 16], [6, 8], [0, 8],
  ];
}

function rotateToZUp(mesh: Mesh, width: number): Mesh {
  // An outline extruded along z, turned so that its extrusion runs along x and its outline stands in xz.
  return finish(mesh.triangles.map((t) => t.map(([x, y, z]) => [z - width / 2, x, y] as Vec3) as unknown as Triangle));
}

export function buildShape(spec: ShapeSpec): Mesh {
  switch (spec.kind) {
    case 'box':
      return extrude([[0, 0], [spec.width, 0], [spec.width, spec.depth], [0, spec.depth]], spec.height);
    case 'cylinder':
      return extrude(circle(spec.radius, spec.segments ?? 48), spec.height);
    case 'cone':
      return revolve([[0, 0], [spec.radius, 0], [0, spec.height]], spec.segments ?? 48);
    case 'gear':
      return extrude(gearOutline(spec.teeth, spec.radius, spec.toothDepth), spec.thickness);
    case 'vase': {
      const { radius, height, wall, waist } = spec;
      const rows = 16;
      const outer: Vec2[] = [];
      for (let i = 0; i <= rows; i++) {
        const z = (height * i) / rows;
        const bulge = Math.sin((Math.PI * i) / rows) * radius * 0.35 - Math.sin((2 * Math.PI * i) / rows) * radius * waist;
        outer.push([radius * 0.7 + bulge, z]);
      }
      const inner = outer.slice(1).reverse().map(([r, z]) => [Math.max(r - wall, 0.5), z] as Vec2);
      return revolve([[0, 0], ...outer, ...inner, [0, wall]], spec.segments ?? 48);
    }
    case 'bracket': {
      const { length, height, thickness, width } = spec;
      const outline: Vec2[] = [[0, 0], [length, 0], [length, thickness], [thickness, thickness], [thickness, height], [0, height]];
      return rotateToZUp(extrude(outline, width), width);
    }
    case 'ring':
      return revolve([[spec.innerRadius, 0], [spec.outerRadius, 0], [spec.outerRadius, spec.height], [spec.innerRadius, spec.height]], spec.segments ?? 48);
    case 'clip':
      return extrude(clipOutline(spec.radius, spec.wall, spec.opening), spec.width);
    case 'stand':
      return rotateToZUp(extrude(standOutline(spec.depth, spec.height, spec.angle), spec.width), spec.width);
    case 'dome': {
      const rows = 12;
      const profile: Vec2[] = [[0, 0]];
      for (let i = 0; i <= rows; i++) {
        const angle = (Math.PI / 2) * (i / rows);
        profile.push(i === rows ? [0, spec.radius] : [spec.radius * Math.cos(angle), spec.radius * Math.sin(angle)]);
      }
      return revolve(profile, spec.segments ?? 32);
    }
  }
}

/** Binary STL: 80-byte header, uint32 triangle count, then 50 bytes per triangle (normal, 3 vertices, attribute). */
export function toBinaryStl(mesh: Mesh, header: string): Buffer {
  const buffer = Buffer.alloc(84 + 50 * mesh.triangles.length);
  buffer.write(header.replace(/^solid/i, 'model').slice(0, 80), 0, 'ascii');
  buffer.writeUInt32LE(mesh.triangles.length, 80);
  let offset = 84;
  for (const triangle of mesh.triangles) {
    for (const vector of [triangleNormal(triangle), ...triangle]) {
      for (const value of vector) {
        buffer.writeFloatLE(value, offset);
        offset += 4;
      }
    }
    buffer.writeUInt16LE(0, offset);
    offset += 2;
  }
  return buffer;
}

/** Wavefront OBJ with shared vertices and per-face normals. */
export function toObj(mesh: Mesh, name: string): string {
  const vertexIndex = new Map<string, number>();
  const vertices: string[] = [];
  const normals: string[] = [];
  const faces: string[] = [];
  const index = (v: Vec3) => {
    const key = v.map((x) => x.toFixed(4)).join(' ');
    let found = vertexIndex.get(key);
    if (found === undefined) {
      vertices.push(`v ${key}`);
      found = vertices.length;
      vertexIndex.set(key, found);
    }
    return found;
  };
  for (const triangle of mesh.triangles) {
    normals.push(`vn ${triangleNormal(triangle).map((x) => x.toFixed(5)).join(' ')}`);
    const n = normals.length;
    faces.push(`f ${triangle.map((v) => `${index(v)}//${n}`).join(' ')}`);
  }
  return [`# ${name}`, `# ${mesh.triangles.length} triangles, units: mm`, `o ${name.replace(/\s+/g, '_')}`, ...vertices, ...normals, ...faces, ''].join('\n');
}

export function boundingBox(mesh: Mesh): { min: Vec3; max: Vec3 } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const triangle of mesh.triangles) {
    for (const v of triangle) {
      for (let axis = 0; axis < 3; axis++) {
        min[axis] = Math.min(min[axis]!, v[axis]!);
        max[axis] = Math.max(max[axis]!, v[axis]!);
      }
    }
  }
  return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
}
