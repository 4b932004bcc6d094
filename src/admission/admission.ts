/**
 * Admission control: how many messages are read (parsed and triaged) at once, and how many raw
 * request bytes are held in flight, across every path that brings mail in — A2A (JSON-RPC and
 * REST), the inbound webhooks and the IMAP pollers share one gate per process.
 *
 * Owns: the counting (slots and bytes), the FIFO of waiters (IMAP waits; HTTP callers do not) and the
 * sentence a refused caller reads. Does not own: how a transport answers a refusal (503 with
 * Retry-After in its own shape: src/admission/http.ts, src/a2a/json-body.ts, the webhook router), or
 * what a message is. No I/O; the one timer bounds an HTTP caller's wait. A permit is released by
 * whoever took it.
 *
 * Why both bounds: a message costs memory twice — its bytes while the body is received and decoded,
 * then several copies while mailparser reads it. Sixteen 25 MB mails read at once took a process to
 * 3 GiB; the slot bound caps the second cost, the byte budget the first, including bodies
 * still being received for requests that will never get a slot.
 */

export interface AdmissionLimits {
  /** Messages parsed and triaged at once (ADMISSION_MAX_MESSAGES). */
  readonly maxMessages: number;
  /** Raw request bytes held at once (ADMISSION_MAX_BYTES). One request alone is always admitted. */
  readonly maxBytes: number;
  /** What a refused HTTP caller is told to wait, in seconds (ADMISSION_RETRY_AFTER_SECONDS). */
  readonly retryAfterSeconds: number;
  /** How long an HTTP message waits for a slot before it is refused, ms (ADMISSION_QUEUE_MS). */
  readonly queueMs: number;
}

/** What a caller holds while admitted; `release` is idempotent. */
export interface Permit {
  release(): void;
}

export interface AdmissionRequest {
  /** Bytes the caller holds (a request body, a fetched message). */
  readonly bytes: number;
  /** Whether it takes a message slot (it will be parsed and triaged), or only holds bytes. */
  readonly message: boolean;
}

export interface AdmissionLoad {
  readonly messages: number;
  readonly bytes: number;
  readonly waiting: number;
  /** Refusals since the gate was made (HTTP callers told to retry). */
  readonly refused: number;
}

export interface Admission {
  readonly limits: AdmissionLimits;
  /** Admitted now, or null: the caller answers "busy, retry after limits.retryAfterSeconds". */
  tryAdmit(request: AdmissionRequest): Permit | null;
  /** Waits its turn (FIFO; IMAP): nothing is refused, it is only delayed. */
  admit(request: AdmissionRequest): Promise<Permit>;
  /**
   * Waits its turn at most `waitMs` (an HTTP message: a burst is smoothed, a sustained overload is
   * told to retry), then null.
   */
  admitWithin(request: AdmissionRequest, waitMs: number): Promise<Permit | null>;
  load(): AdmissionLoad;
  /** The sentence a refused caller reads (the transport wraps it in its own shape). */
  busySentence(): string;
}

/** Refuses limits that are not positive whole numbers (config validates them too; this guards tests). */
function checked(limits: AdmissionLimits): AdmissionLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || (value as number) < (name === 'queueMs' ? 0 : 1))
      throw new RangeError(`admission: ${name} must be a positive whole number, not ${String(value)}`);
  }
  return Object.freeze({ ...limits });
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const bounds = checked(limits);
  let messages = 0;
  let bytes = 0;
  let refused = 0;
  const waiters: { request: AdmissionRequest; grant: (p: Permit) => void }[] = [];
  const enqueue = (request: AdmissionRequest): Promise<Permit> =>
    new Promise<Permit>((grant) => waiters.push({ request, grant }));

  const fits = (r: AdmissionRequest): boolean => {
    if (r.message && messages >= bounds.maxMessages) return false;
    // A request larger than the whole budget still gets in alone (the body limit bounds it), else never.
    return bytes === 0 || bytes + r.bytes <= bounds.maxBytes;
  };

  const take = (r: AdmissionRequest): Permit => {
    const size = Math.max(0, r.bytes);
    if (r.message) messages += 1;
    bytes += size;
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        if (r.message) messages -= 1;
        bytes -= size;
        drain();
      },
    };
  };

  const drain = (): void => {
    while (waiters.length > 0 && fits(waiters[0]!.request)) {
      const next = waiters.shift()!;
      next.grant(take(next.request));
    }
  };

  return {
    limits: bounds,
    tryAdmit(request) {
      // Waiters go first: an HTTP message does not overtake a mailbox that is already waiting (a
      // request that only holds bytes, such as tasks/get, does not wait behind one).
      if ((request.message && waiters.length > 0) || !fits(request)) {
        refused += 1;
        return null;
      }
      return take(request);
    },
    admit(request) {
      if (waiters.length === 0 && fits(request)) return Promise.resolve(take(request));
      return enqueue(request);
    },
    admitWithin(request, waitMs) {
      if (waiters.length === 0 && fits(request)) return Promise.resolve(take(request));
      if (waitMs <= 0) {
        refused += 1;
        return Promise.resolve(null);
      }
      return new Promise<Permit | null>((resolve) => {
        const waiter = {
          request,
          grant: (p: Permit) => {
            clearTimeout(timer);
            resolve(p);
          },
        };
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          refused += 1;
          resolve(null);
          drain(); // the head may have been the one that did not fit
        }, waitMs);
        waiters.push(waiter);
      });
    },
    load: () => ({ messages, bytes, waiting: waiters.length, refused }),
    busySentence: () =>
      `This server is reading as many messages as it can at once (${bounds.maxMessages} messages, ` +
      `${Math.round(bounds.maxBytes / (1024 * 1024))} MiB in flight). Nothing was read or stored; ` +
      `send the same request again in ${bounds.retryAfterSeconds} s. An operator can raise ` +
      'ADMISSION_MAX_MESSAGES and ADMISSION_MAX_BYTES if the machine has room.',
  };
}
