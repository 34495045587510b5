import { describe, expect, it } from 'vitest';
import { imageRequest, makeApp, STRICT, type TestApp } from './helpers.js';

/**
 * What real clients send that the interface does not declare, replayed from their public source, and what
 * labelmock does with it: accepted and ignored (the real service's way), named in Labelmock-Warning, the request
 * journal and GET /_mock/warnings; or the 400 of `unknown_params: strict`. docs/fidelity.md lists the evidence.
 */

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const warnings = async (t: TestApp) => (await t.call('GET', '/_mock/warnings')).body.ignored_parameters;

describe('unknown parameters, lenient (the default)', () => {
  // microsoft/P.808@5b8c00a, src/scale_audio_rating.py: create_batch() and the task of main(), as sent.
  it("P.808's batch callback_url is accepted, named and tallied; its task goes through as sent", async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'textcollection', name: 'ratings' } });
    const batch = await t.call('POST', '/v1/batches', {
      body: { project: 'ratings', name: 'run-1', callback_url: 'http://example.com/callback' },
    });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "callback_url"');
    const task = await t.call('POST', '/v1/task/textcollection', {
      body: {
        unique_id: 'run-1\\clip_1\\clip',
        callback_url: 'http://example.com/callback',
        project: 'ratings',
        batch: 'run-1',
        instruction: 'Please rate these audio files',
        responses_required: 3,
        fields: [
          {
            field_id: 'rating',
            title: 'Please rate the audio file',
            required: true,
            type: 'category',
            choices: [
              { label: 'Bad - 1', value: '1' },
              { label: 'Excellent - 5', value: '5' },
            ],
          },
        ],
        attachments: [{ type: 'audio', content: 'https://example.com/clips/clip_1.wav' }],
        metadata: { group: 'run-1' },
      },
    });
    expect(task.status).toBe(200);
    expect(task.headers.get('labelmock-warning')).toBeNull();
    expect(await warnings(t)).toEqual({ total: 1, names: [{ name: '"callback_url"', count: 1 }], other: 0 });
    const [entry] = (await t.call('GET', '/_mock/requests?path=/v1/batches')).body.requests;
    expect(entry.warning).toBe('ignored 1 unknown parameter(s): "callback_url"');
  });

  it('an error after a lenient read (an unknown project) names what was ignored too, and tallies it', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/batches', {
      body: { project: 'nowhere', name: 'run-1', callback_url: 'http://example.com/callback' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "callback_url"');
    expect((await warnings(t)).total).toBe(1);
  });

  // scale_lidar_io (PyPI scale-lidar-io) helper.get_default_template() sends task_id: None with every task.
  it("scale_lidar_io's template (task_id null) creates the lidar task", async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/lidarannotation', {
      body: {
        task_id: null,
        callback_url: 'http://example.com',
        instruction: 'Please label all objects',
        labels: ['Object'],
        meters_per_unit: 1,
        max_distance_meters: 20,
        attachments: ['https://example.com/scene/frame-0.json', 'https://example.com/scene/frame-1.json'],
        attachment_type: 'json',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.task_id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "task_id"');
  });

  it('a nested unknown key is named by its path; a known key of a wrong type is still a 400', async () => {
    const t = makeApp();
    const nested = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ geometries: { box: { objects_to_annotate: ['car'], colour: 'red' } } }),
    });
    expect(nested.status).toBe(200);
    expect(nested.body.params.geometries.box).toEqual({ objects_to_annotate: ['car'] });
    expect(nested.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "geometries.box.colour"');
    const wrong = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ priority: 'high', x: 1 }) });
    expect(wrong.status).toBe(400);
    // The 400 names the real problem only: the unknown key was not what failed.
    expect(wrong.body.error).toMatch(/"priority"/);
    expect(wrong.body.error).not.toMatch(/"x"/);
  });

  it('unknown query keys are ignored and named; a kept parse names them again on the next request', async () => {
    const t = makeApp();
    for (let i = 0; i < 2; i++) {
      const res = await t.call('GET', '/v1/tasks?limit=2&colour=red');
      expect(res.status).toBe(200);
      expect(res.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "colour"');
    }
    expect((await warnings(t)).total).toBe(2);
  });

  it('a key name with a line break or non-ASCII text is escaped in the header', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ 'bad\nkey é': 1 }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('labelmock-warning')).toBe('ignored 1 unknown parameter(s): "bad\\u000akey \\u00e9"');
  });

  it('the control plane stays strict: a typo in a /_mock body is a 400', async () => {
    const res = await makeApp().call('PATCH', '/_mock/settings', { body: { completoin: {} } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"completoin" is not an allowed parameter/);
  });

  it('a tenant kept only by its tally is not dropped; POST /_mock/reset starts it again', async () => {
    const t = makeApp();
    await t.call('GET', '/v1/tasks?colour=red');
    expect(t.app.services.store.tenantCount).toBe(1);
    expect((await warnings(t)).total).toBe(1);
    await t.call('POST', '/_mock/reset');
    expect(await warnings(t)).toEqual({ total: 0, names: [], other: 0 });
  });
});

describe('unknown parameters, strict', () => {
  it('PATCH /_mock/settings unknown_params strict turns them into 400s for that tenant only', async () => {
    const t = makeApp();
    expect((await t.call('PATCH', '/_mock/settings', { body: { unknown_params: 'strict' } })).status).toBe(200);
    const strict = await t.call('GET', '/v1/tasks?colour=red');
    expect(strict.body).toEqual({
      status_code: 400,
      error: 'Parameter is invalid, reason: "colour" is not an allowed parameter',
    });
    const other = await t.call('GET', '/v1/tasks?colour=red', { key: 'test_other' });
    expect(other.status).toBe(200);
  });

  it('the unknownParams option (--unknown-params) is every new tenant default', async () => {
    const t = makeApp(STRICT);
    expect((await t.call('GET', '/_mock/settings')).body.unknown_params).toBe('strict');
    expect((await t.call('GET', '/v1/tasks?colour=red')).status).toBe(400);
  });
});

describe('empty query values', () => {
  // The Ruby client's bare keys (scaleapi/scaleapi-ruby@e6354d9, task_list_1.yml) are a contract
  // (contracts/suite/fidelity.ts); here what it does not show.
  it('a bare key no route declares is absent, so nothing to warn of', async () => {
    const res = await makeApp().call('GET', '/v1/tasks?callback_url&limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('labelmock-warning')).toBeNull();
  });

  it('an empty value beside a given one is dropped (type=&type=imageannotation)', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/task/imageannotation', { body: imageRequest() });
    const res = await t.call('GET', '/v1/tasks?type=&type=imageannotation&status=');
    expect(res.body.total).toBe(1);
  });
});

describe('form-encoded bodies', () => {
  // alexandrwang/slate@2de40e1, source/includes/_audiotranscription.md: the docs' curl example, as curl sends it.
  it('the 2018 docs curl -d audiotranscription: lists, booleans and the default instruction', async () => {
    const t = makeApp();
    const raw =
      'callback_url=http%3A%2F%2Fwww.example.com%2Fcallback&attachment_type=audio&attachment=' +
      'https%3A%2F%2Fstorage.googleapis.com%2Fdeepmind-media%2Fpixie%2Fknowing-what-to-say%2Fsecond-list%2F' +
      'speaker-3.wav&verbatim=false&phrases=avocado&phrases=stone';
    const res = await t.call('POST', '/v1/task/audiotranscription', { raw, headers: FORM });
    expect(res.status).toBe(200);
    expect(res.body.instruction).toBe('Please transcribe the attached audio file.');
    expect(res.body.params).toEqual({
      attachment_type: 'audio',
      attachment: 'https://storage.googleapis.com/deepmind-media/pixie/knowing-what-to-say/second-list/speaker-3.wav',
      verbatim: false,
      skip_human_transcription: false,
      phrases: ['avocado', 'stone'],
    });
    const done = await t.call('POST', `/_mock/tasks/${res.body.task_id}/complete`);
    const { transcript, duration, alignment } = done.body.response;
    expect(alignment.map((word: { word: string }) => word.word).join(' ')).toBe(transcript);
    expect(duration).toBeGreaterThan(alignment.at(-1).end);
  });

  it('a number the schema asks for is read from its text; text that is no number stays a 400 naming it', async () => {
    const t = makeApp();
    const good = await t.call('POST', '/v1/task/imageannotation', {
      raw: 'attachment=https%3A%2F%2Fexample.com%2Fa.jpg&geometries[box][objects_to_annotate][]=car&priority=20',
      headers: FORM,
    });
    expect(good.status).toBe(200);
    expect(good.body.priority).toBe(20);
    const bad = await t.call('POST', '/v1/task/imageannotation', {
      raw: 'attachment=https%3A%2F%2Fexample.com%2Fa.jpg&geometries[box][objects_to_annotate][]=car&priority=high',
      headers: FORM,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/"priority"/);
  });

  it('a form past its limits is a 400 naming the limit; a prototype key is dropped', async () => {
    const t = makeApp();
    const deep = await t.call('POST', '/v1/task/categorization', { raw: 'a[b][c][d][e][f][g]=1', headers: FORM });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/^Request body is not valid form-urlencoded: .*depth/);
    const many = Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&');
    const wide = await t.call('POST', '/v1/task/categorization', { raw: many, headers: FORM });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatch(/Parameter limit exceeded/);
    const proto = await t.call('POST', '/v1/task/categorization', {
      raw: '__proto__[polluted]=1&attachment=hi&categories=a&categories=b',
      headers: FORM,
    });
    expect(proto.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the control plane takes JSON only: a form body there is a 415', async () => {
    const res = await makeApp().call('PATCH', '/_mock/settings', { raw: 'unknown_params=strict', headers: FORM });
    expect(res.status).toBe(415);
  });
});

describe('the document allows what the official Python client sends', () => {
  // scaleapi/scaleapi-python-client@b4111b2: Python booleans go into the query as True/False (get_tasks,
  // get_batches), and TaskReviewStatus offers commented. Under LABELMOCK_SELF_CHECK=strict (this suite's), an
  // accepted request the document forbids is a 500, so each 200 here is the document agreeing.
  it.each([
    '/v1/tasks?limited_response=True&include_attachment_url=True',
    '/v1/tasks?include_attachment_url=False',
    '/v1/tasks?customer_review_status=commented',
    '/v1/tasks?customer_review_status=accepted,fixed',
    '/v1/batches?exclude_archived=False&detailed=True',
    '/v1/projects?archived=False',
  ])('GET %s is a 200 the document allows', async (path) => {
    const res = await makeApp().call('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a flag word the server does not read is a 400 naming the words it does', async () => {
    const res = await makeApp().call('GET', '/v1/tasks?limited_response=yes');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"limited_response" must be one of true, false, True, False/);
  });
});
