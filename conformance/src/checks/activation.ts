/**
 * §7 activation, on every transport the card lists: an activated call is echoed in the response's
 * A2A-Extensions header, streaming included; and a client that did not activate never sees a teach
 * block (§7, §8), on any read: send, stream, get, list and resubscribe, even of a task whose
 * question was asked of a client that did activate.
 */
import type { Question, Wire } from '../adapter.ts';
import { echoes, teachBlocks, type Channel } from '../agent.ts';
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
    s.r.skip(id, '§7', 'the card does not declare streaming');
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

/** §7, §8: no teach block on any read by a client that did not activate. */
async function checkNoBlock(s: Session, c: Channel, activated: Question | null): Promise<void> {
  const reads: [string, () => Promise<Wire>][] = [
    ['send', async () => (await c.send(s.adapter.undecidable(s.freshId('plain')))).value],
  ];
  if (s.agent.streaming) {
    reads.push([
      'stream',
      async () => (await c.stream(s.adapter.undecidable(s.freshId('plain-stream')))).value,
    ]);
  }
  if (activated !== null) {
    const taskId = activated.task.id as string;
    reads.push(['get', async () => (await c.get(taskId)).value]);
    if (c.lists) reads.push(['list', async () => (await c.list()).value]);
    else s.r.skip(`activation.no-block.list.${c.name}`, '§8', `A2A ${c.protocolVersion} has no ListTasks`);
    if (s.agent.streaming) {
      reads.push(['resubscribe', async () => (await c.resubscribe(taskId)).value]);
    }
  }
  const parkedWith =
    activated?.teach === undefined
      ? 'a task that parked'
      : 'a task whose question carries a teach block when activated';
  for (const [read, call] of reads) {
    const id = `activation.no-block.${read}.${c.name}`;
    await s.r.attempt(id, '§8', `an unactivated ${read}`, async () => {
      const found = teachBlocks(await call());
      return s.r.verdict(
        id,
        '§8',
        found.length === 0 ? null : `an unactivated ${read} carries a teach block at ${found[0]!.path}`,
        `an unactivated ${read} of ${read === 'send' || read === 'stream' ? 'an undecidable input' : parkedWith} carries no teach block`,
      );
    });
  }
  if (activated === null) {
    for (const read of s.agent.streaming ? ['get', 'list', 'resubscribe'] : ['get', 'list'])
      s.r.skip(
        `activation.no-block.${read}.${c.name}`,
        '§8',
        'no task parked on this transport to read back',
      );
  }
}
