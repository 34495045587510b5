// The inspector's entry: the header (pages, key field, live state), the hash router and the one event
// stream, whose events go to the page on screen so it can refresh what they touch.
import { getKey, setKey, streamEvents, takeKeyFromFragment } from './api.mjs';
import { h, loading, show } from './dom.mjs';
import { faultsPage } from './faults.mjs';
import { callbacksPage, requestsPage } from './journals.mjs';
import { batchesPage, projectsPage } from './projects.mjs';
import { taskPage } from './task.mjs';
import { tasksPage } from './tasks.mjs';
import { tenantPage } from './tenant.mjs';

/** Route name -> [title in the menu or null, page]. A page renders into the view and may return onEvent. */
const PAGES = {
  tasks: ['Tasks', tasksPage],
  task: [null, taskPage],
  projects: ['Projects', projectsPage],
  batches: ['Batches', batchesPage],
  callbacks: ['Callbacks', callbacksPage],
  requests: ['Requests', requestsPage],
  faults: ['Faults', faultsPage],
  tenant: ['Clock & settings', tenantPage],
};

const view = document.getElementById('view');
// The event stream's state: named for what it is ("live" alone read like the live mode's keys).
const liveState = h(
  'span',
  { class: 'live', id: 'live', title: 'The event stream (GET /_mock/events)' },
  'events: offline',
);
let current = { onEvent: undefined };
let events;

function header() {
  const keyInput = h('input', { id: 'key', name: 'key', value: getKey(), placeholder: 'test_local', size: 20 });
  const useKey = (event) => {
    event.preventDefault();
    setKey(keyInput.value);
    start();
  };
  const menu = Object.entries(PAGES)
    .filter(([, [title]]) => title)
    .map(([name, [title]]) => h('a', { href: `#/${name}`, 'data-page': name }, title));
  return [
    h('strong', {}, 'labelmock inspector'),
    h('nav', {}, ...menu),
    h('form', { class: 'key', onsubmit: useKey }, h('label', { for: 'key' }, 'Key'), keyInput, h('button', {}, 'Use')),
    liveState,
  ];
}

/**
 * Shows the page the fragment names. Each visit renders into a container of its own: a page still
 * loading when the person moves on (a slow reload of the previous page) then writes into a container
 * no longer on screen, never over the page that replaced it.
 */
async function route() {
  const [name = 'tasks', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  // Own keys only: `#/__proto__` or `#/constructor` name no page.
  const shown = Object.hasOwn(PAGES, name) ? name : 'tasks';
  const [, page] = PAGES[shown];
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('here', a.dataset.page === name);
  const mine = { onEvent: undefined };
  current = mine;
  // Until the page's first data arrives, it says so (a slow server is not an empty tenant).
  const container = h('div', { class: 'page', 'aria-busy': 'true' }, loading());
  show(view, container);
  if (!getKey())
    return show(container, h('p', {}, 'Enter a key (test_<name> or live_<name>) above to see its tenant.'));
  try {
    mine.onEvent = await page(container, rest.map(decodeURIComponent));
  } catch (error) {
    show(container, h('p', { class: 'error', role: 'alert' }, error.message));
  } finally {
    container.removeAttribute('aria-busy');
    // A visit's end, on screen or not: what a browser test waits on (a page left while loading renders off screen).
    const detail = { page: shown, onScreen: current === mine };
    document.dispatchEvent(new CustomEvent('inspector:settled', { detail }));
  }
}

/** (Re)starts for the current key: a fresh event stream and the page on screen. */
function start() {
  events?.abort();
  events = new AbortController();
  if (getKey()) {
    const onState = (state) => show(liveState, `events: ${state}`);
    streamEvents((event) => current.onEvent?.(event), onState, events.signal);
  }
  route();
}

/** The header shows the key in use: drawn anew with it. */
function restart() {
  show(document.getElementById('top'), header());
  start();
}

takeKeyFromFragment();
// A `#key=` link followed while the inspector is open changes the key as one opened anew would.
window.addEventListener('hashchange', () => (takeKeyFromFragment() ? restart() : route()));
restart();
