import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { createApp } from '../app.js';

/** labelmock's documents of the service (v1 and v2), as its server answers them at /openapi.json. */
export async function labelmockDocuments(): Promise<OpenAPIObject[]> {
  const app = createApp({ config: { selfCheck: 'off', log: 'off' } });
  try {
    return await Promise.all(
      ['/openapi.json', '/openapi-v2.json'].map(
        async (path) => (await app.request(path)).json() as Promise<OpenAPIObject>,
      ),
    );
  } finally {
    app.dispose();
  }
}
