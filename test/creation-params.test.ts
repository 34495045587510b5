import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paramsSchemaOf } from '../src/domain/tasks/create-body.js';
import { findTaskType } from '../src/domain/tasks/registry.js';
import { makeApp } from './helpers.js';

const fixture = (name: string) => JSON.parse(readFileSync(`fixtures/tasks/${name}.create.json`, 'utf8'));

describe('a creation parses its params once', () => {
  it('the creation schemas made from a params schema name it (so the params are not parsed again)', () => {
    for (const type of ['imageannotation', 'textcollection', 'namedentityrecognition', 'videoannotation']) {
      const def = findTaskType(type);
      if (!def) throw new Error(`no task type ${type}`);
      expect(paramsSchemaOf(def.createSchema), type).toBeDefined();
    }
  });

  it('POST /v1/task/textcollection stores one field tree, shared by params and the task (no parsed copy)', async () => {
    const t = makeApp();
    const { callback_url: _callback, ...body } = fixture('textcollection');
    const res = await t.call('POST', '/v1/task/textcollection', { body });
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual(res.body.params.fields);
    const [tenant] = t.app.services.store.allTenants();
    const record = tenant?.tasks.get(res.body.task_id);
    const stored = record?.task as { fields?: unknown; params: { fields?: unknown } } | undefined;
    expect(stored?.fields).toBeDefined();
    expect(stored?.fields).toBe(stored?.params.fields);
  });
});
