/**
 * What the demo seed creates: six people and the designs they publish. Pure data; demo-seed.ts turns it
 * into rows, files and HTTP requests.
 */
import type { ShapeSpec } from './stl-shapes';

export interface DemoUser {
  screenName: string;
  password: string;
  realName: string;
  location: string;
  url: string;
  about: string;
  skills: string[];
  /** Avatar colour. */
  hue: number;
}

export const DEMO_USERS: DemoUser[] = [
  {
    screenName: 'demo', password: 'demo', realName: 'Dana Moreau', location: 'Lyon, France', url: 'https://dana-moreau.example.org', hue: 205,
    about: '<p>Mechanical engineer by day, tinkerer by night. I design practical household parts and share everything I print.</p><p>Ask me about tolerances.</p>',
    skills: ['Fusion 360', 'OpenSCAD', 'PETG tuning', 'Functional design'],
  },
  {
    screenName: 'maker', password: 'maker', realName: 'Maarten Kuipers', location: 'Utrecht, Netherlands', url: 'https://kuipers-workshop.example.org', hue: 25,
    about: '<p>I run a small print farm and publish the jigs, gears and fixtures we use every day.</p>',
    skills: ['Print farm operations', 'Gear design', 'FreeCAD', 'Jigs and fixtures'],
  },
  {
    screenName: 'priya', password: 'priya-demo', realName: 'Priya Raman', location: 'Bengaluru, India', url: 'https://priya-makes.example.org', hue: 320,
    about: '<p>Industrial designer. Vases, lamps and anything with a nice curve. Most of my models print in vase mode.</p>',
    skills: ['Blender', 'Rhino', 'Vase mode', 'Product design'],
  },
  {
    screenName: 'tomas', password: 'tomas-demo', realName: 'Tomás Herrera', location: 'Valparaíso, Chile', url: 'https://tomas-herrera.example.org', hue: 140,
    about: '<p>Teacher at a technical high school. I publish classroom models and robotics parts my students can print.</p>',
    skills: ['Tinkercad', 'Robotics', 'STEM education'],
  },
  {
    screenName: 'ingrid', password: 'ingrid-demo', realName: 'Ingrid Solberg', location: 'Bergen, Norway', url: 'https://solberg-design.example.org', hue: 265,
    about: '<p>Boat repairs, garden gadgets and weatherproof parts. If it lives outdoors, I have printed it in ASA.</p>',
    skills: ['Onshape', 'ASA and ASA-CF', 'Outdoor parts'],
  },
  {
    screenName: 'kenji', password: 'kenji-demo', realName: 'Kenji Watanabe', location: 'Osaka, Japan', url: 'https://kenji-watanabe.example.org', hue: 0,
    about: '<p>Desk setups, cable management and small organisers. Minimal supports, maximum tidiness.</p>',
    skills: ['SolidWorks', 'Desk setups', 'Print-in-place'],
  },
];

/** Who follows whom: demo follows maker and two others. */
export const DEMO_FOLLOWS: [follower: string, followed: string][] = [
  ['demo', 'maker'], ['demo', 'priya'], ['demo', 'kenji'],
  ['maker', 'demo'], ['maker', 'ingrid'],
  ['priya', 'demo'], ['priya', 'kenji'],
  ['tomas', 'maker'], ['tomas', 'demo'],
  ['ingrid', 'tomas'],
  ['kenji', 'priya'], ['kenji', 'maker'],
];

/** A second file of the design, besides the main STL. */
export type DemoExtra =
  | { kind: 'stl'; name: string; shape: ShapeSpec; description: string }
  | { kind: 'obj' }
  | { kind: 'readme' }
  | { kind: 'notes' };

export interface DemoDesign {
  owner: string;
  name: string;
  excerpt: string;
  shape: ShapeSpec;
  tags: string[];
  features: string[];
  material: string;
  extras?: DemoExtra[];
  /** Drafts stay unpublished. */
  draft?: boolean;
  /** Made from a folder that held only its model: no image (the window draws its cover from the STL). */
  noImages?: boolean;
}

export const TAG_VOCABULARY = [
  'gear', 'mechanical', 'bracket', 'mount', 'wall-mount', 'organizer', 'desk', 'kitchen', 'garden', 'vase',
  'decor', 'planter', 'cable-management', 'phone', 'stand', 'tool', 'workshop', 'spare-part', 'toy',
  'education', 'calibration', 'parametric', 'print-in-place', 'bathroom', 'outdoor', 'lamp', 'robotics',
  'electronics', 'household', 'storage',
] as const;
type Tag = (typeof TAG_VOCABULARY)[number];

const PLA = 'PLA, 0.2 mm layers, 15% gyroid infill';
const PETG = 'PETG, 0.2 mm layers, 30% infill, 4 perimeters';
const ASA = 'ASA (UV resistant), 0.2 mm layers, 40% infill';
const TPU = 'TPU 95A, 0.2 mm layers, 20% infill, slow (25 mm/s)';
const VASE = 'PLA or silk PLA, spiral vase mode, 0.6 mm nozzle recommended';
const NYLON = 'PA12 or PA-CF, 0.15 mm layers, 50% infill, dry filament';

function design(owner: string, name: string, shape: ShapeSpec, material: string, tags: Tag[], excerpt: string, features: string[], extras?: DemoExtra[], draft?: boolean, noImages?: boolean): DemoDesign {
  return { owner, name, shape, material, tags, excerpt, features, extras, draft, ...(noImages ? { noImages } : {}) };
}

const box = (width: number, depth: number, height: number): ShapeSpec => ({ kind: 'box', width, depth, height });
const gear = (teeth: number, radius: number, thickness: number): ShapeSpec => ({ kind: 'gear', teeth, radius, toothDepth: Math.max(1.2, radius * 0.09), thickness });
const vase = (radius: number, height: number, waist = 0.12): ShapeSpec => ({ kind: 'vase', radius, height, wall: 1.6, waist });
const bracket = (length: number, height: number, width: number, thickness = 5): ShapeSpec => ({ kind: 'bracket', length, height, width, thickness });
const ring = (innerRadius: number, outerRadius: number, height: number, segments = 48): ShapeSpec => ({ kind: 'ring', innerRadius, outerRadius, height, segments });
const cylinder = (radius: number, height: number): ShapeSpec => ({ kind: 'cylinder', radius, height });
const cone = (radius: number, height: number): ShapeSpec => ({ kind: 'cone', radius, height });
const clip = (radius: number, width: number, opening = 70): ShapeSpec => ({ kind: 'clip', radius, wall: Math.max(1.6, radius * 0.3), width, opening });
const stand = (width: number, angle: number): ShapeSpec => ({ kind: 'stand', width, depth: 80, height: 90, angle });
const dome = (radius: number): ShapeSpec => ({ kind: 'dome', radius });

export const DEMO_DESIGNS: DemoDesign[] = [
  // demo: ten published, three drafts
  design('demo', 'Adjustable Phone Stand', stand(72, 62), PETG, ['phone', 'stand', 'desk'],
    'A sturdy phone stand with a front lip that clears charging cables; fits phones up to 12 mm thick with a case.',
    ['Works in portrait and landscape', 'Cable slot in the lip', 'No supports needed'], [{ kind: 'readme' }]),
  design('demo', 'Cable Clip 6 mm', clip(3, 10), PETG, ['cable-management', 'desk', 'household'],
    'Snap-on clip for 6 mm cables; screw or tape it under a desk to keep power leads tidy.',
    ['Snap fit with 0.3 mm clearance', 'Prints flat in 6 minutes', 'Countersunk screw hole'], [{ kind: 'obj' }]),
  design('demo', 'Shelf Bracket 120 mm', bracket(120, 90, 30, 6), PETG, ['bracket', 'wall-mount', 'household'],
    'An L-shaped shelf bracket for 18 mm boards, tested with 8 kg per pair when printed in PETG.',
    ['Two 4.5 mm screw holes per leg', 'Print on its side for strength', 'Rounded inner fillet'], [{ kind: 'notes' }]),
  design('demo', 'Spur Gear 20T Module 1', gear(20, 11, 6), NYLON, ['gear', 'mechanical', 'spare-part'],
    'Module 1 spur gear with 20 teeth and a 5 mm D-shaft bore; a drop-in replacement for small hobby gearboxes.',
    ['Pressure angle 20°', 'D-shaft bore 5 mm', 'Pairs with the 40T gear'],
    [{ kind: 'stl', name: 'Spur gear 40T', shape: gear(40, 21, 6), description: '<p>The matching 40-tooth gear for a 2:1 reduction.</p>' }]),
  design('demo', 'Drawer Divider Box 60x40', box(60, 40, 30), PLA, ['organizer', 'storage', 'desk'],
    'Stackable divider boxes on a 20 mm grid for kitchen and desk drawers.',
    ['Grid of 20 mm', 'Stackable', 'Rounded bottom corners for easy cleaning'], [{ kind: 'stl', name: 'Divider box 40x40', shape: box(40, 40, 30), description: '<p>The square variant.</p>' }]),
  design('demo', 'Pen Cup Hexagonal', ring(28, 32, 95, 6), PLA, ['desk', 'organizer', 'decor'],
    'A six-sided pen cup with 2 mm walls that prints without supports.',
    ['Hexagonal footprint', 'Vase-mode friendly', '95 mm tall']),
  design('demo', 'Hose Nozzle Adapter', cone(14, 36), ASA, ['garden', 'outdoor', 'spare-part'],
    'Tapered adapter that turns a 1/2" garden hose into a fine jet for cleaning planters.',
    ['Tapered outlet', 'Print with 100% infill for watertightness', 'Seal with PTFE tape']),
  design('demo', 'Knurled Thumb Nut M6', ring(3.2, 12, 8, 24), PETG, ['tool', 'workshop', 'parametric'],
    'A knurled thumb nut for M6 bolts, with a hex pocket for a standard nut.',
    ['Press-fit hex pocket', 'Knurled edge for grip', 'Parametric OpenSCAD source included'], [{ kind: 'readme' }]),
  design('demo', 'Bathroom Shelf Bumper', dome(12), TPU, ['bathroom', 'household', 'spare-part'],
    'Soft dome bumpers that stop glass shelves from rattling.',
    ['Print in TPU', 'Self-adhesive pad fits underneath', 'Ø 24 mm']),
  design('demo', 'Filament Spool Holder', cylinder(26, 70), PETG, ['workshop', 'mount', 'tool'],
    'A wall-mounted spool holder arm for 1 kg spools with a 52 mm hub.',
    ['Fits 52–55 mm spool hubs', 'Holds 1 kg spools', 'Two screw holes'], [{ kind: 'obj' }]),
  design('demo', 'Headphone Hook (work in progress)', bracket(70, 50, 24, 5), PETG, ['desk', 'mount'],
    'Under-desk headphone hook. Still testing the clamp tolerance.',
    ['Clamp fits 15–25 mm desks', 'Rounded hook to protect the headband'], undefined, true),
  design('demo', 'Planter Saucer 140 mm (draft)', cylinder(70, 12), PETG, ['planter', 'garden'],
    'Drip saucer for the Spiral Planter. Not yet sized for the 160 mm pot.',
    ['Fits the 140 mm Spiral Planter'], undefined, true),
  design('demo', 'Calibration Cube with Chamfers (draft)', box(20, 20, 20), PLA, ['calibration', 'workshop'],
    'A 20 mm cube with chamfered edges to check elephant-foot compensation.',
    ['20 mm', 'Chamfered bottom edge'], undefined, true, true),

  // maker: fifteen
  design('maker', 'Planetary Gear Set 3:1', gear(30, 24, 10), NYLON, ['gear', 'mechanical', 'print-in-place'],
    'A compact planetary stage with a 3:1 ratio that prints as one piece and turns straight off the bed.',
    ['Print-in-place, no assembly', '0.35 mm clearances', 'Herringbone variant included'],
    [{ kind: 'stl', name: 'Sun gear', shape: gear(12, 10, 10), description: '<p>The sun gear on its own, for testing fit.</p>' }]),
  design('maker', 'Bed Leveling Test 220x220', box(220, 220, 0.4), PLA, ['calibration', 'workshop'],
    'Single-layer squares at the corners and centre of a 220 mm bed to dial in first layer height.',
    ['One 0.4 mm layer', 'Five test pads', 'For 220 × 220 mm beds'], [{ kind: 'readme' }]),
  design('maker', 'Drill Guide Block', box(50, 30, 25), PETG, ['tool', 'workshop', 'parametric'],
    'A block that keeps a hand drill perpendicular; holes for 3, 4, 5, 6 and 8 mm bits.',
    ['Five guide holes', 'Square edges for clamping', 'Print at 100% infill']),
  design('maker', 'Helical Gear 32T', gear(32, 18, 8), NYLON, ['gear', 'mechanical'],
    'Helical gear, 32 teeth, module 1, 15° helix angle; quieter than a spur gear in small drives.',
    ['15° helix', '8 mm bore with set-screw boss', 'Tested in PA12'], [{ kind: 'obj' }]),
  design('maker', 'Rack Gear Segment', box(80, 10, 12), NYLON, ['gear', 'mechanical', 'robotics'],
    'An 80 mm rack segment that meshes with the module 1 spur gears; chain segments with the dovetail ends.',
    ['Dovetail joints', 'Module 1', '80 mm long']),
  design('maker', 'Corner Bracket 40x40', bracket(40, 40, 20, 4), PETG, ['bracket', 'workshop', 'spare-part'],
    'A compact 90° corner bracket for 2020 aluminium extrusion frames.',
    ['Fits 2020 extrusion', 'M5 holes', 'Printed flat, no supports'], [{ kind: 'notes' }]),
  design('maker', 'Print Farm Spool Tag', box(50, 22, 2), PLA, ['workshop', 'organizer'],
    'A clip-on tag for labelling spools in a print farm: material, colour and date.',
    ['Write-on surface', 'Clips to the spool edge', 'Prints in 4 minutes']),
  design('maker', 'Worm Drive Housing', box(46, 36, 30), PETG, ['mechanical', 'robotics', 'gear'],
    'A housing for a worm and wheel pair with 608 bearing seats.',
    ['608ZZ bearing seats', 'M3 heat-set inserts', 'Two-part shell'],
    [{ kind: 'stl', name: 'Housing lid', shape: box(46, 36, 4), description: '<p>The lid, held by four M3 screws.</p>' }]),
  design('maker', 'Bearing Spacer Set', ring(4, 6, 3), PETG, ['spare-part', 'mechanical', 'parametric'],
    'Spacers for 8 mm shafts in 1, 2, 3 and 5 mm thicknesses.',
    ['For 8 mm shafts', 'Four thicknesses', 'Print all at once']),
  design('maker', 'Chain Sprocket 18T', gear(18, 20, 5), NYLON, ['gear', 'mechanical', 'robotics'],
    'An 18-tooth sprocket for 25H chain, used on small robot drivetrains.',
    ['For 25H chain', '6 mm hex bore', 'Lightening pockets']),
  design('maker', 'Sanding Block Ergonomic', box(90, 50, 28), PETG, ['tool', 'workshop'],
    'A palm-sized sanding block that clamps a quarter sheet of sandpaper.',
    ['Clamp slot for paper', 'Ergonomic grip', 'Fits 1/4 sheets']),
  design('maker', 'Gridfinity Baseplate 3x3', box(126, 126, 5), PLA, ['organizer', 'storage', 'workshop'],
    'A 3 × 3 Gridfinity-compatible baseplate with magnet pockets.',
    ['42 mm grid', 'Optional 6 × 2 mm magnets', 'Fits a 150 mm bed']),
  design('maker', 'Hex Key Holder', box(70, 20, 40), PLA, ['tool', 'organizer', 'workshop'],
    'Holds a metric hex key set from 1.5 to 10 mm, labelled by size.',
    ['Nine slots', 'Embossed sizes', 'Wall-mount holes'], [{ kind: 'readme' }]),
  design('maker', 'Timing Pulley GT2 20T', gear(20, 7, 8), NYLON, ['mechanical', 'robotics', 'spare-part'],
    'A GT2 timing pulley with 20 teeth and a 5 mm bore for 6 mm belts.',
    ['GT2 profile', '5 mm bore', 'Flanged'], [{ kind: 'obj' }]),
  design('maker', 'Nozzle Storage Block', box(60, 30, 15), PLA, ['organizer', 'workshop', 'storage'],
    'Stores twelve M6 nozzles sorted by diameter.',
    ['M6 threads', 'Twelve slots', 'Labelled rows']),
  design('maker', 'Clamp Jaw Pads', box(40, 12, 20), TPU, ['tool', 'workshop'],
    'Soft TPU pads that snap onto F-clamp jaws to protect workpieces.',
    ['Snap fit', 'Non-marring', 'For 40 mm jaws']),

  // priya: eleven
  design('priya', 'Spiral Planter 140 mm', vase(70, 120, 0.08), VASE, ['planter', 'garden', 'decor'],
    'A gently twisting planter with a drainage foot; prints in one continuous spiral.',
    ['140 mm diameter', 'Drainage foot', 'Vase mode'], [{ kind: 'stl', name: 'Drip saucer', shape: cylinder(76, 10), description: '<p>A matching saucer.</p>' }]),
  design('priya', 'Tall Bud Vase', vase(22, 180, 0.2), VASE, ['vase', 'decor'],
    'A slender bud vase for a single stem; watertight when printed in vase mode.',
    ['180 mm tall', 'Narrow neck', 'Watertight in vase mode']),
  design('priya', 'Lamp Shade Ribbed', vase(60, 130, 0.05), VASE, ['lamp', 'decor'],
    'A ribbed lamp shade for E27 bulb holders; light glows through the thin walls.',
    ['Fits E27 holders', 'Use LED bulbs only', 'Translucent in natural PLA'], [{ kind: 'readme' }]),
  design('priya', 'Bowl Low Wide', vase(65, 50, 0.02), VASE, ['decor', 'kitchen'],
    'A wide, shallow fruit bowl; decorative, not food safe.',
    ['130 mm wide', 'Shallow profile', 'Vase mode']),
  design('priya', 'Candle Holder Tealight', ring(20, 26, 22, 64), PLA, ['decor', 'household'],
    'A tealight holder with a wide base; keep at a distance from the flame.',
    ['Fits standard tealights', 'Wide base', 'Use with LED tealights']),
  design('priya', 'Pendant Lamp Cone', cone(70, 110), PLA, ['lamp', 'decor'],
    'A conical pendant shade that fits E14 holders.',
    ['Fits E14 holders', 'Print with 2 perimeters', 'Cable hole at the top'], [{ kind: 'obj' }]),
  design('priya', 'Vase Twisted Hexagon', ring(34, 38, 160, 6), VASE, ['vase', 'decor', 'parametric'],
    'A hexagonal vase; the OpenSCAD source lets you change twist, height and sides.',
    ['Parametric', 'Hexagonal', '160 mm tall']),
  design('priya', 'Succulent Pot Small', vase(30, 60, 0.04), VASE, ['planter', 'decor', 'garden'],
    'A small pot for succulents with a hidden drainage hole.',
    ['60 mm tall', 'Drainage hole', 'Stackable']),
  design('priya', 'Light Diffuser Dome', dome(40), PLA, ['lamp', 'electronics'],
    'A diffuser dome for a 16-LED ring.',
    ['Fits 16-LED rings', 'Print in white or natural PLA', '0.8 mm wall']),
  design('priya', 'Napkin Ring Set', ring(20, 23, 20, 64), PLA, ['kitchen', 'decor'],
    'Napkin rings in a set of six.',
    ['Set of six', 'Smooth inner face', 'Print all at once']),
  design('priya', 'Wall Vase Half Round', vase(40, 140, 0.14), VASE, ['vase', 'wall-mount', 'decor'],
    'A half-round vase with a keyhole slot for hanging on the wall.',
    ['Keyhole hanger', 'Flat back', 'Vase mode']),

  // tomas: ten
  design('tomas', 'Robot Wheel 65 mm', cylinder(32.5, 26), PETG, ['robotics', 'education', 'spare-part'],
    'A 65 mm wheel for TT gear motors, with a groove for an O-ring tyre.',
    ['Fits TT motors', 'O-ring groove', 'Printed without supports'], [{ kind: 'stl', name: 'Hub cap', shape: dome(10), description: '<p>Optional hub cap.</p>' }]),
  design('tomas', 'Gear Train Demonstrator', gear(36, 30, 6), PLA, ['education', 'gear', 'mechanical'],
    'A classroom model with three gears on a board to show ratios and direction.',
    ['Three gear sizes', 'Pegs instead of screws', 'Lesson plan included'], [{ kind: 'readme' }]),
  design('tomas', 'Servo Mount SG90', bracket(32, 24, 14, 3), PETG, ['robotics', 'mount', 'electronics'],
    'An L-bracket for mounting SG90 micro servos on flat chassis plates.',
    ['Fits SG90 / MG90S', 'M2 screws', 'Two orientations']),
  design('tomas', 'Ultrasonic Sensor Holder', box(50, 20, 24), PLA, ['robotics', 'electronics', 'mount'],
    'A holder for HC-SR04 ultrasonic sensors with a tilt adjustment.',
    ['Fits HC-SR04', 'Tilt adjustable', 'M3 mounting']),
  design('tomas', 'Geometry Solids Set', cone(20, 40), PLA, ['education', 'toy'],
    'A cone, cylinder and pyramid for geometry lessons about volume.',
    ['Same base and height', 'Fill with sand to compare volumes', 'Three pieces'],
    [{ kind: 'stl', name: 'Matching cylinder', shape: cylinder(20, 40), description: '<p>A cylinder with the same base and height as the cone.</p>' }]),
  design('tomas', 'Caster Ball Housing', dome(12), PETG, ['robotics', 'spare-part'],
    'A housing for a 16 mm steel ball used as a caster on small robots.',
    ['16 mm ball', 'Snap-in', 'M3 mounting holes']),
  design('tomas', 'Spinning Top Classic', cone(18, 30), PLA, ['toy', 'education'],
    'A spinning top that runs for over a minute on a smooth table.',
    ['Balanced', 'Printed in two parts', 'Good first print'], [{ kind: 'notes' }]),
  design('tomas', 'Breadboard Holder', box(90, 60, 10), PLA, ['electronics', 'education', 'organizer'],
    'A tray that holds a half-size breadboard and an Arduino Uno side by side.',
    ['Half-size breadboard', 'Arduino Uno standoffs', 'Rubber feet pockets']),
  design('tomas', 'Line Follower Chassis', box(120, 90, 4), PETG, ['robotics', 'education'],
    'A chassis plate for a two-wheel line follower with sensor mounts at the front.',
    ['Two TT motors', 'Sensor bar mount', 'Battery holder slots'], [{ kind: 'obj' }]),
  design('tomas', 'Pulley Demonstration Wheel', ring(4, 25, 10), PLA, ['education', 'mechanical'],
    'A grooved pulley wheel for classroom block-and-tackle demonstrations.',
    ['Groove for 4 mm string', '608 bearing', 'Hook attachment']),

  // ingrid: eight
  design('ingrid', 'Boat Cleat 100 mm', bracket(100, 30, 24, 8), ASA, ['outdoor', 'spare-part', 'mount'],
    'A small cleat for dinghies and kayaks; print in ASA at 100% infill.',
    ['100 mm long', 'Two M6 bolts', 'UV resistant in ASA']),
  design('ingrid', 'Garden Hose Guide', cylinder(30, 60), ASA, ['garden', 'outdoor'],
    'A guide spike that stops the hose from dragging across flower beds.',
    ['Rolling sleeve', 'Ground spike', 'UV resistant']),
  design('ingrid', 'Gutter Downspout Clip', clip(38, 20, 60), ASA, ['outdoor', 'mount', 'household'],
    'A clip that holds 75 mm downspouts against the wall.',
    ['For 75 mm pipes', 'Screws into masonry plugs', 'Printed without supports'], [{ kind: 'readme' }]),
  design('ingrid', 'Bird Feeder Roof', cone(70, 40), ASA, ['garden', 'outdoor', 'decor'],
    'A conical roof that keeps seed dry in a hanging feeder.',
    ['140 mm diameter', 'Drip edge', 'Hanging loop']),
  design('ingrid', 'Fence Post Cap 70 mm', box(72, 72, 20), ASA, ['garden', 'outdoor', 'spare-part'],
    'A cap for 70 mm square fence posts that sheds rain.',
    ['Fits 70 × 70 mm posts', 'Sloped top', 'Press fit']),
  design('ingrid', 'Kayak Paddle Drip Ring', ring(16, 32, 6), TPU, ['outdoor', 'spare-part'],
    'A drip ring for 32 mm paddle shafts.',
    ['For 32 mm shafts', 'TPU grips without glue', 'Two per paddle']),
  design('ingrid', 'Plant Label Stake', box(20, 100, 2), ASA, ['garden', 'planter'],
    'Plant markers with a write-on face.',
    ['Write-on face', 'Pointed stake', 'Print a dozen at once'], [{ kind: 'notes' }]),
  design('ingrid', 'Rain Gauge Funnel', cone(50, 60), PETG, ['garden', 'outdoor', 'education'],
    'A funnel and scale for a homemade rain gauge.',
    ['100 mm opening', 'Scale in mm', 'Fits a 50 mm tube'], [{ kind: 'obj' }]),

  // kenji: ten
  design('kenji', 'Under-Desk Cable Tray', bracket(140, 60, 40, 3), PETG, ['cable-management', 'desk', 'mount'],
    'A shallow tray that hangs power strips and adapters under the desk.',
    ['Holds a 6-outlet strip', 'Screws under the desk', 'Open ends for cables'], [{ kind: 'readme' }]),
  design('kenji', 'Cable Clip 3 mm Set', clip(1.6, 8, 80), PETG, ['cable-management', 'desk'],
    'Tiny clips for USB-C and headphone cables.',
    ['For 3 mm cables', 'Adhesive base', 'Print a plate of twenty']),
  design('kenji', 'Monitor Riser Foot', box(60, 60, 80), PLA, ['desk', 'stand'],
    'Four feet under a wooden board make a monitor riser with storage underneath.',
    ['80 mm tall', 'Fits 18 mm boards', 'Print four'], [{ kind: 'obj' }]),
  design('kenji', 'Tablet Stand Foldable', stand(120, 70), PETG, ['stand', 'desk', 'print-in-place'],
    'A print-in-place folding stand for tablets up to 11 inches.',
    ['Print-in-place hinge', 'Two angles', 'Folds flat']),
  design('kenji', 'SD Card Holder', box(60, 25, 12), PLA, ['organizer', 'electronics', 'storage'],
    'Holds eight SD cards and eight microSD cards.',
    ['16 slots', 'Labelled', 'Snug fit']),
  design('kenji', 'Headphone Stand Minimal', bracket(100, 250, 50, 8), PETG, ['desk', 'stand'],
    'A minimal headphone stand with a weighted base pocket.',
    ['Weighted base pocket', 'Soft-edge top', '250 mm tall']),
  design('kenji', 'Desk Grommet 60 mm', ring(25, 30, 18, 64), PLA, ['desk', 'cable-management'],
    'A grommet for 60 mm desk holes with a cable slot cap.',
    ['Fits 60 mm holes', 'Slotted cap', 'Two parts'], [{ kind: 'stl', name: 'Grommet cap', shape: cylinder(30, 3), description: '<p>The slotted cap.</p>' }]),
  design('kenji', 'Keyboard Wrist Rest Foot', box(40, 20, 12), TPU, ['desk', 'spare-part'],
    'Replacement anti-slip feet for wrist rests.',
    ['TPU', 'Anti-slip', 'Adhesive pocket']),
  design('kenji', 'Phone Stand Wedge', stand(60, 70), PLA, ['phone', 'stand', 'desk'],
    'A simple wedge stand for video calls.',
    ['70° angle', 'Cable pass-through', 'One-piece']),
  design('kenji', 'Cable Comb 12 Slot', box(70, 12, 8), PETG, ['cable-management', 'workshop'],
    'A comb that keeps network cables parallel in racks.',
    ['Twelve slots for 6 mm cables', 'Split design', 'Snap together']),
];

/**
 * The source an adapted design credits, as the live service's `attribution` carries it (free text, often a link).
 * The sources are made up; example.org names no real site.
 */
export const DEMO_ATTRIBUTIONS: Readonly<Record<string, string>> = {
  'Rack Gear Segment': 'Remix of "Parametric rack and pinion" by Ada Lindqvist, https://models.example.org/things/4821 (CC BY 4.0)',
  'Spiral Planter 140 mm': 'Based on the "Twisted planter" by Studio Verde: https://studio-verde.example.org/twisted-planter',
  'Bed Leveling Test 220x220': 'Adapted from the first-layer test in the printer maker\'s calibration guide',
};
