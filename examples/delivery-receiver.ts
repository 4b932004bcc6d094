/**
 * A receiver for what the agent delivers (issue 40), runnable as it stands: it prints each A2A push
 * notification (its id, the client's token, the task's state) and each tenant delivery webhook,
 * verified with the `standardwebhooks` library against WEBHOOK_SECRET (the `secret` the agent
 * returned when the endpoint was created). A delivery is at least once: it drops an id it has seen.
 *
 *   WEBHOOK_SECRET=whsec_… node --import tsx examples/delivery-receiver.ts [port]
 *
 * The agent must be allowed to reach it: PUSH_NOTIFICATION_ALLOWED_HOSTS=127.0.0.1:<port> (a
 * loopback address is refused otherwise, docs/a2a-clients.md).
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const port = Number(process.argv[2] ?? 9000);
const secret = process.env.WEBHOOK_SECRET;
const seen = new Set<string>();

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const id = String(req.headers['webhook-id'] ?? req.headers['x-a2a-notification-id'] ?? '');
    if (seen.has(id)) {
      res.writeHead(204).end(); // a retry of one already handled
      return;
    }
    try {
      if (req.headers['webhook-signature'] !== undefined) {
        if (secret === undefined) throw new Error('set WEBHOOK_SECRET to verify delivery webhooks');
        const event = new Webhook(secret).verify(body, req.headers as Record<string, string>) as {
          type: string;
          state: string;
          data: { task: { id: string } };
        };
        console.log(`webhook ${id}: ${event.type} (${event.state}) for task ${event.data.task.id}`);
      } else {
        const task = (JSON.parse(body) as { task: { id: string; status: { state: string } } }).task;
        const token = String(req.headers['x-a2a-notification-token'] ?? '');
        console.log(`push ${id}: task ${task.id} is ${task.status.state} (token ${token})`);
      }
      seen.add(id);
      res.writeHead(204).end();
    } catch (e) {
      console.error(`refused ${id}: ${e instanceof Error ? e.message : String(e)}`);
      res.writeHead(400).end();
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
