import { asObject, contract, expectMatch, expectMentions, expectStatus, expectTrue } from '../kit/contract.js';

/** The public OpenAPI document: JSON and YAML, without a key, without the control plane. */

contract('GET /openapi.json answers an OpenAPI 3.1 document with the task paths, without a key', async (ctx) => {
  const res = await ctx.api.get('/openapi.json', { authorization: null });
  if (res.status === 404) ctx.skip('target serves no /openapi.json');
  expectStatus(res, 200);
  const document = asObject(res.body, res.request);
  expectMatch(document.openapi, /^3\.1\.\d+$/, 'openapi');
  const paths = Object.keys(asObject(document.paths, `${res.request} paths`));
  for (const path of ['/v1/task/imageannotation', '/v1/tasks', '/v1/task/{taskId}']) {
    expectTrue(paths.includes(path), `paths: expected ${path} among ${JSON.stringify(paths)}`);
  }
  // The control plane is documented separately and never part of the service's own document.
  expectTrue(
    !paths.some((p) => p.startsWith('/_mock')),
    `paths must not include /_mock routes: ${JSON.stringify(paths)}`,
  );
});

contract('GET /openapi.yaml answers the same document as YAML text', async (ctx) => {
  const res = await ctx.api.get('/openapi.yaml', { authorization: null });
  if (res.status === 404) ctx.skip('target serves no /openapi.yaml');
  expectStatus(res, 200);
  expectMentions(res.headers.get('content-type'), 'yaml', 'Content-Type');
  expectTrue(typeof res.body === 'string', 'the YAML document must not parse as JSON');
  expectMatch(res.text, /^openapi: ["']?3\.1\.\d+["']?$/m, 'openapi line');
  expectMatch(res.text, /^ {2}\/v1\/tasks:$/m, 'the /v1/tasks path entry');
});
