import {
  asArray,
  asObject,
  contract,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectType,
} from '../kit/contract.js';

/** Evaluation and training tasks of rapid projects, and project task templates (official Python client routes). */

const GEOMETRIES = { box: { objects_to_annotate: ['car', 'truck'] } };
const BOX = { type: 'box', uuid: 'b1', label: 'car', left: 10, top: 20, width: 30, height: 40, attributes: {} };

async function rapidProject(ctx: Parameters<Parameters<typeof contract>[1]>[0]) {
  const name = ctx.unique('rapid');
  expectStatus(
    await ctx.api.post('/v1/projects', {
      type: 'imageannotation',
      name,
      rapid: true,
      params: { geometries: GEOMETRIES },
    }),
    200,
  );
  return name;
}

for (const kind of ['evaluation', 'training'] as const) {
  contract(
    `POST /v1/${kind}_tasks/imageannotation answers the quality task with its expected_response`,
    async (ctx) => {
      const project = await rapidProject(ctx);
      const body = {
        project,
        attachment: 'https://example.com/contracts/cars.jpg',
        expected_response: { annotations: [BOX] },
      };
      const res = await ctx.api.post(`/v1/${kind}_tasks/imageannotation`, body);
      expectStatus(res, 200);
      expectType(res.body.id, 'string', 'id');
      const [first] = asArray(res.body.expected_response.annotations, 'expected_response.annotations');
      expectEqual(
        asObject(first, 'expected_response.annotations[0]').label,
        'car',
        'expected_response.annotations[0].label',
      );
    },
  );

  contract(
    `POST /v1/${kind}_tasks/imageannotation refuses an expected_response that does not fit the task`,
    async (ctx) => {
      const project = await rapidProject(ctx);
      const body = {
        project,
        attachment: 'https://example.com/contracts/cars.jpg',
        expected_response: { annotations: [{ ...BOX, label: 'bus' }] },
      };
      expectErrorBody(await ctx.api.post(`/v1/${kind}_tasks/imageannotation`, body), 400, 'expected_response');
    },
  );
}

contract('POST /v1/evaluation_tasks/{type} needs a rapid project', async (ctx) => {
  const project = ctx.unique('plain');
  expectStatus(
    await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project, params: { geometries: GEOMETRIES } }),
    200,
  );
  const body = {
    project,
    attachment: 'https://example.com/contracts/cars.jpg',
    expected_response: { annotations: [BOX] },
  };
  expectErrorBody(await ctx.api.post('/v1/evaluation_tasks/imageannotation', body), 400, 'rapid');
});

contract('GET /v1/projects/{name}/taskTemplates answers the template of a text collection project', async (ctx) => {
  const name = ctx.unique('tc');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'textcollection', name }), 200);
  const res = await ctx.api.get(`/v1/projects/${encodeURIComponent(name)}/taskTemplates`);
  expectStatus(res, 200);
  expectType(res.body.id, 'string', 'id');
  expectType(res.body.version, 'number', 'version');
  expectType(res.body.template_variables, 'object', 'template_variables');
  expectErrorBody(await ctx.api.get(`/v1/projects/${encodeURIComponent(ctx.unique('absent'))}/taskTemplates`), 404);
});
