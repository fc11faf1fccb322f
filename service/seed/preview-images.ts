/**
 * Pictures for the demo seed, drawn as SVG and rasterised by sharp: a flat-shaded render of a design's mesh
 * (painter's algorithm, back faces culled) and round avatars with initials.
 */
import sharp from 'sharp';
import { boundingBox, triangleNormal, type Mesh, type Vec3 } from './stl-shapes';

export type PreviewFormat = 'jpg' | 'png' | 'tiff';

export interface PreviewOptions {
  title: string;
  caption: string;
  /** Base hue of the model, 0–360. */
  hue: number;
  /** Camera azimuth and elevation, in degrees. */
  azimuth: number;
  elevation: number;
  width: number;
  height: number;
  format: PreviewFormat;
}

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function normalize(v: Vec3): Vec3 {
  const length = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / length, v[1] / length, v[2] / length];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** HSL (h in degrees, s and l in 0–1) to a #rrggbb string. */
export function hslHex(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const value = l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    return Math.round(Math.max(0, Math.min(1, value)) * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** The SVG of a shaded orthographic view of the mesh, framed and titled. */
export function previewSvg(mesh: Mesh, options: PreviewOptions): string {
  const { width, height, hue } = options;
  const az = (options.azimuth * Math.PI) / 180;
  const el = (options.elevation * Math.PI) / 180;
  const forward = normalize([-Math.cos(el) * Math.cos(az), -Math.cos(el) * Math.sin(az), -Math.sin(el)]);
  const right = normalize(cross(forward, [0, 0, 1]));
  const up = cross(right, forward);
  const light = normalize([0.4, -0.5, 0.9]);

  const { min, max } = boundingBox(mesh);
  const center: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const project = (v: Vec3) => {
    const p: Vec3 = [v[0] - center[0], v[1] - center[1], v[2] - center[2]];
    return { x: dot(p, right), y: dot(p, up), depth: dot(p, forward) };
  };

  const faces: { depth: number; points: { x: number; y: number }[]; shade: number }[] = [];
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const triangle of mesh.triangles) {
    const normal = triangleNormal(triangle);
    if (dot(normal, forward) >= 0) continue; // facing away
    const points = triangle.map(project);
    for (const p of points) {
      minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
      minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
    }
    faces.push({
      depth: (points[0]!.depth + points[1]!.depth + points[2]!.depth) / 3,
      points,
      shade: 0.3 + 0.7 * Math.max(0, dot(normal, light)),
    });
  }
  faces.sort((a, b) => b.depth - a.depth);

  const titleBand = Math.round(height * 0.14);
  const scale = Math.min((width * 0.78) / Math.max(maxX - minX, 1e-6), ((height - titleBand) * 0.78) / Math.max(maxY - minY, 1e-6));
  const offsetX = width / 2 - ((minX + maxX) / 2) * scale;
  const offsetY = (height - titleBand) / 2 + ((minY + maxY) / 2) * scale + titleBand * 0.2;
  const polygons = faces.map(({ points, shade }) => {
    const fill = hslHex(hue, 0.55, 0.18 + 0.5 * shade);
    const coords = points.map((p) => `${(offsetX + p.x * scale).toFixed(1)},${(offsetY - p.y * scale).toFixed(1)}`).join(' ');
    return `<polygon points="${coords}" fill="${fill}" stroke="${fill}" stroke-width="0.6"/>`;
  });

  const shadowY = offsetY - minY * scale + 6;
  const fontSize = Math.round(titleBand * 0.42);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hslHex((hue + 200) % 360, 0.25, 0.96)}"/><stop offset="1" stop-color="${hslHex((hue + 200) % 360, 0.2, 0.82)}"/></linearGradient>
<radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity="0.28"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
</defs>
<rect width="${width}" height="${height}" fill="url(#bg)"/>
<ellipse cx="${width / 2}" cy="${shadowY.toFixed(1)}" rx="${(width * 0.3).toFixed(1)}" ry="${(height * 0.05).toFixed(1)}" fill="url(#shadow)"/>
${polygons.join('\n')}
<rect y="${height - titleBand}" width="${width}" height="${titleBand}" fill="#1d2230" fill-opacity="0.85"/>
<text x="${Math.round(width * 0.03)}" y="${height - titleBand * 0.42}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" font-weight="bold" fill="#ffffff">${escapeXml(options.title)}</text>
<text x="${Math.round(width * 0.97)}" y="${height - titleBand * 0.42}" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-size="${Math.round(fontSize * 0.6)}" fill="#c9cfdc">${escapeXml(options.caption)}</text>
</svg>`;
}

export async function renderPreview(mesh: Mesh, options: PreviewOptions): Promise<Buffer> {
  const image = sharp(Buffer.from(previewSvg(mesh, options)));
  switch (options.format) {
    case 'jpg':
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: 84 }).toBuffer();
    case 'png':
      return image.png({ compressionLevel: 6 }).toBuffer();
    case 'tiff':
      return image.flatten({ background: '#ffffff' }).tiff({ compression: 'lzw' }).toBuffer();
  }
}

export function initials(realName: string): string {
  const words = realName.split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => [...word][0]!.toUpperCase()).join('');
}

/** A 256×256 PNG: the person's initials on a coloured disc. */
export async function renderAvatar(realName: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<rect width="256" height="256" fill="${hslHex(hue, 0.3, 0.94)}"/>
<circle cx="128" cy="128" r="120" fill="${hslHex(hue, 0.55, 0.45)}"/>
<circle cx="128" cy="128" r="120" fill="none" stroke="${hslHex(hue, 0.55, 0.32)}" stroke-width="6"/>
<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="104" font-weight="bold" fill="#ffffff">${escapeXml(initials(realName))}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
