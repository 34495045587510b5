import { isDeepStrictEqual } from 'node:util';
import { invalid } from '../errors.js';
import type { FileObject } from '../domain/files/schemas.js';
import { mergeDescending } from '../store/seq-index.js';
import type { FileRecord } from '../store/file-collection.js';
import type { Tenant } from '../store/tenant.js';
import { requireProject } from './projects.js';

export interface FileListFilter {
  projects: string[];
  metadata?: Record<string, unknown>;
  cursor?: string;
  limit?: number;
}

export const DEFAULT_FILE_PAGE_SIZE = 100;

/** The cursor names the seq of the last file returned; the next page starts below it. */
const encodeCursor = (seq: number) => Buffer.from(JSON.stringify({ seq })).toString('base64url');

function decodeCursor(text: string): number {
  try {
    const { seq } = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { seq: unknown };
    if (typeof seq === 'number' && Number.isInteger(seq) && seq > 0) return seq;
  } catch {
    // fall through to the error below
  }
  throw invalid('Parameter is invalid, reason: "cursor" is not a cursor returned by this server');
}

/** Every given key is present with an equal value (deep equality for objects and arrays). */
const matchesMetadata = (metadata: Record<string, unknown>, wanted: Record<string, unknown>) =>
  Object.entries(wanted).every(([key, value]) => Object.hasOwn(metadata, key) && isDeepStrictEqual(metadata[key], value));

/**
 * One page of the tenant's files in any of the projects, newest first. The walk merges the
 * per-project indexes from the cursor down, so a page costs about its own size (plus the files
 * a metadata filter skips), not the size of the store.
 */
export function listFiles(tenant: Tenant, filter: FileListFilter) {
  const projects = [...new Set(filter.projects)];
  for (const name of projects) requireProject(tenant, name);
  const limit = filter.limit ?? DEFAULT_FILE_PAGE_SIZE;
  const from = filter.cursor === undefined ? Infinity : decodeCursor(filter.cursor) - 1;
  const files = tenant.files;
  const page: FileRecord[] = [];
  let hasMore = false;
  for (const seq of mergeDescending(projects.map((name) => files.byProject.descending(name, from)))) {
    const record = files.atSeq(seq) as FileRecord;
    if (filter.metadata && !matchesMetadata(record.file.metadata, filter.metadata)) continue;
    if (page.length === limit) {
      hasMore = true;
      break;
    }
    page.push(record);
  }
  const last = page[page.length - 1];
  return {
    docs: page.map((record): FileObject => record.file),
    limit,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last.seq) : null,
  };
}
