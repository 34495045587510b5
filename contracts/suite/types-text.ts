import { randomBytes } from 'node:crypto';
import {
  asObject,
  contract,
  expectEqual,
  expectErrorBody,
  expectOneOf,
  expectTrue,
  expectType,
} from '../kit/contract.js';
import { type Body, completedOf, createOf, expectParamsEcho, pendingOf } from '../kit/typed-tasks.js';

/** textcollection and namedentityrecognition: creation rules, stored params and response shapes. */

const fresh = (path: string) => `https://example.com/contracts/${randomBytes(6).toString('hex')}/${path}`;

const FIELDS = [
  {
    type: 'category',
    field_id: 'sentiment',
    title: 'Sentiment',
    required: true,
    choices: [
      { label: 'Positive', value: 'pos' },
      { label: 'Negative', value: 'neg', subchoices: [{ label: 'Price', value: 'neg_price' }] },
    ],
  },
  { type: 'text', field_id: 'summary', title: 'Summary', required: true, max_characters: 200 },
  { type: 'number', field_id: 'stars', title: 'Stars', min: 1, max: 5, step: 1 },
  { type: 'datetime', field_id: 'bought', title: 'Bought', include: ['year', 'month'] },
  { type: 'time_range', field_id: 'span', title: 'Span', default_seconds: [0, 60], increment_seconds: 5 },
  {
    type: 'form',
    field_id: 'details',
    title: 'Details',
    fields: [{ type: 'boolean', field_id: 'verified', title: 'Verified', required: true }],
  },
];
const LEAF_VALUES = ['pos', 'neg_price'];

const textCollectionBody = (overrides: Body = {}): Body => ({
  instruction: 'Read the review and answer the questions.',
  attachments: [{ type: 'website', content: fresh('review.html') }],
  fields: FIELDS,
  ...overrides,
});

const TEXT = 'Ada Lovelace met Charles Babbage in London.';
const RELATIONSHIPS = [
  { name: 'visited', display_name: 'Visited', is_directed: true, source_label: 'PERSON', target_label: 'PLACE' },
];

const nerBody = (overrides: Body = {}): Body => ({
  instruction: 'Label people and places.',
  text: TEXT,
  labels: [{ name: 'PERSON' }, { name: 'PLACE', children: [{ name: 'CITY' }, { name: 'COUNTRY' }] }],
  relationships: RELATIONSHIPS,
  allow_overlapping_annotations: false,
  ...overrides,
});

contract(
  'POST /v1/task/textcollection stores attachments and fields in params and shows them on the task',
  async (ctx) => {
    const body = textCollectionBody({ title: 'Review check', responses_required: 1 });
    const task = await createOf(ctx, 'textcollection', body);
    await expectParamsEcho(ctx, task, body, ['fields', 'attachments', 'title']);
    await ctx.rule('the task object shows fields and attachments', () => {
      expectEqual(task.fields, body.fields, 'fields on the task object');
      expectEqual(task.attachments, body.attachments, 'attachments on the task object');
    });
  },
);

contract('POST /v1/task/textcollection keeps only the allowed HTML tags of text attachments', async (ctx) => {
  const body = textCollectionBody({
    attachments: [{ type: 'text', content: 'Read <b>this</b><script>alert(1)</script> <div>now</div>' }],
  });
  const task = await createOf(ctx, 'textcollection', body);
  const content = task.params?.attachments?.[0]?.content;
  await ctx.rule('script and div tags are removed', () =>
    expectTrue(
      typeof content === 'string' && !/<script|<div/i.test(content),
      `params.attachments[0].content: expected script and div tags removed, got ${JSON.stringify(content)}`,
    ),
  );
  // The interface says which tags survive; that a script's text goes with its tag is labelmock's choice.
  await ctx.rule(
    "a script element's text is removed with it",
    () => expectTrue(!String(content).includes('alert(1)'), `expected no "alert(1)" in ${JSON.stringify(content)}`),
    'labelmock',
  );
  await ctx.rule("allowed tags and the removed tags' text are kept", () =>
    expectTrue(
      typeof content === 'string' && content.includes('<b>this</b>') && content.includes('now'),
      `params.attachments[0].content: expected <b> and the div's text kept, got ${JSON.stringify(content)}`,
    ),
  );
});

const withField = (index: number, patch: Body) =>
  textCollectionBody({ fields: FIELDS.map((f, i) => (i === index ? { ...f, ...patch } : f)) });

const rejections: [string, string, Body, string][] = [
  ['textcollection', 'without fields', textCollectionBody({ fields: undefined }), 'fields'],
  ['textcollection', 'without attachments', textCollectionBody({ attachments: undefined }), 'attachments'],
  ['textcollection', 'with a repeated field_id', withField(2, { field_id: 'summary' }), 'field_id'],
  [
    'textcollection',
    'with max_responses_required 101',
    withField(1, { max_responses_required: 101 }),
    'max_responses_required',
  ],
  [
    'textcollection',
    'with default_seconds above 86400',
    withField(4, { default_seconds: [0, 90000] }),
    'default_seconds',
  ],
  ['textcollection', 'with increment_seconds 0', withField(4, { increment_seconds: 0 }), 'increment_seconds'],
  ['textcollection', 'with an empty datetime include', withField(3, { include: [] }), 'include'],
  ['textcollection', 'with a category without choices', withField(0, { choices: undefined }), 'choices'],
  [
    'textcollection',
    'with a condition naming no field',
    // On the category field: conditions on other field types are undefined behaviour in the interface.
    withField(0, { conditions: [{ missing_field: ['x'] }] }),
    'missing_field',
  ],
  [
    'textcollection',
    'with an attachment of an unknown type',
    textCollectionBody({ attachments: [{ type: 'html', content: 'x' }] }),
    'type',
  ],
  ['namedentityrecognition', 'without text', nerBody({ text: undefined }), 'text'],
  ['namedentityrecognition', 'without labels', nerBody({ labels: undefined }), 'labels'],
  ['namedentityrecognition', 'without instruction', nerBody({ instruction: undefined }), 'instruction'],
  [
    'namedentityrecognition',
    'with a label name repeated by a child',
    nerBody({ labels: [{ name: 'CITY' }, { name: 'PLACE', children: [{ name: 'CITY' }] }] }),
    'name',
  ],
  [
    'namedentityrecognition',
    'with named and unnamed relationships mixed',
    nerBody({ relationships: [...RELATIONSHIPS, { source_label: 'PERSON', target_label: 'CITY' }] }),
    'name',
  ],
  [
    'namedentityrecognition',
    'with an unnamed relationship that has display_name',
    nerBody({ relationships: [{ display_name: 'x', source_label: 'PERSON', target_label: 'CITY' }] }),
    'display_name',
  ],
  [
    'namedentityrecognition',
    'with a relationship to an unknown label',
    nerBody({ relationships: [{ name: 'r', display_name: 'R', source_label: 'PERSON', target_label: 'ANIMAL' }] }),
    'target_label',
  ],
];
for (const [type, what, body, field] of rejections) {
  contract(`POST /v1/task/${type} ${what} answers 400 naming ${field}`, async (ctx) => {
    expectErrorBody(await ctx.api.post(`/v1/task/${type}`, body), 400, field);
  });
}

contract('POST /_mock/tasks/{id}/complete gives a textcollection task answers keyed by its field_ids', async (ctx) => {
  const done = await completedOf(ctx, 'textcollection', textCollectionBody());
  const answers = done.response.annotations;
  expectType(answers, 'object', 'response.annotations');
  await ctx.rule('answers are keyed by the fields of the task', () => {
    for (const key of Object.keys(answers))
      expectOneOf(
        key,
        FIELDS.map((f) => f.field_id),
        'an answered field_id',
      );
  });
  await ctx.rule('a category field answers one selectable leaf value', () => {
    expectTrue(
      Array.isArray(answers.sentiment) && answers.sentiment.length === 1,
      `response.annotations.sentiment: expected one selected value, got ${JSON.stringify(answers.sentiment)}`,
    );
    expectOneOf(answers.sentiment[0], LEAF_VALUES, 'response.annotations.sentiment[0] (a selectable leaf value)');
  });
  await ctx.rule('a text field answers a string', () =>
    expectType(answers.summary, 'string', 'response.annotations.summary'),
  );
  await ctx.rule('form answers nest under the form field', () =>
    expectType(
      asObject(answers.details, 'response.annotations.details').verified,
      'boolean',
      'response.annotations.details.verified (form answers nest)',
    ),
  );
});

contract(
  'POST /_mock/tasks/{id}/complete stores a fitting textcollection response and refuses an unknown field_id',
  async (ctx) => {
    const annotations = { sentiment: ['neg_price'], summary: 'Too expensive', details: { verified: true } };
    const done = await completedOf(ctx, 'textcollection', textCollectionBody(), { annotations });
    await ctx.rule('a fitting response is stored as given', () =>
      expectEqual(done.response.annotations, annotations, 'response.annotations'),
    );
    const task = await pendingOf(ctx, 'textcollection', textCollectionBody());
    await ctx.rule('an unknown field_id answers 400 naming it', async () => {
      const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`, {
        response: { annotations: { ...annotations, mood: 'x' } },
      });
      expectErrorBody(res, 400, 'mood');
    });
  },
);

contract('POST /v1/task/namedentityrecognition stores the text, labels and relationships in params', async (ctx) => {
  const body = nerBody({ merge_newlines: true });
  const task = await createOf(ctx, 'namedentityrecognition', body);
  await ctx.rule('the task keeps its instruction', () =>
    expectEqual(task.instruction, body.instruction, 'instruction'),
  );
  await expectParamsEcho(ctx, task, body, [
    'text',
    'labels',
    'relationships',
    'merge_newlines',
    'allow_overlapping_annotations',
  ]);
});

// The response rules of the interface's named entity objects, on the answers the control plane makes up.
contract('namedentityrecognition results quote text[start:end] of the task text with leaf labels', async (ctx) => {
  const done = await completedOf(ctx, 'namedentityrecognition', nerBody());
  const { annotations, relationships = [] } = done.response;
  expectTrue(Array.isArray(annotations), `response.annotations: expected an array, got ${JSON.stringify(annotations)}`);
  await ctx.rule('each span lies inside the text and quotes it', () => {
    for (const [i, a] of annotations.entries()) {
      expectTrue(
        Number.isInteger(a.start) && a.start >= 0 && a.start < a.end && a.end <= TEXT.length,
        `response.annotations[${i}]: span ${a.start}-${a.end} outside the text`,
      );
      expectEqual(a.text, TEXT.slice(a.start, a.end), `response.annotations[${i}].text`);
    }
  });
  await ctx.rule('each span has a leaf label', () => {
    for (const [i, a] of annotations.entries())
      expectOneOf(a.label, ['PERSON', 'CITY', 'COUNTRY'], `response.annotations[${i}].label (a leaf label)`);
  });
  await ctx.rule("relationships join annotation ids with the task's relationship names", () => {
    const ids = new Set<string>(annotations.map((a: { id: string }) => a.id));
    for (const [i, r] of relationships.entries()) {
      expectTrue(
        ids.has(r.source_ref) && ids.has(r.target_ref),
        `response.relationships[${i}]: refs must name annotation ids, got ${JSON.stringify(r)}`,
      );
      expectEqual(r.name, 'visited', `response.relationships[${i}].name`);
    }
  });
});

contract(
  'POST /_mock/tasks/{id}/complete refuses a namedentityrecognition span whose text does not match',
  async (ctx) => {
    const task = await pendingOf(ctx, 'namedentityrecognition', nerBody());
    const response = { annotations: [{ id: 'a1', start: 0, end: 3, text: 'Bob', label: 'PERSON' }], relationships: [] };
    await ctx.rule('a span whose text does not match answers 400 naming text', async () =>
      expectErrorBody(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`, { response }), 400, 'text'),
    );
    const ok = {
      annotations: [{ id: 'a1', start: 0, end: 12, text: 'Ada Lovelace', label: 'PERSON' }],
      relationships: [],
    };
    await ctx.rule('a matching span is stored as given', async () =>
      expectEqual(
        (await completedOf(ctx, 'namedentityrecognition', nerBody(), ok)).response.annotations,
        ok.annotations,
        'response.annotations',
      ),
    );
  },
);
