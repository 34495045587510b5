// The image's entrypoint: the server (the single-file bundle) as PID 1, with the container's defaults. A folder
// mounted at /data (a volume, or the image's own anonymous one) is its --data-dir, unless one is given.
import { statSync } from 'node:fs';

const mounted = (() => {
  try {
    return statSync('/data').dev !== statSync('/').dev;
  } catch {
    return false;
  }
})();
const given = process.env.LABELMOCK_DATA_DIR !== undefined || process.argv.some((arg) => arg.startsWith('--data-dir'));
if (mounted && !given) process.argv.push('--data-dir', '/data');
await import('./dist/labelmock.mjs');
