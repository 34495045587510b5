import { describe, expect, it } from 'vitest';
import { QualityTaskSchema, TaskTemplateSchema } from '../src/domain/quality/quality-tasks.js';
import { fixture } from '../src/fixtures.js';
import { makeApp, type TestApp } from './helpers.js';

/** Evaluation and training tasks (rapid projects) and project task templates. */

const GEOMETRIES = { box: { objects_to_annotate: ['car', 'truck'] } };
const BOX = { type: 'box', uuid: 'b1', label: 'car', left: 10, top: 20, width: 30, height: 40, attributes: {} };

async function rapidProject(t: TestApp, name = 'rapid', extra: Record<string, unknown> = {}) {
  await t.call('POST', '/v1/projects', {
    body: {
      type: 'imageannotation',
      name,
      rapid: true,
      params: { geometries: GEOMETRIES, instruction: 'Box the cars.' },
      ...extra,
    },
  });
}

const quality = (t: TestApp, kind: string, body: Record<string, unknown>, type = 'imageannotation') =>
  t.call('POST', `/v1/${kind}_tasks/${type}`, {
    body: { project: 'rapid', attachment: 'https://x.test/a.jpg', ...body },
  });

describe('quality tasks and task templates', () => {
  it('POST /v1/evaluation_tasks/{type} answers a task with project defaults, expected, initial response', async () => {
    const t = makeApp();
    await rapidProject(t);
    const res = await quality(t, 'evaluation', {
      expected_response: { annotations: [BOX] },
      initial_response: { annotations: [] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: '000000000000000000000001',
      kind: 'evaluation',
      type: 'imageannotation',
      project: 'rapid',
      instruction: 'Box the cars.',
      params: { attachment_type: 'image', attachment: 'https://x.test/a.jpg', geometries: GEOMETRIES },
      expected_response: { annotations: [BOX] },
      initial_response: { annotations: [] },
      created_at: '2026-01-01T00:00:00.000Z',
    });
    // The answer is what the route documents.
    expect(QualityTaskSchema.strict().safeParse(res.body).success).toBe(true);
    // No labeling task is created, and no batch is needed on the rapid project.
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(0);
  });

  it('POST /v1/training_tasks/{type} takes a textcollection task and answer; refuses initial_response', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'textcollection', name: 'rapid', rapid: true } });
    const request = fixture<Record<string, unknown>>('tasks/textcollection.create.json');
    const completed = fixture<{ response: Record<string, unknown> }>('tasks/textcollection.completed.json');
    const res = await t.call('POST', '/v1/training_tasks/textcollection', {
      body: { ...request, project: 'rapid', expected_response: completed.response },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'training', type: 'textcollection', expected_response: completed.response });
    const withInitial = await t.call('POST', '/v1/training_tasks/textcollection', {
      body: { ...request, project: 'rapid', expected_response: completed.response, initial_response: {} },
    });
    expect(withInitial.body).toEqual({
      status_code: 400,
      error: 'Parameter is invalid, reason: "initial_response" is only allowed on evaluation tasks',
    });
  });

  it('POST /v1/evaluation_tasks/{type} checks the expected response against the task, naming the field', async () => {
    const t = makeApp();
    await rapidProject(t);
    const wrongLabel = await quality(t, 'evaluation', {
      expected_response: { annotations: [{ ...BOX, label: 'bus' }] },
    });
    expect(wrongLabel.status).toBe(400);
    expect(wrongLabel.body.error).toMatch(/"expected_response\.annotations\[0\]\.label"/);
    const wrongShape = await quality(t, 'training', { expected_response: { annotations: 'none' } });
    expect(wrongShape.body.error).toMatch(/"expected_response\.annotations" must be an array/);
    expect((await quality(t, 'training', {})).body.error).toMatch(/"expected_response" is required/);
  });

  it('POST /v1/evaluation_tasks/{type} refuses other types, plain projects, no project and bad params', async () => {
    const t = makeApp();
    await rapidProject(t);
    await t.call('POST', '/v1/projects', {
      body: { type: 'imageannotation', name: 'plain', params: { geometries: GEOMETRIES } },
    });
    const body = { expected_response: { annotations: [BOX] } };
    expect((await quality(t, 'evaluation', body, 'categorization')).body.error).toMatch(
      /"type" must be one of documenttranscription, segmentannotation/,
    );
    expect((await quality(t, 'evaluation', { ...body, project: 'plain' })).body.error).toMatch(
      /project "plain", which is not a rapid project/,
    );
    expect((await quality(t, 'evaluation', { ...body, project: undefined })).body.error).toMatch(
      /"project" is required/,
    );
    expect((await quality(t, 'evaluation', { ...body, project: 'nope' })).status).toBe(404);
    expect((await quality(t, 'evaluation', { ...body, attachment: 'not a url' })).body.error).toMatch(
      /"attachment" must be an absolute URL/,
    );
  });

  it('GET /v1/projects/{name}/taskTemplates derives the template from project version and instruction', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'textcollection', name: 'chatty' } });
    const empty = await t.call('GET', '/v1/projects/chatty/taskTemplates');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      project: 'chatty',
      version: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      template_variables: {},
    });
    expect(TaskTemplateSchema.strict().safeParse(empty.body).success).toBe(true);
    t.clock.advance(1000);
    await t.call('POST', '/v1/projects/chatty/setParams', {
      body: { instruction: 'Answer {{question}} about {{ topic }}.' },
    });
    const res = await t.call('GET', '/v1/projects/chatty/taskTemplates');
    expect(res.body).toMatchObject({
      id: empty.body.id,
      version: 0,
      updated_at: '2026-01-01T00:00:01.000Z',
      template_variables: { question: null, topic: null },
    });
  });

  it('GET /v1/projects/{name}/taskTemplates answers 400 for other project types, 404 for unknown ones', async () => {
    const t = makeApp();
    await rapidProject(t);
    const res = await t.call('GET', '/v1/projects/rapid/taskTemplates');
    expect(res.body).toEqual({
      status_code: 400,
      error: expect.stringMatching(
        /^Project "rapid" has type imageannotation; task templates exist for textcollection, chat/,
      ),
    });
    expect((await t.call('GET', '/v1/projects/absent/taskTemplates')).status).toBe(404);
  });

  it('GET and PUT /_mock/state carry quality tasks: exported, imported; a repeated id is refused whole', async () => {
    const t = makeApp();
    await rapidProject(t);
    const created = (await quality(t, 'training', { expected_response: { annotations: [BOX] } })).body;
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.quality_tasks).toEqual([created]);
    const other = makeApp();
    expect((await other.call('PUT', '/_mock/state', { body: state })).status).toBe(200);
    expect((await other.call('GET', '/_mock/state')).body.quality_tasks).toEqual([created]);
    const repeated = await other.call('PUT', '/_mock/state', { body: { ...state, quality_tasks: [created, created] } });
    expect(repeated.body).toEqual({
      status_code: 400,
      error: `Parameter is invalid, reason: "quality_tasks[1].id" repeats ${created.id}`,
    });
    expect((await other.call('GET', '/_mock/state')).body.quality_tasks).toEqual([created]);
  });
});
