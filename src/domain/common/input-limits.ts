/**
 * The limits every client input is held to before it is validated, in one place so the README,
 * the errors and the tests quote the same numbers. They are generous for real use and small
 * enough that no single request can hold the event loop (and so every other tenant) for long:
 * JSON.parse, zod and the recursive helpers (structuredClone, JSON.stringify) all cost time per
 * value and stack per level, so both are bounded before any of them runs.
 */

/** Nesting levels of any JSON body (and of JSON sent inside a string, e.g. an upload's metadata). */
export const MAX_JSON_DEPTH = 64;

/**
 * Values (objects, arrays, strings, numbers, booleans, nulls; keys are not counted) in one JSON
 * body. Parsing and validating cost a few microseconds per value, so this bounds the work a single
 * request can make whatever its shape; it is checked on the raw text, before JSON.parse.
 */
export const MAX_JSON_VALUES = 10_000;

/**
 * `PUT /_mock/state` replaces a whole tenant, so it may be larger: a seed step of a test suite, not
 * traffic. 250,000 values hold any export that fits the default 5 MB body (a task is 40-60 values),
 * and bound what a malformed import costs (about 0.6 s at worst, see scripts/bench-input.ts). Its
 * depth allows stored metadata (itself at most MAX_JSON_DEPTH deep) inside the state's own nesting
 * (tasks[i].task.metadata).
 */
export const STATE_IMPORT_MAX_JSON_VALUES = 250_000;
export const STATE_IMPORT_MAX_JSON_DEPTH = MAX_JSON_DEPTH + 8;

/** Metadata, wherever it is set (tasks, batches, files), measured as UTF-8 JSON. */
export const METADATA_MAX_BYTES = 10 * 1024;

/** Tags of one task. */
export const MAX_TAGS = 5;
/** Tags in one body of the tags routes (replace, add, remove), repeats and absent ones included. */
export const MAX_TAGS_BODY = 100;

/**
 * Names in one label tree (objects_to_annotate, labels, attribute choices, ontologies, ...), counted
 * with every subchoice: the tree is counted before its labels are checked one by one.
 */
export const MAX_LABELS = 1_000;
