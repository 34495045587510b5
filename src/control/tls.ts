import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { noTlsCa } from '../errors/index.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';

const PemSchema = extendApi(z.string(), { description: 'The CA certificate, PEM (application/x-pem-file)' });

/**
 * GET /_mock/tls/ca.pem: what a client must trust to call a --tls server (REQUESTS_CA_BUNDLE, verify=,
 * NODE_EXTRA_CA_CERTS). Public, as a certificate is: a client fetches it before it can send its key safely.
 */
export function tlsRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/tls/ca.pem',
      tag: 'Control',
      summary: 'The CA certificate a --tls server signs its certificate with (no key needed)',
      description:
        "With --tls, the PEM of labelmock's own CA (made at the first start, kept in the TLS folder): trust it " +
        'and HTTPS to the server verifies. 404 on a plain-HTTP server, or one given its certificate by --tls-cert.',
      public: true,
      response: PemSchema,
      responseMediaType: 'application/x-pem-file',
      examples: () => ({ response: '-----BEGIN CERTIFICATE-----\nMIID...\n-----END CERTIFICATE-----\n' }),
      errors: ['not_found'],
      handler: ({ c }) => {
        const { tlsCaPem } = services;
        if (tlsCaPem === undefined) throw noTlsCa('this server speaks plain HTTP');
        if (tlsCaPem === null) throw noTlsCa('this server uses the certificate --tls-cert gave it');
        return c.body(tlsCaPem, 200, { 'Content-Type': 'application/x-pem-file' });
      },
    }),
  ];
}
