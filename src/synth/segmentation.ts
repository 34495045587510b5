import type { LabelDescription } from '../domain/common/labels.js';
import type { AnnotationAttributes } from '../domain/tasks/attributes.js';
import { type SegmentationResponse, segmentationLeaves } from '../domain/tasks/segmentation.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeAttributes } from './attributes.js';

/**
 * Result images are never rendered: their URLs point at a reserved host (`.invalid` never resolves),
 * so a client that downloads them fails loudly instead of fetching something unrelated.
 */
const RESULTS_BASE = 'https://results.labelmock.invalid';
/** Instance labels get this many instances each. */
const INSTANCES_PER_LABEL = 2;

interface Params {
  labels: LabelDescription[];
  instance_labels?: LabelDescription[];
  annotation_attributes?: AnnotationAttributes;
}

/** A valid, deterministic segmentation result: every leaf label mapped, one mask per label or instance. */
export function synthesizeSegmentation(taskId: string, params: Params, rng: Rng): SegmentationResponse {
  const file = (name: string) => `${RESULTS_BASE}/${taskId}/${name}`;
  const labelMapping: SegmentationResponse['labelMapping'] = {};
  const labeled: SegmentationResponse['annotations']['labeled'] = {};
  let index = 1;
  for (const leaf of segmentationLeaves(params.labels, params.instance_labels)) {
    const slug = encodeURIComponent(leaf.name);
    // Every entry as recorded (commaai/comma10k@f633ba6, scale/response/*.json): attributes null when none were
    // asked, and the pixels it covers. Escaped spellings of dotted labels are not made: see plainLabel.
    if (!leaf.instance) {
      labelMapping[leaf.name] = { color: color(rng), index: index++, attributes: null, numPixels: pixels(rng) };
      labeled[leaf.name] = file(`labeled/${slug}.png`);
      continue;
    }
    labelMapping[leaf.name] = Array.from({ length: INSTANCES_PER_LABEL }, () => {
      const attributes = synthesizeAttributes(params.annotation_attributes, leaf.name, rng);
      const answered = Object.keys(attributes).length > 0 ? attributes : null;
      return { color: color(rng), index: index++, attributes: answered, numPixels: pixels(rng) };
    });
    labeled[leaf.name] = Array.from({ length: INSTANCES_PER_LABEL }, (_, i) => file(`labeled/${slug}/${i}.png`));
  }
  return {
    labelMapping,
    annotations: {
      // Always a mask, as recorded with allow_unlabeled false (scaleapi/scaleapi-ruby@e6354d9,
      // spec/cassettes/segment_annotation.yml): without allow_unlabeled it simply marks no pixel.
      unlabeled: file('unlabeled.png'),
      labeled,
      combined: {
        image: file('combined.png'),
        indexedImage: file('indexed.png'),
        extendedIndexedImage: file('extended-indexed.png'),
      },
    },
  };
}

/** Pixels a label covers in a 1920x1080 image: a few thousand to a few hundred thousand. */
const pixels = (rng: Rng) => rng.int(1_000, 300_000);

const color = (rng: Rng) =>
  `#${Array.from({ length: 3 }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join('')}`;
