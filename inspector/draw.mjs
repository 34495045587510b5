// Drawings of a response: the shapes an image annotation response holds (boxes, rotated boxes, polygons, lines,
// points, cuboids), as an SVG. Pure: `drawImageResponse` answers a tree of { tag, attrs, children } that `svgElement`
// turns into DOM nodes (createElementNS: nothing is parsed as markup) and `svgText` into text (for tests and
// snapshots). Everything drawn comes from the response itself; labels and attributes show on hover (<title>).

/** The canvas when the attachment's size is unknown: the one labelmock synthesizes shapes on. */
export const DEFAULT_CANVAS = { width: 1000, height: 800 };

/** Colours for labels, in the order labels first appear: distinct on a light or a dark image. */
const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#800000'];

const node = (tag, attrs = {}, children = []) => ({ tag, attrs, children });
const points = (vertices) => vertices.map(({ x, y }) => `${x},${y}`).join(' ');

/** What a hover shows: the label, the shape's kind and its attributes. */
function titleOf(annotation) {
  const attributes = Object.entries(annotation.attributes ?? {}).map(([name, value]) => `${name}: ${value}`);
  return node('title', {}, [[`${annotation.label ?? '(no label)'} (${annotation.type})`, ...attributes].join('\n')]);
}

/** One annotation's shapes, or undefined for a kind with nothing to draw. */
function shapeOf(annotation, colour) {
  const stroke = { stroke: colour, fill: 'none', 'stroke-width': 2, 'data-label': annotation.label ?? '' };
  switch (annotation.type) {
    case 'box':
      if (Array.isArray(annotation.vertices) && annotation.vertices.length === 4) {
        return node('polygon', { ...stroke, 'data-kind': 'box', points: points(annotation.vertices) });
      }
      return node('rect', {
        ...stroke,
        'data-kind': 'box',
        x: annotation.left,
        y: annotation.top,
        width: annotation.width,
        height: annotation.height,
      });
    case 'polygon':
      return node('polygon', { ...stroke, 'data-kind': 'polygon', points: points(annotation.vertices ?? []) });
    case 'line':
      return node('polyline', { ...stroke, 'data-kind': 'line', points: points(annotation.vertices ?? []) });
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

/**
 * The SVG of an image annotation response (`{ annotations: [...] }`) on a canvas of `size`, and its legend: each
 * label with its colour and how many shapes carry it. Shapes of unknown kinds are counted in `skipped`.
 */
export function drawImageResponse(response, size = DEFAULT_CANVAS) {
  const colours = new Map();
  const counts = new Map();
  const shapes = [];
  let skipped = 0;
  for (const annotation of Array.isArray(response?.annotations) ? response.annotations : []) {
    const label = annotation.label ?? '(no label)';
    if (!colours.has(label)) colours.set(label, PALETTE[colours.size % PALETTE.length]);
    const shape = shapeOf(annotation, colours.get(label));
    if (!shape) {
      skipped += 1;
      continue;
    }
    shape.children.push(titleOf(annotation));
    shapes.push(shape);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const svg = node(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${size.width} ${size.height}`, class: 'drawing' },
    [node('rect', { x: 0, y: 0, width: size.width, height: size.height, fill: '#f4f4f4' }), ...shapes],
  );
  const legend = [...counts].map(([label, count]) => ({ label, colour: colours.get(label), count }));
  return { svg, legend, skipped };
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
