/**
 * Measures how long single hostile or maximal requests hold the event loop (the time every other
 * tenant waits), in process:
 *  - the largest valid creates the input limits allow;
 *  - 5 MB bodies of many shapes (the default JSON body limit);
 *  - setMetadata at the 10 KB limit, and far over it;
 *  - refusals of deep nesting (10,000 levels) on every kind of body, labels and ontologies 1,000 deep;
 *  - a state import at its own, larger limit.
 * "block" is the longest stretch without a turn of the event loop while the request ran (a
 * setImmediate ping measures it); "wall" the request's whole time. Each case runs once cold and
 * RUNS times warm; the worst warm block is shown.
 *   npx tsx scripts/bench-input.ts [--runs N]
 */
import { createApp } from '../src/app.js';
import { MAX_JSON_VALUES, METADATA_MAX_BYTES } from '../src/domain/common/input-limits.js';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const KEY = 'test_bench';
const HEADERS = {
  authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
  'content-type': 'application/json',
};
const MB5 = 5 * 1024 * 1024;

type App = ReturnType<typeof createApp>;
type Send = (app: App) => Response | Promise<Response>;

const post =
  (path: string, body: string, method = 'POST'): Send =>
  (app) =>
    app.request(path, { method, headers: HEADERS, body });

/** Runs one request while a setImmediate ping records the longest gap between event-loop turns. */
async function measure(app: App, send: Send): Promise<{ block: number; wall: number; status: number; text: string }> {
  let last = performance.now();
  let block = 0;
  let running = true;
  const ping = () => {
    const now = performance.now();
    block = Math.max(block, now - last);
    last = now;
    if (running) setImmediate(ping);
  };
  setImmediate(ping);
  const start = performance.now();
  const res = await send(app);
  const text = await res.text();
  const end = performance.now();
  running = false;
  // The stretch from the last ping to the answer counts too.
  block = Math.max(block, end - last);
  await new Promise((resolve) => setImmediate(resolve));
  return { block, wall: end - start, status: res.status, text };
}

async function bench(label: string, app: App, send: Send): Promise<void> {
  const cold = await measure(app, send);
  let worst = 0;
  let wall = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const run = await measure(app, send);
    worst = Math.max(worst, run.block);
    wall = Math.max(wall, run.wall);
  }
  const answer = cold.text.length > 90 ? `${cold.text.slice(0, 90)}...` : cold.text;
  console.log(
    `${label.padEnd(58)} ${String(cold.status).padEnd(4)} cold block ${cold.block.toFixed(1).padStart(7)} ms ` +
      `| warm block ${worst.toFixed(1).padStart(7)} ms, ` +
      `wall ${wall.toFixed(1).padStart(7)} ms  ${answer}`,
  );
}

const deep = (levels: number, inner = '1') => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
/** JSON.stringify recurses: deep values are written by hand. */
const deepLabels = (levels: number, key: string) =>
  `${'{"choice":"c","subchoices":['.repeat(levels)}"leaf"${']}'.repeat(levels)}`.replace(/subchoices/g, key);

/** About `bytes` of metadata as JSON (each entry is about 100 bytes). */
function metadataOf(bytes: number): Record<string, string> {
  const metadata: Record<string, string> = {};
  // `"key_00000":"v...v",` is 105 bytes, and the braces 2.
  for (let i = 0; i < Math.floor((bytes - 2) / 105); i += 1)
    metadata[`key_${String(i).padStart(5, '0')}`] = 'v'.repeat(90);
  return metadata;
}

const image = (extra: Record<string, unknown>) => ({
  attachment: 'https://example.com/a.jpg',
  geometries: { box: { objects_to_annotate: ['car'] } },
  ...extra,
});
const labels = (n: number) => Array.from({ length: n }, (_, i) => `label_${i}`);

/** JSON values (not keys) in a value, as the body limit counts them. */
function countValues(value: unknown): number {
  let count = 0;
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    count += 1;
    if (next !== null && typeof next === 'object') pending.push(...Object.values(next));
  }
  return count;
}

/** The largest valid creates: every list at its limit, then the rest of the values budget. */
function largestCreates(): [string, string, string][] {
  const thousandLabels = [{ choice: 'vehicle', subchoices: labels(499) }, ...labels(500).map((l) => `x${l}`)];
  const image = {
    attachment: 'https://example.com/a.jpg',
    geometries: { box: { objects_to_annotate: thousandLabels }, polygon: { objects_to_annotate: labels(1000) } },
    annotation_attributes: { occluded: { description: 'occluded?', choices: labels(1000) } },
    hypothesis: { annotations: [] as unknown[] },
    metadata: metadataOf(METADATA_MAX_BYTES),
    tags: ['a', 'b', 'c', 'd', 'e'],
  };
  // A triangle is 15 values: the annotation, type, label, attributes and its value, vertices and 3 points of 3.
  const triangles = Math.floor((MAX_JSON_VALUES - countValues(image)) / 15);
  image.hypothesis.annotations = Array.from({ length: triangles }, (_, i) => ({
    type: 'polygon',
    label: 'label_1',
    attributes: { occluded: 'label_2' },
    vertices: Array.from({ length: 3 }, (_, k) => ({ x: i + k, y: k })),
  }));
  const frames = MAX_JSON_VALUES - 20;
  return [
    [
      `imageannotation: 2,000 labels, 1,000 choices, ${triangles} prelabels, 10 KB metadata, 5 tags`,
      '/v1/task/imageannotation',
      JSON.stringify(image),
    ],
    [
      `videoannotation: ${frames} frame URLs`,
      '/v1/task/videoannotation',
      JSON.stringify({
        attachment_type: 'image',
        attachments: Array.from({ length: frames }, (_, i) => `https://example.com/frames/${i}.jpg`),
        geometries: { box: { objects_to_annotate: labels(10) } },
      }),
    ],
    [
      `videoannotation: ${frames} events to annotate`,
      '/v1/task/videoannotation',
      JSON.stringify({
        attachment_type: 'image',
        attachments: ['https://example.com/0.jpg'],
        events_to_annotate: labels(frames),
        geometries: { box: { objects_to_annotate: labels(10) } },
      }),
    ],
    [
      'namedentityrecognition: 1,000 labels, 1,000 relationships',
      '/v1/task/namedentityrecognition',
      JSON.stringify({
        instruction: 'Label.',
        text: 'Ada worked with Charles.',
        labels: labels(1000).map((name) => ({ name })),
        relationships: Array.from({ length: 1000 }, (_, i) => ({
          name: `r${i}`,
          display_name: `R${i}`,
          source_label: `label_${i}`,
          target_label: `label_${999 - i}`,
        })),
      }),
    ],
    [
      'textcollection: 1,000 choices in each of 3 fields',
      '/v1/task/textcollection',
      JSON.stringify({
        instruction: 'Answer.',
        attachments: [{ type: 'text', content: 'hello' }],
        fields: Array.from({ length: 3 }, (_, f) => ({
          type: 'category',
          field_id: `f${f}`,
          title: 'F',
          choices: labels(1000).map((label) => ({ label, value: `${f}${label}` })),
        })),
      }),
    ],
  ];
}

/** 5 MB bodies of every shape the JSON limit lets through. */
function hostileBodies(): [string, string, string][] {
  const fill = (unit: string, open = '[', close = ']') =>
    open +
    Array(Math.floor((MB5 - 64) / (unit.length + 1)))
      .fill(unit)
      .join(',') +
    close;
  return [
    ['5 MB: array of zeros', '/v1/task/imageannotation', fill('0')],
    ['5 MB: array of empty objects', '/v1/task/imageannotation', fill('{}')],
    [
      '5 MB: nested arrays, 2.6 million deep',
      '/v1/task/imageannotation',
      '['.repeat(MB5 / 2 - 1) + ']'.repeat(MB5 / 2 - 1),
    ],
    [
      '5 MB: one object, 430,000 distinct keys',
      '/v1/task/imageannotation',
      `{${Array.from({ length: 430_000 }, (_, i) => `"k${i}":0`).join(',')}}`,
    ],
    ['5 MB: one string', '/v1/task/imageannotation', JSON.stringify(image({ instruction: 'x'.repeat(MB5 - 200) }))],
    [
      '5 MB: string of escapes',
      '/v1/task/imageannotation',
      `${JSON.stringify(image({ instruction: '\u00e9"\n'.repeat(MB5 / 12) })).slice(0, MB5 - 2)}"}`,
    ],
    ['5 MB: whitespace', '/v1/task/imageannotation', `{${' '.repeat(MB5 - 2)}}`],
    [
      '3.9 MB: 400,000 labels',
      '/v1/task/imageannotation',
      JSON.stringify(
        image({ geometries: { box: { objects_to_annotate: Array.from({ length: 400_000 }, (_, i) => `${i}`) } } }),
      ),
    ],
    [
      '4.4 MB: 500,000 tags',
      '/v1/task/imageannotation',
      JSON.stringify(image({ tags: Array.from({ length: 500_000 }, (_, i) => `t${i}`) })),
    ],
    [
      '5 MB: 500,000 tags on PUT /v1/task/{id}/tags',
      '/v1/task/TASK/tags',
      JSON.stringify(Array.from({ length: 500_000 }, (_, i) => `t${i}`)),
    ],
    [
      '4.8 MB: metadata of 400,000 keys',
      '/v1/task/imageannotation',
      JSON.stringify(image({ metadata: Object.fromEntries(Array.from({ length: 400_000 }, (_, i) => [`${i}`, 0])) })),
    ],
  ];
}

function deepBodies(): [string, string, string, string?][] {
  return [
    [
      'deep 10,000: task create metadata',
      '/v1/task/imageannotation',
      `{"attachment":"https://example.com/a.jpg","metadata":${deep(10_000)}}`,
    ],
    ['deep 10,000: setMetadata', '/v1/task/TASK/setMetadata', deep(10_000)],
    ['deep 10,000: batch create metadata', '/v1/batches', `{"project":"p","name":"b","metadata":${deep(10_000)}}`],
    ['deep 10,000: project params', '/v1/projects', `{"type":"imageannotation","name":"q","params":${deep(10_000)}}`],
    [
      'deep 10,000: file import metadata',
      '/v1/files/import',
      `{"file_url":"https://example.com/f.png","metadata":${deep(10_000)}}`,
    ],
    [
      'deep 1,000: label subchoices',
      '/v1/task/imageannotation',
      `{"attachment":"https://example.com/a.jpg",` +
        `"geometries":{"box":{"objects_to_annotate":[${deepLabels(1000, 'subchoices')}]}}}`,
    ],
    [
      'deep 1,000: ontology',
      '/v1/projects/p/setOntology',
      `{"name":"o","ontology":[${deepLabels(1000, 'subchoices')}]}`,
    ],
    [
      'deep 10,000: state import',
      '/_mock/state',
      `{"format":"labelmock-state/1","tasks":[],"settings":${deep(10_000)}}`,
      'PUT',
    ],
  ];
}

async function setup(app: App): Promise<string> {
  await app.request('/v1/projects', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ type: 'imageannotation', name: 'p' }),
  });
  const res = await app.request('/v1/task/imageannotation', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(image({})),
  });
  return ((await res.json()) as { task_id: string }).task_id;
}

async function stateImport(app: App): Promise<Send> {
  // A tenant of 2,000 tasks (with 1 KB of metadata each), exported, then imported again.
  const body = JSON.stringify(image({ metadata: metadataOf(1000) }));
  for (let i = 0; i < 2000; i += 1)
    await app.request('/v1/task/imageannotation', { method: 'POST', headers: HEADERS, body });
  const state = await (await app.request('/_mock/state', { headers: HEADERS })).text();
  console.log(`(state of 2,000 tasks: ${(state.length / 1e6).toFixed(2)} MB)`);
  return post('/_mock/state', state, 'PUT');
}

async function main(): Promise<void> {
  const app = createApp({ config: { maxBodyBytes: MB5 } });
  const taskId = await setup(app);
  const withTask = (path: string) => path.replace('TASK', taskId);
  console.log('# largest valid creates');
  for (const [label, path, body] of largestCreates()) await bench(label, app, post(path, body));
  console.log('# 5 MB bodies');
  for (const [label, path, body] of hostileBodies())
    await bench(label, app, post(withTask(path), body, path.endsWith('/tags') ? 'PUT' : 'POST'));
  console.log('# metadata');
  await bench(
    'setMetadata at the limit (10 KB)',
    app,
    post(withTask('/v1/task/TASK/setMetadata'), JSON.stringify(metadataOf(10_240))),
  );
  await bench(
    'setMetadata of 4.8 MB',
    app,
    post(withTask('/v1/task/TASK/setMetadata'), JSON.stringify(metadataOf(4_800_000))),
  );
  console.log('# deep nesting');
  for (const [label, path, body, method] of deepBodies()) await bench(label, app, post(withTask(path), body, method));
  console.log('# state import');
  await bench('PUT /_mock/state, 2,000 tasks', createApp(), await stateImport(createApp()));
  // The import's own, larger values budget: its worst case, training attempts lacking a field up to the budget.
  const attempts = Array(62_000).fill({ quality_task_id: 'q', labeler_email: 'a@b.co' });
  const hostileState = JSON.stringify({
    format: 'labelmock-state/1',
    clock_offset_ms: 0,
    settings: {},
    tasks: [],
    training_attempts: attempts,
  });
  await bench(
    'PUT /_mock/state, 62,000 invalid training attempts (248,000 values)',
    createApp({ config: { maxBodyBytes: MB5 } }),
    post('/_mock/state', hostileState, 'PUT'),
  );
}

void main();
