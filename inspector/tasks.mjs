// The task list: filters, newest first, paged by offset, refreshed when a task event arrives.
import { api, getKey, query } from './api.mjs';
import { badge, debounced, field, h, link, loading, show, table, time } from './dom.mjs';

const PAGE_SIZE = 20;
const STATUSES = ['', 'pending', 'completed', 'error', 'canceled'];
const FILTERS = ['type', 'project', 'batch', 'tags'];
/** Kept across visits, so coming back from a task shows the same list. */
const state = { status: '', type: '', project: '', batch: '', tags: '', offset: 0 };

const COLUMNS = [
  ['Task', (t) => link(t.task_id, 'task', t.task_id)],
  ['Type', (t) => t.type],
  ['Status', (t) => badge(t.status)],
  ['Project', (t) => t.project ?? ''],
  ['Batch', (t) => t.batch ?? ''],
  ['Tags', (t) => (t.tags ?? []).join(', ')],
  ['Created', (t) => time(t.created_at)],
];

/** `#/tasks/project/NAME` (links from the projects and batches pages) opens the list with that one filter. */
export async function tasksPage(view, [name, value]) {
  if (FILTERS.includes(name)) Object.assign(state, { status: '', type: '', project: '', batch: '', tags: '' });
  if (FILTERS.includes(name)) Object.assign(state, { [name]: value ?? '', offset: 0 });
  const list = h('div', { id: 'task-list' }, loading());
  const load = async () => {
    const { status, offset, ...rest } = state;
    const page = await api('GET', `/v1/tasks${query({ ...rest, status, offset, limit: PAGE_SIZE })}`);
    show(list, pager(page, load), table(COLUMNS, page.docs, emptyHint()));
  };
  show(view, h('h1', {}, 'Tasks'), filterForm(load), list);
  await load();
  const refresh = debounced(() => load().catch((error) => show(list, h('p', { class: 'error' }, error.message))));
  return (event) => event.type.startsWith('task.') && refresh();
}

function filterForm(load) {
  const status = h('select', { name: 'status' }, ...STATUSES.map((s) => h('option', { value: s }, s || 'any')));
  status.value = state.status;
  const inputs = FILTERS.map((name) => h('input', { name, value: state[name], size: 14 }));
  const apply = (event) => {
    event.preventDefault();
    state.status = status.value;
    for (const input of inputs) state[input.name] = input.value.trim();
    state.offset = 0;
    load();
  };
  return h(
    'form',
    { class: 'filters', onsubmit: apply },
    field('status', status),
    ...inputs.map((input) => field(input.name === 'tags' ? 'tag' : input.name, input)),
    h('button', {}, 'Filter'),
  );
}

function pager(page, load) {
  const go = (offset) => () => {
    state.offset = Math.max(0, offset);
    load();
  };
  const first = page.total === 0 ? 0 : state.offset + 1;
  return h(
    'p',
    { class: 'pager' },
    h('button', { type: 'button', disabled: state.offset === 0, onclick: go(state.offset - PAGE_SIZE) }, '‹ Newer'),
    ` ${first}–${state.offset + page.docs.length} of ${page.total} `,
    h('button', { type: 'button', disabled: !page.has_more, onclick: go(state.offset + PAGE_SIZE) }, 'Older ›'),
  );
}

/** For an empty tenant: how to make a task, so a first-time reader sees one appear. */
function emptyHint() {
  const curl =
    `curl -u ${getKey()}: ${location.origin}/v1/task/imageannotation -H 'content-type: application/json' \\\n` +
    `  -d '{"attachment":"https://example.com/a.jpg","geometries":{"box":{"objects_to_annotate":["car"]}}}'`;
  return [h('p', {}, 'No tasks match. Create one, and it appears here at once:'), h('pre', { class: 'json' }, curl)];
}
