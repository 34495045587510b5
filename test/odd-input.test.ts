/** Whatever a client sends to these routes, the answer is a client error with the standard body. */
import { expect, it } from 'vitest';
import { makeApp } from './helpers.js';

it('teams, Studio, quality and files routes answer odd bodies and queries with a 4xx, never a 500', async () => {
  const t = makeApp();
  await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'signs', studio: true } });
  const bodies = [
    null,
    [],
    'x',
    1,
    {},
    { emails: null },
    { emails: [null] },
    { emails: 'a@b.co', team_role: 'member' },
    { groups: null },
    { batches: [null] },
    { batches: 'x' },
    { add_emails: 'x' },
    { name: null },
    { all_batches: 'yes' },
    { attempts: [{}] },
  ];
  const routes: [string, string][] = [
    ['POST', '/v1/teams/invite'],
    ['POST', '/v1/teams/set_role'],
    ['POST', '/_mock/teams/accept'],
    ['POST', '/v1/studio/assignments/add'],
    ['POST', '/v1/studio/assignments/remove'],
    ['POST', '/v1/studio/projects/signs/groups'],
    ['PUT', '/v1/studio/projects/signs/groups/x'],
    ['POST', '/v1/studio/projects/%ZZ/groups'],
    ['POST', '/v1/studio/batches/set_priorities'],
    ['PUT', '/v1/studio/batches/x'],
    ['POST', '/v1/studio/projects/signs/send_tasks_to_completed'],
    ['POST', '/_mock/quality/attempts'],
    ['POST', '/v1/files/import'],
    ['POST', '/v1/files/upload'],
  ];
  for (const [method, path] of routes)
    for (const body of bodies) {
      const res = await t.call(method, path, { raw: JSON.stringify(body) });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect(res.body).toEqual({ status_code: res.status, error: expect.any(String) });
    }
  for (const q of [
    '',
    '?quality_task_ids=',
    '?labeler_emails=a&limit=x',
    '?labeler_emails=a&next_token=%%%',
    '?quality_task_ids=a&quality_task_ids=b&labeler_emails=c',
  ]) {
    const res = await t.call('GET', `/v1/quality/labelers${q}`);
    expect(res.status).toBeLessThan(500);
  }
  for (const q of [
    '',
    '?projects=',
    '?projects=signs&metadata=[1]',
    '?projects=signs&metadata={',
    '?projects=signs&cursor=zz',
    '?projects=nope',
  ]) {
    const res = await t.call('GET', `/v1/files${q}`);
    expect(res.status).toBeLessThan(500);
  }
  const r = await t.call('GET', '/v1/studio/projects/signs/send_tasks_to_completed?all_batches=maybe');
  expect(r.status).toBe(400);
});

it("request headers named after Object's members are journaled as the names they are", async () => {
  const t = makeApp();
  await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'kept' } });
  await t.call('GET', '/v1/tasks', { headers: { constructor: 'x', tostring: 'y', valueof: 'z' } });
  const [entry] = (await t.call('GET', '/_mock/requests?path=/v1/tasks')).body.requests;
  expect(entry.headers).toMatchObject({ constructor: 'x', tostring: 'y', valueof: 'z' });
});
