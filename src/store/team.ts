import type { InviteRole, TeamRole } from '../domain/teams/schemas.js';
import { derivedId } from '../runtime/ids.js';

/** One teammate as stored: the wire fields plus what the mock needs to play the invitation out. */
export interface MemberRecord {
  /** Studio worker id (labeler groups list workers by id and e-mail). */
  id: string;
  email: string;
  role: TeamRole;
  firstName?: string;
  lastName?: string;
  company?: string;
  /** The role an invited member gets on accepting. */
  invitedRole?: InviteRole;
  /** When the invitation lapses (virtual clock, ms). */
  expiryMs?: number;
  /** Studio projects the member is assigned to, in assignment order. */
  projects: Set<string>;
}

/** E-mail addresses compare case-insensitively; the address is shown as first given. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export const isActive = (member: MemberRecord): boolean => member.role !== 'invited' && member.role !== 'disabled';

/** The account's owner: every team has its admin, as on the real service. */
export function ownerRecord(account: string): MemberRecord {
  return {
    id: derivedId('owner', account),
    email: `${account}@labelmock.test`,
    role: 'admin',
    firstName: 'Account',
    lastName: 'Owner',
    company: account,
    projects: new Set(),
  };
}

/** The teammates of one tenant, in the order they joined. */
export class Team {
  private readonly members = new Map<string, MemberRecord>();

  constructor(owner?: MemberRecord) {
    if (owner) this.put(owner);
  }

  get(email: string): MemberRecord | undefined {
    return this.members.get(emailKey(email));
  }

  put(member: MemberRecord): void {
    this.members.set(emailKey(member.email), member);
  }

  delete(email: string): void {
    this.members.delete(emailKey(email));
  }

  all(): MemberRecord[] {
    return [...this.members.values()];
  }
}
