// The tenant's virtual clock (advance it: delayed completions and callback retries run) and its
// completion mode.
import { api } from './api.mjs';
import { actionButton, field, h, show, time } from './dom.mjs';

const COMPLETION_MODES = ['manual', 'immediate', 'delay', 'reads'];

const STEPS = [
  ['+1 min', 60_000],
  ['+1 hour', 3_600_000],
  ['+1 day', 86_400_000],
];

export async function tenantPage(view) {
  const [clock, settings] = await Promise.all([api('GET', '/_mock/clock'), api('GET', '/_mock/settings')]);
  const errors = h('div', { class: 'action-error' });
  const reload = () => tenantPage(view);
  const advance = (ms) => () => api('POST', '/_mock/clock/advance', { ms }).then(reload);
  const custom = h('input', { id: 'advance-ms', type: 'number', min: 0, placeholder: 'ms', size: 10 });
  const { completion } = settings;
  // Every mode the server has: a tenant in one the list lacked would show none, and Save would send ''.
  const mode = h('select', { id: 'mode' }, ...COMPLETION_MODES.map((m) => h('option', {}, m)));
  mode.value = completion.mode;
  const delay = h('input', { id: 'delay-ms', type: 'number', min: 0, value: String(completion.delay_ms) });
  const reads = h('input', { id: 'reads', type: 'number', min: 1, value: String(completion.reads ?? 3) });
  const save = () => {
    const chosen = { mode: mode.value, delay_ms: Number(delay.value) };
    if (mode.value === 'reads') chosen.reads = Number(reads.value);
    return api('PATCH', '/_mock/settings', { completion: chosen }).then(reload);
  };
  show(
    view,
    h('h1', {}, 'Clock & settings'),
    h(
      'section',
      {},
      h('h2', {}, 'Virtual clock'),
      h('p', {}, 'Now: ', time(clock.now), ` (offset ${clock.offset_ms} ms)`),
    ),
    h(
      'p',
      {},
      ...STEPS.map(([label, ms]) => actionButton(label, advance(ms), errors)),
      custom,
      actionButton('Advance', () => advance(Number(custom.value))(), errors),
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Completion'),
      field('mode', mode),
      field('delay_ms (mode delay)', delay),
      field('reads (mode reads: the read that completes a task)', reads),
    ),
    h('p', {}, actionButton('Save', save, errors)),
    errors,
  );
}
