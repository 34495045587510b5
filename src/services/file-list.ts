import { isDeepStrictEqual } from 'node:util';
import type { FileObject } from '../domain/files/schemas.js';
import { mergeDescending } from '../store/seq-index.js';
import type { Tenant } from '../store/tenant.js';
import { requireProject } from './projects.js';
import { DEFAULT_PAGE_SIZE, filtersOf, pageStart, takePage } from './seq-page.js';

export interface FileListFilter {
  projects: string[];
  metadata?: Record<string, unknown>;
  cursor?: string;
  limit?: number;
}

/** Every given key is present with an equal value (deep equality for objects and arrays). */
const matchesMetadata = (metadata: Record<string, unknown>, wanted: Record<string, unknown>) =>
  Object.entries(wanted).every(
    ([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value),
  );

/**
 * One page of the tenant's files in any of the projects, newest first. The walk merges the
 * per-project indexes from the cursor down, so a page costs about its own size (plus the files
 * a metadata filter skips), not the size of the store.
 */
export function listFiles(tenant: Tenant, filter: FileListFilter) {
  const projects = [...new Set(filter.projects)];
  for (const name of projects) requireProject(tenant, name);
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  const from = pageStart('files', filter.cursor, Infinity, 'cursor', filtersOf(filter));
  const files = tenant.files;
  const wanted = filter.metadata;
  const seqs = mergeDescending(projects.map((name) => files.byProject.descending(name, from)));
  const page = takePage(
    'files',
    seqs,
    limit,
    (seq) => files.atSeq(seq),
    (record) => !wanted || matchesMetadata(record.file.metadata, wanted),
    filtersOf(filter),
  );
  return {
    docs: page.records.map((record): FileObject => record.file),
    limit,
    has_more: page.next !== null,
    next_cursor: page.next,
  };
}
