import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
  expectType,
  fail,
  show,
} from '../kit/contract.js';
import { createTask, createTaskRequest, ISO_MS } from '../kit/tasks.js';

/** Projects: creation, reads, versioned parameters and what tasks inherit from them. */

const GEOMETRIES = { box: { objects_to_annotate: ['car'] } };

async function newProject(ctx: ContractContext, extra: Record<string, unknown> = {}) {
  const name = ctx.unique('project');
  const res = await ctx.api.post('/v1/projects', { type: 'imageannotation', name, ...extra });
  expectStatus(res, 200);
  // The document's other answer, a list of projects, is for a list of projects sent.
  if (Array.isArray(res.body)) fail(`${res.request}: expected one project, got ${show(res.body)}`);
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

const ATTRIBUTES = {
  occluded: { description: 'Is it occluded?', choices: ['yes', 'no'] },
  moving: { description: 'Is it moving?', choices: ['yes', 'no'] },
};
const LIGHTING = { lighting: { description: 'How is the light?', choices: ['day', 'night'] } };
/**
 * The object parameters whose shape the interface shows for imageannotation, each set with two keys in version 1
 * and patched with one other in version 3: a server that merges any of them shows a key version 3 did not give.
 */
const OBJECT_FIELDS = {
  annotation_attributes: [ATTRIBUTES, LIGHTING],
  geometries: [
    { box: { objects_to_annotate: ['car'] }, polygon: { objects_to_annotate: ['lane'] } },
    { point: { objects_to_annotate: ['pole'] } },
  ],
  image_metadata: [
    { date_time: '2026-01-01T10:00:00Z', location: { lat: 52.5, long: 13.4 } },
    { location: { lat: 1, long: 2 } },
  ],
} as const;

/**
 * Patch semantics are observed where every implementation shows them: in the parameters a new task
 * inherits from the latest version. How a param_history entry lays the parameters out is a
 * labelmock rule (the interface names only instruction, version and created_at in an entry).
 */
contract(
  'POST /v1/projects/{name}/setParams appends versions 0 to 3; ' +
    'new tasks show that patch keeps unmentioned fields and replaces mentioned ones whole',
  async (ctx) => {
    const project = await newProject(ctx);
    const path = `/v1/projects/${encodeURIComponent(project.name)}/setParams` as const;
    const setParams = async (body: Record<string, unknown>) => {
      const res = await ctx.api.post(path, body);
      expectStatus(res, 200);
      if (Array.isArray(res.body)) fail(`${res.request}: expected one project, got ${show(res.body)}`);
      expectTrue(Array.isArray(res.body.param_history), `${res.request}: expected param_history, got ${res.text}`);
      return res.body;
    };
    // The task brings its own geometries, so it is valid whatever the project's version holds.
    const taskParams = async (what: string, overrides: Record<string, unknown> = {}) => {
      const task = await createTask(ctx.api, { project: project.name, ...overrides });
      expectType(task.params, 'object', `params of a task on ${what}`);
      return { params: task.params, instruction: task.instruction };
    };
    await setParams({ instruction: 'v0', padding: 1, paddingY: 5 });
    const firsts = Object.fromEntries(Object.entries(OBJECT_FIELDS).map(([field, [first]]) => [field, first]));
    await setParams({ instruction: 'v1', padding: 2, ...firsts });
    const onV1 = await taskParams('version 1');
    await ctx.rule('setParams without patch replaces the parameters', () =>
      expectEqual([onV1.params.padding, onV1.params.paddingY], [2, undefined], '[padding, paddingY] of version 1'),
    );
    const v2 = await setParams({ patch: true, paddingX: 3 });
    const onV2 = await taskParams('version 2 (a patch)');
    await ctx.rule('patch keeps the fields it does not mention', () => {
      expectEqual(onV2.params.padding, 2, 'padding kept by the patch');
      expectEqual(onV2.params.annotation_attributes, ATTRIBUTES, 'annotation_attributes kept by the patch');
      expectMatch(onV2.instruction, /v1$/, "instruction kept by the patch (after the task's own)");
    });
    await ctx.rule('patch sets the fields it mentions', () => expectEqual(onV2.params.paddingX, 3, 'paddingX'));
    await ctx.rule('setParams answers the extended project object', () =>
      expectEqual(v2.type ?? v2.projectType, 'imageannotation', 'project type (type or projectType)'),
    );
    const seconds = Object.fromEntries(Object.entries(OBJECT_FIELDS).map(([field, [, second]]) => [field, second]));
    const v3 = await setParams({ patch: true, ...seconds });
    // Without geometries of its own, the task shows the project's.
    const onV3 = await taskParams('version 3 (a patch of objects)', { geometries: undefined });
    for (const [field, second] of Object.entries(seconds)) {
      await ctx.rule(`patch replaces the object field ${field} whole (objects are not merged)`, () =>
        expectEqual(onV3.params[field], second, `${field} of version 3`),
      );
    }
    const history = v3.param_history;
    await ctx.rule('each setParams appends a param_history entry, versions counting from 0', () => {
      expectEqual(
        history.map((e: { version: number }) => e.version),
        [0, 1, 2, 3],
        'versions',
      );
      expectEqual(history[1]?.instruction, 'v1', 'instruction of version 1');
      expectMatch(history[3]?.created_at, ISO_MS, 'created_at of version 3');
    });
    await ctx.rule(
      "each param_history entry holds its version's parameters beside instruction",
      () => expectEqual([history[2]?.padding, history[2]?.paddingX], [2, 3], '[padding, paddingX] of entry 2'),
      'labelmock',
    );
  },
);

contract(
  'tasks created with project inherit the latest version, an older one, or none with project_version -1',
  async (ctx) => {
    const project = await newProject(ctx);
    const path = `/v1/projects/${encodeURIComponent(project.name)}/setParams` as const;
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
