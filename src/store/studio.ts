/** A labeler group of one Studio project. Members are e-mail keys (see emailKey). */
export interface GroupRecord {
  id: string;
  name: string;
  /** A group of one, made by naming a member's e-mail as a batch's group. */
  isSingleton: boolean;
  members: Set<string>;
}

/** Studio state of one tenant: labeler groups, batch group assignments and the batch priority order. */
export class StudioState {
  /** project name -> group name -> group, in creation order. */
  private readonly groups = new Map<string, Map<string, GroupRecord>>();
  /** batch name -> its project and the group names assigned to it. */
  readonly batchGroups = new Map<string, { project: string; groups: string[] }>();
  /** Pending batch names in the order set_priorities gave; undefined means the default order. */
  priorityOrder: string[] | undefined;

  groupsOf(project: string): Map<string, GroupRecord> {
    let groups = this.groups.get(project);
    if (!groups) {
      groups = new Map();
      this.groups.set(project, groups);
    }
    return groups;
  }

  /** Every project that has groups, with its groups (for export). */
  allGroups(): [string, GroupRecord[]][] {
    return [...this.groups]
      .filter(([, groups]) => groups.size > 0)
      .map(([project, groups]) => [project, [...groups.values()]]);
  }

  /** Drops a group and every batch's reference to it. */
  deleteGroup(project: string, name: string): void {
    this.groups.get(project)?.delete(name);
    for (const assignment of this.batchGroups.values()) {
      if (assignment.project === project) assignment.groups = assignment.groups.filter((n) => n !== name);
    }
  }
}
