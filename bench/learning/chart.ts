/**
 * A small hand-written SVG line chart of questions per hundred messages by week: one line per run
 * (taught, discard, redeploy weekly), with the target line at 5. No dependencies.
 */
import type { RunResult } from './simulate.ts';

const COLOURS: Readonly<Record<string, string>> = {
  taught: '#1b7f3b',
  discard: '#b3261e',
  'redeploy-weekly': '#1f5fbf',
  careful: '#8a5a00',
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function learningChart(runs: readonly RunResult[], target = 4): string {
  const width = 640;
  const height = 360;
  const left = 56;
  const right = 170;
  const top = 40;
  const bottom = 48;
  const weeks = Math.max(1, ...runs.flatMap((r) => r.weeks.map((w) => w.week)));
  const maxY = Math.max(10, ...runs.flatMap((r) => r.weeks.map((w) => w.questionsPer100)));
  const yTop = Math.ceil(maxY / 20) * 20;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (week: number): number => left + (weeks === 1 ? plotW / 2 : ((week - 1) / (weeks - 1)) * plotW);
  const y = (v: number): number => top + plotH - (v / yTop) * plotH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="bold">Questions per 100 messages, by week</text>`,
  );
  for (let v = 0; v <= yTop; v += yTop / 5) {
    out.push(
      `<line x1="${left}" y1="${y(v).toFixed(1)}" x2="${left + plotW}" y2="${y(v).toFixed(1)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${Math.round(v)}</text>`,
    );
  }
  for (let w = 1; w <= weeks; w++) {
    out.push(
      `<text x="${x(w).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" fill="#555">${w}</text>`,
    );
  }
  out.push(
    `<text x="${left + plotW / 2}" y="${height - 10}" text-anchor="middle" fill="#333">week</text>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333"/>`,
    `<line x1="${left}" y1="${y(target).toFixed(1)}" x2="${left + plotW}" y2="${y(target).toFixed(1)}" stroke="#888" stroke-dasharray="4 4"/>`,
    `<text x="${left + plotW + 6}" y="${(y(target) + 4).toFixed(1)}" fill="#888">target ${target}</text>`,
  );
  runs.forEach((run, i) => {
    const colour = COLOURS[run.mode] ?? '#333';
    const points = run.weeks
      .map((w) => `${x(w.week).toFixed(1)},${y(w.questionsPer100).toFixed(1)}`)
      .join(' ');
    out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    for (const w of run.weeks) {
      out.push(
        `<circle cx="${x(w.week).toFixed(1)}" cy="${y(w.questionsPer100).toFixed(1)}" r="3.5" fill="${colour}"><title>${esc(run.mode)} week ${w.week}: ${w.questionsPer100}</title></circle>`,
      );
    }
    const ly = top + 20 + i * 22;
    out.push(
      `<line x1="${left + plotW + 20}" y1="${ly}" x2="${left + plotW + 44}" y2="${ly}" stroke="${colour}" stroke-width="2.5"/>`,
      `<text x="${left + plotW + 50}" y="${ly + 4}">${esc(run.mode)}</text>`,
    );
  });
  out.push('</svg>\n');
  return out.join('\n');
}
