// Rendering the results of `npm run bench:scale` (bench/scale.mjs): each part's tables and curves
// as markdown, and each curve as an SVG line plot.
//
// A part's result (what bench/scale/<part>.mjs writes to SCALE_RESULT) is:
//   { part, heading, setup: [line], tables: [{ title, columns: [name], rows: [[cell]] }],
//     curves: [{ id, title, x: { label, log? }, y: { label, log? },
//                series: [{ name, points: [[x, y]] }] }],
//     summary: [line] }
// `summary` holds the part's headline numbers (what a closing note quotes); every curve also gets a
// line with each series' first and last point and their ratio, the measure of "stays flat".

const cellText = (value) =>
  value === null || value === undefined
    ? '–'
    : typeof value === 'number'
      ? formatNumber(value)
      : String(value).replace(/\s+/g, ' ').replaceAll('|', '\\|');

/** A number as a table shows it: whole above 100, three significant digits below. */
export function formatNumber(n) {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 100) return Math.round(n).toLocaleString('en-US');
  if (abs === 0) return '0';
  return Number(n.toPrecision(3)).toString();
}

/** A markdown table. */
export function markdownTable(columns, rows) {
  const lines = [`| ${columns.map(cellText).join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.map(cellText).join(' | ')} |`);
  return lines.join('\n');
}

/** "first → last (×ratio)" for each series of a curve, the flatness at a glance. */
export function curveEnds(curve) {
  return curve.series
    .filter((s) => s.points.length > 0)
    .map((s) => {
      const [x0, y0] = s.points[0];
      const [x1, y1] = s.points.at(-1);
      const ratio = y0 > 0 ? ` (×${formatNumber(y1 / y0)})` : '';
      return `${s.name}: ${formatNumber(y0)} at ${formatNumber(x0)} → ${formatNumber(y1)} at ${formatNumber(x1)}${ratio}`;
    });
}

/** The curve's points as one table: x, then a column per series. */
function curveTable(curve) {
  const xs = [...new Set(curve.series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const rows = xs.map((x) => [x, ...curve.series.map((s) => s.points.find(([px]) => px === x)?.[1] ?? null)]);
  return markdownTable([curve.x.label, ...curve.series.map((s) => `${s.name} (${curve.y.label})`)], rows);
}

/** One part's section of the report; `plotPath(curve)` is where its SVG is linked from. */
export function renderPart(result, plotPath) {
  const out = [`## ${result.heading}`, ''];
  for (const line of result.setup ?? []) out.push(`- ${line}`);
  if ((result.setup ?? []).length > 0) out.push('');
  for (const line of result.summary ?? []) out.push(`**${line}**  `);
  if ((result.summary ?? []).length > 0) out.push('');
  for (const table of result.tables ?? []) {
    out.push(`### ${table.title}`, '', markdownTable(table.columns, table.rows), '');
    if (table.note) out.push(table.note, '');
  }
  for (const curve of result.curves ?? []) {
    out.push(`### ${curve.title}`, '', `![${curve.title}](${plotPath(curve)})`, '', curveTable(curve), '');
    for (const line of curveEnds(curve)) out.push(`- ${line}`);
    out.push('');
  }
  return out.join('\n');
}

// --- SVG plots ------------------------------------------------------------------------------

const WIDTH = 640;
/** The plot and its axis labels; the legend's rows come below. */
const PLOT_HEIGHT = 360;
const LEGEND_TOP = 8;
const LEGEND_ROW = 16;
const MARGIN = { left: 72, right: 16, top: 40, bottom: 52 };
// Colour-blind-safe (Okabe-Ito), with a dash pattern per series so print and greyscale tell them apart.
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'];

const escapeXml = (s) =>
  String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** Axis scale: domain [lo, hi] to pixels [a, b], log10 or linear. */
function scale(lo, hi, a, b, log) {
  if (log) {
    const l0 = Math.log10(lo);
    const l1 = Math.log10(hi);
    const span = l1 - l0 || 1;
    return (v) => a + ((Math.log10(v) - l0) / span) * (b - a);
  }
  const span = hi - lo || 1;
  return (v) => a + ((v - lo) / span) * (b - a);
}

/** Round tick values: powers of ten on a log axis, 1-2-5 steps on a linear one. */
function ticks(lo, hi, log) {
  if (log) {
    const out = [];
    for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) out.push(10 ** p);
    return out.filter((t) => t >= lo / 1.0001 && t <= hi * 1.0001);
  }
  const raw = (hi - lo) / 5 || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    out.push(Number(t.toPrecision(12)));
  return out;
}

const tickLabel = (v) => {
  const abs = Math.abs(v);
  if (abs >= 1e6 && Number.isInteger(v / 1e6)) return `${v / 1e6}M`;
  if (abs >= 1e3 && Number.isInteger(v / 1e3)) return `${v / 1e3}k`;
  return formatNumber(v);
};

/** The bounds of an axis over all points, padded so lines do not sit on the frame. */
function bounds(values, log) {
  const usable = log ? values.filter((v) => v > 0) : values;
  let lo = Math.min(...usable);
  let hi = Math.max(...usable);
  if (log) {
    lo = 10 ** Math.floor(Math.log10(lo));
    hi = 10 ** Math.ceil(Math.log10(hi));
    if (lo === hi) hi = lo * 10;
  } else {
    lo = Math.min(0, lo);
    const step = ticks(lo, hi, false)[1] - ticks(lo, hi, false)[0] || 1;
    hi = Math.ceil((hi * 1.05) / step) * step || 1;
  }
  return [lo, hi];
}

/** A curve as a standalone SVG document: axes, grid, one polyline and markers per series, legend. */
export function renderSvg(curve) {
  // The legend goes below the plot, a row per series, so it never hides a line.
  const HEIGHT = PLOT_HEIGHT + LEGEND_TOP + curve.series.length * LEGEND_ROW;
  const points = curve.series.flatMap((s) => s.points);
  const xLog = curve.x.log === true;
  const yLog = curve.y.log === true;
  const [x0, x1] = bounds(
    points.map(([x]) => x),
    xLog,
  );
  const [y0, y1] = bounds(
    points.map(([, y]) => y),
    yLog,
  );
  const sx = scale(x0, x1, MARGIN.left, WIDTH - MARGIN.right, xLog);
  const sy = scale(y0, y1, PLOT_HEIGHT - MARGIN.bottom, MARGIN.top, yLog);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" role="img" aria-label="${escapeXml(curve.title)}">`,
    `<title>${escapeXml(curve.title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(curve.title)}</text>`,
  ];
  for (const t of ticks(x0, x1, xLog)) {
    const x = sx(t).toFixed(1);
    out.push(
      `<line x1="${x}" x2="${x}" y1="${MARGIN.top}" y2="${PLOT_HEIGHT - MARGIN.bottom}" stroke="#e5e5e5"/>`,
      `<text x="${x}" y="${PLOT_HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${tickLabel(t)}</text>`,
    );
  }
  for (const t of ticks(y0, y1, yLog)) {
    const y = sy(t).toFixed(1);
    out.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${tickLabel(t)}</text>`,
    );
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${WIDTH - MARGIN.left - MARGIN.right}" height="${PLOT_HEIGHT - MARGIN.top - MARGIN.bottom}" fill="none" stroke="#333"/>`,
    `<text x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${PLOT_HEIGHT - 12}" text-anchor="middle">${escapeXml(curve.x.label)}${xLog ? ' (log scale)' : ''}</text>`,
    `<text transform="translate(16 ${(MARGIN.top + PLOT_HEIGHT - MARGIN.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(curve.y.label)}${yLog ? ' (log scale)' : ''}</text>`,
  );
  curve.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const dash = DASHES[i % DASHES.length];
    const usable = series.points.filter(([x, y]) => (!xLog || x > 0) && (!yLog || y > 0));
    const path = usable.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ');
    out.push(
      `<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
    );
    for (const [x, y] of usable) {
      out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${colour}"/>`);
    }
    const ly = PLOT_HEIGHT + LEGEND_TOP + i * LEGEND_ROW;
    const lx = MARGIN.left + 10;
    out.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      `<text x="${lx + 28}" y="${ly}" dominant-baseline="middle">${escapeXml(series.name)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
