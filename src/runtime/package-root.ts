import { existsSync } from 'node:fs';

/**
 * The package's root folder: where package.json, fixtures/ and inspector/ are. Found by walking up from this
 * module, which is src/runtime/ under tsx, dist/runtime/ in the build and dist/ in the single-file bundle
 * (dist/labelmock.mjs, which the Python wheel carries in a folder of the same shape).
 */
function packageRoot(): URL {
  let folder = new URL('.', import.meta.url);
  for (let up = 0; up < 3; up += 1) {
    if (existsSync(new URL('package.json', folder))) return folder;
    folder = new URL('..', folder);
  }
  throw new Error(`labelmock: no package.json above ${new URL('.', import.meta.url).pathname}`);
}

export const PACKAGE_ROOT = packageRoot();
