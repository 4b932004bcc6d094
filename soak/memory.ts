/**
 * Memory under concurrent large mail (issue 16): N messages of ~24.6 MB each (under the 25 MiB
 * limit: three 6 MB attachments, base64) sent at once over JSON-RPC to a server in its own process,
 * whose resident memory (VmRSS) is sampled every 50 ms. Each message must be triaged or told to
 * retry (503 + Retry-After); the refused ones are then sent again until every one is read. Prints
 * idle, peak and after-idle RSS; the target is a peak under 1 GiB and after-idle near idle.
 *
 * Run alone: `node --import tsx soak/memory.ts [--mails=16] [--mail-mb=24.6]`; `npm run soak` runs it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access -- wire JSON, read loosely */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  MiB,
  mailPart,
  mib,
  numberArg,
  rpcHeaders,
  removeDir,
  rssBytes,
  sendParams,
  sleep,
  startServer,
  tempDir,
} from './support.ts';

export interface MemoryFigures {
  readonly mails: number;
  readonly mailBytes: number;
  readonly idleRss: number;
  readonly peakRss: number;
  readonly afterRss: number;
  readonly firstRound: { readonly triaged: number; readonly toldToRetry: number; readonly other: number };
  readonly rounds: number;
  readonly allTriaged: boolean;
  readonly seconds: number;
}

/** One mail of about `bytes`: a short body and attachments of random bytes (base64, 76-char lines). */
export function largeMail(bytes: number): Buffer {
  const attachments = 3;
  const decodedEach = Math.floor((bytes * 0.98) / attachments / 1.37);
  const boundary = `b-${randomUUID()}`;
  const head =
    `From: bulk@large-sender.example\r\nTo: imports@warehouse.example\r\nSubject: Scans ${randomUUID()}\r\n` +
    `Message-ID: <${randomUUID()}@large-sender.example>\r\nMIME-Version: 1.0\r\n` +
    `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nScans of the shipment attached.\r\n`;
  const parts = [Buffer.from(head)];
  for (let i = 0; i < attachments; i++) {
    const b64 = randomBytes(decodedEach).toString('base64').replace(/.{76}/g, '$&\r\n');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n` +
          `Content-Disposition: attachment; filename="scan-${i}.bin"\r\n\r\n${b64}\r\n`,
      ),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export async function runMemory(options: {
  mails: number;
  mailMb: number;
  env?: Record<string, string>;
}): Promise<MemoryFigures> {
  const dir = tempDir('memory');
  const server = await startServer(dir, options.env);
  const started = Date.now();
  try {
    await sleep(500);
    const idleRss = rssBytes(server.child.pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssBytes(server.child.pid));
    }, 50);
    const bodies = Array.from({ length: options.mails }, () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: sendParams([mailPart(largeMail(options.mailMb * 1e6))]),
      }),
    );
    const mailBytes = Math.round(options.mailMb * 1e6);
    let pending = bodies.map((_, i) => i);
    let rounds = 0;
    let firstRound = { triaged: 0, toldToRetry: 0, other: 0 };
    while (pending.length > 0 && rounds < 40) {
      rounds++;
      const answers = await Promise.all(
        pending.map(async (i) => {
          const res = await fetch(`${server.url}/a2a/jsonrpc`, {
            method: 'POST',
            headers: rpcHeaders(server.token),
            body: bodies[i],
          });
          const body: any = await res.json();
          const state: unknown = body?.result?.task?.status?.state;
          const kind: 'triaged' | 'toldToRetry' | 'other' =
            res.status === 503 && res.headers.get('retry-after') !== null
              ? 'toldToRetry'
              : res.status === 200 && typeof state === 'string' && state !== 'TASK_STATE_FAILED'
                ? 'triaged'
                : 'other';
          if (kind === 'other')
            process.stderr.write(
              `memory: unexpected answer ${res.status} ${JSON.stringify(body).slice(0, 300)}\n`,
            );
          return { i, kind, retryAfter: Number(res.headers.get('retry-after') ?? '1') };
        }),
      );
      if (rounds === 1) {
        firstRound = {
          triaged: answers.filter((a) => a.kind === 'triaged').length,
          toldToRetry: answers.filter((a) => a.kind === 'toldToRetry').length,
          other: answers.filter((a) => a.kind === 'other').length,
        };
      }
      pending = answers.filter((a) => a.kind === 'toldToRetry').map((a) => a.i);
      if (pending.length > 0) await sleep(Math.min(...answers.map((a) => a.retryAfter)) * 1000);
    }
    bodies.length = 0;
    await sleep(5_000);
    clearInterval(sampler);
    const afterRss = rssBytes(server.child.pid);
    return {
      mails: options.mails,
      mailBytes,
      idleRss,
      peakRss,
      afterRss,
      firstRound,
      rounds,
      allTriaged: pending.length === 0 && firstRound.other === 0,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await server.child.stop();
    removeDir(dir);
  }
}

export function printMemory(f: MemoryFigures): void {
  process.stdout.write(
    `memory: ${f.mails} concurrent mails of ${(f.mailBytes / 1e6).toFixed(1)} MB: first round ${f.firstRound.triaged} triaged, ` +
      `${f.firstRound.toldToRetry} told to retry (503 + Retry-After), ${f.firstRound.other} other; all triaged after ${f.rounds} round(s): ${f.allTriaged ? 'yes' : 'NO'}\n` +
      `memory: RSS idle ${mib(f.idleRss)}, peak ${mib(f.peakRss)} (target < 1024 MiB: ${f.peakRss < 1024 * MiB ? 'held' : 'MISSED'}), ` +
      `5 s after ${mib(f.afterRss)} (${f.seconds.toFixed(0)} s in all)\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = numberArg;
  const env: Record<string, string> = {};
  for (const a of process.argv.filter((x) => /^--[A-Z_]+=/.test(x)))
    env[a.slice(2, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  printMemory(await runMemory({ mails: arg('mails', 16), mailMb: arg('mail-mb', 24.6), env }));
}
