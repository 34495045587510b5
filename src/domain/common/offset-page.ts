import { z } from 'zod';

/**
 * The page fields of a list paged by `offset` and `limit`, as the real service answers them: those of the
 * pagination library it uses (`docs, totalDocs, limit, page, totalPages, hasNextPage, nextPage, hasPrevPage,
 * prevPage, pagingCounter, offset`). Scale's own pipeline starter kit (scaleapi/sail@6679edb,
 * task_download/task_download.py) pages `GET /v1/batches` by `offset` until `hasNextPage` is false, reading
 * `totalPages` and `nextPage`; the Python client reads `totalDocs`.
 */
export const OffsetPageFieldsSchema = z.object({
  totalDocs: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** The page holding the first item of this one (1-based): ceil((offset + 1) / limit). */
  page: z.number().int().min(1),
  totalPages: z.number().int().min(1),
  /** The position (1-based) of this page's first item in the whole list. */
  pagingCounter: z.number().int().min(1),
  hasPrevPage: z.boolean(),
  hasNextPage: z.boolean(),
  prevPage: z.number().int().min(1).nullable(),
  nextPage: z.number().int().min(1).nullable(),
});
export type OffsetPageFields = z.infer<typeof OffsetPageFieldsSchema>;

/** The page fields of a page at `offset` of `limit` items, out of `total`, as the library computes them. */
export function offsetPageFields(total: number, limit: number, offset: number): OffsetPageFields {
  const page = Math.ceil((offset + 1) / limit);
  const totalPages = Math.ceil(total / limit) || 1;
  // A first page that starts past the list's start (offset 1..limit-1) still has one before it.
  const hasPrevPage = page > 1 || offset > 0;
  const hasNextPage = page < totalPages;
  return {
    totalDocs: total,
    limit,
    offset,
    page,
    totalPages,
    pagingCounter: (page - 1) * limit + 1,
    hasPrevPage,
    hasNextPage,
    prevPage: hasPrevPage ? Math.max(1, page - 1) : null,
    nextPage: hasNextPage ? page + 1 : null,
  };
}
