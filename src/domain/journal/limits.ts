/**
 * What one request journal entry may hold. Every text an entry keeps is cut to a cap, so an entry has
 * a byte bound whatever the request was, and a tenant's journal (a ring of --journal-size entries) too.
 */

/** Request and response bodies: enough for any task body an assertion looks at; longer ones are cut. */
export const JOURNAL_BODY_CHARS = 8192;
/** All kept header names and values together (Authorization and Cookie are never kept). */
export const JOURNAL_HEADER_CHARS = 4096;
/** Headers kept at most (a flood of tiny headers would otherwise cost more in objects than in text). */
export const JOURNAL_MAX_HEADERS = 64;
/** Query values kept at most, for the same reason. */
export const JOURNAL_MAX_QUERY_VALUES = 64;
/** The path, and separately all query keys and values together. */
export const JOURNAL_PATH_CHARS = 1024;
export const JOURNAL_QUERY_CHARS = 1024;
/** Parts of a multipart body listed (name, file name, size); their bytes are never kept. */
export const JOURNAL_MAX_PARTS = 10;
export const JOURNAL_PART_NAME_CHARS = 100;
/** Entries GET /_mock/requests answers at most per call. */
export const MAX_JOURNAL_LIMIT = 1000;

/**
 * Upper bound of one entry's memory: every capped text at two bytes a character (V8 keeps a string
 * with any non-Latin-1 character at two bytes each), the part list, and 8 KiB for the objects
 * themselves (the entry and its fixed fields, at most 64 headers and 64 query values as strings and
 * arrays, the parts, the applied fault).
 */
export const JOURNAL_ENTRY_MAX_BYTES =
  2 *
    (2 * JOURNAL_BODY_CHARS +
      JOURNAL_HEADER_CHARS +
      JOURNAL_PATH_CHARS +
      JOURNAL_QUERY_CHARS +
      JOURNAL_MAX_PARTS * 2 * JOURNAL_PART_NAME_CHARS) +
  8192;

/** Request headers never answered: credentials. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie']);
