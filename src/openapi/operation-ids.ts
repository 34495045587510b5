import { TASK_TYPES } from '../domain/tasks/registry.js';
import type { RouteSpec } from '../http/route.js';

/**
 * Every documented operation's id, as a person would name the function a generated client makes of
 * it: `getTask`, `listTasks`, `createImageAnnotationTask`, `completeTask`. Stable: renaming one breaks
 * every generated client, so ids are listed here, never derived from paths. The v2 ones are the
 * official Python client's method names. A route missing here fails the document's build.
 */
const IDS: Record<string, string> = {
  // v1: tasks
  'GET /v1/task/{taskId}': 'getTask',
  'GET /v1/tasks': 'listTasks',
  'POST /v1/task/{taskId}/cancel': 'cancelTask',
  'POST /v1/task/categorize': 'createCategorizationTaskLegacyPath',
  'POST /v1/task/{taskId}/setMetadata': 'setTaskMetadata',
  'POST /v1/task/{taskId}/unique_id': 'setTaskUniqueId',
  'DELETE /v1/task/{taskId}/unique_id': 'deleteTaskUniqueId',
  'POST /v1/task/{taskId}/dependents/options': 'setDependentOptions',
  'POST /v1/task/{taskId}/dependents/force_creation': 'forceDependentCreation',
  'POST /v1/task/{taskId}/audit': 'auditTask',
  'POST /v1/task/{taskId}/tags': 'setTaskTags',
  'PUT /v1/task/{taskId}/tags': 'addTaskTags',
  'DELETE /v1/task/{taskId}/tags': 'deleteTaskTags',
  'POST /v1/evaluation_tasks/{type}': 'createEvaluationTask',
  'POST /v1/training_tasks/{type}': 'createTrainingTask',
  // v1: projects and batches
  'GET /v1/projects': 'listProjects',
  'POST /v1/projects': 'createProject',
  'POST /v1/projects/updatePipelineConfig': 'updatePipelineConfig',
  'GET /v1/projects/{name}': 'getProject',
  'POST /v1/projects/{name}': 'getProjectByPost',
  'POST /v1/projects/{name}/setParams': 'setProjectParams',
  'POST /v1/projects/{name}/setOntology': 'setProjectOntology',
  'POST /v1/projects/{name}/updatePipelineConfig': 'updateProjectPipelineConfig',
  'GET /v1/projects/{name}/taskTemplates': 'getTaskTemplates',
  'POST /v1/batches': 'createBatch',
  'GET /v1/batches': 'listBatches',
  'GET /v1/batches/{batchName}': 'getBatch',
  'POST /v1/batches/{batchName}/finalize': 'finalizeBatch',
  'GET /v1/batches/{batchName}/status': 'getBatchStatus',
  'POST /v1/batches/{batchName}/prioritize': 'prioritizeBatch',
  'POST /v1/batches/{batchName}/setMetadata': 'setBatchMetadata',
  // v1: files, teams, Studio, quality
  'POST /v1/files/upload': 'uploadFile',
  'POST /v1/files/import': 'importFile',
  'GET /v1/files': 'listFiles',
  'GET /v1/teams': 'listTeammates',
  'POST /v1/teams/invite': 'inviteTeammates',
  'POST /v1/teams/set_role': 'setTeammateRole',
  'GET /v1/studio/assignments': 'listStudioAssignments',
  'POST /v1/studio/assignments/add': 'addStudioAssignments',
  'POST /v1/studio/assignments/remove': 'removeStudioAssignments',
  'GET /v1/studio/projects/{project}/groups': 'listLabelerGroups',
  'POST /v1/studio/projects/{project}/groups': 'createLabelerGroup',
  'PUT /v1/studio/projects/{project}/groups/{group}': 'updateLabelerGroup',
  'POST /v1/studio/projects/{project}/groups/{group}': 'updateLabelerGroupByPost',
  'GET /v1/studio/batches': 'listStudioBatches',
  'POST /v1/studio/batches/set_priorities': 'setStudioBatchPriorities',
  'POST /v1/studio/batches/reset_priorities': 'resetStudioBatchPriorities',
  'PUT /v1/studio/batches/{batch}': 'setStudioBatchGroups',
  'POST /v1/studio/batches/{batch}': 'setStudioBatchGroupsByPost',
  'POST /v1/studio/projects/{projectName}/send_tasks_to_completed': 'sendTasksToCompleted',
  'GET /v1/studio/projects/{projectName}/send_tasks_to_completed': 'sendTasksToCompletedByGet',
  'GET /v1/quality/labelers': 'listLabelerQuality',
  // v2 (the Python client's V2Api method names)
  'GET /v2/projects': 'getProjects',
  'GET /v2/project': 'getProject',
  'POST /v2/batch': 'createBatch',
  'GET /v2/batch': 'getBatch',
  'GET /v2/batches': 'getBatches',
  'POST /v2/batch/finalize': 'finalizeBatch',
  'POST /v2/batch/pause': 'pauseBatch',
  'POST /v2/batch/resume': 'resumeBatch',
  'POST /v2/batch/cancel': 'cancelBatch',
  'POST /v2/batch/metadata': 'setBatchMetadata',
  'GET /v2/task': 'getTask',
  'GET /v2/tasks': 'getTasks',
  'POST /v2/task': 'createTask',
  'POST /v2/task/chat': 'createChatTask',
  'POST /v2/task/metadata': 'setTaskMetadata',
  'GET /v2/annotation': 'getAnnotation',
  'GET /v2/deliveries': 'getDeliveries',
  'GET /v2/delivery': 'getDelivery',
  'GET /v2/delivery/tasks': 'getDeliveryTasks',
  'GET /v2/schema': 'getSchema',
  'GET /v2/datasets': 'getDatasets',
  'GET /v2/datasets/deliveries': 'getDatasetDeliveries',
  'GET /v2/datasets/delivery': 'getDatasetDelivery',
  'GET /v2/datasets/tasks': 'getDatasetTasks',
  'GET /v2/datasets/task': 'getDatasetTask',
  'GET /v2/datasets/task/{taskId}/response_url/{attachmentId}': 'getDatasetTaskResponseUrl',
  // the control plane
  'POST /_mock/tasks/{taskId}/complete': 'completeTask',
  'POST /_mock/tasks/{taskId}/fail': 'failTask',
  'POST /_mock/tasks/{taskId}/redo': 'redoTask',
  'POST /_mock/tasks/{taskId}/audit': 'reviewTask',
  'GET /_mock/clock': 'getClock',
  'POST /_mock/clock/advance': 'advanceClock',
  'GET /_mock/callbacks': 'listCallbacks',
  'GET /_mock/settings': 'getSettings',
  'PATCH /_mock/settings': 'updateSettings',
  'POST /_mock/reset': 'resetTenant',
  'GET /_mock/state': 'exportState',
  'PUT /_mock/state': 'importState',
  'GET /_mock/files/{fileId}/content': 'getFileContent',
  'GET /_mock/requests': 'listRequests',
  'DELETE /_mock/requests': 'clearRequests',
  'GET /_mock/events': 'streamEvents',
  'GET /_mock/wait': 'waitForEvent',
  'POST /_mock/tasks/{taskId}/start': 'startTaskWork',
  'GET /_mock/tasks/{taskId}': 'peekTask',
  'GET /_mock/tasks/{taskId}/timeline': 'getTaskTimeline',
  'GET /_mock/warnings': 'getWarnings',
  'GET /_mock/tls/ca.pem': 'getTlsCa',
  'GET /_mock/results/{taskId}/{token}': 'getResultFile',
  'POST /_mock/faults': 'addFaultRule',
  'GET /_mock/faults': 'listFaultRules',
  'DELETE /_mock/faults/{faultId}': 'deleteFaultRule',
  'DELETE /_mock/faults': 'clearFaultRules',
  'POST /_mock/teams/accept': 'acceptInvitations',
  'POST /_mock/quality/attempts': 'recordTrainingAttempts',
  'POST /_mock/v2/deliveries': 'createDelivery',
  'POST /_mock/v2/schemas': 'registerSchema',
  'POST /_mock/v2/datasets': 'createDataset',
  'GET /_mock/health': 'getHealth',
  'GET /metrics': 'getMetrics',
};

/** A route's key in the tables keyed by operation (`POST /v1/task/{taskId}/cancel`). */
export const routeKey = (route: Pick<RouteSpec, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

/** The operation's id: listed above, or `create<SchemaName>Task` for a task type's creation. */
export function operationId(route: Pick<RouteSpec, 'method' | 'path'>): string {
  const listed = IDS[routeKey(route)];
  if (listed) return listed;
  const type = route.method === 'post' ? /^\/v1\/task\/([a-z]+)$/.exec(route.path)?.[1] : undefined;
  const def = type === undefined ? undefined : TASK_TYPES[type];
  if (def) return `create${def.schemaName}Task`;
  throw new Error(`${routeKey(route)} has no operationId: name it in src/openapi/operation-ids.ts`);
}
