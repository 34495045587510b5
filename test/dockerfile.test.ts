import { readFileSync } from 'node:fs';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

/**
 * The Dockerfile, linted (dockerfile-utils, the Dockerfile language server's checks) and read for what the
 * image promises: a pinned official Node base, a user without privileges, the port, the health check, the OCI
 * labels. `npm run test:image` builds and runs it (buildah, no Docker daemon).
 */

const ROOT = new URL('..', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', ROOT), 'utf8');
/** Instructions of the final stage, continuation lines joined. */
const finalStage = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split(/^FROM /m)
  .at(-1)
  ?.split('\n')
  .filter((line) => /^[A-Z]+ /.test(line)) as string[];
const instruction = (name: string) => finalStage.filter((line) => line.startsWith(`${name} `));

describe('Dockerfile', () => {
  it('has no problem dockerfile-utils finds (and the linter finds a planted one)', () => {
    expect(validate(dockerfile)).toEqual([]);
    expect(validate('FROM node\nEXPOSE abc\n').map((d) => d.message)).toEqual(['Invalid containerPort: abc']);
  });

  it('builds on the official Node 24 image pinned by tag, swappable with NODE_IMAGE', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24\.\d+\.\d+-bookworm-slim$/m);
    const base = '$' + '{NODE_IMAGE}'; // the Dockerfile's variable, not a template placeholder
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual([`FROM ${base} AS build`, `FROM ${base}`]);
  });

  it('runs as a user without privileges, on all addresses, port 3000, with a health check and OCI labels', () => {
    expect(instruction('USER')).toEqual(['USER 10001']);
    expect(instruction('EXPOSE')).toEqual(['EXPOSE 3000']);
    expect(instruction('HEALTHCHECK')[0]).toContain('/_mock/health');
    expect(instruction('ENV')[0]).toMatch(/HOST=0\.0\.0\.0 .*LABELMOCK_ALLOWED_HOSTS=localhost,127\.0\.0\.1,labelmock/);
    const labels = instruction('LABEL')[0] ?? '';
    for (const label of ['version', 'source', 'licenses', 'title']) {
      expect(labels).toContain(`org.opencontainers.image.${label}=`);
    }
    expect(instruction('ENTRYPOINT')).toEqual(['ENTRYPOINT ["node", "/app/docker-entrypoint.mjs"]']);
  });

  it('.dockerignore leaves out what the build makes or installs', () => {
    const ignored = readFileSync(new URL('.dockerignore', ROOT), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', 'python']));
  });
});
