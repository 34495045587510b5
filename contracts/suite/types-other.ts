import { randomBytes } from 'node:crypto';
import {
  asArray,
  asObject,
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectOneOf,
  expectStatus,
  expectTrue,
  present,
} from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { type Body, createOf, expectParamsEcho } from '../kit/typed-tasks.js';

/**
 * The task types the official clients name without specified parameters: each is accepted with its
 * known required parameters (a missing one is a 400 naming it) and keeps the others as given.
 */

const image = () => `https://example.com/contracts/${randomBytes(6).toString('hex')}.jpg`;
const objects = () => ({ attachment: image(), objects_to_annotate: ['car', 'truck'] });
const fields = () => ({ attachment: image(), fields: { total: 'Total amount', merchant: 'Store name' } });

/** A valid body per type: the required parameters plus one parameter of the type's own. */
const BODIES: Record<string, () => Body> = {
  categorization: () => ({ attachment: image(), categories: ['indoor', 'outdoor'], allow_multiple: false }),
  annotation: () => ({ ...objects(), with_labels: true }),
  polygonannotation: () => ({ ...objects(), with_labels: true }),
  lineannotation: () => ({ ...objects(), with_labels: true }),
  pointannotation: () => ({ ...objects(), with_labels: true }),
  cuboidannotation: () => ({ ...objects(), with_labels: true }),
  documenttranscription: () => ({ attachment: image(), features: [{ type: 'text', label: 'total' }] }),
  transcription: () => ({ ...fields(), attachment_type: 'image' }),
  datacollection: () => ({ ...fields(), attachment_type: 'website' }),
  comparison: () => ({ attachments: [[image(), image()]], choices: ['left', 'right'] }),
  documentmodel: () => ({ attachment: image() }),
  laneannotation: () => ({ attachment: image() }),
  videoboxannotation: () => ({ attachments: [image(), image()] }),
  videocuboidannotation: () => ({ attachments: [image(), image()] }),
  sensorfusion: () => ({ attachments: [image()] }),
  chat: () => ({ turns: 3 }),
  chatexperimental: () => ({ turns: 1 }),
  chatlite: () => ({ topic: 'cooking' }),
  multichat: () => ({ models: ['a', 'b'] }),
  multistage: () => ({ stages: [{ type: 'transcription' }] }),
};

/** A fresh body of `type`; a type missing from BODIES (a slip in the tables here) fails the contract. */
function bodyOf(type: string): Body {
  return present(BODIES[type], `BODIES.${type}`)();
}

const REQUIRED: Record<string, string[]> = {
  categorization: ['attachment', 'categories'],
  annotation: ['attachment', 'objects_to_annotate'],
  cuboidannotation: ['objects_to_annotate'],
  documenttranscription: ['features'],
  transcription: ['fields'],
  datacollection: ['attachment', 'fields'],
};

const created = (ctx: ContractContext, type: string, body: Body) =>
  createOf(ctx, type, { instruction: `A ${type} task.`, ...body });

for (const [type, body] of Object.entries(BODIES)) {
  contract(`POST /v1/task/${type} accepts its required parameters and stores the others as given`, async (ctx) => {
    const sent = body();
    const task = await created(ctx, type, sent);
    await expectParamsEcho(ctx, task, sent, Object.keys(sent));
  });
}

for (const [type, names] of Object.entries(REQUIRED)) {
  for (const name of names) {
    contract(`POST /v1/task/${type} without ${name} answers 400 naming it`, async (ctx) => {
      const { [name]: _, ...rest } = bodyOf(type);
      expectErrorBody(await ctx.api.post(`/v1/task/${type}`, rest), 400, name);
    });
  }
}

contract('POST /v1/task/chat still checks the common parameters (priority 15 answers 400)', async (ctx) => {
  expectErrorBody(await ctx.api.post('/v1/task/chat', { ...bodyOf('chat'), priority: 15 }), 400, 'priority');
});

/** Completes through the control plane; skipped on a target without one. */
async function completed(ctx: ContractContext, type: string): Promise<Record<string, unknown>> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await created(ctx, type, bodyOf(type));
  const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`);
  expectStatus(res, 200);
  expectEqual(res.body.status, 'completed', 'status');
  return asObject(res.body.response, 'response');
}

contract('POST /_mock/tasks/{id}/complete gives a categorization task one of its categories', async (ctx) => {
  const response = await completed(ctx, 'categorization');
  expectOneOf(response.category, ['indoor', 'outdoor'], 'response.category');
});

for (const type of ['annotation', 'polygonannotation', 'lineannotation', 'pointannotation', 'cuboidannotation']) {
  contract(
    `POST /_mock/tasks/{id}/complete gives a ${type} task annotations labeled from objects_to_annotate`,
    async (ctx) => {
      const annotations = asArray((await completed(ctx, type)).annotations, 'response.annotations');
      expectTrue(annotations.length > 0, 'response.annotations: expected a non-empty array');
      for (const [i, a] of annotations.entries())
        expectOneOf(
          asObject(a, `response.annotations[${i}]`).label,
          ['car', 'truck'],
          `response.annotations[${i}].label`,
        );
    },
  );
}

for (const type of ['transcription', 'datacollection']) {
  contract(`POST /_mock/tasks/{id}/complete gives a ${type} task an answer per field`, async (ctx) => {
    const response = await completed(ctx, type);
    expectEqual(Object.keys(response.fields ?? {}).sort(), ['merchant', 'total'], 'response.fields keys');
  });
}

contract(
  'POST /_mock/tasks/{id}/complete refuses a categorization response with a category the task lacks',
  async (ctx) => {
    await ctx.needControlPlane();
    await holdTasksPending(ctx);
    const task = await created(ctx, 'categorization', bodyOf('categorization'));
    expectErrorBody(
      await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`, { response: { category: 'underwater' } }),
      400,
      'underwater',
    );
  },
);
