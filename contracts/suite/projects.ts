import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
} from '../kit/contract.js';
import { createTaskRequest } from '../kit/tasks.js';

/** Projects: creation, reads, versioned parameters and what tasks inherit from them. */

const GEOMETRIES = { box: { objects_to_annotate: ['car'] } };

async function newProject(ctx: ContractContext, extra: Record<string, unknown> = {}) {
  const name = ctx.unique('project');
  const res = await ctx.api.post('/v1/projects', { type: 'imageannotation', name, ...extra });
  expectStatus(res, 200);
  return res.body;
}

contract('POST /v1/projects answers the project; GET /v1/projects/{name} reads it back', async (ctx) => {
  const project = await newProject(ctx);
  await ctx.rule('the answer is the project with its type and param_history', () => {
    expectEqual(project.type, 'imageannotation', 'type');
    expectTrue(Array.isArray(project.param_history), 'param_history is an array');
  });
  await ctx.rule('GET /v1/projects/{name} reads the project back', async () => {
    const read = await ctx.api.get(`/v1/projects/${encodeURIComponent(project.name)}`);
    expectStatus(read, 200);
    expectEqual(read.body.name, project.name, 'name read back');
  });
});

contract('GET /v1/projects/{name} of an unknown project answers 404', async (ctx) => {
  expectErrorBody(await ctx.api.get(`/v1/projects/${ctx.unique('absent')}`), 404);
});

contract('GET /v1/projects answers a bare array that includes a new project', async (ctx) => {
  const project = await newProject(ctx);
  // Polled up to --wait: a real service's lists may lag behind its writes.
  await eventually(async () => {
    const res = await ctx.api.get('/v1/projects');
    expectStatus(res, 200);
    expectTrue(Array.isArray(res.body), 'the list is a bare array');
    expectTrue(
      res.body.some((p: { name: string }) => p.name === project.name),
      'the new project is listed',
    );
  });
});

contract('POST /v1/projects with a used name answers 409', async (ctx) => {
  const project = await newProject(ctx);
  expectErrorBody(await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project.name }), 409);
});

contract('POST /v1/projects with an unknown type or invalid params answers 400 naming the field', async (ctx) => {
  await ctx.rule('an unknown type answers 400 naming type', async () =>
    expectErrorBody(await ctx.api.post('/v1/projects', { type: 'nosuchtype', name: ctx.unique('p') }), 400, 'type'),
  );
  await ctx.rule('invalid params answer 400 naming the field', async () =>
    expectErrorBody(
      await ctx.api.post('/v1/projects', { type: 'imageannotation', name: ctx.unique('p'), params: { priority: 7 } }),
      400,
      'priority',
    ),
  );
});

contract(
  'POST /v1/projects/{name}/setParams appends versions 0, 1, 2; ' +
    'patch keeps unmentioned fields and replaces mentioned ones whole',
  async (ctx) => {
    const project = await newProject(ctx);
    const path = `/v1/projects/${encodeURIComponent(project.name)}/setParams`;
    const setParams = async (body: Record<string, unknown>) => {
      const res = await ctx.api.post(path, body);
      expectStatus(res, 200);
      expectTrue(Array.isArray(res.body?.param_history), `${res.request}: expected param_history, got ${res.text}`);
      return res.body;
    };
    await setParams({ instruction: 'v0', geometries: GEOMETRIES, padding: 1 });
    const v1 = await setParams({ instruction: 'v1', geometries: GEOMETRIES });
    await ctx.rule('setParams without patch replaces the parameters', () =>
      expectEqual(v1.param_history.at(-1)?.padding, undefined, 'padding of version 1 (no patch: replaced)'),
    );
    const last = await setParams({ patch: true, padding: 3 });
    const history = last.param_history;
    await ctx.rule('each setParams appends a param_history entry, versions counting from 0', () =>
      expectEqual(
        history.map((e: { version: number }) => e.version),
        [0, 1, 2],
        'versions',
      ),
    );
    await ctx.rule('patch keeps the fields it does not mention', () => {
      expectEqual(history[2]?.instruction, 'v1', 'instruction kept by patch');
      expectEqual(history[2]?.geometries, GEOMETRIES, 'geometries kept by patch');
    });
    await ctx.rule('patch sets the fields it mentions', () =>
      expectEqual(history[2]?.padding, 3, 'padding of version 2'),
    );
    await ctx.rule('setParams answers the extended project object', () =>
      expectEqual(last.type ?? last.projectType, 'imageannotation', 'project type (type or projectType)'),
    );
    const polygonOnly = { polygon: { objects_to_annotate: ['pedestrian'] } };
    const whole = await setParams({ patch: true, geometries: polygonOnly });
    await ctx.rule('patch replaces an object field whole (objects are not merged)', () =>
      expectEqual(whole.param_history.at(-1)?.geometries, polygonOnly, 'geometries of version 3'),
    );
  },
);

contract(
  'tasks created with project inherit the latest version, an older one, or none with project_version -1',
  async (ctx) => {
    const project = await newProject(ctx);
    const path = `/v1/projects/${encodeURIComponent(project.name)}/setParams`;
    for (const padding of [0, 1, 2])
      expectStatus(
        await ctx.api.post(path, { instruction: `rules v${padding}`, geometries: GEOMETRIES, padding }),
        200,
      );

    const latest = await createTaskRequest(ctx.api, {
      project: project.name,
      geometries: undefined,
      instruction: 'Task first.',
    });
    await ctx.rule('a task inherits the latest version', () => {
      expectStatus(latest, 200);
      expectEqual(latest.body.project_param_version, 2, 'project_param_version of a task on the latest version');
      expectEqual(latest.body.params?.padding, 2, 'padding inherited from version 2');
    });
    await ctx.rule('the task instruction comes first, then the project instruction', () =>
      expectMatch(latest.body?.instruction, /^Task first\.[\s\S]*rules v2$/, 'instruction: task first, then project'),
    );

    const own = await createTaskRequest(ctx.api, { project: project.name, geometries: undefined, padding: 7 });
    await ctx.rule("a task's own parameter wins over the project's", () => {
      expectStatus(own, 200);
      expectEqual(own.body.params?.padding, 7, 'padding given by the task (the project says 2)');
    });

    const older = await createTaskRequest(ctx.api, {
      project: project.name,
      geometries: undefined,
      project_version: 0,
    });
    await ctx.rule('project_version picks an older version', () => {
      expectStatus(older, 200);
      expectEqual(older.body.project_param_version, 0, 'project_param_version of a task on version 0');
      expectEqual(older.body.params?.padding, 0, 'padding inherited from version 0');
    });

    const none = await createTaskRequest(ctx.api, { project: project.name, project_version: -1 });
    await ctx.rule('project_version -1 inherits no project parameters', () => {
      expectStatus(none, 200);
      expectEqual(none.body.project_param_version, null, 'project_param_version with project_version -1');
      expectEqual(none.body.params?.padding, undefined, 'padding with project_version -1');
    });
  },
);

contract('POST /v1/task/imageannotation with an unknown project answers 404', async (ctx) => {
  expectErrorBody(await createTaskRequest(ctx.api, { project: ctx.unique('absent') }), 404);
});

contract('POST /v1/task/imageannotation with an unknown project_version answers 400 naming it', async (ctx) => {
  const project = await newProject(ctx, { params: { geometries: GEOMETRIES } });
  expectErrorBody(
    await createTaskRequest(ctx.api, { project: project.name, project_version: 9 }),
    400,
    'project_version',
  );
});

contract('POST /v1/projects/{name}/setOntology keeps versions and refuses repeated choices', async (ctx) => {
  const project = await newProject(ctx);
  const path = `/v1/projects/${encodeURIComponent(project.name)}/setOntology`;
  await ctx.rule('a valid ontology is taken', async () =>
    expectStatus(
      await ctx.api.post(path, { name: 'v1', ontology: ['car', { choice: 'vehicle', subchoices: ['bus'] }] }),
      200,
    ),
  );
  await ctx.rule('a choice repeated in a subchoice answers 400 naming ontology', async () =>
    expectErrorBody(
      await ctx.api.post(path, { name: 'v2', ontology: ['bus', { choice: 'vehicle', subchoices: ['bus'] }] }),
      400,
      'ontology',
    ),
  );
});
