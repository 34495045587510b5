// A task's response drawn on its page: which drawing a task type gets (shapes, frames with a slider, a lidar
// sequence from above, marked text), the attachment under an image's shapes when this labelmock holds its bytes
// (attachments.mjs), and a legend per label. Types without geometry or spans get nothing here: their JSON says
// it all.
import { attachmentNote, resultFileDrawing } from './attachments.mjs';
import { h, show } from './dom.mjs';
import { drawImageResponse, labelColours, svgElement } from './draw.mjs';
import { drawLidarFrame, projectionFrames, videoFrames } from './draw-frames.mjs';
import { markSpans } from './draw-text.mjs';

const IMAGE_TYPES = new Set(['imageannotation', 'lidartopdown']);
const VIDEO_TYPES = new Set(['videoannotation', 'videoplaybackannotation']);

/**
 * The drawing of `response` for the task's type, as the elements of a section, or undefined when there is
 * nothing to draw. `view` outlives a re-render (a live event redraws the page): the frame a person moved to.
 */
export function drawing(task, response, view = {}) {
  if (IMAGE_TYPES.has(task.type)) {
    const hypothesis = task.type === 'imageannotation' ? task.params?.hypothesis : undefined;
    return imageDrawing(task, response, hypothesis);
  }
  if (VIDEO_TYPES.has(task.type)) {
    const { frames, events } = videoFrames(response);
    const attachments = task.params?.attachment_type === 'video' ? [] : (task.params?.attachments ?? []);
    return framesDrawing(frames, view, { attachments, events });
  }
  if (task.type === 'lidarlinking') return framesDrawing(projectionFrames(response), view, {});
  if (task.type === 'lidarannotation') {
    // Its results come as a file (`annotations.url`, a link to this labelmock), the list of frames: drawn once read.
    const url = response?.annotations?.url;
    return typeof url === 'string'
      ? resultFileDrawing(url, (frames) => lidarDrawing({ annotations: frames }, view))
      : lidarDrawing(response, view);
  }
  if (task.type === 'namedentityrecognition') return textDrawing(task, response);
  return undefined;
}

const hasShapes = (response) => Array.isArray(response?.annotations) && response.annotations.length > 0;

/** Legend items: a swatch (an SVG fill, or a mark's class for text: the page's CSP allows no inline style). */
function legendList(legend) {
  const swatch = (colour) =>
    svgElement({
      tag: 'svg',
      attrs: { class: 'swatch', viewBox: '0 0 10 10' },
      children: [{ tag: 'rect', attrs: { width: 10, height: 10, fill: colour }, children: [] }],
    });
  return h(
    'ul',
    { class: 'legend' },
    legend.map(({ label, colour, count, className }) =>
      h('li', {}, className ? h('mark', { class: className }, label) : [swatch(colour), ` ${label}`], ` (${count})`),
    ),
  );
}

const skippedNote = (skipped) =>
  skipped > 0 ? h('p', { class: 'empty' }, `${skipped} shape(s) of other kinds are in the JSON below.`) : '';

function imageDrawing(task, response, hypothesis) {
  if (!hasShapes(response) && !hasShapes(hypothesis)) return undefined;
  const box = h('div', { class: 'drawing-box' });
  const legend = h('div');
  const render = (picture = {}) => {
    const drawn = drawImageResponse(response, { hypothesis, ...picture });
    show(box, svgElement(drawn.svg));
    show(legend, legendList(drawn.legend), skippedNote(drawn.skipped));
  };
  render();
  const layers = hasShapes(hypothesis)
    ? h('p', { class: 'hint' }, 'Dashed: the hypothesis (prelabels) the task was created with.')
    : '';
  return [box, legend, layers, attachmentNote(task.params?.attachment, render)];
}

/** Frames one at a time, with a slider; every frame colours a label alike. */
function framesDrawing(frames, view, { attachments = [], events = [] }) {
  if (!frames.some((frame) => frame.annotations.length > 0)) return undefined;
  const labels = frames.flatMap((frame) => frame.annotations.map((a) => a?.label ?? '(no label)'));
  const draw = (at, picture) =>
    drawImageResponse({ annotations: frames[at].annotations }, { colours: labelColours(labels), ...picture });
  const parts = slider(
    frames.length,
    view,
    (at) => frames[at].name,
    draw,
    (at, render) => attachmentNote(attachments[at], render),
  );
  const told = events.map((event) => {
    const frames = event?.end === undefined ? `frame ${event?.start}` : `frames ${event?.start}–${event?.end}`;
    return h('li', {}, `${event?.label} (${event?.type}): ${frames}`);
  });
  return [...parts, told.length > 0 ? [h('h3', {}, 'Events'), h('ul', {}, told)] : ''];
}

function lidarDrawing(response, view) {
  const frames = Array.isArray(response?.annotations) ? response.annotations : [];
  if (frames.length === 0) return undefined;
  const labels = frames.flatMap((frame) =>
    [...(frame?.polygons ?? []), ...(frame?.cuboids ?? [])].map((o) => o?.label),
  );
  const name = (at) => `frame ${frames[at]?.frame_index ?? at}`;
  const draw = (at) => drawLidarFrame(response, at, labelColours(labels));
  const hint = h('p', { class: 'hint' }, 'Seen from above: x to the right, y up, the sensor at the dark dot.');
  return [...slider(frames.length, view, name, draw), hint];
}

/**
 * A picture per frame and a range input to move between them. `note(at, render)` may add what belongs to the
 * frame (its attachment) and redraw it with a picture (an image under the shapes).
 */
function slider(count, view, nameOf, draw, note = () => '') {
  const box = h('div', { class: 'drawing-box' });
  const legend = h('div');
  const caption = h('p', { class: 'frame-caption', 'aria-live': 'polite' });
  const notes = h('div');
  const input = h('input', { type: 'range', min: 0, max: count - 1, 'aria-label': 'Frame', class: 'frame-slider' });
  input.value = String(Math.min(view.frame ?? 0, count - 1));
  const render = (picture, forFrame) => {
    const at = Number(input.value);
    // A picture that loaded late belongs to the frame it was asked for: another frame is shown by now.
    if (forFrame !== undefined && forFrame !== at) return;
    view.frame = at;
    const drawn = draw(at, picture);
    show(box, svgElement(drawn.svg));
    show(caption, `${nameOf(at)} (${at + 1} of ${count})`);
    show(legend, legendList(drawn.legend), skippedNote(drawn.skipped ?? 0));
  };
  const noteFrame = () => {
    const at = Number(input.value);
    show(
      notes,
      note(at, (picture) => render(picture, at)),
    );
  };
  input.addEventListener('input', () => {
    render();
    noteFrame();
  });
  render();
  noteFrame();
  return [count > 1 ? h('p', { class: 'frames' }, input, caption) : caption, box, legend, notes];
}

function textDrawing(task, response) {
  const given = String(task.params?.text ?? '');
  // The offsets count the text as the task's merge_newlines has it.
  const text = task.params?.merge_newlines ? given.replace(/[\r\n]/g, '') : given;
  const { pieces, legend, relationships, skipped } = markSpans(text, response);
  if (legend.length === 0) return undefined;
  const marked = pieces.map(({ text: piece, spans }) => {
    const innermost = spans.at(-1);
    if (!innermost) return piece;
    const title = spans.map((span) => span.label).join(', ');
    return h('mark', { class: innermost.className, title, 'data-label': innermost.label }, piece);
  });
  const related = relationships.map(({ name, source, target }) => h('li', {}, `${source} —${name}→ ${target}`));
  return [
    h('p', { class: 'marked-text' }, marked),
    legendList(legend),
    related.length > 0 ? [h('h3', {}, 'Relationships'), h('ul', {}, related)] : '',
    skipped > 0 ? h('p', { class: 'empty' }, `${skipped} span(s) do not fit the text; see the JSON below.`) : '',
  ];
}
