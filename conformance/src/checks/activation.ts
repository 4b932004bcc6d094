/**
 * §7 activation, on every transport the card lists: an activated call is echoed in the response's
 * A2A-Extensions header, streaming included; and a client that did not activate never sees a teach
 * block (§7's MUST NOT), on any read: send, stream, get, list and resubscribe, even of a task whose
 * question was asked of a client that did activate.
 */
import type { Question, Wire } from '../adapter.ts';
import { echoes, stateOf, teachBlocks, type Channel } from '../agent.ts';
import { words } from '../report.ts';
import { park, type Session } from '../session.ts';

/** The question parked on each channel with the extension activated, for the checks after this one. */
export async function checkActivation(s: Session): Promise<Map<string, Question>> {
  const parked = new Map<string, Question>();
  for (const c of s.agent.channels) {
    const q = await checkEcho(s, c);
    if (q !== null) parked.set(c.name, q);
    await checkStreamEcho(s, c);
    await checkNoBlock(s, c, q);
  }
  for (const u of s.agent.unspoken)
    s.r.skip(`activation.${u.split(' ')[0]}`, '§7', `the kit's client does not speak ${u}`);
  return parked;
}

async function checkEcho(s: Session, c: Channel): Promise<Question | null> {
  try {
    const q = await park(s, c, 'echo', true);
    s.r.verdict(
      `activation.echo.send.${c.name}`,
      '§7',
      echoes(q.echoed)
        ? null
        : `an activated SendMessage was answered with A2A-Extensions ${JSON.stringify(q.echoed)}`,
      'an activated SendMessage echoes the extension in its response header',
    );
    return q;
  } catch (e) {
    s.r.fail(`activation.echo.send.${c.name}`, '§7', words(e));
    return null;
  }
}

async function checkStreamEcho(s: Session, c: Channel): Promise<void> {
  const id = `activation.echo.stream.${c.name}`;
  if (!s.agent.streaming) {
    s.r.na(id, '§7', 'the card does not declare streaming');
    return;
  }
  await s.r.attempt(id, '§7', 'an activated SendStreamingMessage', async () => {
    const reply = await c.stream(s.adapter.undecidable(s.freshId('stream')), { activate: true });
    return s.r.verdict(
      id,
      '§7',
      echoes(reply.echoed)
        ? null
        : `an activated streaming send was answered with A2A-Extensions ${JSON.stringify(reply.echoed)}`,
      `an activated streaming send echoes the extension (${reply.value.length} event(s))`,
    );
  });
}

/**
 * One unactivated read, and whether it shows a question at all: a read that asked nothing proves
 * nothing by carrying no teach block (SKIP), so each read says whether its value asked.
 */
interface Read {
  readonly name: string;
  call(): Promise<Wire>;
  /** Whether the value shows a task waiting in input-required (a question asked). */
  asked(value: Wire): boolean;
}

const asking = (task: Wire): boolean => stateOf(task) === 'TASK_STATE_INPUT_REQUIRED';

const read = (name: string, call: () => Promise<Wire>, asked: (value: Wire) => boolean = asking): Read => ({
  name,
  call,
  asked,
});

/** §7 "MUST NOT emit a teach block to a client that has not activated": on any read of a question. */
async function checkNoBlock(s: Session, c: Channel, activated: Question | null): Promise<void> {
  const reads: Read[] = [
    read('send', async () => (await c.send(s.adapter.undecidable(s.freshId('plain')))).value),
  ];
  if (s.agent.streaming)
    reads.push(
      read('stream', async () => (await c.stream(s.adapter.undecidable(s.freshId('plain-stream')))).value),
    );
  if (activated !== null) reads.push(...readsOf(s, c, activated.task.id as string));
  else
    for (const name of s.agent.streaming ? ['get', 'list', 'resubscribe'] : ['get', 'list'])
      s.r.skip(
        `activation.no-block.${name}.${c.name}`,
        '§7',
        'no task parked on this transport to read back',
      );
  const parkedWith =
    activated?.teach === undefined
      ? 'a task that parked'
      : 'a task whose question carries a teach block when activated';
  for (const r of reads) {
    const id = `activation.no-block.${r.name}.${c.name}`;
    await s.r.attempt(id, '§7', `an unactivated ${r.name}`, async () => {
      const value = await r.call();
      const found = teachBlocks(value);
      if (found.length > 0)
        return s.r.fail(id, '§7', `an unactivated ${r.name} carries a teach block at ${found[0]!.path}`);
      if (!r.asked(value))
        return s.r.skip(
          id,
          '§7',
          `an unactivated ${r.name} showed no question (${stateOf(value) ?? 'no task'}), so the absence of a teach block proves nothing`,
        );
      const of = r.name === 'send' || r.name === 'stream' ? 'an undecidable input' : parkedWith;
      return s.r.pass(id, '§7', `an unactivated ${r.name} of ${of} carries no teach block`);
    });
  }
}

/** The reads back of a task parked activated: get, list (where the protocol has it), resubscribe. */
function readsOf(s: Session, c: Channel, taskId: string): Read[] {
  const reads = [read('get', async () => (await c.get(taskId)).value)];
  if (c.lists)
    reads.push(
      read(
        'list',
        async () => (await c.list()).value,
        (tasks: Wire[]) => asking(tasks.find((t) => t?.id === taskId)),
      ),
    );
  else s.r.na(`activation.no-block.list.${c.name}`, '§7', `A2A ${c.protocolVersion} has no ListTasks`);
  if (s.agent.streaming) reads.push(read('resubscribe', async () => (await c.resubscribe(taskId)).value));
  return reads;
}
