/**
 * Bench section `propagation` (issue 15): lesson to effect, posted on one process and measured to
 * the first settled task that reads under it on the other, median of TRIALS (default 20;
 * `--propagation-trials=N`), for four topologies in one run:
 * - embedded: one process, lesson and task on the same server;
 * - two processes on one SQLite data directory (the second sees the commit by `data_version`);
 * - two replicas on one PostgreSQL (the second learns it by NOTIFY, migration 011);
 * - split: the lesson at an authority process, the task at an agent following its head by long-poll.
 * Each trial teaches a new sender, then sends new mail from it to the reader until one settles as
 * the taught customer (a new task each try, 2 ms apart). Prints medians, p90 and the load average:
 * on a shared machine the figures are noisy, compare them within one run.
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import type { BenchContext } from './run.ts';
import { startChild, tempDataDir, type ChildHost } from '../test/e2e/host.ts';
import { authorityCall } from '../test/support/calls.ts';
import { startCluster } from '../test/support/postgres.ts';
import { sdkClient, send } from '../test/support/sdk-client.ts';
import { reportOf, rfc822Message } from '../test/support/task-mail.ts';

const TARGETS_MS = { embedded: 20, processes: 50, replicas: 100, split: 50 } as const;

interface Figures {
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly medianTries: number;
  /** The POST of the lesson alone, and the task that first read under it alone (medians, ms). */
  readonly postMedianMs: number;
  readonly lastTaskMedianMs: number;
  readonly samplesMs: number[];
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
};

async function lessonToEffect(
  writer: { url: string; token: string },
  reader: { url: string; token: string },
  tag: string,
  trials: number,
): Promise<Figures> {
  const agent = await sdkClient(reader.url, reader.token);
  const samples: number[] = [];
  const tries: number[] = [];
  const posts: number[] = [];
  const lastTasks: number[] = [];
  for (let t = 0; t < trials; t++) {
    const sender = `desk${t}.${tag}@prop${t}.example`;
    const started = performance.now();
    const taught = await authorityCall(writer.url, writer.token, 'POST', '/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: sender.replace(/[.+]/g, (c) => `\\${c}`), where: 'from' },
      taughtBy: 'dana@warehouse.example',
      reason: 'propagation benchmark',
    });
    posts.push(performance.now() - started);
    if (taught.status !== 200)
      throw new Error(`propagation: the lesson was refused: ${JSON.stringify(taught.body)}`);
    for (let n = 1; ; n++) {
      const taskStarted = performance.now();
      const task = await send(
        agent.client,
        agent.opts,
        rfc822Message(sender, `Pre-alert ${tag}-${t}-${n}`, `${tag}-${t}-${n}@prop.example`),
      );
      if (
        TaskState[task.status!.state] === 'TASK_STATE_COMPLETED' &&
        reportOf(task).customer?.winner === 'northgate'
      ) {
        samples.push(performance.now() - started);
        lastTasks.push(performance.now() - taskStarted);
        tries.push(n);
        break;
      }
      if (n >= 1000) throw new Error(`propagation: ${sender} still not read as northgate after ${n} tasks`);
      await new Promise((ok) => setTimeout(ok, 2));
    }
  }
  return {
    medianMs: quantile(samples, 0.5),
    p90Ms: quantile(samples, 0.9),
    medianTries: quantile(tries, 0.5),
    postMedianMs: quantile(posts, 0.5),
    lastTaskMedianMs: quantile(lastTasks, 0.5),
    samplesMs: samples,
  };
}

export async function run(context: BenchContext): Promise<void> {
  const trials = Number(context.args.find((a) => a.startsWith('--propagation-trials='))?.split('=')[1] ?? 20);
  const results: Record<string, unknown> = { trials, loadAverageBefore: loadavg() };
  const hosts: ChildHost[] = [];
  const report = (name: keyof typeof TARGETS_MS, label: string, f: Figures): void => {
    results[name] = { ...f, targetMs: TARGETS_MS[name], met: f.medianMs <= TARGETS_MS[name] };
    console.log(
      `  ${label}: median ${f.medianMs} ms, p90 ${f.p90Ms} ms, median ${f.medianTries} tasks; POST ${f.postMedianMs} ms, the task that read it ${f.lastTaskMedianMs} ms (target <= ${TARGETS_MS[name]} ms: ${f.medianMs <= TARGETS_MS[name] ? 'met' : 'NOT met'})`,
    );
  };
  const stopAll = async (): Promise<void> => {
    while (hosts.length > 0) await hosts.pop()!.close();
  };
  try {
    console.log(
      `Lesson to effect, ${trials} trials each (load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}) …`,
    );
    // Embedded, and two processes on one SQLite data directory.
    const shared = tempDataDir();
    try {
      const one = await startChild({ DATA_DIR: shared.dir });
      hosts.push(one);
      const token = one.token!;
      report(
        'embedded',
        'embedded (one process)',
        await lessonToEffect({ url: one.url, token }, { url: one.url, token }, 'emb', trials),
      );
      const two = await startChild({ DATA_DIR: shared.dir });
      hosts.push(two);
      report(
        'processes',
        'two processes, one SQLite dir',
        await lessonToEffect({ url: one.url, token }, { url: two.url, token }, 'sq2', trials),
      );
      await stopAll();
    } finally {
      shared.remove();
    }
    // Two replicas on one PostgreSQL (a throwaway cluster, or DATABASE_URL).
    try {
      const cluster = await startCluster();
      try {
        const a = await startChild({ DATABASE_URL: cluster.url });
        hosts.push(a);
        const b = await startChild({ DATABASE_URL: cluster.url });
        hosts.push(b);
        const token = a.token!;
        report(
          'replicas',
          'two replicas, one PostgreSQL',
          await lessonToEffect({ url: a.url, token }, { url: b.url, token }, 'pg2', trials),
        );
        await stopAll();
      } finally {
        await cluster.stop();
      }
    } catch (e) {
      console.log(`  two replicas: skipped, no PostgreSQL (${e instanceof Error ? e.message : String(e)})`);
      await stopAll();
    }
    // Split topology.
    const authority = await startChild({ ROLE: 'authority' });
    hosts.push(authority);
    const agent = await startChild({ AUTHORITY_URL: authority.url, AUTHORITY_TOKEN: authority.token! });
    hosts.push(agent);
    report(
      'split',
      'split (authority process, agent following)',
      await lessonToEffect(
        { url: authority.url, token: authority.token! },
        { url: agent.url, token: agent.token! },
        'spl',
        trials,
      ),
    );
  } finally {
    await stopAll();
  }
  results.loadAverageAfter = loadavg();
  writeFileSync(join(context.outDir, 'propagation.json'), `${JSON.stringify(results, null, 2)}\n`);
}
