/**
 * What each request body is, by operation (`METHOD path`), for bodies whose schema carries no description of
 * its own (a component's or the zod schema's description comes first).
 */
export const REQUEST_DESCRIPTIONS: Record<string, string> = {
  'POST /v1/task/{taskId}/setMetadata': 'The new metadata: a JSON object of at most 10 KB',
  'POST /v1/task/{taskId}/unique_id': 'The new unique_id',
  'POST /v1/task/{taskId}/dependents/options':
    'Dependent task definitions: each a type and its parameters (the data item is the root task’s)',
  'POST /v1/task/{taskId}/audit': 'The audit result: accepted or not, with optional comments',
  'POST /v1/task/{taskId}/tags': 'The tags the task keeps',
  'PUT /v1/task/{taskId}/tags': 'The tags to add',
  'DELETE /v1/task/{taskId}/tags': 'The tags to remove',
  'POST /v1/projects': 'The new project: its task type, unique name, kind (rapid, studio) and default task parameters',
  'POST /v1/projects/updatePipelineConfig': 'The project name and its new pipeline',
  'POST /v1/projects/{name}/setParams': 'The parameter version: any task parameters, with patch and instruction',
  'POST /v1/projects/{name}/setOntology': 'The ontology version: a name and its label choices',
  'POST /v1/projects/{name}/updatePipelineConfig': 'The new pipeline (and consensus attempts for consensus_task)',
  'POST /v1/batches': 'The new batch: its project, unique name, callback and kind',
  'POST /v1/batches/{batchName}/prioritize': 'The priority, from 10 to 30',
  'POST /v1/batches/{batchName}/setMetadata': 'The new metadata: a JSON object of at most 10 KB',
  'POST /v1/files/import': 'The file URL and the file record’s optional fields',
  'POST /v1/teams/invite': 'The e-mail addresses to invite (`emails`, or `email`) and their role',
  'POST /v1/teams/set_role': 'The teammates’ e-mail addresses (`emails`, or `email`) and their new role',
  'POST /v1/studio/assignments/add': 'The teammates’ e-mail addresses and the Studio projects to assign them to',
  'POST /v1/studio/assignments/remove': 'The teammates’ e-mail addresses and, optionally, the projects to unassign',
  'POST /v1/studio/projects/{project}/groups': 'The group name and its members’ e-mail addresses',
  'PUT /v1/studio/projects/{project}/groups/{group}': 'The members to add and to remove',
  'POST /v1/studio/projects/{project}/groups/{group}': 'The members to add and to remove',
  'POST /v1/studio/batches/set_priorities': 'Every pending Studio batch, by name, in the new order',
  'PUT /v1/studio/batches/{batch}': 'The labeler groups (or teammates’ e-mail addresses) to work on the batch',
  'POST /v1/studio/batches/{batch}': 'The labeler groups (or teammates’ e-mail addresses) to work on the batch',
  'POST /v1/studio/projects/{projectName}/send_tasks_to_completed': 'The batches to send (`batches`), or all_batches',
  'POST /_mock/tasks/{taskId}/complete':
    'The response to complete the task with; without one, a response is synthesized',
  'POST /_mock/tasks/{taskId}/fail': 'The error message the task keeps',
  'POST /_mock/tasks/{taskId}/audit': 'The reviewers’ result, with a corrected response when fixed',
  'POST /_mock/clock/advance': 'How many milliseconds to move the clock forward',
  'PATCH /_mock/settings': 'The settings to change; the others keep their values',
  'PUT /_mock/state': 'A state as GET /_mock/state answers it',
  'POST /_mock/teams/accept': 'The e-mail addresses of the invitees who accept',
  'POST /_mock/quality/attempts': 'The attempts to record',
};

/** A task creation body without required parameters has no description of its own. */
export const CREATE_REQUEST_DESCRIPTION = 'The task parameters: the ones every type takes, and the type’s own';
