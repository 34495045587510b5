import { z } from 'zod';
import { IsoTimestampSchema, StoredIdSchema } from '../common/stored-values.js';
import { TrainingAttemptSchema } from '../quality/schemas.js';
import { EmailSchema, InviteRoleSchema, TeammateSchema, TeamRoleSchema } from './schemas.js';

/** Team, Studio and quality parts of `/_mock/state`: what export writes and import reads back. */

const StateTeammateSchema = TeammateSchema.pick({ firstName: true, lastName: true, company: true })
  .extend({
    /** Derived from the e-mail when absent. */
    id: StoredIdSchema.optional(),
    email: EmailSchema,
    role: TeamRoleSchema,
    /** Role invited only: what accepting grants, and when the invitation lapses. */
    invited_role: InviteRoleSchema.optional(),
    expiry: IsoTimestampSchema.optional(),
    /** Studio projects the teammate is assigned to. */
    projects: z.array(z.string()).default([]),
  })
  .strict();
export type StateTeammate = z.infer<typeof StateTeammateSchema>;

const StateGroupSchema = z
  .object({
    project: z.string(),
    name: z.string().min(1),
    id: StoredIdSchema.optional(),
    isSingleton: z.boolean().default(false),
    members: z.array(EmailSchema).default([]),
  })
  .strict();

const StateStudioSchema = z
  .object({
    groups: z.array(StateGroupSchema).default([]),
    batch_groups: z.array(z.object({ batch: z.string(), groups: z.array(z.string()) }).strict()).default([]),
    /** Pending batch names in the order set_priorities gave; null for the default order. */
    priority_order: z.array(z.string()).nullable().default(null),
  })
  .strict();
export type StateStudio = z.infer<typeof StateStudioSchema>;

export const teamStateFields = {
  /** Absent: the default team (the account owner alone). */
  team: z.array(StateTeammateSchema).optional(),
  studio: StateStudioSchema.default({}),
  training_attempts: z.array(TrainingAttemptSchema).default([]),
};
