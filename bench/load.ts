/**
 * The load the server benches send (bench/server.ts, bench/cpu-ratio.ts, bench/scale-out.bench.ts):
 * its mail, its JSON-RPC bodies, an autocannon run against one process, and the CPU it cost.
 * Imports no bench section, so every section can use it.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { EXTENSION_URI } from '../src/domain/extension.ts';
import { round } from './options.ts';

/** Customers of the directory the throughput load is sent to (bench/server.ts imports it). */
export const THROUGHPUT_CUSTOMERS = 10_000;

/** The bench directory's customer names: k000042. */
export function customerId(i: number): string {
  return `k${String(i).padStart(6, '0')}`;
}

const FILLER = [
  'Please find below the details of the shipment. The cargo was received at origin in good order and condition.',
  'Kindly arrange customs clearance on arrival and advise the delivery slot at least one day in advance.',
  'The commercial invoice and packing list are attached to the booking in the portal; originals follow by courier.',
  'Temperature range 15 to 25 degrees, keep dry, do not stack more than two high, handle with care.',
  'Should you have any questions about this consignment, reply to this message and quote the reference.',
];

/** One ~2 KB message, different for every i (its own Message-ID, reference and numbers). */
export function loadMail(i: number, customers: number, tag: string, from?: string): string {
  const id = customerId((i * 7919) % customers);
  const ref = `${id.toUpperCase()}-${tag}-${i}`;
  const lines = [
    `From: Operations <${from ?? `ops@${id}.example`}>`,
    'To: imports@forwarder.example',
    `Subject: Pre-alert ${ref}`,
    `Message-ID: <${tag}.${i}@load.example>`,
    'Date: Mon, 07 Sep 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello team,',
    '',
  ];
  let n = 0;
  while (lines.join('\r\n').length < 1900) {
    lines.push(
      `${FILLER[n % FILLER.length]} Line ${n + 1}: ${((i * 31 + n * 17) % 997) + 3} pieces, ${((i * 13 + n) % 4999) + 20} kg, ref ${ref}.`,
    );
    n++;
  }
  lines.push('', 'Kind regards,', 'Operations', '');
  return lines.join('\r\n');
}

export function sendMessageBody(i: number, raw: string, tag: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'SendMessage',
    params: {
      message: {
        messageId: `${tag}-${i}`,
        role: 'ROLE_USER',
        parts: [
          {
            raw: Buffer.from(raw, 'utf8').toString('base64'),
            mediaType: 'message/rfc822',
            filename: `${i}.eml`,
          },
        ],
      },
    },
  });
}

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  completed: number;
  otherResponses: number;
  errors: number;
  non2xx: number;
  meanRequestBytes: number;
  /** CPU time the serving process spent per response (all its threads), ms: less sensitive than req/s to other load on the machine. */
  cpuMsPerRequest: number | null;
}

/** autocannon against a JSON-RPC endpoint, every request a new message. */
/** CPU time (user + system, all threads) a process has used so far, in ms (Linux /proc). */
export function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

export async function load(
  pid: number | undefined,
  url: string,
  token: string | null,
  tag: string,
  seconds: number,
  connections: number,
  expectSettled: boolean,
): Promise<LoadResult> {
  let next = 0;
  let completed = 0;
  let other = 0;
  let bytes = 0;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'a2a-version': '1.0',
    'a2a-extensions': EXTENSION_URI,
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const result = await autocannon({
    url: `${url}/a2a/jsonrpc`,
    connections,
    duration: seconds,
    method: 'POST',
    headers,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = next++;
          const body = sendMessageBody(i, loadMail(i, THROUGHPUT_CUSTOMERS, tag), tag);
          bytes += body.length;
          return { ...req, body };
        },
        onResponse: (status, body) => {
          const ok =
            status === 200 &&
            body.includes('"TASK_STATE_COMPLETED"') &&
            (!expectSettled || body.includes('"settled":true'));
          if (ok) completed++;
          else other++;
        },
      },
    ],
  });
  return {
    reqPerSec: round(result.requests.average, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    completed,
    otherResponses: other,
    errors: result.errors,
    non2xx: result.non2xx,
    meanRequestBytes: Math.round(bytes / Math.max(1, next)),
    cpuMsPerRequest: cpuPerRequest(pid, cpuBefore, completed + other),
  };
}

function cpuPerRequest(pid: number | undefined, before: number | null, responses: number): number | null {
  const after = pid === undefined ? null : cpuMs(pid);
  if (before === null || after === null || responses === 0) return null;
  return round((after - before) / responses, 3);
}
