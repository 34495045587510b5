// One task: its params, response, audits, callback attempts and the requests that touched it, with the
// actions the control plane offers. Refreshed when an event names the task.
import { api, isOwn } from './api.mjs';
import { badge, debounced, h, json, loading, show, time } from './dom.mjs';
import { drawImageResponse, svgElement } from './draw.mjs';
import { attemptsTable, requestList } from './journals.mjs';
import { actionState, taskActions } from './task-actions.mjs';

export async function taskPage(view, [id]) {
  const path = `/v1/task/${encodeURIComponent(id)}`;
  const body = h('div', { id: 'task' }, loading());
  const state = actionState();
  const load = async () => {
    const [task, callbacks, journal] = await Promise.all([
      api('GET', path),
      api('GET', `/_mock/callbacks?task_id=${encodeURIComponent(id)}`),
      api('GET', `/_mock/requests?limit=100&task_id=${encodeURIComponent(id)}`),
    ]);
    show(body, details(task, load, state), section('Callbacks', deliveries(callbacks.deliveries)));
    const theirs = journal.requests.filter((r) => !isOwn(r));
    body.append(section('Requests that touched it (the last 100)', requestList(theirs)));
  };
  show(view, h('p', {}, h('a', { href: '#/tasks' }, '‹ Tasks')), body);
  await load();
  const refresh = debounced(() => load().catch((error) => show(body, h('p', { class: 'error' }, error.message))));
  return (event) => (event.task_id === id || event.type === 'callback.attempt') && refresh();
}

function details(task, load, state) {
  return [
    h('h1', {}, `Task ${task.task_id} `, badge(task.status)),
    h(
      'dl',
      { class: 'facts' },
      fact('Type', task.type),
      fact('Project', task.project ?? '—'),
      fact('Batch', task.batch ?? '—'),
      fact('Created', time(task.created_at)),
      fact('Completed', time(task.completed_at) || '—'),
      fact('Review', task.customer_review_status ?? '—'),
      fact('Times redone', String(task.times_redone ?? 0)),
    ),
    taskActions(task, load, state),
    section('Params', json(task.params)),
    section('Metadata', json(task.metadata)),
    drawing(task.response),
    section('Response', json(task.response)),
    section('Audits', task.audits?.length ? json(task.audits) : h('p', { class: 'empty' }, 'No audits.')),
  ];
}

/** The shapes of an image annotation response, drawn, with a legend per label (nothing for other responses). */
function drawing(response) {
  if (!Array.isArray(response?.annotations)) return undefined;
  const { svg, legend, skipped } = drawImageResponse(response);
  if (legend.length === 0) return undefined;
  // The swatch is an SVG fill, not a style attribute: the page's CSP allows no inline style.
  const swatch = (colour) =>
    svgElement({
      tag: 'svg',
      attrs: { class: 'swatch', viewBox: '0 0 10 10' },
      children: [{ tag: 'rect', attrs: { width: 10, height: 10, fill: colour }, children: [] }],
    });
  const items = legend.map(({ label, colour, count }) => h('li', {}, swatch(colour), ` ${label} (${count})`));
  const note =
    skipped > 0 ? h('p', { class: 'empty' }, `${skipped} shape(s) of other kinds are in the JSON below.`) : '';
  return section(
    'Drawing',
    h('div', { class: 'drawing-box' }, svgElement(svg)),
    h('ul', { class: 'legend' }, items),
    note,
  );
}

const fact = (name, value) => [h('dt', {}, name), h('dd', {}, value)];
const section = (title, ...content) => h('section', {}, h('h2', {}, title), ...content);

function deliveries(list) {
  if (list.length === 0) return h('p', { class: 'empty' }, 'No callbacks.');
  return list.map((d) =>
    h('div', { class: 'delivery' }, h('p', {}, `${d.event} → ${d.target} `, badge(d.state)), attemptsTable(d)),
  );
}
