import { readFileSync } from 'node:fs';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

/**
 * deploy/: the Kubernetes manifests (kustomize) checked against the Kubernetes API's own schemas by
 * kubernetes-models' validators, and against what the shards and the router need of each other.
 */

const DEPLOY = new URL('../deploy/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, DEPLOY), 'utf8');
const KINDS = { Namespace, Service, StatefulSet, Deployment } as const;

type Kind = keyof typeof KINDS;
interface Manifest {
  kind: Kind;
  metadata: { name: string; namespace?: string };
  spec?: any;
}

const kustomization = parse(read('kustomization.yaml')) as {
  namespace: string;
  resources: string[];
  configMapGenerator: { name: string; files: string[] }[];
};
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(read(file)).map((document) => {
    expect(document.errors, file).toEqual([]);
    return document.toJSON() as Manifest;
  }),
);
const named = <K extends Kind>(kind: K, name: string) => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

describe('deploy/ for Kubernetes', () => {
  it('every manifest is valid for its kind (the Kubernetes API schemas)', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual([
      'Deployment',
      'Namespace',
      'Service',
      'Service',
      'StatefulSet',
    ]);
    for (const manifest of manifests) {
      const Model = KINDS[manifest.kind];
      expect(Model, manifest.kind).toBeDefined();
      expect(() => new Model(manifest as never).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
      expect(manifest.metadata.namespace ?? kustomization.namespace).toBe(kustomization.namespace);
    }
  });

  it('the validator refuses a manifest with a wrong field (it can fail)', () => {
    const broken = structuredClone(named('StatefulSet', 'labelmock'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(() => new StatefulSet(broken as never).validate()).toThrow(/containerPort/);
  });

  it('the router runs the shipped haproxy.cfg, naming each shard by its pod, whose --shard-id matches', () => {
    const [generator] = kustomization.configMapGenerator;
    expect(generator?.files).toEqual(['haproxy/haproxy.cfg']);
    const router = named('Deployment', 'labelmock-router').spec.template.spec;
    expect(router.volumes).toContainEqual({ name: 'config', configMap: { name: generator?.name } });
    const env = Object.fromEntries(
      router.containers[0].env.map((e: { name: string; value: string }) => [e.name, e.value]),
    );
    const shards = named('StatefulSet', 'labelmock');
    const headless = named('Service', shards.spec.serviceName);
    expect(headless.spec.clusterIP).toBe('None');
    expect(headless.spec.publishNotReadyAddresses).toBe(true);
    const config = read('haproxy/haproxy.cfg');
    for (let i = 0; i < shards.spec.replicas; i++) {
      const host = `labelmock-${i}.${headless.metadata.name}.${kustomization.namespace}.svc.cluster.local:8080`;
      expect(env[`LABELMOCK_SHARD_${i}`]).toBe(host);
      expect(config).toContain(`server shard-${i} "\${LABELMOCK_SHARD_${i}}" id ${i + 1}`);
    }
    expect(config).not.toContain(`LABELMOCK_SHARD_${shards.spec.replicas}`);
    const shard = shards.spec.template.spec.containers[0];
    expect(shard.args).toEqual(['--port', '8080', '--data-dir', '/data', '--shard-id', 'shard-$(POD_INDEX)']);
    expect(shard.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
    expect(router.containers[0].readinessProbe.httpGet.path).toBe('/_router/health');
    expect(config).toContain('monitor-uri /_router/health');
  });

  it('shards are probed on /_mock/health, run as non-root with resources, and run the released image', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const pod = named('StatefulSet', 'labelmock').spec.template.spec;
    const [container] = pod.containers;
    expect(container.image).toBe(`ghcr.io/labelmock/labelmock:${version}`);
    expect(container.readinessProbe.httpGet.path).toBe('/_mock/health');
    expect(container.livenessProbe.httpGet.path).toBe('/_mock/health');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toEqual(expect.any(String));
  });
});
