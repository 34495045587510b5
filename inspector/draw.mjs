// Drawings of a response: the shapes an image annotation response holds (boxes, rotated boxes, polygons, lines,
// ellipses, points, cuboids), as an SVG. Pure: `drawImageResponse` answers a tree of { tag, attrs, children } that
// `svgElement` turns into DOM nodes (createElementNS: nothing is parsed as markup) and `svgText` into text (for
// tests and snapshots). Everything drawn comes from the response itself; labels and attributes show on hover.

/** The canvas when the attachment's size is unknown: the one labelmock synthesizes shapes on. */
const DEFAULT_CANVAS = { width: 1000, height: 800 };

/** Colours for labels, in the order labels first appear: distinct on a light or a dark image. */
const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#800000'];

export const node = (tag, attrs = {}, children = []) => ({ tag, attrs, children });
const points = (vertices) => vertices.map(({ x, y }) => `${x},${y}`).join(' ');
export const finite = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * One colour per label, kept across drawings (a response and its hypothesis, every frame of a video), and how
 * many shapes carry each label: the legend. `labels` are given their colours first, in order: frames drawn one
 * at a time then colour a label alike on every frame.
 */
export function labelColours(labels = []) {
  const colours = new Map();
  const counts = new Map();
  const made = {
    colour(label) {
      if (!colours.has(label)) colours.set(label, PALETTE[colours.size % PALETTE.length]);
      return colours.get(label);
    },
    count(label) {
      counts.set(label, (counts.get(label) ?? 0) + 1);
    },
    legend: () => [...counts].map(([label, count]) => ({ label, colour: colours.get(label), count })),
  };
  for (const label of labels) made.colour(label);
  return made;
}

/** What a hover shows: the label, the shape's kind and its attributes. */
export function titleOf(annotation, kind = annotation.type) {
  const attributes = Object.entries(annotation.attributes ?? {}).map(([name, value]) => `${name}: ${value}`);
  return node('title', {}, [[`${annotation.label ?? '(no label)'} (${kind})`, ...attributes].join('\n')]);
}

/** One annotation's shape, or undefined for a kind (or a malformed shape) with nothing to draw. */
function shapeOf(annotation, colour) {
  const stroke = { stroke: colour, fill: 'none', 'stroke-width': 2, 'data-label': annotation.label ?? '' };
  const vertices = Array.isArray(annotation.vertices) ? annotation.vertices : [];
  switch (annotation.type) {
    case 'box':
      if (vertices.length === 4) return node('polygon', { ...stroke, 'data-kind': 'box', points: points(vertices) });
      return node('rect', {
        ...stroke,
        'data-kind': 'box',
        x: annotation.left,
        y: annotation.top,
        width: annotation.width,
        height: annotation.height,
      });
    case 'polygon':
    case 'ellipse':
      return node('polygon', { ...stroke, 'data-kind': annotation.type, points: points(vertices) });
    case 'line':
      return node('polyline', { ...stroke, 'data-kind': 'line', points: points(vertices) });
    case 'point':
      return node('circle', {
        ...stroke,
        fill: colour,
        'data-kind': 'point',
        cx: annotation.x,
        cy: annotation.y,
        r: 5,
      });
    case 'cuboid':
      return node(
        'g',
        { 'data-kind': 'cuboid', 'data-label': annotation.label ?? '' },
        (annotation.edges ?? []).map((edge) =>
          node('line', { stroke: colour, 'stroke-width': 2, x1: edge.x1, y1: edge.y1, x2: edge.x2, y2: edge.y2 }),
        ),
      );
    default:
      return undefined;
  }
}

/** Every x, y an annotation places: what the canvas must hold. */
function* placed(annotation) {
  if (annotation.type === 'box' && !Array.isArray(annotation.vertices)) {
    yield [annotation.left, annotation.top];
    yield [annotation.left + annotation.width, annotation.top + annotation.height];
  }
  if (annotation.type === 'point') yield [annotation.x, annotation.y];
  for (const v of Array.isArray(annotation.vertices) ? annotation.vertices : []) yield [v.x, v.y];
  for (const e of Array.isArray(annotation.edges) ? annotation.edges : [])
    yield* [
      [e.x1, e.y1],
      [e.x2, e.y2],
    ];
}

/**
 * The canvas for shapes whose image size is unknown: the synthesizer's canvas, grown (never shrunk) to hold
 * every shape, negative coordinates included, so a given response never draws off the picture.
 */
function canvasFor(annotationLists) {
  let [minX, minY, maxX, maxY] = [0, 0, DEFAULT_CANVAS.width, DEFAULT_CANVAS.height];
  for (const annotations of annotationLists)
    for (const annotation of annotations)
      for (const [x, y] of placed(annotation)) {
        if (!finite(x) || !finite(y)) continue;
        [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
      }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

const annotationsOf = (response) => (Array.isArray(response?.annotations) ? response.annotations : []);

/** One layer's shapes in a group; shapes of unknown kinds are counted in `skipped`. */
function layer(name, annotations, colours, extra = {}) {
  const shapes = [];
  let skipped = 0;
  for (const annotation of annotations) {
    const label = annotation?.label ?? '(no label)';
    const shape = annotation && typeof annotation === 'object' ? shapeOf(annotation, colours.colour(label)) : undefined;
    if (!shape) {
      skipped += 1;
      continue;
    }
    Object.assign(shape.attrs, extra);
    shape.children.push(titleOf(annotation));
    shapes.push(shape);
    colours.count(label);
  }
  return { group: node('g', { 'data-layer': name }, shapes), skipped };
}

/**
 * The SVG of an image annotation response (`{ annotations: [...] }`), with its legend: each label with its colour
 * and how many shapes carry it. Options: `size` (the image's, when known; else `canvasFor` the shapes),
 * `hypothesis` (prelabels, drawn dashed in their own layer), `image` (an href drawn under the shapes) and
 * `colours` (shared with other drawings of the same task).
 */
export function drawImageResponse(response, options = {}) {
  const colours = options.colours ?? labelColours();
  const hypothesis = annotationsOf(options.hypothesis);
  const box = options.size
    ? { x: 0, y: 0, ...options.size }
    : canvasFor([annotationsOf(response), hypothesis].filter((list) => list.length > 0));
  const layers = [layer('response', annotationsOf(response), colours)];
  if (hypothesis.length > 0) layers.unshift(layer('hypothesis', hypothesis, colours, { 'stroke-dasharray': '6 4' }));
  const ground = node('rect', { ...box, fill: '#f4f4f4' });
  const image = options.image ? [node('image', { href: options.image, ...box, preserveAspectRatio: 'none' })] : [];
  const svg = node(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', viewBox: `${box.x} ${box.y} ${box.width} ${box.height}`, class: 'drawing' },
    [ground, ...image, ...layers.map(({ group }) => group)],
  );
  const skipped = layers.reduce((sum, { skipped }) => sum + skipped, 0);
  return { svg, legend: colours.legend(), skipped };
}

/** The tree as DOM nodes (SVG namespace; text as text nodes). */
export function svgElement(tree) {
  if (typeof tree === 'string') return document.createTextNode(tree);
  const el = document.createElementNS('http://www.w3.org/2000/svg', tree.tag);
  for (const [name, value] of Object.entries(tree.attrs)) if (name !== 'xmlns') el.setAttribute(name, String(value));
  for (const child of tree.children) el.append(svgElement(child));
  return el;
}

const escaped = (text) =>
  String(text).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/** The tree as SVG text. */
export function svgText(tree) {
  if (typeof tree === 'string') return escaped(tree);
  const attrs = Object.entries(tree.attrs)
    .map(([name, value]) => ` ${name}="${escaped(value)}"`)
    .join('');
  return `<${tree.tag}${attrs}>${tree.children.map(svgText).join('')}</${tree.tag}>`;
}
