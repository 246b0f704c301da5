// The scale benchmark's report (bench/lib/scale-report.mjs): each curve's ends and ratio, its
// table, and its plot as a standalone SVG document.
import { describe, expect, it } from 'vitest';
import {
  curveEnds,
  formatNumber,
  renderPart,
  renderSvg,
  type ScaleCurve,
} from '../../bench/lib/scale-report.mjs';

const curve: ScaleCurve = {
  id: 'stores-get',
  title: 'GetTask p99 <by size>',
  x: { label: 'stored tasks', log: true },
  y: { label: 'ms' },
  series: [
    {
      name: 'sqlite',
      points: [
        [10_000, 0.5],
        [1_000_000, 0.6],
        [10_000_000, 0.75],
      ],
    },
    {
      name: 'postgres',
      points: [
        [10_000, 1],
        [10_000_000, 1.2],
      ],
    },
  ],
};

describe('scale report', () => {
  it("states each series' first and last point and their ratio", () => {
    expect(curveEnds(curve)).toEqual([
      'sqlite: 0.5 at 10,000 → 0.75 at 10,000,000 (×1.5)',
      'postgres: 1 at 10,000 → 1.2 at 10,000,000 (×1.2)',
    ]);
    expect(formatNumber(1234.4)).toBe('1,234');
    expect(formatNumber(0.012345)).toBe('0.0123');
  });

  it('renders a section with the plot linked and the points as a table', () => {
    const text = renderPart(
      { part: 'stores', heading: 'Store size', summary: ['flat'], curves: [curve] },
      (c) => `${c.id}.svg`,
    );
    expect(text).toContain('## Store size');
    expect(text).toContain('![GetTask p99 <by size>](stores-get.svg)');
    expect(text).toContain('| stored tasks | sqlite (ms) | postgres (ms) |');
    expect(text).toContain('| 1,000,000 | 0.6 | – |');
  });

  it('draws a plot: one line and a marker per point for each series, labels escaped', () => {
    const svg = renderSvg(curve);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(5);
    expect(svg).toContain('GetTask p99 &lt;by size&gt;');
    // Log-scale ticks at the powers of ten the data spans.
    for (const tick of ['>10k<', '>100k<', '>1M<', '>10M<']) expect(svg).toContain(tick);
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
});
