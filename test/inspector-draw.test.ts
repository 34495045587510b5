import { describe, expect, it } from 'vitest';
import { makeApp } from './helpers.js';

/** The inspector's drawing of a response (inspector/draw.mjs), tested without a browser: its SVG's structure. */

interface Tree {
  tag: string;
  attrs: Record<string, string | number>;
  children: (Tree | string)[];
}
interface Drawing {
  svg: Tree;
  legend: { label: string; colour: string; count: number }[];
  skipped: number;
}
const draw = (await import(new URL('../inspector/draw.mjs', import.meta.url).href)) as {
  drawImageResponse(response: unknown, size?: { width: number; height: number }): Drawing;
  svgText(tree: Tree): string;
};

const shapes = (drawing: Drawing) => drawing.svg.children.slice(1) as Tree[];

describe('inspector drawing', () => {
  it('draws each geometry of a synthesized image response at the coordinates the response holds', async () => {
    const t = makeApp();
    const geometries = {
      box: { objects_to_annotate: ['car'] },
      polygon: { objects_to_annotate: ['lane'] },
      line: { objects_to_annotate: ['curb'] },
      point: { objects_to_annotate: ['light'] },
      cuboid: { objects_to_annotate: ['truck'] },
    };
    const created = await t.call('POST', '/v1/task/imageannotation', {
      body: { attachment: 'https://example.com/a.jpg', geometries },
    });
    const done = await t.call('POST', `/_mock/tasks/${created.body.task_id}/complete`);
    const { annotations } = done.body.response;
    const drawing = draw.drawImageResponse(done.body.response);
    expect(drawing.skipped).toBe(0);
    expect(drawing.legend.map((entry) => [entry.label, entry.count])).toEqual(
      annotations.map((a: { label: string }) => [a.label, 1]),
    );
    const byLabel = new Map(shapes(drawing).map((shape) => [shape.attrs['data-label'], shape]));
    for (const annotation of annotations) {
      const shape = byLabel.get(annotation.label) as Tree;
      if (annotation.type === 'box') {
        expect(shape.attrs).toMatchObject({ x: annotation.left, y: annotation.top, width: annotation.width });
      } else if (annotation.type === 'polygon') {
        const drawn = String(shape.attrs.points).split(' ');
        expect(drawn).toEqual(annotation.vertices.map((v: { x: number; y: number }) => `${v.x},${v.y}`));
      } else if (annotation.type === 'point') {
        expect(shape.attrs).toMatchObject({ cx: annotation.x, cy: annotation.y });
      } else if (annotation.type === 'cuboid') {
        const lines = shape.children.filter((c) => typeof c !== 'string' && c.tag === 'line') as Tree[];
        expect(lines.map((l) => [l.attrs.x1, l.attrs.y1, l.attrs.x2, l.attrs.y2])).toEqual(
          annotation.edges.map((e: Record<string, number>) => [e.x1, e.y1, e.x2, e.y2]),
        );
      } else throw new Error(`an annotation of type ${annotation.type} was not checked`);
    }
    expect(new Set(annotations.map((a: { type: string }) => a.type))).toEqual(
      new Set(['box', 'polygon', 'point', 'cuboid']),
    );
  });

  it('a rotated box is drawn by its vertices; an unknown kind is counted, not drawn; text is escaped', () => {
    const response = {
      annotations: [
        {
          type: 'box',
          label: '<b>car</b>',
          left: 1,
          top: 2,
          width: 3,
          height: 4,
          vertices: [
            { x: 0, y: 0 },
            { x: 4, y: 1 },
            { x: 3, y: 5 },
            { x: -1, y: 4 },
          ],
        },
        { type: 'hologram', label: 'x' },
      ],
    };
    const drawing = draw.drawImageResponse(response, { width: 10, height: 8 });
    expect(drawing.skipped).toBe(1);
    expect(shapes(drawing)[0]?.attrs.points).toBe('0,0 4,1 3,5 -1,4');
    const text = draw.svgText(drawing.svg);
    expect(text).toContain('viewBox="0 0 10 8"');
    expect(text).toContain('<title>&lt;b&gt;car&lt;/b&gt; (box)</title>');
    expect(text).not.toContain('<b>');
  });
});
