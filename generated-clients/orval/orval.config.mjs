/**
 * orval's configuration for both committed documents: its fetch client, with the custom fetch of
 * fetcher.ts (orval's way to give calls a base URL and a key).
 */
const project = (document, file) => ({
  input: { target: `../../${document}` },
  output: {
    target: `./generated/${file}`,
    client: 'fetch',
    override: { mutator: { path: './fetcher.ts', name: 'customFetch' } },
  },
});

export default {
  api: project('openapi.yaml', 'api.ts'),
  control: project('openapi-control.yaml', 'control.ts'),
};
