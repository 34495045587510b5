// Projects with their parameter versions, and batches with their progress.
import { api } from './api.mjs';
import { badge, debounced, h, json, link, loading, show, table, time } from './dom.mjs';

export async function projectsPage(view) {
  const [projects, v2] = await Promise.all([api('GET', '/v1/projects'), api('GET', '/v2/projects')]);
  // v2 names projects by id: shown beside the name, for matching what a v2 client logs.
  const ids = new Map(v2.projects.map((p) => [p.name, p.id]));
  const columns = [
    ['Project', (p) => link(p.name, 'tasks', 'project', p.name)],
    ['v2 id', (p) => h('code', {}, ids.get(p.name) ?? '')],
    ['Type', (p) => p.type],
    ['Created', (p) => time(p.created_at)],
    ['Archived', (p) => (p.archived ? 'yes' : 'no')],
    ['Parameter versions', (p) => p.param_history.map(version)],
  ];
  show(view, h('h1', {}, 'Projects'), table(columns, projects, 'No projects.'));
}

function version(entry) {
  const { version: number, created_at: at, ...params } = entry;
  return h('details', {}, h('summary', {}, `version ${number}, `, time(at)), json(params));
}

export async function batchesPage(view) {
  const list = h('div', { id: 'batches' }, loading());
  const load = async () => {
    const [{ docs }, v2] = await Promise.all([
      api('GET', '/v1/batches?limit=100'),
      api('GET', '/v2/batches?limit=100'),
    ]);
    const progress = await Promise.all(docs.map((b) => api('GET', `/v1/batches/${encodeURIComponent(b.name)}/status`)));
    // v2 adds an id and two statuses v1 has no word for (paused, cancelled).
    const faces = new Map(v2.batches.map((b) => [b.name, b]));
    const rows = docs.map((batch, i) => ({ batch, counts: progress[i], v2: faces.get(batch.name) }));
    show(list, table(BATCH_COLUMNS, rows, 'No batches.'));
  };
  show(view, h('h1', {}, 'Batches'), list);
  await load();
  const refresh = debounced(() => load().catch(() => undefined));
  return (event) => (event.type.startsWith('task.') || event.type === 'batch.completed') && refresh();
}

const BATCH_COLUMNS = [
  ['Batch', ({ batch }) => link(batch.name, 'tasks', 'batch', batch.name)],
  ['Project', ({ batch }) => link(batch.project, 'projects')],
  ['v2 id', ({ v2 }) => h('code', {}, v2?.id ?? '')],
  ['Status', ({ batch, v2 }) => badge(v2?.status ?? batch.status)],
  ['Progress', ({ counts }) => progressBar(counts)],
  ['Created', ({ batch }) => time(batch.created_at)],
];

function progressBar(counts) {
  const total = counts.pending + counts.completed + counts.error + counts.canceled;
  const done = total - counts.pending;
  const parts = `${counts.completed} completed, ${counts.error} error, ${counts.canceled} canceled`;
  return [h('progress', { max: Math.max(total, 1), value: done }), ` ${done}/${total} done (${parts})`];
}
