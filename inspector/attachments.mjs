// What a drawing reads besides the response: an uploaded attachment's bytes (drawn under the shapes) and a results
// file (a lidar sequence's frames). Only this labelmock's own: another host's attachment is never loaded (the
// page's CSP allows this origin only), it gets a link instead. Each is fetched once and kept for the last few
// shown, so a live re-render of the page fetches nothing again.
import { api, apiBlob } from './api.mjs';
import { h, loading, show } from './dom.mjs';

/** Fetched once, kept for the few last shown: uploaded files' pictures (their object URLs revoked when let go). */
const pictures = new Map();
const resultFiles = new Map();
const KEPT = 16;

/** `cache`'s promise for `key`, made by `make` when absent; a failure is not kept (the next render asks again). */
function kept(cache, key, make, release = () => undefined) {
  if (!cache.has(key)) {
    const loading = make();
    loading.catch(() => cache.delete(key));
    cache.set(key, loading);
    if (cache.size > KEPT) {
      const [oldest, going] = cache.entries().next().value;
      cache.delete(oldest);
      going.then(release).catch(() => undefined);
    }
  }
  return cache.get(key);
}

/** A results file's response, drawn when read: only a file of this labelmock (its /_mock/results/ path). */
export function resultFileDrawing(url, draw) {
  const { pathname } = new URL(url, location.href);
  if (!pathname.startsWith('/_mock/results/')) return undefined;
  const holder = h('div', {}, loading());
  kept(resultFiles, pathname, () => api('GET', pathname))
    .then((full) => show(holder, draw(full) ?? h('p', { class: 'empty' }, 'The results file holds nothing to draw.')))
    .catch((error) => show(holder, h('p', { class: 'error' }, `The results file could not be read: ${error.message}`)));
  return [holder];
}

/**
 * Under the shapes: the attachment when this labelmock holds its bytes (a scaledata:// upload of the tenant),
 * drawn at its own size. Anything else is on another host, which the page never loads (its CSP allows this
 * origin only): a link opens it in a new tab, and the shapes stay on a plain canvas.
 */
export function attachmentNote(url, render) {
  if (typeof url !== 'string' || url === '') return '';
  const file = /^scaledata:\/\/[^/]+\/([^/?#]+)$/i.exec(url)?.[1];
  if (file === undefined) {
    const link = /^https?:\/\//i.test(url)
      ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'Open the attachment')
      : url;
    return h('p', { class: 'hint' }, 'The attachment is not held here, so the shapes are on a plain canvas. ', link);
  }
  const note = h('p', { class: 'hint' }, 'Loading the attachment…');
  kept(
    pictures,
    file,
    () => load(file),
    ({ href }) => URL.revokeObjectURL(href),
  )
    .then((loaded) => {
      render({ image: loaded.href, size: { width: loaded.width, height: loaded.height } });
      show(note, `Drawn over the attachment (${loaded.width} × ${loaded.height}).`);
    })
    .catch((error) => show(note, `The attachment could not be shown (${error.message}): a plain canvas instead.`));
  return note;
}

async function load(file) {
  const blob = await apiBlob(`/_mock/files/${encodeURIComponent(file)}/content`);
  if (!blob.type.startsWith('image/')) throw new Error(`it is ${blob.type || 'not an image'}`);
  const href = URL.createObjectURL(blob);
  const image = new Image();
  image.src = href;
  await image.decode();
  return { href, width: image.naturalWidth, height: image.naturalHeight };
}
