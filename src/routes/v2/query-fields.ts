import { z } from 'zod';
import { V2BatchStatusSchema, V2TaskStatusSchema } from '../../domain/v2/objects.js';
import { last, queryEnum, queryEnumList, queryInt, queryString, queryTime, queryTimeEnd } from '../../http/query.js';
import { THREAD_OPTIONS } from '../../services/v2/threads.js';

/** Query fields v2's operations share, as the official client's generated module sends them. */

export const projectSelector = { project_id: queryString, project_name: queryString };
export const batchSelector = { batch_id: queryString, batch_name: queryString };
export const paging = { limit: queryInt(1, 100), next_token: queryString };
export const taskStatus = queryEnum(V2TaskStatusSchema.options);
export const batchStatus = queryEnum(V2BatchStatusSchema.options);
export const completedRange = { completed_after: queryTime, completed_before: queryTimeEnd };
export const createdRange = { created_after: queryTime, created_before: queryTimeEnd };
export const deliveredRange = { delivered_after: queryTime, delivered_before: queryTimeEnd };
export const opts = queryEnumList([...THREAD_OPTIONS]);
export const expandOf = <T extends [string, ...string[]]>(...values: T) => queryEnumList(values);

/** A required query field: its absence is a 400 naming it. */
export const requiredText = z.preprocess(last, z.string().min(1));

/** A v2 operation's query: a misspelt filter would list the wrong things, so unknown keys are a 400 naming them. */
export const v2Query = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
