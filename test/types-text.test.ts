import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../src/domain/tasks/html-sanitizer.js';
import { fixture } from '../src/fixtures.js';
import { makeApp, STRICT, type TestApp } from './helpers.js';
import { expectResponseFits } from './type-fits.js';

/** A deep copy of a type's creation fixture, changed by `change` (which may mutate it freely). */
function request(type: string, change: (body: any) => void = () => {}): any {
  const body = fixture<any>(`tasks/${type}.create.json`);
  change(body);
  return body;
}

async function create(t: TestApp, type: string, body: Record<string, unknown>) {
  const res = await t.call('POST', `/v1/task/${type}`, { body });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Completes through the control plane; a synthesized response must fit the type's shape and the task. */
async function completeSynthesized(t: TestApp, task: any) {
  const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
  expect(res.status).toBe(200);
  expectResponseFits(res.body);
  return res.body.response;
}

describe('sanitizeHtml (text attachments)', () => {
  const cases: [string, string, string][] = [
    ['keeps allowed tags', 'a <b>bold</b> <em>word</em>', 'a <b>bold</b> <em>word</em>'],
    ['removes other tags but keeps their text', '<div><p>one</p><blockquote>two</blockquote></div>', 'onetwo'],
    ['drops script content entirely', 'x<script>alert(1)</script>y', 'xy'],
    ['drops style content entirely', 'x<style>b{color:red}</style>y', 'xy'],
    ['drops an unclosed script to the end', 'x<script>alert(1) and more', 'x'],
    ['closes unclosed allowed tags', '<b>bold <i>both', '<b>bold <i>both</i></b>'],
    ['drops a stray close tag', 'a</b> c', 'a c'],
    ['closes inner tags when an outer one closes', '<b><i>x</b>y', '<b><i>x</i></b>y'],
    [
      'strips event handlers from allowed tags',
      '<span onclick="steal()" title="t">x</span>',
      '<span title="t">x</span>',
    ],
    ['strips javascript: URLs', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    [
      'strips javascript: URLs hidden by entities and whitespace',
      '<a href="jav&#x09;ascript&colon;alert(1)">x</a><a href=" JAVASCRIPT:x">y</a>',
      '<a>x</a><a>y</a>',
    ],
    [
      'keeps https links',
      '<a href="https://example.com/a?b=1&amp;c=2">x</a>',
      '<a href="https://example.com/a?b=1&amp;c=2">x</a>',
    ],
    [
      'strips onerror on images and keeps src',
      '<img src="https://x.test/a.png" onerror=alert(1)>',
      '<img src="https://x.test/a.png">',
    ],
    [
      'strips data URLs that are not images',
      '<iframe src="data:text/html,<script>x</script>"></iframe>',
      '<iframe></iframe>',
    ],
    [
      'strips srcdoc and style attributes',
      '<iframe srcdoc="<script>x</script>" style="x"></iframe>',
      '<iframe></iframe>',
    ],
    ['removes comments, also unclosed ones', 'a<!-- <script>x</script> -->b<!-- c', 'ab'],
    ['escapes a < that starts no tag', 'a < b and <scr<script>ipt>x</script>', 'a &lt; b and &lt;scr'],
    ['lowercases tag names and self-closes void tags', '<B>x</B><BR/><span/>', '<b>x</b><br><span></span>'],
    ['re-quotes attribute values', '<span title=\'say "hi"\'>x</span>', '<span title="say &quot;hi&quot;">x</span>'],
    ['keeps Markdown untouched', '# Title\n\n> quote\n\n* item', '# Title\n\n> quote\n\n* item'],
  ];
  for (const [what, input, output] of cases) {
    it(`sanitizeHtml ${what}`, () => expect(sanitizeHtml(input)).toBe(output));
  }

  it('sanitizeHtml answers adversarial input (a quadratic scan would outlast the test)', () => {
    expect(sanitizeHtml(`<a ${'x='.repeat(20_000)}`)).not.toContain('<a x');
    expect(sanitizeHtml(`<span${' a'.repeat(20_000)}`)).not.toContain('<span a');
    expect(sanitizeHtml('<'.repeat(50_000))).toBe('&lt;'.repeat(50_000));
  });
});

describe('POST /v1/task/textcollection', () => {
  it('POST /v1/task/textcollection stores attachments and fields in params and on the task', async () => {
    const t = makeApp();
    const body = request('textcollection');
    const res = await t.call('POST', '/v1/task/textcollection', { body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'textcollection', status: 'pending', instruction: body.instruction });
    expect(res.body.params.fields).toEqual(body.fields);
    expect(res.body.fields).toEqual(body.fields);
    expect(res.body.attachments).toEqual(res.body.params.attachments);
    expect(res.body.params).toMatchObject({
      title: 'Product review check',
      description: body.description,
      responses_required: 1,
      hypothesis: body.hypothesis,
    });
    expect(res.body.params).not.toHaveProperty('instruction');
  });

  it('POST /v1/task/textcollection sanitizes the HTML of text attachments only', async () => {
    const t = makeApp();
    const html = '<p>Hi <b onclick="x()">there</b></p><script>track()</script>';
    const body = request('textcollection', (b) => {
      b.attachments = [
        { type: 'text', content: html },
        { type: 'website', content: 'https://example.com/<b>' },
      ];
    });
    const res = await t.call('POST', '/v1/task/textcollection', { body });
    expect(res.status).toBe(200);
    expect(res.body.params.attachments).toEqual([
      { type: 'text', content: 'Hi <b>there</b>' },
      { type: 'website', content: 'https://example.com/<b>' },
    ]);
  });

  it('POST /v1/task/textcollection accepts select choices, condition negation and top-level field sets', async () => {
    const t = makeApp();
    const body = request('textcollection', (b) => {
      b.fields[7] = {
        type: 'select',
        field_id: 'main_keyword',
        title: 'Pick',
        choices: [
          { label: 'One', value: 1 },
          { label: 'Yes', value: true },
        ],
      };
      b.fields[1].conditions = [{ sentiment: ['positive', 'neutral'], not: { main_keyword: [1] } }];
      b.fields.push({ title: 'Extra', fields: [{ type: 'boolean', field_id: 'extra_flag', title: 'Flag' }] });
    });
    const res = await t.call('POST', '/v1/task/textcollection', { body });
    expect(res.status).toBe(200);
    expect(res.body.params.fields).toEqual(body.fields);
  });

  const form = 9;
  const rejections: [string, (b: any) => void, RegExp][] = [
    ['missing attachments', (b) => delete b.attachments, /"attachments" is required/],
    ['missing fields', (b) => delete b.fields, /"fields" is required/],
    ['an empty fields array', (b) => (b.fields = []), /"fields" must have at least 1 item/],
    [
      'an unknown attachment type',
      (b) => (b.attachments[0].type = 'html'),
      /"attachments\[0\].type" must be one of "pdf", "image", "text", "video", "website", "audio"/,
    ],
    ['an attachment without content', (b) => delete b.attachments[0].content, /"attachments\[0\].content" is required/],
    [
      'attachment forms naming a field that is not a form',
      (b) => (b.attachments[2].forms = ['sentiment']),
      /"attachments\[2\].forms\[0\]" names "sentiment", which is not the field_id of a form field/,
    ],
    [
      'an unknown field type',
      (b) => (b.fields[1].type = 'slider'),
      /"fields\[1\].type" must be one of "text", "boolean"/,
    ],
    ['a field without type', (b) => delete b.fields[1].type, /"fields\[1\].type" must be one of/],
    ['a field without field_id', (b) => delete b.fields[1].field_id, /"fields\[1\].field_id" is required/],
    ['an empty field_id', (b) => (b.fields[1].field_id = ' '), /"fields\[1\].field_id" must be a non-empty field_id/],
    ['a field without title', (b) => delete b.fields[2].title, /"fields\[2\].title" is required/],
    [
      'a setting of another field type',
      (b) => (b.fields[3].choices = []),
      /"fields\[3\].choices" is not an allowed parameter/,
    ],
    [
      'a repeated field_id',
      (b) => (b.fields[2].field_id = 'sentiment'),
      /"fields\[2\].field_id" must be unique across all fields.*also used at fields\[0\]/,
    ],
    [
      'a nested field_id repeating a top-level one',
      (b) => (b.fields[form].fields[1].fields[0].field_id = 'stars'),
      /"fields\[9\].fields\[1\].fields\[0\].field_id" must be unique/,
    ],
    [
      'min_responses_required 0',
      (b) => (b.fields[4].min_responses_required = 0),
      /"fields\[4\].min_responses_required" must be greater than 0/,
    ],
    [
      'max_responses_required 101',
      (b) => (b.fields[4].max_responses_required = 101),
      /"fields\[4\].max_responses_required" must be at most 100/,
    ],
    [
      'max_responses_required below min',
      (b) => Object.assign(b.fields[4], { min_responses_required: 4, max_responses_required: 3 }),
      /"fields\[4\].max_responses_required" must be at least min_responses_required \(4\)/,
    ],
    [
      'min_responses_required above the default max',
      (b) => (b.fields[3].min_responses_required = 2),
      /"fields\[3\].max_responses_required" must be at least min_responses_required \(2\); it defaults to 1/,
    ],
    [
      'a fractional min_responses_required',
      (b) => (b.fields[4].min_responses_required = 1.5),
      /"fields\[4\].min_responses_required" must be an integer/,
    ],
    ['a datetime without include', (b) => delete b.fields[5].include, /"fields\[5\].include" is required/],
    ['an empty datetime include', (b) => (b.fields[5].include = []), /"fields\[5\].include" must have at least 1 item/],
    [
      'a datetime part that does not exist',
      (b) => (b.fields[5].include = ['second']),
      /"fields\[5\].include\[0\]" must be one of "year", "month", "day", "hour", "minute"/,
    ],
    [
      'a repeated datetime part',
      (b) => (b.fields[5].include = ['day', 'day']),
      /"fields\[5\].include" must not repeat parts \(repeated: day\)/,
    ],
    [
      'a datetime default out of range',
      (b) => (b.fields[5].defaults = { month: 13 }),
      /"fields\[5\].defaults.month" must be at most 12/,
    ],
    ['a category without choices', (b) => delete b.fields[0].choices, /"fields\[0\].choices" is required/],
    [
      'a choice without label',
      (b) => delete b.fields[0].choices[0].label,
      /"fields\[0\].choices\[0\].label" is required/,
    ],
    [
      'a subchoice without label',
      (b) => delete b.fields[0].choices[1].subchoices[0].label,
      /"fields\[0\].choices\[1\].subchoices\[0\].label" is required/,
    ],
    [
      'a choice value that is an object',
      (b) => (b.fields[0].choices[0].value = { a: 1 }),
      /"fields\[0\].choices\[0\].value"/,
    ],
    [
      'repeated selectable values',
      (b) => (b.fields[0].choices[2].value = 'positive'),
      /"fields\[0\].choices" must not repeat selectable values \(repeated: positive\)/,
    ],
    [
      'max_choices below min_choices',
      (b) => Object.assign(b.fields[0], { min_choices: 2 }),
      /"fields\[0\].max_choices" must be at least min_choices \(2\)/,
    ],
    [
      'min_choices above the selectable choices',
      (b) => Object.assign(b.fields[0], { min_choices: 5, max_choices: 5 }),
      /"fields\[0\].min_choices" must be at most the number of selectable choices \(4\)/,
    ],
    [
      'a time_range without default_seconds',
      (b) => delete b.fields[6].default_seconds,
      /"fields\[6\].default_seconds" is required/,
    ],
    [
      'default_seconds of 3 values',
      (b) => (b.fields[6].default_seconds = [0, 1, 2]),
      /"fields\[6\].default_seconds" must have at most 2 item/,
    ],
    [
      'default_seconds above 86400',
      (b) => (b.fields[6].default_seconds = [0, 86401]),
      /"fields\[6\].default_seconds\[1\]" must be at most 86400/,
    ],
    [
      'negative default_seconds',
      (b) => (b.fields[6].default_seconds = [-1, 5]),
      /"fields\[6\].default_seconds\[0\]" must be at least 0/,
    ],
    [
      'fractional default_seconds',
      (b) => (b.fields[6].default_seconds = [0.5, 5]),
      /"fields\[6\].default_seconds\[0\]" must be an integer/,
    ],
    [
      'default_seconds out of order',
      (b) => (b.fields[6].default_seconds = [50, 5]),
      /"fields\[6\].default_seconds" must be in order/,
    ],
    [
      'increment_seconds 0',
      (b) => (b.fields[6].increment_seconds = 0),
      /"fields\[6\].increment_seconds" must be at least 1/,
    ],
    [
      'increment_seconds 3601',
      (b) => (b.fields[6].increment_seconds = 3601),
      /"fields\[6\].increment_seconds" must be at most 3600/,
    ],
    [
      'default_from_field naming no field',
      (b) => (b.fields[6].default_from_field = 'nope'),
      /"fields\[6\].default_from_field" names field "nope", which is not a field_id of the task/,
    ],
    [
      'a select without choices or choices_from_field',
      (b) => delete b.fields[7].choices_from_field,
      /"fields\[7\].choices" is required unless choices_from_field is given/,
    ],
    [
      'choices_from_field naming no field',
      (b) => (b.fields[7].choices_from_field = 'nope'),
      /"fields\[7\].choices_from_field" names field "nope"/,
    ],
    [
      'choices_from_field naming the field itself',
      (b) => (b.fields[7].choices_from_field = 'main_keyword'),
      /"fields\[7\].choices_from_field" must name another field/,
    ],
    [
      'num_items_to_rank above the attachments',
      (b) => (b.fields[8].num_items_to_rank = 4),
      /"fields\[8\].num_items_to_rank" must be at most the number of attachments \(3\)/,
    ],
    [
      'a condition naming no field',
      (b) => (b.fields[1].conditions = [{ nope: ['x'] }]),
      /"fields\[1\].conditions\[0\].nope" names field "nope"/,
    ],
    [
      'a condition value the field does not offer',
      (b) => (b.fields[1].conditions = [{ sentiment: ['negative'] }]),
      /"fields\[1\].conditions\[0\].sentiment" uses value\(s\) "negative" that field "sentiment" does not offer/,
    ],
    [
      'a negated condition naming no field',
      (b) => (b.fields[1].conditions = [{ not: { nope: [true] } }]),
      /"fields\[1\].conditions\[0\].not.nope" names field "nope"/,
    ],
    [
      'a condition that is not an array of values',
      (b) => (b.fields[1].conditions = [{ sentiment: 'positive' }]),
      /"fields\[1\].conditions\[0\].sentiment" must be an array/,
    ],
    ['a form without fields', (b) => delete b.fields[form].fields, /"fields\[9\].fields" is required/],
    [
      'a field set in a form that is not inline',
      (b) => (b.fields[form].fields[1].inline = false),
      /"fields\[9\].fields\[1\].inline" must be true for a field set inside a form/,
    ],
    [
      'a field set without fields',
      (b) => delete b.fields[form].fields[1].fields,
      /"fields\[9\].fields\[1\].fields" is required/,
    ],
    [
      'text max_tokens below min_tokens',
      (b) => Object.assign(b.fields[3], { min_tokens: 5, max_tokens: 4 }),
      /"fields\[3\].max_tokens" must be at least min_tokens \(5\)/,
    ],
    [
      'text max_characters too small for min_tokens',
      (b) => Object.assign(b.fields[3], { min_tokens: 5, max_characters: 8 }),
      /"fields\[3\].max_characters" must leave room for min_tokens/,
    ],
    [
      'number max below min',
      (b) => Object.assign(b.fields[2], { min: 5, max: 1 }),
      /"fields\[2\].max" must be at least min \(5\)/,
    ],
    ['a number step of 0', (b) => (b.fields[2].step = 0), /"fields\[2\].step" must be greater than 0/],
    [
      'a hypothesis for no field',
      (b) => (b.hypothesis.annotations.nope = { type: 'text', field_id: 'nope', response: ['x'] }),
      /"hypothesis.annotations.nope" is not a field_id of the task/,
    ],
    [
      'a hypothesis whose field_id differs from its key',
      (b) => (b.hypothesis.annotations.summary.field_id = 'stars'),
      /"hypothesis.annotations.summary.field_id" must equal its key/,
    ],
    [
      'a hypothesis of the wrong type',
      (b) => (b.hypothesis.annotations.summary.type = 'category'),
      /"hypothesis.annotations.summary.type" must be the field's type \("text"\)/,
    ],
    [
      'a category hypothesis that is not arrays of strings',
      (b) => (b.hypothesis.annotations.sentiment.response = ['positive']),
      /"hypothesis.annotations.sentiment.response" must be an array of arrays of strings/,
    ],
    [
      'a category hypothesis with an unknown value',
      (b) => (b.hypothesis.annotations.sentiment.response = [['great']]),
      /has value\(s\) "great" that are not selectable choices/,
    ],
    [
      'a text hypothesis of two strings',
      (b) => (b.hypothesis.annotations.summary.response = ['a', 'b']),
      /"hypothesis.annotations.summary.response" must be an array of one string/,
    ],
    [
      'a hypothesis without response',
      (b) => delete b.hypothesis.annotations.summary.response,
      /"hypothesis.annotations.summary.response" is required/,
    ],
    ['responses_required 0', (b) => (b.responses_required = 0), /"responses_required" must be greater than 0/],
    ['an unknown parameter', (b) => (b.questions = []), /"questions" is not an allowed parameter/],
    ['priority 15 (common parameters still apply)', (b) => (b.priority = 15), /"priority" must be 10, 20 or 30/],
  ];
  for (const [what, change, message] of rejections) {
    it(`POST /v1/task/textcollection rejects ${what} with 400`, async () => {
      const t = makeApp(STRICT);
      const res = await t.call('POST', '/v1/task/textcollection', { body: request('textcollection', change) });
      expect(res.status).toBe(400);
      expect(res.body.status_code).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }
});

/** A full valid answer set for the textcollection fixture, with the defect form shown. */
const validAnswers = () => ({
  sentiment: ['negative_quality'],
  mentions_speed: true,
  stars: 2,
  summary: 'Fast but the lid is cheap',
  keywords: ['lid', 'speed'],
  purchased: { year: 2025, month: 3, day: 14 },
  video_span: [10, 95],
  main_keyword: ['lid'],
  helpfulness: [2, 0],
  defect_report: { defect_part: 'lid hinge', severity: ['Major'], safety_issue: false },
});

describe('POST /_mock/tasks/{id}/complete for textcollection', () => {
  it('POST /_mock/tasks/{id}/complete stores a given answer set that fits the fields', async () => {
    const t = makeApp();
    const task = await create(t, 'textcollection', request('textcollection'));
    const response = { annotations: validAnswers() };
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response } });
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(response);
  });

  it('POST /_mock/tasks/{id}/complete does not require fields hidden by their conditions', async () => {
    const t = makeApp();
    const task = await create(t, 'textcollection', request('textcollection'));
    const { defect_report: _, ...answers } = validAnswers();
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, {
      body: { response: { annotations: { ...answers, sentiment: ['positive'] } } },
    });
    expect(res.status).toBe(200);
  });

  const misfits: [string, (a: any) => void, RegExp][] = [
    ['an answer for no field', (a) => (a.nope = 'x'), /"response.annotations.nope" is not a field_id of the task/],
    ['a required field unanswered', (a) => delete a.summary, /"response.annotations.summary" is required/],
    [
      'a required form child unanswered while the form is shown',
      (a) => delete a.defect_report.defect_part,
      /"response.annotations.defect_report.defect_part" is required/,
    ],
    [
      'a parent choice (not selectable)',
      (a) => (a.sentiment = ['negative']),
      /"response.annotations.sentiment" has value\(s\) "negative" that are not selectable choices/,
    ],
    [
      'two choices where one is allowed',
      (a) => (a.sentiment = ['positive', 'neutral']),
      /"response.annotations.sentiment" must select 1 value\(s\) \(got 2\)/,
    ],
    [
      'a category answer that is not an array',
      (a) => (a.sentiment = 'positive'),
      /"response.annotations.sentiment" must be an array of selected values/,
    ],
    [
      'a boolean answer that is a string',
      (a) => (a.mentions_speed = 'yes'),
      /"response.annotations.mentions_speed" must be true or false/,
    ],
    ['a number above max', (a) => (a.stars = 6), /"response.annotations.stars" must be at most max \(5\)/],
    [
      'a text above max_characters',
      (a) => (a.summary = 'word '.repeat(41)),
      /"response.annotations.summary" must have at most 200 characters/,
    ],
    [
      'a text below min_tokens',
      (a) => (a.summary = 'too short'),
      /"response.annotations.summary" must have at least 3 words/,
    ],
    [
      'a single answer where several responses are asked for',
      (a) => (a.keywords = 'lid'),
      /"response.annotations.keywords" must be an array of 1 to 5 responses/,
    ],
    [
      'a response of the wrong shape inside a multi-response answer',
      (a) => (a.keywords = ['lid', 3]),
      /"response.annotations.keywords\[1\]" must be a string/,
    ],
    [
      'a datetime missing an included part',
      (a) => delete a.purchased.day,
      /"response.annotations.purchased.day" must be an integer from 1 to 31/,
    ],
    [
      'a datetime with a part not included',
      (a) => (a.purchased.hour = 3),
      /"response.annotations.purchased.hour" is not a part the field includes/,
    ],
    [
      'a time range out of order',
      (a) => (a.video_span = [90, 10]),
      /"response.annotations.video_span" must be in order/,
    ],
    [
      'a time range beyond a day',
      (a) => (a.video_span = [0, 90000]),
      /"response.annotations.video_span" must be \[start, end\]/,
    ],
    [
      'a select value the source field did not give',
      (a) => (a.main_keyword = ['price']),
      /"response.annotations.main_keyword" has value\(s\) "price"/,
    ],
    [
      'a ranking of an attachment that does not exist',
      (a) => (a.helpfulness = [0, 7]),
      /"response.annotations.helpfulness" must be an ordered array of attachment indices \(0 to 2\)/,
    ],
    ['a ranking of more than num_items_to_rank', (a) => (a.helpfulness = [0, 1, 2]), /must rank at most 2 item/],
    ['a ranking that repeats an attachment', (a) => (a.helpfulness = [1, 1]), /must not rank an attachment twice/],
    [
      'a form answer that is not an object',
      (a) => (a.defect_report = 'lid'),
      /"response.annotations.defect_report" must be an object keyed by field_id/,
    ],
    [
      'a field set child answered in the wrong place',
      (a) => (a.severity = ['Minor']),
      /"response.annotations.severity" is not a field_id of the task/,
    ],
  ];
  for (const [what, change, message] of misfits) {
    it(`POST /_mock/tasks/{id}/complete rejects a textcollection response with ${what}`, async () => {
      const t = makeApp();
      const task = await create(t, 'textcollection', request('textcollection'));
      const annotations: any = validAnswers();
      change(annotations);
      const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, {
        body: { response: { annotations } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    });
  }

  it('POST /_mock/tasks/{id}/complete rejects a textcollection response without annotations', async () => {
    const t = makeApp();
    const task = await create(t, 'textcollection', request('textcollection'));
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response: { answers: {} } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"response.annotations" is required/);
  });

  it('POST /_mock/tasks/{id}/complete synthesizes a fitting, deterministic textcollection response', async () => {
    const fresh = makeApp();
    const first = await completeSynthesized(fresh, await create(fresh, 'textcollection', request('textcollection')));
    const t = makeApp();
    const again = await completeSynthesized(t, await create(t, 'textcollection', request('textcollection')));
    expect(again).toEqual(first);
    const second = await completeSynthesized(t, await create(t, 'textcollection', request('textcollection')));
    expect(second).not.toEqual(first);
  });

  it('POST /_mock/tasks/{id}/complete synthesizes answers honouring each field setting', async () => {
    const t = makeApp();
    const attachments = [1, 2, 3, 4].map((i) => ({ type: 'image', content: `https://example.com/${i}.jpg` }));
    const fields = [
      {
        type: 'category',
        field_id: 'tags',
        title: 'Tags',
        min_choices: 2,
        max_choices: 3,
        choices: [
          { label: 'A', subchoices: [{ label: 'A1' }, { label: 'A2' }] },
          { label: 'B', value: 7 },
        ],
      },
      { type: 'number', field_id: 'n', title: 'N', min: 10, max: 10.5, step: 0.1 },
      { type: 'text', field_id: 'essay', title: 'Essay', min_tokens: 12, max_tokens: 12 },
      { type: 'text', field_id: 'names', title: 'Names', min_responses_required: 2, max_responses_required: 3 },
      { type: 'ranking_order', field_id: 'rank', title: 'Rank', num_items_to_rank: 2, required: true },
      { type: 'time_range', field_id: 'span', title: 'Span', default_seconds: [30, 60] },
      { type: 'datetime', field_id: 'when', title: 'When', include: ['hour', 'minute'] },
      { type: 'select', field_id: 'pick', title: 'Pick', choices_from_field: 'names' },
      {
        type: 'boolean',
        field_id: 'hidden',
        title: 'Hidden',
        required: true,
        conditions: [{ not: { tags: ['A1', 'A2', 7] } }],
      },
      { type: 'boolean', field_id: 'shown', title: 'Shown', required: true, conditions: [{ tags: ['A1', 'A2', 7] }] },
      {
        type: 'form',
        field_id: 'extra',
        title: 'Extra',
        fields: [{ inline: true, fields: [{ type: 'boolean', field_id: 'ok', title: 'OK', required: true }] }],
      },
    ];
    const task = await create(t, 'textcollection', { attachments, fields });
    const { annotations } = await completeSynthesized(t, task);
    expect(annotations.tags.length).toBeGreaterThanOrEqual(2);
    expect(annotations.tags.length).toBeLessThanOrEqual(3);
    for (const v of annotations.tags) expect(['A1', 'A2', 7]).toContain(v);
    expect(annotations.n).toBeGreaterThanOrEqual(10);
    expect(annotations.n).toBeLessThanOrEqual(10.5);
    expect(annotations.essay.split(' ')).toHaveLength(12);
    expect(annotations.names).toHaveLength(2);
    expect(annotations.rank).toHaveLength(2);
    expect(annotations.span).toEqual([30, 60]);
    expect(Object.keys(annotations.when).sort()).toEqual(['hour', 'minute']);
    expect(annotations.names).toContain(annotations.pick[0]);
    // Some tag is always selected: the negated condition never holds, the plain one always does.
    expect(annotations).not.toHaveProperty('hidden');
    expect(typeof annotations.shown).toBe('boolean');
    expect(typeof annotations.extra.ok).toBe('boolean');
  });
});

describe('POST /v1/task/namedentityrecognition', () => {
  it('POST /v1/task/namedentityrecognition stores text, labels and relationships in params', async () => {
    const t = makeApp();
    const body = request('namedentityrecognition');
    const res = await t.call('POST', '/v1/task/namedentityrecognition', { body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'namedentityrecognition',
      status: 'pending',
      instruction: body.instruction,
    });
    expect(res.body.params).toEqual({
      text: body.text,
      labels: body.labels,
      relationships: body.relationships,
      attachments: body.attachments,
      merge_newlines: false,
      allow_overlapping_annotations: false,
    });
  });

  it('POST /v1/task/namedentityrecognition accepts unnamed relationships and sanitizes text attachments', async () => {
    const t = makeApp();
    const body = request('namedentityrecognition', (b) => {
      b.relationships = [{ source_label: 'PERSON', target_label: 'SOCIETY' }];
      b.attachments = [{ type: 'text', content: 'see <a href="javascript:x()">this</a>' }];
    });
    const res = await t.call('POST', '/v1/task/namedentityrecognition', { body });
    expect(res.status).toBe(200);
    expect(res.body.params.relationships).toEqual(body.relationships);
    expect(res.body.params.attachments).toEqual([{ type: 'text', content: 'see <a>this</a>' }]);
  });

  const rejections: [string, (b: any) => void, RegExp][] = [
    ['a missing instruction', (b) => delete b.instruction, /"instruction" is required/],
    ['an empty instruction', (b) => (b.instruction = '  '), /"instruction" must be a non-empty instruction/],
    ['a missing text', (b) => delete b.text, /"text" is required/],
    ['an empty text', (b) => (b.text = ''), /"text" must be a non-empty text/],
    ['missing labels', (b) => delete b.labels, /"labels" is required/],
    ['an empty labels array', (b) => (b.labels = []), /"labels" must have at least 1 item/],
    ['a label without name', (b) => delete b.labels[0].name, /"labels\[0\].name" is required/],
    [
      'a label name repeated by a child',
      (b) => (b.labels[1].children[1].name = 'PERSON'),
      /"labels\[1\].children\[1\].name" must be unique across all labels/,
    ],
    ['an unknown label key', (b) => (b.labels[0].color = 'red'), /"labels\[0\].color" is not an allowed parameter/],
    [
      'an attribute that is not a select',
      (b) => (b.labels[2].attributes[0].type = 'text'),
      /"labels\[2\].attributes\[0\].type" must be "select"/,
    ],
    [
      'an attribute without options',
      (b) => delete b.labels[2].attributes[0].options,
      /"labels\[2\].attributes\[0\].options" is required/,
    ],
    [
      'an option without value',
      (b) => delete b.labels[2].attributes[0].options[0].value,
      /"labels\[2\].attributes\[0\].options\[0\].value" is required/,
    ],
    [
      'a repeated option value',
      (b) => (b.labels[2].attributes[0].options[1].value = 'city'),
      /"labels\[2\].attributes\[0\].options" must not repeat values/,
    ],
    [
      'named and unnamed relationships mixed',
      (b) => (b.relationships[1] = { source_label: 'PERSON', target_label: 'ORG' }),
      /"relationships\[1\].name" must be given for all relationships or for none/,
    ],
    [
      'a named relationship without display_name',
      (b) => delete b.relationships[0].display_name,
      /"relationships\[0\].display_name" is required for a named relationship/,
    ],
    [
      'an unnamed relationship with display_name',
      (b) => (b.relationships = [{ display_name: 'x', source_label: 'PERSON', target_label: 'ORG' }]),
      /"relationships\[0\].display_name" is not allowed for an unnamed relationship/,
    ],
    [
      'an unnamed relationship with is_directed',
      (b) => (b.relationships = [{ is_directed: true, source_label: 'PERSON', target_label: 'ORG' }]),
      /"relationships\[0\].is_directed" is not allowed for an unnamed relationship/,
    ],
    [
      'a repeated relationship name',
      (b) => (b.relationships[1].name = 'member_of'),
      /"relationships\[1\].name" must be unique/,
    ],
    [
      'a relationship from an unknown label',
      (b) => (b.relationships[0].source_label = 'ANIMAL'),
      /"relationships\[0\].source_label" names label "ANIMAL", which is not a label of the task/,
    ],
    [
      'a relationship to an unknown label',
      (b) => (b.relationships[0].target_label = 'CLUB'),
      /"relationships\[0\].target_label" names label "CLUB"/,
    ],
    [
      'a relationship without source_label',
      (b) => delete b.relationships[0].source_label,
      /"relationships\[0\].source_label" is required/,
    ],
    [
      'an attachment of an unknown type',
      (b) => (b.attachments[0].type = 'doc'),
      /"attachments\[0\].type" must be one of/,
    ],
    ['merge_newlines that is not boolean', (b) => (b.merge_newlines = 'yes'), /"merge_newlines" must be a boolean/],
    [
      'allow_overlapping_annotations that is not boolean',
      (b) => (b.allow_overlapping_annotations = 1),
      /"allow_overlapping_annotations" must be a boolean/,
    ],
    ['an unknown parameter', (b) => (b.entities = []), /"entities" is not an allowed parameter/],
  ];
  for (const [what, change, message] of rejections) {
    it(`POST /v1/task/namedentityrecognition rejects ${what} with 400`, async () => {
      const t = makeApp(STRICT);
      const res = await t.call('POST', '/v1/task/namedentityrecognition', {
        body: request('namedentityrecognition', change),
      });
      expect(res.status).toBe(400);
      expect(res.body.status_code).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }
});

/**
 * Spans of the fixture text: "Ada Lovelace worked with Charles Babbage in London.\nShe joined the Analytical Society
 * ...".
 */
const span = (id: string, start: number, text: string, label: string) => ({
  id,
  start,
  end: start + text.length,
  text,
  label,
});
const nerResponse = () => ({
  annotations: [
    span('a1', 0, 'Ada Lovelace', 'PERSON'),
    span('a2', 25, 'Charles Babbage', 'PERSON'),
    span('a3', 67, 'Analytical Society', 'SOCIETY'),
  ],
  relationships: [
    { id: 'r1', source_ref: 'a1', target_ref: 'a3', name: 'member_of' },
    { id: 'r2', source_ref: 'a2', target_ref: 'a1', name: 'collaborates_with' },
  ],
});

describe('POST /_mock/tasks/{id}/complete for namedentityrecognition', () => {
  it('POST /_mock/tasks/{id}/complete stores a given response whose spans and relationships fit', async () => {
    const t = makeApp();
    const task = await create(t, 'namedentityrecognition', request('namedentityrecognition'));
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response: nerResponse() } });
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(nerResponse());
  });

  it('POST /_mock/tasks/{id}/complete measures spans after newline removal when merge_newlines is true', async () => {
    const t = makeApp();
    const task = await create(
      t,
      'namedentityrecognition',
      request('namedentityrecognition', (b) => (b.merge_newlines = true)),
    );
    const merged = { annotations: [span('a1', 51, 'She', 'PERSON')], relationships: [] };
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response: merged } })).status).toBe(
      200,
    );
    const other = await create(t, 'namedentityrecognition', request('namedentityrecognition'));
    const res = await t.call('POST', `/_mock/tasks/${other.task_id}/complete`, { body: { response: merged } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /"response.annotations\[0\].text" must equal the text between start and end \("\\nSh"\)/,
    );
  });

  it('POST /_mock/tasks/{id}/complete accepts overlaps unless allow_overlapping_annotations is false', async () => {
    const t = makeApp();
    const overlapping = {
      annotations: [span('a1', 0, 'Ada Lovelace', 'PERSON'), span('a2', 4, 'Lovelace', 'PERSON')],
      relationships: [],
    };
    const allowed = await create(
      t,
      'namedentityrecognition',
      request('namedentityrecognition', (b) => delete b.allow_overlapping_annotations),
    );
    expect(
      (await t.call('POST', `/_mock/tasks/${allowed.task_id}/complete`, { body: { response: overlapping } })).status,
    ).toBe(200);
    const forbidden = await create(t, 'namedentityrecognition', request('namedentityrecognition'));
    const res = await t.call('POST', `/_mock/tasks/${forbidden.task_id}/complete`, { body: { response: overlapping } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /"response.annotations\[1\]" overlaps annotation "a1" \(allow_overlapping_annotations is false\)/,
    );
  });

  it('POST /_mock/tasks/{id}/complete accepts undirected relationships either way, unnamed ones blank', async () => {
    const t = makeApp();
    const task = await create(
      t,
      'namedentityrecognition',
      request('namedentityrecognition', (b) => (b.relationships = [{ source_label: 'PERSON', target_label: 'ORG' }])),
    );
    const response = {
      annotations: nerResponse().annotations,
      relationships: [
        { id: 'r1', source_ref: 'a3', target_ref: 'a1', name: '' },
        { id: 'r2', source_ref: 'a2', target_ref: 'a3' },
      ],
    };
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response } });
    expect(res.status).toBe(200);
  });

  const misfits: [string, (r: any) => void, RegExp][] = [
    [
      'a span past the end of the text',
      (r) => Object.assign(r.annotations[0], { start: 100, end: 200 }),
      /"response.annotations\[0\].end" must be at most the text length \(108\)/,
    ],
    [
      'an empty span',
      (r) => Object.assign(r.annotations[0], { end: 0 }),
      /"response.annotations\[0\].start" must be less than end \(0\)/,
    ],
    ['a negative start', (r) => (r.annotations[0].start = -1), /"response.annotations\[0\].start" must be at least 0/],
    [
      'text that is not the covered substring',
      (r) => (r.annotations[0].text = 'Ada'),
      /"response.annotations\[0\].text" must equal the text between start and end \("Ada Lovelace"\)/,
    ],
    [
      'a label with children',
      (r) => (r.annotations[2].label = 'ORG'),
      /"response.annotations\[2\].label" is "ORG", a label with children, which is not used to label spans/,
    ],
    [
      'an unknown label',
      (r) => (r.annotations[2].label = 'CLUB'),
      /"response.annotations\[2\].label" is "CLUB", not a label of the task/,
    ],
    ['a repeated annotation id', (r) => (r.annotations[1].id = 'a1'), /"response.annotations\[1\].id" must be unique/],
    [
      'a relationship to no annotation',
      (r) => (r.relationships[0].target_ref = 'zz'),
      /"response.relationships\[0\].target_ref" is "zz", not the id of an annotation/,
    ],
    [
      'a relationship name the task does not define',
      (r) => (r.relationships[0].name = 'owns'),
      /"response.relationships\[0\].name" is "owns", not a relationship of the task/,
    ],
    [
      'a directed relationship the wrong way round',
      (r) => Object.assign(r.relationships[0], { source_ref: 'a3', target_ref: 'a1' }),
      new RegExp(
        '"response.relationships\\[0\\]" does not fit a defined relationship: ' +
          'no "member_of" relationship joins "SOCIETY" to "PERSON"',
      ),
    ],
    [
      'a relationship between labels it does not join',
      (r) => (r.relationships[1].target_ref = 'a3'),
      /no "collaborates_with" relationship joins "PERSON" to "SOCIETY"/,
    ],
    [
      'an annotation without label',
      (r) => delete r.annotations[0].label,
      /"response.annotations\[0\].label" is required/,
    ],
    [
      'an extra key on an annotation',
      (r) => (r.annotations[0].score = 1),
      /"response.annotations\[0\].score" is not an allowed parameter/,
    ],
  ];
  for (const [what, change, message] of misfits) {
    it(`POST /_mock/tasks/{id}/complete rejects a namedentityrecognition response with ${what}`, async () => {
      const t = makeApp();
      const task = await create(t, 'namedentityrecognition', request('namedentityrecognition'));
      const response: any = nerResponse();
      change(response);
      const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /_mock/tasks/{id}/complete rejects names on unnamed relationships, any without definitions', async () => {
    const t = makeApp();
    const unnamed = await create(
      t,
      'namedentityrecognition',
      request('namedentityrecognition', (b) => (b.relationships = [{ source_label: 'PERSON', target_label: 'ORG' }])),
    );
    const named = {
      annotations: nerResponse().annotations,
      relationships: [{ id: 'r1', source_ref: 'a1', target_ref: 'a3', name: 'member_of' }],
    };
    const res = await t.call('POST', `/_mock/tasks/${unnamed.task_id}/complete`, { body: { response: named } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"response.relationships\[0\].name" must be blank/);
    const none = await create(
      t,
      'namedentityrecognition',
      request('namedentityrecognition', (b) => delete b.relationships),
    );
    const res2 = await t.call('POST', `/_mock/tasks/${none.task_id}/complete`, { body: { response: named } });
    expect(res2.status).toBe(400);
    expect(res2.body.error).toMatch(/"response.relationships\[0\]" is not allowed: the task defines no relationships/);
  });

  it('POST /_mock/tasks/{id}/complete synthesizes disjoint leaf-labeled word spans and a relationship', async () => {
    const t = makeApp();
    const body = request('namedentityrecognition');
    const response = await completeSynthesized(t, await create(t, 'namedentityrecognition', body));
    expect(response.annotations.length).toBeGreaterThanOrEqual(2);
    for (const a of response.annotations) {
      expect(['PERSON', 'COMPANY', 'SOCIETY', 'LOCATION']).toContain(a.label);
      expect(body.text.slice(a.start, a.end)).toBe(a.text);
      expect(a.text).toMatch(/^\p{L}/u);
    }
    const starts = response.annotations.map((a: any) => a.start);
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(response.relationships).toHaveLength(1);
    expect(response.relationships[0].name).toBe('member_of');
    const fresh = makeApp();
    const again = await completeSynthesized(fresh, await create(fresh, 'namedentityrecognition', body));
    expect(again).toEqual(response);
  });

  it('POST /_mock/tasks/{id}/complete synthesizes merged-text spans, no relationship if none is defined', async () => {
    const t = makeApp();
    const body = request('namedentityrecognition', (b) => {
      b.text = 'one two\nthree four\nfive six';
      b.merge_newlines = true;
      delete b.relationships;
    });
    const response = await completeSynthesized(t, await create(t, 'namedentityrecognition', body));
    // Removing the newlines joins words: "one twothree fourfive six".
    expect(response.annotations.map((a: any) => a.text)).toEqual(['one', 'twothree', 'fourfive', 'six']);
    for (const a of response.annotations) expect('one twothree fourfive six'.slice(a.start, a.end)).toBe(a.text);
    expect(response.relationships).toEqual([]);
  });
});
