// The two journals: callback deliveries with each attempt, and the request journal with its filters.
import { api, isOwn, query } from './api.mjs';
import { badge, debounced, field, h, json, link, loading, show, table, time } from './dom.mjs';

const ATTEMPT_COLUMNS = [
  ['#', (a) => String(a.attempt)],
  ['At', (a) => time(a.at)],
  ['Result', (a) => (a.status_code === undefined ? (a.error ?? '') : String(a.status_code))],
  ['ms', (a) => String(a.duration_ms)],
];

export function attemptsTable(delivery) {
  return table(ATTEMPT_COLUMNS, delivery.attempts, 'No attempt yet.');
}

export async function callbacksPage(view) {
  const list = h('div', { id: 'callbacks' }, loading());
  const load = async () => {
    const { deliveries } = await api('GET', '/_mock/callbacks');
    show(list, deliveries.length === 0 ? h('p', { class: 'empty' }, 'No callbacks yet.') : deliveries.map(delivery));
  };
  show(view, h('h1', {}, 'Callbacks'), list);
  await load();
  const refresh = debounced(() => load().catch(() => undefined));
  return (event) => (event.type === 'callback.attempt' || event.type.startsWith('task.')) && refresh();
}

function delivery(d) {
  const about = d.task_id === undefined ? `batch ${d.batch}` : link(d.task_id, 'task', d.task_id);
  return h(
    'div',
    { class: 'delivery' },
    h('p', {}, badge(d.state), ` ${d.event} of `, about, ` → ${d.target}, created `, time(d.created_at)),
    attemptsTable(d),
    h('details', {}, h('summary', {}, 'Headers and body'), json({ headers: d.headers, body: d.body })),
  );
}

const FILTERS = ['method', 'path', 'status', 'limit'];
const filters = { method: '', path: '', status: '', limit: '100', own: false };

export async function requestsPage(view) {
  const list = h('div', { id: 'requests' }, loading());
  const load = async () => {
    const { own, ...rest } = filters;
    const { requests } = await api('GET', `/_mock/requests${query(rest)}`);
    show(list, requestList(own ? requests : requests.filter((r) => !isOwn(r))));
  };
  show(view, h('h1', {}, 'Requests'), filterForm(load), list);
  await load();
  const refresh = debounced(() => load().catch((error) => show(list, h('p', { class: 'error' }, error.message))));
  // The page's own reads are /_mock calls, never journaled: no event loop.
  return (event) => event.type === 'request' && refresh();
}

function filterForm(load) {
  const inputs = FILTERS.map((name) => h('input', { name, value: filters[name], size: name === 'path' ? 24 : 6 }));
  const own = h('input', { type: 'checkbox', name: 'own', checked: filters.own });
  const apply = (event) => {
    event.preventDefault();
    for (const input of inputs) filters[input.name] = input.value.trim();
    filters.own = own.checked;
    load().catch((error) => alert(error.message));
  };
  return h(
    'form',
    { class: 'filters', onsubmit: apply },
    ...inputs.map((input) => field(input.name, input)),
    field("the inspector's own", own),
    h('button', {}, 'Filter'),
    h('button', { type: 'button', onclick: () => api('DELETE', '/_mock/requests').then(load) }, 'Clear journal'),
  );
}

/** Journal entries, newest first, each opening to its headers, body and answer. */
export function requestList(requests) {
  if (requests.length === 0) return h('p', { class: 'empty' }, 'No requests.');
  return h(
    'ul',
    { class: 'requests' },
    ...requests.map((r) =>
      h(
        'li',
        {},
        h(
          'details',
          {},
          h('summary', {}, badge(String(r.status)), ` ${r.method} ${r.path} `, time(r.time), ` ${r.duration_ms} ms`),
          json({ query: r.query, headers: r.headers, body: r.body, response_body: r.response_body, fault: r.fault }),
        ),
      ),
    ),
  );
}
