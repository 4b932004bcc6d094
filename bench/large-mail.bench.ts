/**
 * Reading one large mail (issue 29): the soak's ~24.6 MB mail (three base64 attachments, under the
 * 25 MiB limit) sent alone over JSON-RPC to a server in its own process, `--large-mail-runs=N` times
 * (default 5, one at a time, a fresh mail each). The figure is the median request time: JSON parse
 * of the 33 MB request, base64 decoding, mailparser, the evidence readers and the answer. The soak
 * (soak/memory.ts) sends sixteen at once, so its per-mail times include waiting for admission.
 *
 * `--large-mail-mb=X` changes the size. Writes `large-mail.json`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { largeMail, MALLOC_ENV } from '../soak/memory.ts';
import { mailPart, removeDir, rpcHeaders, sendParams, startServer, tempDir } from '../soak/support.ts';
import type { BenchContext } from './run.ts';
import { median } from './learning/harness.ts';
import { numberOption, round } from './options.ts';
import { ISSUE_29_TARGETS } from './summary.ts';

/** Issue 29: a forwarder's scanned PDFs are this size; reading one should take at most this. */
const LARGE_MAIL_TARGET_MS = ISSUE_29_TARGETS.largeMailMs;

export async function run(context: BenchContext): Promise<void> {
  const runs = Math.round(numberOption(context.args, 'large-mail-runs', 5, { least: 'positive' }));
  const mailMb = numberOption(context.args, 'large-mail-mb', 24.6, { least: 'positive' });
  const loadBefore = loadavg().map((x) => round(x, 2));
  const dir = tempDir('large-mail');
  const server = await startServer(dir, { ...MALLOC_ENV });
  const samples: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'SendMessage',
        params: sendParams([mailPart(largeMail(mailMb * 1e6))]),
      });
      const started = performance.now();
      const res = await fetch(`${server.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: rpcHeaders(server.token),
        body,
      });
      const answer = (await res.json()) as { result?: unknown; error?: unknown };
      const ms = performance.now() - started;
      if (res.status !== 200 || answer.result === undefined)
        throw new Error(
          `large-mail: the mail was not read: HTTP ${res.status} ${JSON.stringify(answer.error)}`,
        );
      samples.push(round(ms, 0));
    }
  } finally {
    await server.child.stop();
    removeDir(dir);
  }
  const medianMs = round(median(samples), 0);
  const result = {
    mailMb,
    runs,
    medianMs,
    samplesMs: samples,
    megabytesPerSecond: round(mailMb / (medianMs / 1000), 1),
    targetMs: LARGE_MAIL_TARGET_MS,
    met: medianMs <= LARGE_MAIL_TARGET_MS,
    loadBefore,
    loadAfter: loadavg().map((x) => round(x, 2)),
  };
  console.log(
    `  one ${mailMb} MB mail, alone: median ${medianMs} ms of ${runs} (${samples.join(', ')}), ${result.megabytesPerSecond} MB/s; target <= ${LARGE_MAIL_TARGET_MS} ms: ${result.met ? 'met' : 'NOT met'}`,
  );
  writeFileSync(join(context.outDir, 'large-mail.json'), `${JSON.stringify(result, null, 2)}\n`);
}
