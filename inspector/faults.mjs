// The tenant's fault rules: listed in the order they are tried, added from a form, removed one or all.
import { api } from './api.mjs';
import { actionButton, field, h, json, loading, show, table } from './dom.mjs';

const COLUMNS = [
  ['Method', (r) => r.method ?? 'any'],
  ['Path', (r) => r.path],
  [
    'Does',
    (r) => [r.status, r.fault, r.delay_ms === undefined ? undefined : `${r.delay_ms} ms`].filter(Boolean).join(', '),
  ],
  ['Probability', (r) => String(r.probability)],
  ['Left', (r) => (r.remaining === undefined ? '∞' : String(r.remaining))],
  ['Fired', (r) => String(r.fired)],
];

export async function faultsPage(view) {
  const list = h('div', { id: 'faults' }, loading());
  const errors = h('div', { class: 'action-error' });
  const load = async () => {
    const { faults } = await api('GET', '/_mock/faults');
    const remove = ['', (r) => actionButton('Remove', () => api('DELETE', `/_mock/faults/${r.id}`).then(load), errors)];
    show(list, table([...COLUMNS, remove], faults, 'No fault rules.'));
  };
  const removeAll = actionButton('Remove all', () => api('DELETE', '/_mock/faults').then(load), errors);
  show(view, h('h1', {}, 'Fault rules'), list, h('p', {}, removeAll), addForm(load, errors), errors);
  await load();
}

/** Fields of a rule; numbers are sent as numbers, empty fields are left out (the mock checks the rest). */
const FIELDS = [
  ['method', 'GET', 'text'],
  ['path', '/v1/tasks', 'text'],
  ['status', '503', 'number'],
  ['delay_ms', '', 'number'],
  ['fault', 'reset | hang', 'text'],
  ['probability', '1', 'number'],
  ['times', '', 'number'],
  ['error', 'message', 'text'],
];

function addForm(load, errors) {
  const inputs = FIELDS.map(([name, placeholder, kind]) =>
    h('input', { name, placeholder, 'data-kind': kind, size: 12 }),
  );
  const rule = () => {
    const body = {};
    for (const input of inputs) {
      const text = input.value.trim();
      if (text) body[input.name] = input.dataset.kind === 'number' ? Number(text) : text;
    }
    return body;
  };
  const add = actionButton('Add rule', () => api('POST', '/_mock/faults', rule()).then(load), errors);
  return h(
    'section',
    {},
    h('h2', {}, 'Add a rule'),
    h('div', { class: 'filters', id: 'fault-form' }, ...inputs.map((input) => field(input.name, input)), add),
    h('p', { class: 'hint' }, 'A rule needs a path under /v1/ and one of status, delay_ms or fault. For example:'),
    json({ method: 'GET', path: '/v1/task/{taskId}', status: 503, times: 2 }),
  );
}
