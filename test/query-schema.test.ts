import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { querySchemaFor } from '../src/http/query-parser.js';
import { TaskListQuerySchema } from '../src/routes/task-schemas.js';

const queries: Record<string, string[]>[] = [
  {},
  { limit: ['100'] },
  { status: ['pending,completed'], tags: ['a', 'b'], limit: ['5'] },
  { start_time: ['2026-01-01'], end_time: ['2026-01-31'], updated_after: ['2026-01-02T00:00:00Z'] },
  { limited_response: ['True'], offset: ['3'] },
  { limit: ['0'] },
  { status: ['bogus'], completed_after: ['yesterday'] },
  { bogus: ['1'], limit: ['x'] },
];

describe('query schemas picked to the keys present', () => {
  it('GET /v1/tasks queries parse and fail exactly as with the whole schema', () => {
    const schemaFor = querySchemaFor(TaskListQuerySchema);
    expect(schemaFor).toBeDefined();
    for (const query of queries) {
      const whole = TaskListQuerySchema.safeParse(query);
      const picked = schemaFor?.(query)?.safeParse(query);
      expect(picked?.success, JSON.stringify(query)).toBe(whole.success);
      if (whole.success) expect(picked?.data).toEqual(whole.data);
      else expect(picked?.error?.issues).toEqual(whole.error.issues);
    }
  });

  it('a schema whose field gives an absent key a value is used whole', () => {
    const withDefault = z.object({ a: z.string().default('x'), b: z.string().optional() });
    expect(querySchemaFor(withDefault)).toBeUndefined();
    expect(querySchemaFor(z.object({ b: z.string().optional() }))).toBeDefined();
  });
});
