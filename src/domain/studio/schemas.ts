import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { EmailSchema, withEmails } from '../teams/schemas.js';

/** Wire shapes of Studio: assignments, labeler groups, studio batches. */

export const AssignmentsSchema = extendApi(z.record(z.array(z.string())), {
  description: "Each active teammate's e-mail with the Studio projects assigned to them",
  example: { 'labeler@example.com': ['street-signs'] },
});

const ProjectNamesSchema = z.array(z.string().min(1)).min(1).max(1000);

export const AddAssignmentsBodySchema = withEmails({ projects: ProjectNamesSchema });
/** Without projects, the teammates leave all their projects. */
export const RemoveAssignmentsBodySchema = withEmails({ projects: ProjectNamesSchema.optional() });

const WorkerSchema = z.object({ id: z.string(), email: z.string() });

export const LabelerGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  numWorkers: z.number().int(),
  /** A group of one member, made by naming the member's e-mail as a batch group. */
  isSingleton: z.boolean(),
  workers: z.array(WorkerSchema),
});
export type LabelerGroup = z.infer<typeof LabelerGroupSchema>;

export const LabelerGroupListSchema = z.array(LabelerGroupSchema);

const GroupNameSchema = z
  .string()
  .min(1)
  .max(256)
  .refine((name) => !name.includes('@'), 'must not contain "@": e-mail addresses name single-member groups');

/** E-mail addresses where an empty list is fine (a group may start empty). */
const MemberEmailsSchema = z.array(EmailSchema).max(1000).default([]);

export const CreateGroupBodySchema = z.object({ name: GroupNameSchema, emails: MemberEmailsSchema }).strict();

export const UpdateGroupBodySchema = z
  .object({ add_emails: MemberEmailsSchema, remove_emails: MemberEmailsSchema })
  .strict();

export const ProjectParamsSchema = z.object({ project: z.string() });
export const GroupParamsSchema = z.object({ project: z.string(), group: z.string() });

export const StudioBatchSchema = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  batchType: z.enum(['Production', 'Calibration']),
  /** 1 is worked on first. */
  studioPriority: z.number().int(),
  total: z.number().int(),
  completed: z.number().int(),
  groups: z.array(z.string()),
});
export type StudioBatch = z.infer<typeof StudioBatchSchema>;

export const StudioBatchListSchema = extendApi(z.array(StudioBatchSchema), {
  description: 'Pending Studio batches, highest priority first',
});

export const BatchParamsSchema = z.object({ batch: z.string() });

/** Replaces the batch's groups; a member's e-mail stands for a group of that member alone. */
export const SetBatchGroupsBodySchema = z.object({ groups: z.array(z.string().min(1)).max(1000) }).strict();

/** Every pending Studio batch, in the new order; whole batch objects from the list are fine. */
export const SetPrioritiesBodySchema = z
  .object({
    batches: z
      .array(z.object({ name: z.string().min(1) }).passthrough())
      .min(1)
      .max(10_000),
  })
  .strict();

export const ProjectNameParamsSchema = z.object({ projectName: z.string() });

export const SendToCompletedBodySchema = z
  .object({ all_batches: z.boolean().optional(), batches: z.array(z.string().min(1)).max(10_000).optional() })
  .strict()
  .optional()
  .transform((body) => body ?? {});

export const SendToCompletedResultSchema = z.object({
  result: z.literal('success'),
  project: z.string(),
  batches: z.array(z.string()),
  tasks_completed: z.number().int(),
});
