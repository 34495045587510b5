/** The benchmarks' task: an imageannotation creation body for task `n`, in project p and batch b. */
export const imageBody = (n: number, extra: Record<string, unknown> = {}) => ({
  attachment: `https://example.com/images/${n}.jpg`,
  instruction: 'Draw a box around every car.',
  geometries: { box: { objects_to_annotate: ['car', 'truck'], min_height: 10, min_width: 10 } },
  project: 'p',
  batch: 'b',
  tags: ['t', `n${n % 10}`],
  unique_id: `u${n}`,
  metadata: { source: 'bench', n },
  ...extra,
});
