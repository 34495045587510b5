import type { z } from 'zod';
import { latestParamVersion, projectParamsSchema } from '../domain/projects/params.js';
import type { CreateProjectBodySchema, Project, SetOntologyBodySchema } from '../domain/projects/schemas.js';
import { findTaskType, TASK_TYPES } from '../domain/tasks/registry.js';
import { alreadyExists, invalidParameter, invalidParameters, wrongState } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { projectOf } from '../store/account.js';
import type { Tenant } from '../store/tenant.js';
import { requireNamed, requireUsable } from './account-objects.js';

export const requireProject = (tenant: Tenant, name: string) => requireNamed(tenant, 'project', name);
export const requireUsableProject = (tenant: Tenant, name: string, field = 'project') =>
  requireUsable(tenant, 'project', name, field);

function checkParams(type: string, params: Record<string, unknown>, path: string): Record<string, unknown> {
  const def = findTaskType(type);
  if (!def) return params;
  const parsed = projectParamsSchema(def).safeParse(params);
  if (!parsed.success) throw invalidParameters(parsed.error, path);
  return params;
}

export function createProject(tenant: Tenant, body: z.infer<typeof CreateProjectBodySchema>): Project {
  if (!findTaskType(body.type)) {
    throw invalidParameter(
      'type',
      `must be a known task type (one of ${Object.keys(TASK_TYPES).join(', ')}); got "${body.type}"`,
    );
  }
  if (tenant.shared.projects.has(body.name)) throw alreadyExists('project', body.name, 'this account');
  const now = toIso(tenant.stamp());
  const project: Project = {
    type: body.type,
    name: body.name,
    param_history: body.params
      ? [{ version: 0, created_at: now, ...checkParams(body.type, body.params, 'params') }]
      : [],
    created_at: now,
    rapid: body.rapid ?? false,
    studio: body.studio ?? false,
    ...(body.pipeline !== undefined && { pipeline: body.pipeline }),
    ...(body.consensus_attempts !== undefined && { consensus_attempts: body.consensus_attempts }),
    archived: false,
    ontologies: [],
  };
  tenant.shared.addProject(project, tenant.mode);
  return project;
}

/** Appends a version; with patch the latest parameters are kept where the request is silent (top level only). */
export function setProjectParams(tenant: Tenant, name: string, body: Record<string, unknown>): Project {
  const record = requireUsableProject(tenant, name, 'name');
  const { patch, ...requested } = body;
  const params = checkParams(record.project.type, requested, '');
  return tenant.shared.changeProject(record, (project) => {
    const latest = latestParamVersion(project);
    const base = patch === true && latest ? stripBookkeeping(latest) : {};
    project.param_history.push({
      ...base,
      ...params,
      version: latest ? latest.version + 1 : 0,
      created_at: toIso(tenant.stamp()),
    });
    return project;
  });
}

const stripBookkeeping = ({ version: _v, created_at: _c, ...params }: Record<string, unknown>) => params;

export function setOntology(tenant: Tenant, name: string, body: z.infer<typeof SetOntologyBodySchema>): Project {
  return tenant.shared.changeProject(requireUsableProject(tenant, name, 'name'), (project) => {
    project.ontologies.push({ name: body.name, ontology: body.ontology, created_at: toIso(tenant.stamp()) });
    return project;
  });
}

export function updatePipelineConfig(
  tenant: Tenant,
  name: string,
  pipeline: Project['pipeline'],
  attempts?: number,
): Project {
  const record = requireUsableProject(tenant, name, 'name');
  if (!record.project.studio) {
    throw wrongState(`Project "${name}"`, 'is not a studio project', 'only studio projects have a pipeline');
  }
  if (attempts !== undefined && pipeline !== 'consensus_task') {
    throw invalidParameter('consensus_attempts', 'is only allowed with pipeline consensus_task');
  }
  return tenant.shared.changeProject(record, (project) => {
    project.pipeline = pipeline;
    if (attempts !== undefined) project.consensus_attempts = attempts;
    else delete project.consensus_attempts;
    return project;
  });
}

export function listProjects(tenant: Tenant, archived?: boolean): Project[] {
  return [...tenant.shared.projects.values()]
    .map(projectOf)
    .filter((p) => archived === undefined || p.archived === archived);
}

/** The fields the interface lists for the set-parameters answer, with the mock's fixed values. */
export function extendedProject(project: Project) {
  return {
    ...project,
    pipelineName: project.pipeline ?? 'standard_task',
    numReviews: 0,
    numConsensus: project.consensus_attempts ?? 0,
    created_by: 'labelmock',
    created_with: 'api',
    projectType: project.type,
    pinned: false,
    externalDatasetId: '',
    customGradersUsedOrDismissed: false,
    edgeCaseAlertsEnabled: false,
    turnOnLongHints: false,
    isAudioTranscription: false,
    useOldOnboarding: false,
    containsAdultContent: false,
    useRapidSmartTraining: false,
    useTextCollectionTemplate: project.type === 'textcollection',
    datasetLinks: [],
    taxonomy: null,
    isSampleProject: false,
    modelEvalProject: false,
  };
}
