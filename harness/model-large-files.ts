import { closeSync, openSync, writeSync } from 'node:fs';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * Large model files of other kinds than STL, generated deterministically (nothing random, nothing downloaded), written
 * in blocks and never held whole: a 3MF package of one big mesh and a G-code file of a printed part's toolpaths. Both
 * are what a slicer or a CAD program would write, in shape and in size; their numbers are made here.
 */

/** Writes text pieces to a file through a buffer of about 1 MB. */
class BlockWriter {
  private readonly file: number;
  private parts: string[] = [];
  private length = 0;

  constructor(path: string) {
    this.file = openSync(path, 'w');
  }

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    writeSync(this.file, this.parts.join(''));
    this.parts = [];
    this.length = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.file);
    }
  }
}

/** The height (mm) of a generated terrain at (x, y): rolling hills 2–18 mm high over a width × depth plate. */
function terrain(x: number, y: number, width: number, depth: number): number {
  const u = x / width, v = y / depth;
  return 10 + 4 * Math.sin(u * 9.42) * Math.cos(v * 6.28) + 3 * Math.sin((u + v) * 18.85) * Math.sin(v * 12.57) + 1 * Math.cos(u * 50.3);
}

/**
 * Writes a 3MF package (3MF Core 1.3: `[Content_Types].xml`, `_rels/.rels`, `3D/3dmodel.model`, deflated as slicers
 * write it) holding one closed mesh: a block `width` × `depth` mm whose top is a terrain of `cells` × `cells` squares
 * (two triangles each), with flat sides and bottom; with `commentInLists`, its vertex and triangle lists each begin
 * with an XML comment. Returns its path and the mesh's triangle count.
 */
export function writeLarge3mf(path: string, cells: number, size: { width: number; depth: number }, options: { commentInLists?: boolean } = {}): { path: string; triangles: number } {
  const comment = options.commentInLists ? '     <!-- written by design-sync\'s test harness -->\n' : '';
  const out = openSync(path, 'w');
  let failed: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failed = error;
    else writeSync(out, chunk);
  });
  const stored = (name: string, text: string) => {
    const file = new ZipPassThrough(name);
    zip.add(file);
    file.push(new TextEncoder().encode(text), true);
  };
  stored('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    + '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>\n');
  stored('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    + '<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n');
  const model = new ZipDeflate('3D/3dmodel.model', { level: 6 });
  zip.add(model);
  let text: string[] = [];
  let length = 0;
  const push = (piece: string, last = false) => {
    text.push(piece);
    length += piece.length;
    if (length >= 1 << 20 || last) {
      model.push(new TextEncoder().encode(text.join('')), last);
      text = [];
      length = 0;
    }
  };
  push('<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
    + ' <metadata name="Title">design-sync test: a large generated terrain</metadata>\n <resources>\n  <object id="1" type="model">\n   <mesh>\n    <vertices>\n' + comment);
  const side = cells + 1;
  // Single-precision numbers written in full, as CAD programs and slicers write them.
  const number = (value: number) => String(Number(Math.fround(value).toPrecision(9)));
  const vertex = (x: number, y: number, z: number) => push(`     <vertex x="${number(x)}" y="${number(y)}" z="${number(z)}"/>\n`);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      // Inner points are nudged a little along the slope, as a scan's or a remeshed surface's are: not a grid's.
      const inner = i > 0 && j > 0 && i < cells && j < cells;
      const nudge = inner ? 0.2 * Math.sin(i * 12.9898 + j * 78.233) : 0;
      const x = ((i + nudge) / cells) * size.width, y = ((j - nudge) / cells) * size.depth;
      vertex(x, y, terrain(x, y, size.width, size.depth));
    }
  }
  // The bottom's four corners.
  const bottom = side * side;
  vertex(0, 0, 0);
  vertex(size.width, 0, 0);
  vertex(size.width, size.depth, 0);
  vertex(0, size.depth, 0);
  push(`    </vertices>\n    <triangles>\n${comment}`);
  let triangles = 0;
  const triangle = (a: number, b: number, c: number) => {
    push(`     <triangle v1="${a}" v2="${b}" v3="${c}"/>\n`);
    triangles++;
  };
  const top = (i: number, j: number) => j * side + i;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      triangle(top(i, j), top(i + 1, j), top(i + 1, j + 1));
      triangle(top(i, j), top(i + 1, j + 1), top(i, j + 1));
    }
  }
  // Four sides, each a fan from the top's edge down to the bottom's two corners under it, and the bottom.
  const sides: [(k: number) => number, number, number][] = [
    [(k) => top(k, 0), bottom, bottom + 1],
    [(k) => top(cells, k), bottom + 1, bottom + 2],
    [(k) => top(cells - k, cells), bottom + 2, bottom + 3],
    [(k) => top(0, cells - k), bottom + 3, bottom],
  ];
  for (const [edge, start, end] of sides) {
    for (let k = 0; k < cells; k++) triangle(start, edge(k + 1), edge(k));
    triangle(start, end, edge(cells));
  }
  triangle(bottom, bottom + 2, bottom + 1);
  triangle(bottom, bottom + 3, bottom + 2);
  push('    </triangles>\n   </mesh>\n  </object>\n </resources>\n <build>\n  <item objectid="1"/>\n </build>\n</model>\n', true);
  zip.end();
  closeSync(out);
  if (failed) throw failed;
  return { path, triangles };
}

/** "12.345" without trailing zeros, as slicers write coordinates. */
function mm(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * Writes G-code as a slicer writes it for a Marlin printer (absolute coordinates and extrusion, `;LAYER_CHANGE` and
 * `;Z:` comments, travel moves between paths): a round part 60 mm across and `layers` layers of 0.2 mm, each with three
 * perimeters (0.4 mm segments) and a wavy infill of lines 1.5 mm apart sampled every 0.3 mm, as gyroid infill is
 * written. Returns its path and the number of extruding moves.
 */
export function writeLargeGcode(path: string, layers: number): { path: string; moves: number } {
  const out = new BlockWriter(path);
  const radius = 30, centre = 100, layerHeight = 0.2, filamentPerMm = 0.0333;
  let e = 0, moves = 0, x = 0, y = 0;
  const travel = (toX: number, toY: number) => {
    out.write(`G1 X${mm(toX)} Y${mm(toY)} F9000\n`);
    x = toX;
    y = toY;
  };
  const extrude = (toX: number, toY: number) => {
    e += Math.hypot(toX - x, toY - y) * filamentPerMm;
    out.write(`G1 X${mm(toX)} Y${mm(toY)} E${e.toFixed(5)}\n`);
    x = toX;
    y = toY;
    moves++;
  };
  out.write('; generated by design-sync\'s test harness: a round part sliced as a slicer would\n'
    + 'M107\nM104 S210 ; set temperature\nG28 ; home all axes\nG1 Z5 F5000 ; lift nozzle\nM109 S210 ; wait for temperature\n'
    + 'G21 ; set units to millimeters\nG90 ; use absolute coordinates\nM82 ; use absolute distances for extrusion\nG92 E0\n');
  try {
    for (let layer = 0; layer < layers; layer++) {
      const z = (layer + 1) * layerHeight;
      // The part narrows a little towards its top, as a vase does.
      const outer = radius * (1 - 0.25 * Math.sin((layer / Math.max(1, layers)) * Math.PI));
      out.write(`;LAYER_CHANGE\n;Z:${mm(z)}\n;HEIGHT:${layerHeight}\nG1 Z${mm(z)} F9000\n;TYPE:Perimeter\n`);
      for (let perimeter = 2; perimeter >= 0; perimeter--) {
        const r = outer - 0.45 * perimeter;
        const steps = Math.ceil((2 * Math.PI * r) / 0.4);
        travel(centre + r, centre);
        for (let step = 1; step <= steps; step++) {
          const angle = (step / steps) * 2 * Math.PI;
          extrude(centre + r * Math.cos(angle), centre + r * Math.sin(angle));
        }
      }
      out.write(';TYPE:Internal infill\n');
      const inner = outer - 1.35;
      const turned = layer % 2 === 1;
      for (let line = -inner + 0.75; line < inner; line += 1.5) {
        const half = Math.sqrt(inner * inner - line * line);
        const steps = Math.max(1, Math.floor((2 * half) / 0.3));
        const at = (step: number): [number, number] => {
          const along = -half + (2 * half * step) / steps;
          const across = line + 0.35 * Math.sin(along * 1.3 + z * 2);
          return turned ? [centre + across, centre + along] : [centre + along, centre + across];
        };
        travel(...at(0));
        for (let step = 1; step <= steps; step++) extrude(...at(step));
      }
    }
    out.write('M104 S0 ; turn off temperature\nG28 X0 ; home X axis\nM84 ; disable motors\n');
  } finally {
    out.close();
  }
  return { path, moves };
}
