// The task page's actions: complete (synthesized or an edited response the mock validates), fail, redo,
// audit, cancel. Each shows its error inline and reloads the page's data when it succeeds.
import { api } from './api.mjs';
import { actionButton, field, h } from './dom.mjs';

/**
 * What outlives a re-render of the page (a live event reloads it at any moment): the error box, so an
 * action's error stays in sight, and the response being edited, so typing is never lost.
 */
export function actionState() {
  return { errors: h('div', { class: 'action-error', id: 'action-error' }), draft: undefined };
}

export function taskActions(task, load, state) {
  const id = encodeURIComponent(task.task_id);
  const errors = state.errors;
  const run = (method, path, body) => async () => {
    await api(method, path, body);
    state.draft = undefined;
    await load();
  };
  const response = h('textarea', { id: 'response', rows: 8, cols: 80, spellcheck: 'false' });
  response.value = state.draft ?? JSON.stringify(task.response ?? {}, null, 2);
  response.addEventListener('input', () => {
    state.draft = response.value;
  });
  const failMessage = h('input', { id: 'fail-error', placeholder: 'error message (optional)', size: 30 });
  const auditResult = h('select', { id: 'audit-result' }, h('option', {}, 'accepted'), h('option', {}, 'fixed'));
  const auditComments = h('input', { id: 'audit-comments', placeholder: 'comments (optional)', size: 30 });
  const edited = async () => run('POST', `/_mock/tasks/${id}/complete`, { response: parse(response.value) })();
  const fail = () => run('POST', `/_mock/tasks/${id}/fail`, failMessage.value ? { error: failMessage.value } : {})();
  const audit = () =>
    run('POST', `/_mock/tasks/${id}/audit`, {
      result: auditResult.value,
      ...(auditComments.value && { comments: auditComments.value }),
      ...(auditResult.value === 'fixed' && { response: parse(response.value) }),
    })();
  return h(
    'section',
    { class: 'actions' },
    h('h2', {}, 'Actions'),
    h(
      'p',
      {},
      actionButton('Complete', run('POST', `/_mock/tasks/${id}/complete`, {}), errors),
      actionButton('Redo', run('POST', `/_mock/tasks/${id}/redo`), errors),
      actionButton('Cancel', run('POST', `/v1/task/${id}/cancel`), errors),
    ),
    h('p', {}, failMessage, actionButton('Fail', fail, errors)),
    h('p', {}, auditResult, auditComments, actionButton('Audit', audit, errors)),
    field('Response (JSON): complete with it, or an audit "fixed" replaces the response with it', response),
    h('p', {}, actionButton('Complete with this response', edited, errors)),
    errors,
  );
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`The response is not JSON: ${error.message}`);
  }
}
