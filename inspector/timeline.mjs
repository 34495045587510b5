// A task's timeline (GET /_mock/tasks/{id}/timeline) as a list: each entry at its time after the task's creation
// on the tenant's virtual clock (the absolute time as its tooltip), what happened, and how it went.
import { badge, h } from './dom.mjs';

/** How long after creation, readably: a virtual clock moved by days reads in days, a fast test in ms. */
function after(ms) {
  if (ms < 1000) return `+${ms} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `+${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `+${hours} h ${minutes % 60} min`;
  return `+${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** What an entry says: its kind as a badge, and a line of detail. */
function told(entry, start) {
  switch (entry.kind) {
    case 'created':
      return ['created', 'The task was created.'];
    case 'completed':
      return ['completed', 'Completed: the response is in place.'];
    case 'redone':
      return ['redone', 'Sent back to pending (a redo).'];
    case 'canceled':
      return ['canceled', 'Canceled.'];
    case 'error':
      return ['error', `Moved to error${entry.error ? `: ${entry.error}` : '.'}`];
    case 'audited':
      return ['audited', `Audit ${entry.audit_result} by ${entry.audited_by} (${entry.audit_source}).`];
    case 'callback_queued':
      return ['callback', `Callback "${entry.event}" queued for ${entry.target} (now ${entry.state}).`];
    case 'callback_attempt': {
      const answer = entry.status_code === undefined ? (entry.error ?? 'no answer') : String(entry.status_code);
      const next = {
        delivered: 'delivered',
        retried: 'retried',
        retry_scheduled: `retry due ${entry.retry_at ? after(Date.parse(entry.retry_at) - start) : ''}`,
        gave_up: 'no attempt left',
      }[entry.outcome];
      return [
        entry.outcome === 'delivered' ? 'succeeded' : 'failed',
        `Attempt ${entry.attempt}: ${answer} in ${entry.duration_ms} ms, ${next}.`,
      ];
    }
    case 'request':
      return ['request', `${entry.method} ${entry.path} → ${entry.status} (${entry.duration_ms} ms)`];
    default:
      return [entry.kind, ''];
  }
}

/**
 * The timeline as an ordered list; request entries in `hidden` (the inspector's own reads) are left out.
 * A rebuilt history and entries left out at the start are said first.
 */
export function timelineList(timeline, hidden = new Set()) {
  const start = Date.parse(timeline.entries.find((entry) => entry.kind === 'created')?.time ?? 0);
  const shown = timeline.entries.filter((entry) => entry.kind !== 'request' || !hidden.has(entry.request_id));
  const items = shown.map((entry) => {
    const [kind, detail] = told(entry, start);
    const at = h('time', { datetime: entry.time, title: entry.time }, after(Date.parse(entry.time) - start));
    return h(
      'li',
      { class: `timeline-entry ${entry.kind}`, 'data-kind': entry.kind },
      at,
      ' ',
      badge(kind),
      ' ',
      detail,
    );
  });
  const notes = [
    timeline.rebuilt
      ? h('p', { class: 'hint' }, 'Restored or imported: what came before is what the task itself still tells.')
      : '',
    timeline.left_out > 0 ? h('p', { class: 'hint' }, `${timeline.left_out} earlier change(s) not kept.`) : '',
  ];
  return [notes, h('ol', { class: 'timeline', id: 'timeline' }, items)];
}
