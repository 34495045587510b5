/**
 * Keeps the error catalog, the OpenAPI document, the contracts and the message templates in step:
 * every kind is documented, every kind is reached (by a contract, or by the test named in
 * test/catalog-reach.ts), and every error of src/ is built by a named template of src/errors/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ERROR_CATALOG, type ErrorKind } from '../src/errors/index.js';
import { NOT_REACHED_BY_CONTRACTS } from './catalog-reach.js';
import { makeApp } from './helpers.js';

const ROOT = new URL('..', import.meta.url).pathname;
const SRC = join(ROOT, 'src');
const kinds = Object.keys(ERROR_CATALOG) as ErrorKind[];

type Operation = { responses?: Record<string, unknown> };
/** Every status some operation of the committed documents (v1, v2, control plane) documents. */
function documentedStatuses(): Set<string> {
  const statuses = new Set<string>();
  for (const file of ['openapi.yaml', 'openapi-v2.yaml', 'openapi-control.yaml']) {
    const doc = parse(readFileSync(join(ROOT, file), 'utf8')) as { paths: Record<string, unknown> };
    for (const item of Object.values(doc.paths) as Record<string, Operation>[]) {
      for (const operation of Object.values(item))
        for (const status of Object.keys(operation.responses ?? {})) statuses.add(status);
    }
  }
  return statuses;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Files of src/ (outside the errors module) whose text matches `pattern`. */
function filesOutsideErrors(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .map((file) => relative(SRC, file))
    .filter((file) => file !== 'errors.ts' && !file.startsWith('errors/'))
    .filter((file) => pattern.test(readFileSync(join(SRC, file), 'utf8')))
    .sort();
}

/**
 * Files still being moved to the templates by other work of the same issue (src/domain/tasks,
 * src/services/dependents.ts); the lists are emptied when that lands. Any other file fails.
 */
const PENDING_FREE_TEXT: string[] = [];
/** annotation-fit.ts: describeFitIssues' default lead (its callers pass ''). */
const PENDING_HAND_WRITTEN_LEAD: string[] = [];

describe('error catalog', () => {
  it('every kind has a status documented on at least one operation of the three documents', () => {
    const documented = documentedStatuses();
    const missing = kinds.filter((kind) => !documented.has(String(ERROR_CATALOG[kind].status)));
    expect(missing.map((kind) => `${kind} (${ERROR_CATALOG[kind].status})`)).toEqual([]);
  });

  it('every kind no contract reaches is a kind of the catalog, with a reason and an existing test in test/', () => {
    for (const [kind, entry] of Object.entries(NOT_REACHED_BY_CONTRACTS)) {
      expect(kinds).toContain(kind);
      expect(entry.reason.length).toBeGreaterThan(20);
      const text = readFileSync(join(ROOT, entry.file), 'utf8');
      expect(text, `${entry.file} has no test named "${entry.test}"`).toContain(`'${entry.test}'`);
    }
  });

  it('GET /boom whose handler throws a plain Error answers 500 with the error body', async () => {
    const t = makeApp();
    t.app.get('/boom', () => {
      throw new Error('boom');
    });
    const res = await t.app.request('/boom');
    expect(res.status).toBe(ERROR_CATALOG.internal.status);
    expect(await res.json()).toEqual({ status_code: 500, error: expect.stringMatching(/^Internal error/) });
  });

  it('no file of src/ outside the errors module calls new ApiError(', () => {
    expect(filesOutsideErrors(/\bnew ApiError\(/)).toEqual([]);
  });

  it('no file of src/ outside the errors module writes the "Parameter is invalid, reason:" lead itself', () => {
    expect(filesOutsideErrors(/Parameter is invalid, reason:/)).toEqual(PENDING_HAND_WRITTEN_LEAD);
  });

  it('no file of src/ uses the free-text shorthand invalid(message)', () => {
    expect(filesOutsideErrors(/\binvalid\(/)).toEqual(PENDING_FREE_TEXT);
  });
});
