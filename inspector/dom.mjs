// Element building for the inspector. Everything shown comes in as text nodes or properties, never parsed as
// markup (no HTML-parsing DOM call anywhere): task params and metadata are user data and must stay inert.

/** `h('a', { href, onclick }, 'text', child)`: an element with properties, listeners and children. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (name === 'value' || name === 'checked') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...nodes(children));
  return el;
}

function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false);
}

/** Replaces what `el` shows. Strings become text nodes (Element.replaceChildren does that). */
export function show(el, ...children) {
  el.replaceChildren(...nodes(children));
}

/** A JSON value, indented, as text. */
export function json(value) {
  return h('pre', { class: 'json' }, value === undefined ? '(none)' : JSON.stringify(value, null, 2));
}

/** A table: `columns` are [heading, (row) => cell]. */
export function table(columns, rows, empty = 'Nothing yet.') {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...columns.map(([title]) => h('th', {}, title)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map(([, cell]) => h('td', {}, cell(row)))))),
  );
}

/** A link inside the inspector: `#/task/ID`. Parts are encoded, so data never changes the route's shape. */
export function link(text, ...parts) {
  return h('a', { href: `#/${parts.map(encodeURIComponent).join('/')}` }, text);
}

export function badge(status) {
  return h('span', { class: `badge ${String(status).replace(/[^a-z_]/g, '')}` }, String(status));
}

/** A button that runs `action`, disabled while it runs; its error shows next to it, inline. */
export function actionButton(label, action, errorBox) {
  const button = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        // While it runs: disabled (no double submit) and saying so.
        button.disabled = true;
        button.setAttribute('aria-busy', 'true');
        button.textContent = `${label}…`;
        show(errorBox);
        try {
          await action();
        } catch (error) {
          show(errorBox, h('span', { class: 'error', role: 'alert' }, error.message));
        } finally {
          button.disabled = false;
          button.removeAttribute('aria-busy');
          button.textContent = label;
        }
      },
    },
    label,
  );
  return button;
}

/** What a list shows until its first data arrives (a slow server is not an empty tenant). */
export const loading = () => h('p', { class: 'loading', role: 'status' }, 'Loading…');

/** A labelled form field. */
export function field(label, input) {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

/** `fn`, run at most once per `ms` however often it is called: a burst of events is one refresh. */
export function debounced(fn, ms = 150) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

/** A timestamp as the reader's local time, with the ISO text kept as a tooltip. */
export function time(iso) {
  return iso ? h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString()) : '';
}
