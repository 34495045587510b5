import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { isEmail, TimestampSchema } from '../common/values.js';

/** Wire shapes of the team: teammates, invitations and role changes. */

export const TeamRoleSchema = z.enum(['admin', 'manager', 'member', 'labeler', 'invited', 'disabled']);
export type TeamRole = z.infer<typeof TeamRoleSchema>;

/** Roles an invitation can grant (labeler only on Studio accounts). */
export const InviteRoleSchema = z.enum(['labeler', 'member', 'manager']);
export type InviteRole = z.infer<typeof InviteRoleSchema>;

/** Roles set_role can give; `disabled` takes a member off the team without deleting them. */
const AssignableRoleSchema = z.enum(['labeler', 'member', 'manager', 'disabled']);
export type AssignableRole = z.infer<typeof AssignableRoleSchema>;

export const TeammateSchema = z.object({
  email: z.string(),
  role: TeamRoleSchema,
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  company: z.string().optional(),
  isStudioLabeler: z.boolean(),
  disableRapidEmails: z.boolean(),
  /** Only on role invited: when the invitation lapses. */
  expiry: TimestampSchema.optional(),
});
export type Teammate = z.infer<typeof TeammateSchema>;

export const TeamSchema = extendApi(z.array(TeammateSchema), {
  description: 'Every teammate, the account owner (admin) first',
});

export const EmailSchema = extendApi(z.string().refine(isEmail, 'must be an e-mail address (name@example.com)'), {
  format: 'email',
  example: 'labeler@example.com',
});

const EmailListSchema = z.array(EmailSchema).min(1).max(1000);

/**
 * `emails` is the documented field; the interface also lists it as `email`, so either is accepted
 * (an array, or one address) but not both. The result always carries `emails`.
 */
export function withEmails<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ emails: EmailListSchema.optional(), email: z.union([EmailListSchema, EmailSchema]).optional(), ...shape })
    .strict()
    .superRefine((body, ctx) => {
      if (body.emails === undefined && body.email === undefined) {
        ctx.addIssue({ code: 'custom', path: ['emails'], message: 'is required (an array of e-mail addresses)' });
      }
      if (body.emails !== undefined && body.email !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'cannot be given together with emails' });
      }
    })
    .transform(({ email, emails, ...rest }) => ({
      ...rest,
      emails: emails ?? (Array.isArray(email) ? email : [email as string]),
    }));
}

export const InviteBodySchema = withEmails({ team_role: InviteRoleSchema });
export const SetRoleBodySchema = withEmails({ team_role: AssignableRoleSchema });

/** The control route that plays the invitee: accepting turns role invited into the invited role. */
export const AcceptInvitationsBodySchema = withEmails({});
