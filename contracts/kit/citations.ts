/**
 * Where each interface contract's rule is written: a section of the interface document, or of what
 * the real service is recorded doing where that document is silent (the official clients depend on
 * it). A contract is tagged `interface` by matching one of these patterns, so an interface contract
 * always says where its rule comes from (shown by --list and in failure reports); a contract whose
 * rule is written nowhere is labelmock's choice and belongs in the LABELMOCK patterns of tags.ts.
 * A citation of a recording, an old document or a third party's code (`recorded(...)`, `seen(...)`) tags its
 * contracts `recorded` instead: what the real service was seen doing, beyond the documented interface.
 * The first pattern that matches a contract's name gives its citation.
 */
type Citation = readonly [pattern: RegExp, cites: string];

const spec = (section: string) => `interface: ${section}`;
const real = (section: string) => `real service: ${section}`;
const both = (interfaceSection: string, realSection: string) => `${spec(interfaceSection)}; ${real(realSection)}`;

const CREATE_COMMON = 'Creating tasks: common parameters';
const MAINTENANCE = 'Task retrieval and maintenance';
const TEAMS = 'Team and Studio management';
const TYPE_SECTION: Record<string, string> = {
  imageannotation: 'POST /v1/task/imageannotation',
  segmentannotation: 'POST /v1/task/segmentannotation',
  videoannotation: 'POST /v1/task/videoannotation',
  videoplaybackannotation: 'POST /v1/task/videoplaybackannotation',
  lidarannotation: 'POST /v1/task/lidarannotation',
  lidarsegmentation: 'POST /v1/task/lidarsegmentation',
  lidartopdown: 'POST /v1/task/lidartopdown',
  lidarlinking: 'POST /v1/task/lidarlinking',
  textcollection: 'POST /v1/task/textcollection',
  namedentityrecognition: 'Named entity recognition task',
};

/** What the real service was recorded doing (VCR cassettes of its clients' suites) or documented to take. */
const RUBY_2019 = 'scaleapi/scaleapi-ruby@e6354d9 spec/cassettes';
const recorded = (where: string) => real(`recorded, ${where}`);
/** What a document or a program outside the interface shows the real service doing. */
const seen = (where: string) => real(`documented, ${where}`);
/** Whether a citation is of recorded or otherwise seen behaviour (the `recorded` tag), not the interface's. */
export const isRecordedCitation = (cites: string): boolean => /^real service: (recorded|documented), /.test(cites);

const CITATIONS: readonly Citation[] = [
  // First: these names also read as the sections below. docs/fidelity.md lists each piece of evidence.
  [/as the Ruby client sent it answers the params the real service recorded/, recorded(`${RUBY_2019}/<type>.yml`)],
  [/with the Ruby client bare filter keys/, recorded(`${RUBY_2019}/task_list_1.yml`)],
  [/\(the legacy path\)/, recorded('wikiti/scaleapi-ruby@aece53c test/fixtures/vcr_cassettes/tasks.yml')],
  [
    /links its frames in response\.annotations\.url/,
    seen('the callback docs and scale_lidar_io LidarAnnotationTask.get_annotations (PyPI scale-lidar-io)'),
  ],
  [
    /form-encoded as the 2018 docs curl example|reads nested form keys/,
    seen('the 2018 docs curl examples (alexandrwang/slate@3107e50)'),
  ],
  [
    /gives each labelMapping entry attributes and numPixels/,
    recorded('commaai/comma10k@f633ba6 scale/response/*.json'),
  ],
  [
    /as sail posts it|as sail starts paging/,
    seen('scaleapi/sail@1752021 batch.py and @6679edb task_download/task_download.py'),
  ],
  [
    /^GET \/v1\/batches pages by offset to the last page/,
    seen('scaleapi/sail@6679edb task_download/task_download.py; the Python client reads totalDocs'),
  ],
  // Authentication, wire basics and the status codes of errors.
  [/with Basic auth/, spec('Authentication')],
  [/without Authorization answers 401|with an unknown key answers 401/, both('Authentication', 'Status codes')],
  [/with malformed JSON answers 400/, real('Status codes')],
  [/with an unknown task type answers 400, 402 or 404/, real('Status codes')],
  [/with an unknown id answers? 404 "Task with that ID not found\."/, real('Status codes')],
  [/Content-Type: application\/json/, real('Wire basics')],
  // Limits and the common creation parameters.
  [/six tags|beyond five tags|metadata over 10 KB|priority 15|metadata of 9 KB|with 51 labels/, spec('Limits')],
  [/out of 10\.\.30/, spec('Limits')],
  [/max_responses_required 101|default_seconds above 86400|increment_seconds 0/, spec('Limits')],
  [/callback_url "not a url"|keeps the common parameters/, spec(CREATE_COMMON)],
  [/e-mail address as callback_url|takes callback as an alias/, spec('Conventions')],
  // Task shape and keys.
  [/a pending task of the Task table shape|gives every task a new task_id/, spec('Task object')],
  [/with a test key marks the task is_test|with the live key marks the task is_test/, spec('Task object')],
  [/accepts annotation_attributes with conditions/, spec('annotation_attributes')],
  [/label objects with subchoices|a label object without choice/, spec('LabelDescription')],
  [/max_vertices below min_vertices|integer_pixels and can_rotate/, spec('Geometries object')],
  // Reading, listing and changing tasks.
  [/^GET \/v1\/task\/\{id\} answers the task/, spec(MAINTENANCE)],
  [/^GET \/v1\/tasks (answers \{docs|answers has_more false|with limited_response)/, real('List endpoints')],
  [/^GET \/v1\/tasks( lists newest first| pages with next_token|\?type=|\?project=)/, spec(MAINTENANCE)],
  [/^GET \/v1\/tasks\?status=/, spec(MAINTENANCE)],
  [/^GET \/v1\/tasks( with repeated unique_id keys|\?customer_review_status=)/, real('Wire basics')],
  [/^GET \/v1\/tasks\?(start_time|updated_after|completed_after|unique_id)=/, real('List endpoints')],
  [/^POST \/v1\/task\/\{id\}\/cancel (moves|on a canceled|on a completed)/, spec('Task status')],
  [/^POST \/v1\/task\/\{id\}\/cancel/, spec(MAINTENANCE)],
  [/^POST \/v1\/task\/\{id\}\/setMetadata (replaces|and POST tags)/, both(MAINTENANCE, 'Tasks')],
  [/\/unique_id with an id another task holds answers 409/, real('Status codes')],
  [/\/unique_id (sets the unique_id|without unique_id|removes the key)/, both(MAINTENANCE, 'Tasks')],
  [/^(POST|PUT|DELETE) \/v1\/task\/\{id\}\/tags (replaces|adds|on a task|removes)/, real('Tasks')],
  [/^POST \/v1\/task\/\{id\}\/tags with an empty string/, spec(MAINTENANCE)],
  // unique_id and Idempotency-Key.
  [/with a used unique_id|with a unique_id used in another project/, spec('Errors')],
  [/may reuse a unique_id after DELETE/, real('Tasks')],
  [/Idempotency-Key|replays a stored 409/, spec('Limits; Errors')],
  // Tenants and test/live keys.
  [/another tenant/, spec('Authentication')],
  [
    /created with the live key cannot take test tasks|created with the test key takes no live tasks/,
    spec('What the service does'),
  ],
  [/with the test key leave a batch of the live key unchanged/, spec('Authentication')],
  // Status changes the control plane drives.
  [/^POST \/_mock\/tasks\/\{id\}\/fail (with|without) clear_unique_id_on_error/, spec('Task status')],
  // Projects and versions.
  [
    /^POST \/v1\/projects answers the project|^GET \/v1\/projects answers a bare array/,
    both('Projects', 'List endpoints'),
  ],
  [
    /an unknown project answers 404|with a used name answers 409|unknown type or invalid params answers 400/,
    real('Status codes'),
  ],
  [/setParams|^tasks created with project inherit/, both('Versioning', 'Projects')],
  [/setOntology/, both('Project object', 'Projects')],
  // Batches.
  [/^POST \/v1\/batches on a plain project|^POST \/v1\/batches\/\{name\}\/setMetadata/, real('Projects and batches')],
  [/^POST \/v1\/batches on a rapid project|finalize on a plain project/, spec('Batch status')],
  [/^POST \/v1\/batches with a used name/, real('Status codes')],
  [/^GET \/v1\/batches answers/, real('List endpoints')],
  [/^POST \/v1\/batches\/\{name\}\/prioritize/, spec('Batches')],
  [/^a batch completes once its tasks are finished/, both('Batch status', 'List endpoints')],
  // Callbacks, audits, dependents.
  [/callback/, both('Events', 'Callbacks')],
  [/\/audit/, real('Tasks')],
  [/\/dependents\//, spec('Dependent tasks')],
  // Teams, Studio, quality, files.
  [/^(GET|POST) \/v1\/(teams|studio)/, both(TEAMS, 'Files, teams, studio')],
  [/^GET \/v1\/quality\/labelers/, spec(TEAMS)],
  [/^POST \/v1\/files\/|^an uploaded attachment_url/, both('Files', 'Files, teams, studio')],
  // Type sections (last: other sections name these paths too): required parameters, rules, params.
  [
    /^POST \/v1\/task\/textcollection (keeps only the allowed HTML tags|with an attachment of)/,
    spec('TextCollectionAttachment'),
  ],
  [
    /^POST \/v1\/task\/textcollection with (a repeated field_id|an empty datetime|a category without)/,
    spec('Text collection fields'),
  ],
  [
    /^POST \/v1\/task\/namedentityrecognition with |^namedentityrecognition results/,
    spec('Named entity recognition objects'),
  ],
  ...Object.entries(TYPE_SECTION).map(
    ([type, section]): Citation => [new RegExp(`^POST /v1/task/${type} `), spec(section)],
  ),
  [/^POST \/v1\/task\/\w+ (accepts its required parameters|without \w+ answers 400 naming it)/, real('Tasks')],
];

/** The citation of an interface contract, or undefined when its name matches none. */
export function citationOf(name: string): string | undefined {
  return CITATIONS.find(([pattern]) => pattern.test(name))?.[1];
}
