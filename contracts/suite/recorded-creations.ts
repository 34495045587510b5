/**
 * Task creations the official Ruby client's spec suite sent to the real service in 2019, and the `params` and
 * `instruction` the real service answered: scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/<file>.yml (VCR
 * recordings, test key). Evidence, quoted as recorded; contracts/suite/fidelity.ts replays them.
 */
export interface RecordedCreation {
  /** The cassette, spec/cassettes/<file>.yml. */
  file: string;
  /** The creation path after /v1/. */
  path: string;
  request: Record<string, unknown>;
  params: Record<string, unknown>;
  instruction: string;
}

export const RECORDED_CREATIONS: readonly RecordedCreation[] = [
  {
    file: 'categorization',
    path: 'task/categorization',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Is this company public or private?',
      attachment_type: 'website',
      attachment: 'https://www.google.com',
      categories: ['public', 'private'],
    },
    params: {
      attachment_type: 'website',
      attachment: 'https://www.google.com',
      categories: ['public', 'private'],
      allow_multiple: false,
    },
    instruction: 'Is this company public or private?',
  },
  {
    file: 'cuboid_annotation',
    path: 'task/cuboidannotation',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a cuboid around each car or truck.',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['car', 'truck'],
    },
    params: {
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      attachment_type: 'image',
      objects_to_annotate: ['car', 'truck'],
      with_labels: true,
      min_annotations: 0,
      max_annotations: 0,
    },
    instruction: 'Draw a cuboid around each car or truck.',
  },
  {
    file: 'image_recognition',
    path: 'task/annotation',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a box around each **baby cow** and **big cow**',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['baby cow', 'big cow'],
      with_labels: true,
      examples: [
        { correct: true, image: 'http://i.imgur.com/lj6e98s.jpg', explanation: 'The boxes are tight and accurate' },
        {
          correct: false,
          image: 'http://i.imgur.com/HIrvIDq.jpg',
          explanation: 'The boxes are neither accurate nor complete',
        },
      ],
    },
    params: {
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      attachment_type: 'image',
      objects_to_annotate: ['baby cow', 'big cow'],
      with_labels: true,
      min_width: 0,
      min_height: 0,
      examples: [
        { correct: true, image: 'http://i.imgur.com/lj6e98s.jpg', explanation: 'The boxes are tight and accurate' },
        {
          correct: false,
          image: 'http://i.imgur.com/HIrvIDq.jpg',
          explanation: 'The boxes are neither accurate nor complete',
        },
      ],
    },
    instruction: 'Draw a box around each **baby cow** and **big cow**',
  },
  {
    file: 'line_annotation',
    path: 'task/lineannotation',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['big cow'],
      with_labels: true,
    },
    params: {
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      attachment_type: 'image',
      objects_to_annotate: ['big cow'],
      with_labels: true,
      splines: false,
    },
    instruction: 'Draw a tight shape around the big cow',
  },
  {
    file: 'audio_transcription',
    path: 'task/audiotranscription',
    request: {
      callback_url: 'http://www.example.com/callback',
      attachment_type: 'audio',
      attachment: 'https://storage.googleapis.com/deepmind-media/pixie/knowing-what-to-say/second-list/speaker-3.wav',
      verbatim: false,
    },
    params: {
      attachment: 'https://storage.googleapis.com/deepmind-media/pixie/knowing-what-to-say/second-list/speaker-3.wav',
      attachment_type: 'audio',
      verbatim: false,
      skip_human_transcription: false,
    },
    instruction: 'Please transcribe the attached audio file.',
  },
  {
    file: 'comparison',
    path: 'task/comparison',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Do the objects in these images have the same pattern?',
      attachments: [
        'http://i.ebayimg.com/00/$T2eC16dHJGwFFZKjy5ZjBRfNyMC4Ig~~_32.JPG',
        'http://images.wisegeek.com/checkered-tablecloth.jpg',
      ],
      attachment_type: 'image',
      choices: ['yes', 'no'],
    },
    params: {
      attachments: [
        'http://i.ebayimg.com/00/$T2eC16dHJGwFFZKjy5ZjBRfNyMC4Ig~~_32.JPG',
        'http://images.wisegeek.com/checkered-tablecloth.jpg',
      ],
      attachment_type: 'image',
      choices: ['yes', 'no'],
    },
    instruction: 'Do the objects in these images have the same pattern?',
  },
  {
    file: 'point_annotation',
    path: 'task/pointannotation',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a point on every **headlight** and **brakelight** of a car in the image.',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/XOJbalC.jpg',
      objects_to_annotate: ['headlight', 'brakelight'],
      with_labels: true,
    },
    params: {
      attachment: 'http://i.imgur.com/XOJbalC.jpg',
      attachment_type: 'image',
      objects_to_annotate: ['headlight', 'brakelight'],
      with_labels: true,
    },
    instruction: 'Draw a point on every **headlight** and **brakelight** of a car in the image.',
  },
  {
    file: 'polygon_annotation',
    path: 'task/polygonannotation',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['big cow'],
      with_labels: true,
    },
    params: {
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      attachment_type: 'image',
      objects_to_annotate: ['big cow'],
      with_labels: true,
    },
    instruction: 'Draw a tight shape around the big cow',
  },
  {
    file: 'data_collection',
    path: 'task/datacollection',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Find the URL for the hiring page for the company with attached website.',
      attachment: 'https://scale.com/',
      attachment_type: 'website',
      fields: { hiring_page: 'Hiring Page URL' },
    },
    params: {
      attachment_type: 'website',
      attachment: 'https://scale.com/',
      fields: { hiring_page: 'Hiring Page URL' },
    },
    instruction: 'Find the URL for the hiring page for the company with attached website.',
  },
  {
    file: 'transcription',
    path: 'task/transcription',
    request: {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Transcribe the given fields.',
      attachment_type: 'website',
      attachment: 'http://news.ycombinator.com/',
      fields: { title: 'Title of Webpage', top_result: 'Title of the top result' },
    },
    params: {
      attachment_type: 'website',
      attachment: 'http://news.ycombinator.com/',
      fields: { title: 'Title of Webpage', top_result: 'Title of the top result' },
    },
    instruction: 'Transcribe the given fields.',
  },
];
