/**
 * What each request body is, by operationId, for bodies whose schema carries no description of
 * its own (a component's or the zod schema's description comes first).
 */
export const REQUEST_DESCRIPTIONS: Record<string, string> = {
  postV1TaskTaskIdSetMetadata: 'The new metadata: a JSON object of at most 10 KB',
  postV1TaskTaskIdUniqueId: 'The new unique_id',
  postV1TaskTaskIdDependentsOptions:
    'Dependent task definitions: each a type and its parameters (the data item is the root task’s)',
  postV1TaskTaskIdAudit: 'The audit result: accepted or not, with optional comments',
  postV1TaskTaskIdTags: 'The tags the task keeps',
  putV1TaskTaskIdTags: 'The tags to add',
  deleteV1TaskTaskIdTags: 'The tags to remove',
  postV1Projects: 'The new project: its task type, unique name, kind (rapid, studio) and default task parameters',
  postV1ProjectsUpdatePipelineConfig: 'The project name and its new pipeline',
  postV1ProjectsNameSetParams: 'The parameter version: any task parameters, with patch and instruction',
  postV1ProjectsNameSetOntology: 'The ontology version: a name and its label choices',
  postV1ProjectsNameUpdatePipelineConfig: 'The new pipeline (and consensus attempts for consensus_task)',
  postV1Batches: 'The new batch: its project, unique name, callback and kind',
  postV1BatchesBatchNamePrioritize: 'The priority, from 10 to 30',
  postV1BatchesBatchNameSetMetadata: 'The new metadata: a JSON object of at most 10 KB',
  postV1FilesImport: 'The file URL and the file record’s optional fields',
  postV1TeamsInvite: 'The e-mail addresses to invite (`emails`, or `email`) and their role',
  postV1TeamsSetRole: 'The teammates’ e-mail addresses (`emails`, or `email`) and their new role',
  postV1StudioAssignmentsAdd: 'The teammates’ e-mail addresses and the Studio projects to assign them to',
  postV1StudioAssignmentsRemove: 'The teammates’ e-mail addresses and, optionally, the projects to unassign',
  postV1StudioProjectsProjectGroups: 'The group name and its members’ e-mail addresses',
  putV1StudioProjectsProjectGroupsGroup: 'The members to add and to remove',
  postV1StudioProjectsProjectGroupsGroup: 'The members to add and to remove',
  postV1StudioBatchesSetPriorities: 'Every pending Studio batch, by name, in the new order',
  putV1StudioBatchesBatch: 'The labeler groups (or teammates’ e-mail addresses) to work on the batch',
  postV1StudioBatchesBatch: 'The labeler groups (or teammates’ e-mail addresses) to work on the batch',
  postV1StudioProjectsProjectNameSendTasksToCompleted: 'The batches to send (`batches`), or all_batches',
  postMockTasksTaskIdComplete: 'The response to complete the task with; without one, a response is synthesized',
  postMockTasksTaskIdFail: 'The error message the task keeps',
  postMockTasksTaskIdAudit: 'The reviewers’ result, with a corrected response when fixed',
  postMockClockAdvance: 'How many milliseconds to move the clock forward',
  patchMockSettings: 'The settings to change; the others keep their values',
  putMockState: 'A state as GET /_mock/state answers it',
  postMockTeamsAccept: 'The e-mail addresses of the invitees who accept',
  postMockQualityAttempts: 'The attempts to record',
};

/** A task creation body without required parameters has no description of its own. */
export const CREATE_REQUEST_DESCRIPTION = 'The task parameters: the ones every type takes, and the type’s own';
