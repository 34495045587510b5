// One task: the actions the control plane offers, its response drawn, what happened to it (its timeline), the
// response as JSON, params, metadata, audits, callback attempts and the requests that touched it. The task is
// read from the side (GET /_mock/tasks/{id}): watching it is never a client's read, nor a request in its own
// timeline. Refreshed when an event names the task.
import { api, isOwn } from './api.mjs';
import { badge, debounced, h, json, loading, show, time } from './dom.mjs';
import { drawing } from './drawing.mjs';
import { attemptsTable, requestList } from './journals.mjs';
import { actionState, taskActions } from './task-actions.mjs';
import { timelineList } from './timeline.mjs';

export async function taskPage(view, [id]) {
  const path = `/_mock/tasks/${encodeURIComponent(id)}`;
  const body = h('div', { id: 'task' }, loading());
  const state = actionState();
  const load = async () => {
    const [task, timeline, callbacks, journal] = await Promise.all([
      api('GET', path),
      api('GET', `${path}/timeline`),
      api('GET', `/_mock/callbacks?task_id=${encodeURIComponent(id)}`),
      api('GET', `/_mock/requests?limit=100&task_id=${encodeURIComponent(id)}`),
    ]);
    const own = new Set(journal.requests.filter(isOwn).map((r) => r.id));
    show(
      body,
      details(task, load, state, timelineList(timeline, own)),
      section('Callbacks', deliveries(callbacks.deliveries)),
    );
    const theirs = journal.requests.filter((r) => !isOwn(r));
    body.append(section('Requests that touched it (the last 100)', requestList(theirs)));
  };
  show(view, h('p', {}, h('a', { href: '#/tasks' }, '‹ Tasks')), body);
  await load();
  const refresh = debounced(() => load().catch((error) => show(body, h('p', { class: 'error' }, error.message))));
  // Its own events only (a callback attempt names its task too): another task's busy callbacks reload nothing.
  return (event) =>
    (event.task_id === id || (event.type === 'request' && event.path.split('/').includes(id))) && refresh();
}

/** First what a person asks of a task (what it will answer, what happened to it), then its data. */
function details(task, load, state, timeline) {
  const drawn = drawing(task, task.response, state.view);
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
    drawn ? section(task.response ? 'Drawing' : 'Drawing (no response yet)', drawn) : '',
    section('Timeline', timeline),
    section('Response', json(task.response)),
    section('Params', json(task.params)),
    section('Metadata', json(task.metadata)),
    section('Audits', task.audits?.length ? json(task.audits) : h('p', { class: 'empty' }, 'No audits.')),
  ];
}

const fact = (name, value) => [h('dt', {}, name), h('dd', {}, value)];
const section = (title, ...content) => h('section', {}, h('h2', {}, title), ...content);

function deliveries(list) {
  if (list.length === 0) return h('p', { class: 'empty' }, 'No callbacks.');
  return list.map((d) =>
    h('div', { class: 'delivery' }, h('p', {}, `${d.event} → ${d.target} `, badge(d.state)), attemptsTable(d)),
  );
}
