// Markdown report of one benchmark run: a row per (server, run), with ratios against the bare
// node:http server for the same run (the practical ceiling, so ×bare ≤ 1 for throughput).
//
// Row shape: { server, run, status, result?, cpu?, peakRss?, tasksHeld?, ratio? } where status is
// 'ok…', 'not available: …' or 'FAILED: …', result is runLoad()'s (bench/lib/load-runner.mjs) or
// several of them combined, cpu is cpuSince()'s (bench/lib/cpu.mjs), and ratio the per-round
// req/s ratio to bare (bench/lib/rounds.mjs).

// The servers that keep no task (bare ones and the floors without a store), whose RSS does not
// follow the count of tasks answered.
const KEEPS_NONE = /^(bare|ideal-a2a$|ideal-stream$)/;
const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
const fmtMs = (n) => (n < 10 ? n.toFixed(1) : fmtInt(n));
// Status text can carry server error messages; keep them inside their table cell.
const cell = (text) => String(text).replace(/\s+/g, ' ').replaceAll('|', '\\|');
const pct = (n) => (n == null ? 'n/a' : `${Math.round(n)}%`);
const ratio = (value, base) => (base ? ` (${(value / base).toFixed(2)}×)` : '');
/**
 * A paired ratio (rounds.mjs `pairedRatio`) as text, to `digits` decimals: its median ("0.54×") and,
 * over several rounds, its range ("0.51-0.59", else '').
 */
export function pairedRatioText({ median, min, max, n }, digits) {
  return {
    median: `${median.toFixed(digits)}×`,
    range: n > 1 ? `${min.toFixed(digits)}-${max.toFixed(digits)}` : '',
  };
}
/** The per-round req/s ratio to bare, as the table shows it. */
const roundRatio = (paired) => {
  const { median, range } = pairedRatioText(paired, 2);
  return ` (${median}${range && `, ${range}`})`;
};

/** Bad responses in a timed run: transport errors, timeouts, non-2xx and wrong bodies. */
export function badCount(r) {
  return r.errors + r.timeouts + r.non2xx + r.mismatches;
}

function errorsCell(r) {
  const bad = badCount(r);
  if (bad === 0) return '0';
  const parts = [
    ['non-2xx', r.non2xx],
    ['bad body', r.mismatches],
    ['socket', r.errors],
    ['timeout', r.timeouts],
  ].filter(([, n]) => n > 0);
  return `${fmtInt(bad)} (${parts.map(([k, n]) => `${k} ${fmtInt(n)}`).join(', ')})`;
}

/** max and wrk's own p99 with the connection ramp (load-wrk.lua), where the run measured them. */
function steadyCells(r) {
  if (!r.steady) return '– | –';
  const ramp = r.rampMs == null ? '–' : fmtInt(r.rampMs);
  return `${fmtMs(r.max)} | ${fmtMs(r.wrkP99)} / ${ramp}`;
}

/** The markdown document: header lines, the results table, and notes. */
export function renderReport({ header, rows, notes }) {
  const bare = new Map(rows.filter((r) => r.server === 'bare' && r.result).map((r) => [r.run, r]));
  const lines = [...header, ''];
  lines.push(
    '| server | run | req/s (×bare) | p50 ms | p99 ms (×bare) | max ms | wrk p99 ms / ramp ms | errors | peak RSS MiB (×bare) | tasks held | CPU server / load gen | status |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  for (const row of rows) {
    const r = row.result;
    if (!r) {
      lines.push(`| ${row.server} | ${row.run} | – | – | – | – | – | – | – | – | – | ${cell(row.status)} |`);
      continue;
    }
    const base = row.server === 'bare' ? null : bare.get(row.run);
    const rss = row.peakRss == null ? 'n/a' : `${row.peakRss.toFixed(1)}${ratio(row.peakRss, base?.peakRss)}`;
    lines.push(
      `| ${row.server} | ${row.run} | ${fmtInt(r.requestsPerSec)}${row.ratio ? roundRatio(row.ratio) : ratio(r.requestsPerSec, base?.result.requestsPerSec)} ` +
        `| ${fmtMs(r.p50)} | ${fmtMs(r.p99)}${ratio(r.p99, base?.result.p99)} | ${steadyCells(r)} | ${errorsCell(r)} | ${rss} | ${KEEPS_NONE.test(row.server) ? '– (keeps none)' : fmtInt(row.tasksHeld)} | ${pct(row.cpu?.serverPct)} / ${pct(row.cpu?.loadGenPct)} | ${cell(row.status)} |`,
    );
  }
  if (notes.length) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}
