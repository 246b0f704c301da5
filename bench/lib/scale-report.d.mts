// Types of bench/lib/scale-report.mjs, for the tests that import it (test/bench/).

export interface ScaleCurve {
  id: string;
  title: string;
  x: { label: string; log?: boolean };
  y: { label: string; log?: boolean };
  series: { name: string; points: [number, number][] }[];
}

export interface ScaleResult {
  part: string;
  heading: string;
  setup?: string[];
  tables?: { title: string; columns: string[]; rows: unknown[][]; note?: string }[];
  curves?: ScaleCurve[];
  summary?: string[];
}

export function formatNumber(n: number): string;
export function markdownTable(columns: unknown[], rows: unknown[][]): string;
export function curveEnds(curve: ScaleCurve): string[];
export function renderPart(result: ScaleResult, plotPath: (curve: ScaleCurve) => string): string;
export function renderSvg(curve: ScaleCurve): string;
