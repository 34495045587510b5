import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZodEffects } from 'zod';
import { basic } from './helpers.js';

/** A library changes nothing outside itself: importing labelmock leaves zod (and every other module) alone. */

const sourceHash = (fn: unknown) => createHash('sha1').update(String(fn)).digest('hex');

describe('import labelmock', () => {
  it('leaves zod as it was: ZodEffects keeps its own parse', async () => {
    const before = ZodEffects.prototype._parse;
    const beforeSource = sourceHash(before);
    const { createApp } = await import('../src/index.js');
    const app = createApp();
    const res = await app.request('/v1/tasks', { headers: { authorization: basic('test_iso') } });
    expect(res.status).toBe(200);
    app.dispose();
    expect(ZodEffects.prototype._parse).toBe(before);
    expect(sourceHash(ZodEffects.prototype._parse)).toBe(beforeSource);
  });
});
