import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { MAX_TALLIED_NAMES } from '../store/warning-tally.js';

const WarningsSchema = z
  .object({
    ignored_parameters: z
      .object({
        total: z.number().int().min(0).describe('Parameters ignored since the tenant was made (or reset).'),
        names: z
          .array(z.object({ name: z.string(), count: z.number().int().min(1) }).strict())
          .max(MAX_TALLIED_NAMES)
          .describe(
            `Each ignored parameter as the 400 would name it ("callback_url", "params.foo"), most often first; ` +
              `the first ${MAX_TALLIED_NAMES} distinct names.`,
          ),
        other: z
          .number()
          .int()
          .min(0)
          .describe('Ignored parameters not in names: past the distinct names kept, or past the few a request names.'),
      })
      .strict(),
  })
  .strict()
  .describe(
    "What the tenant's lenient requests ignored (settings.unknown_params lenient): every Labelmock-Warning, added up.",
  );

/** GET /_mock/warnings: after a suite's run, every parameter its app sent that no route declares, by name. */
export function warningRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/warnings',
      tag: 'Control',
      summary: "The parameters the tenant's requests sent that were ignored, counted by name",
      description:
        'With `unknown_params: lenient` (the default), a /v1 or /v2 parameter no route declares is accepted and ' +
        "ignored, as the real service does, and named in the answer's `Labelmock-Warning` header. This adds them " +
        'up per tenant, so a suite can fail on typos its app sends. `POST /_mock/reset` starts the count again.',
      response: WarningsSchema,
      errors: [],
      examples: () => ({
        response: { ignored_parameters: { total: 3, names: [{ name: '"callback_url"', count: 3 }], other: 0 } },
      }),
      handler: ({ tenant }) => {
        const { total, other } = tenant.warnings;
        return { ignored_parameters: { total, names: tenant.warnings.entries(), other } };
      },
    }),
  ];
}
