/**
 * CPU per settled triage against the durable minimal agent, as one stable figure (issue 41): the
 * two processes run side by side and are driven in alternating rounds (agent, minimal, agent, …),
 * so a change in the machine's load moves both alike. Each round gives a ratio (the minimal agent's
 * CPU per request over the agent's); the figure is their median, printed with its spread (the
 * lowest and highest round) on every run. Separate runs of the old single-shot figure moved 2×.
 */
import { loadavg } from 'node:os';
import { median } from './learning/harness.ts';
import { round } from './options.ts';
import { load } from './load.ts';

export interface Driven {
  readonly pid: number;
  readonly url: string;
  readonly token: string | null;
  /** The agent's answers must read as settled (the minimal agent says nothing). */
  readonly settled: boolean;
}

export interface InterleavedCpu {
  readonly rounds: number;
  readonly secondsPerRound: number;
  /** Median CPU ms per request over the rounds, each side. */
  readonly agentMs: number;
  readonly minimalMs: number;
  /** Median of the rounds' ratios (minimal / agent), with the lowest and highest round. */
  readonly ratio: number;
  readonly ratioLow: number;
  readonly ratioHigh: number;
  readonly samples: readonly { agentMs: number; minimalMs: number; ratio: number }[];
  /** One-minute load average before and after. */
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export async function interleavedCpu(
  agent: Driven,
  minimal: Driven,
  options: { rounds: number; seconds: number; connections: number; tag: string },
): Promise<InterleavedCpu> {
  const loadBefore = round(loadavg()[0]!, 2);
  const samples: { agentMs: number; minimalMs: number; ratio: number }[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const side = async (d: Driven, name: string): Promise<number> => {
      const tag = `${options.tag}${name}${r}`;
      const result = await load(d.pid, d.url, d.token, tag, options.seconds, options.connections, d.settled);
      if (result.cpuMsPerRequest === null || result.completed === 0)
        throw new Error(`cpu ratio: round ${r} of the ${name} side completed nothing`);
      return result.cpuMsPerRequest;
    };
    // Alternate which side goes first, so neither always follows the other's garbage collection.
    let agentMs: number;
    let minimalMs: number;
    if (r % 2 === 0) {
      agentMs = await side(agent, 'a');
      minimalMs = await side(minimal, 'm');
    } else {
      minimalMs = await side(minimal, 'm');
      agentMs = await side(agent, 'a');
    }
    samples.push({ agentMs, minimalMs, ratio: round(minimalMs / agentMs, 3) });
  }
  const ratios = samples.map((s) => s.ratio);
  return {
    rounds: options.rounds,
    secondsPerRound: options.seconds,
    agentMs: round(median(samples.map((s) => s.agentMs)), 3),
    minimalMs: round(median(samples.map((s) => s.minimalMs)), 3),
    ratio: round(median(ratios), 3),
    ratioLow: Math.min(...ratios),
    ratioHigh: Math.max(...ratios),
    samples,
    loadBefore,
    loadAfter: round(loadavg()[0]!, 2),
  };
}

/** The line every run prints. */
export function describeInterleaved(c: InterleavedCpu): string {
  return (
    `CPU per settled triage, interleaved (${c.rounds} rounds of ${c.secondsPerRound} s each side): ` +
    `agent ${c.agentMs} ms, durable minimal agent ${c.minimalMs} ms; ratio median ${c.ratio} ` +
    `(rounds ${c.ratioLow} to ${c.ratioHigh}); load average ${c.loadBefore} → ${c.loadAfter}`
  );
}
