import { afterEach, describe, expect, it } from 'vitest';
import { MockSession } from '../contracts/index.js';
import { createImageTask, imageRequest, KEY, makeApp, type TestApp } from './helpers.js';

let t: TestApp;
const session = () => {
  t = makeApp();
  return new MockSession({ baseUrl: 'http://mock.test', apiKey: KEY, fetch: (url, init) => t.app.request(url, init) });
};

afterEach(() => t?.app.dispose());

describe('MockSession (labelmock/contracts) for an app test', () => {
  it('expectRequestReceived finds the request the app sent, by method, path and body fields', async () => {
    const mock = session();
    await createImageTask(t, { metadata: { order: 'o-1' } });
    const entry = await mock.expectRequestReceived({
      method: 'POST',
      path: '/v1/task/imageannotation',
      body: { metadata: { order: 'o-1' } },
      status: 200,
    });
    expect(entry.response_body).toMatchObject({ metadata: { order: 'o-1' } });
  });

  it('expectRequestReceived fails naming what was received when nothing matches', async () => {
    const mock = session();
    await createImageTask(t);
    const since = await mock.latestRequestId();
    expect(since).toMatch(/^req_/);
    await createImageTask(t, { metadata: { order: 'o-2' } });
    const expected = { method: 'POST', path: '/v1/task/imageannotation', body: { metadata: { order: 'o-3' } } };
    // After the default wait of 5 s.
    await expect(mock.expectRequestReceived(expected, since)).rejects.toThrow(/o-2/);
  }, 15_000);

  it('events() waits for the task.created event of a task the app created', async () => {
    const mock = session();
    const events = await mock.events();
    try {
      const task = await createImageTask(t);
      const event = await events.waitFor('task.created', (data) => data.task_id === task.task_id);
      expect(event.task_id).toBe(task.task_id);
    } finally {
      events.close();
    }
  });

  it('addFault answers one 503 to the app, clearFaults removes the rule', async () => {
    const mock = session();
    await createImageTask(t);
    const rule = await mock.addFault({ method: 'GET', path: '/v1/tasks', status: 503 });
    expect(rule.id).toEqual(expect.any(String));
    expect((await t.call('GET', '/v1/tasks')).status).toBe(503);
    await mock.clearFaults();
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
    expect((await mock.client.post('/v1/task/imageannotation', imageRequest())).status).toBe(200);
  });
});
