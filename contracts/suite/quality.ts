import { contract, expectEqual, expectErrorBody, expectStatus, expectType } from '../kit/contract.js';
import { freshEmail } from '../kit/studio.js';

/** Quality: training attempts by quality task and labeler. */

contract('GET /v1/quality/labelers without quality_task_ids or labeler_emails answers 400', async (ctx) => {
  expectErrorBody(await ctx.api.get('/v1/quality/labelers'), 400, 'quality_task_ids');
});

contract('GET /v1/quality/labelers for a labeler with no attempts answers an empty page', async (ctx) => {
  const res = await ctx.api.get('/v1/quality/labelers', { query: { labeler_emails: freshEmail(ctx, 'labeler') } });
  expectStatus(res, 200);
  expectEqual(res.body.docs, [], 'docs');
  // The interface does not show the page's shape beyond docs: has_more is labelmock's (as on its other lists).
  await ctx.rule(
    'the empty page says has_more false',
    () => expectEqual(res.body.has_more, false, 'has_more'),
    'labelmock',
  );
});

contract('GET /v1/quality/labelers pages recorded attempts newest first by next_token', async (ctx) => {
  await ctx.needControlPlane();
  const email = freshEmail(ctx, 'labeler');
  const ids = [ctx.unique('q'), ctx.unique('q'), ctx.unique('q')];
  expectStatus(
    await ctx.api.post('/_mock/quality/attempts', {
      attempts: ids.map((id) => ({ quality_task_id: id, labeler_email: email, passed: true })),
    }),
    200,
  );
  const first = await ctx.api.get('/v1/quality/labelers', { query: { labeler_emails: email, limit: 2 } });
  expectStatus(first, 200);
  expectEqual(
    first.body.docs.map((d: { quality_task_id: string }) => d.quality_task_id),
    [ids[2], ids[1]],
    'first page',
  );
  expectType(first.body.next_token, 'string', 'next_token');
  const second = await ctx.api.get('/v1/quality/labelers', {
    query: { labeler_emails: email, limit: 2, next_token: first.body.next_token },
  });
  expectEqual(
    second.body.docs.map((d: { quality_task_id: string }) => d.quality_task_id),
    [ids[0]],
    'second page',
  );
  expectEqual(second.body.has_more, false, 'has_more on the last page');
  const byTask = await ctx.api.get('/v1/quality/labelers', { query: { quality_task_ids: [ids[0], ids[2]] } });
  expectEqual(byTask.body.docs.length, 2, 'attempts of two quality tasks');
});
