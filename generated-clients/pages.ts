/** A page of tasks as each generated client types it: what following the pages needs of it. */
interface TaskPage {
  docs: { task_id: string }[];
  next_token?: string | null;
}

/**
 * Follows next_token from the first page to the last: the task ids of every page in order, and how many
 * pages there were. `fetchPage` is the scenario's own call of its generated client (typed by it).
 */
export async function followPages(
  fetchPage: (next: string | undefined) => Promise<TaskPage>,
): Promise<{ listed: string[]; pages: number }> {
  const listed: string[] = [];
  let pages = 0;
  let next: string | undefined;
  do {
    const page = await fetchPage(next);
    pages += 1;
    listed.push(...page.docs.map((doc) => doc.task_id));
    next = page.next_token ?? undefined;
  } while (next !== undefined);
  return { listed, pages };
}
