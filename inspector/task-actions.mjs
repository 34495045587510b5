// The task page's actions, those its state allows: a pending task is completed (synthesized or with an
// edited response the mock validates), failed or canceled; a completed one redone or audited. Each shows
// its error inline and reloads the page's data when it succeeds. A response being typed is drawn as it is
// typed, before it is sent.
import { api } from './api.mjs';
import { actionButton, debounced, field, h, show } from './dom.mjs';
import { drawing } from './drawing.mjs';

/**
 * What outlives a re-render of the page (a live event reloads it at any moment): the error box, so an
 * action's error stays in sight, the response being edited, so typing is never lost, and the frame each
 * drawing shows.
 */
export function actionState() {
  return {
    errors: h('div', { class: 'action-error', id: 'action-error' }),
    draft: undefined,
    view: {},
    previewView: {},
  };
}

/** The typed response drawn, once it is JSON; nothing for a task type without a drawing. */
function responsePreview(task, textarea, state) {
  const preview = h('div', { class: 'preview', id: 'preview' });
  const draw = () => {
    let typed;
    try {
      typed = JSON.parse(textarea.value);
    } catch {
      show(preview, h('p', { class: 'hint' }, 'The preview waits for the response to be JSON.'));
      return;
    }
    const drawn = drawing(task, typed, state.previewView);
    show(preview, drawn ? [h('h3', {}, 'Preview of the response typed above (not sent yet)'), drawn] : '');
  };
  textarea.addEventListener('input', debounced(draw, 200));
  if (state.draft !== undefined) draw();
  return preview;
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
  // Only what the task's state allows: the server would refuse the rest with a 400.
  // Built for the one state shown: an element (the response editor) can sit in one place only.
  const offers = {
    pending: () => [
      h(
        'p',
        {},
        actionButton('Complete', run('POST', `/_mock/tasks/${id}/complete`, {}), errors),
        actionButton('Cancel', run('POST', `/v1/task/${id}/cancel`), errors),
      ),
      h('p', {}, failMessage, actionButton('Fail', fail, errors)),
      field('Response (JSON) to complete the task with', response),
      responsePreview(task, response, state),
      h('p', {}, actionButton('Complete with this response', edited, errors)),
    ],
    completed: () => [
      h('p', {}, actionButton('Redo', run('POST', `/_mock/tasks/${id}/redo`), errors)),
      h('p', {}, auditResult, auditComments, actionButton('Audit', audit, errors)),
      field('Response (JSON): an audit "fixed" replaces the response with it', response),
      responsePreview(task, response, state),
    ],
  };
  const offered = offers[task.status]?.() ?? [
    h(
      'p',
      { class: 'empty' },
      `${/^[aeiou]/.test(task.status) ? 'An' : 'A'} ${task.status} task takes no more actions.`,
    ),
  ];
  return h('section', { class: 'actions' }, h('h2', {}, 'Actions'), ...offered, errors);
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`The response is not JSON: ${error.message}`);
  }
}
