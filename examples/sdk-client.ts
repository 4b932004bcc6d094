/**
 * The README's "same from code" example, runnable as it stands: send one mail to the agent with the
 * real A2A SDK, the Learnables extension activated, and print what came back (the question and its
 * teach block when the agent cannot tell).
 *
 *   TOKEN=$(cat data/demo-token) node --import tsx examples/sdk-client.ts [agent URL]
 *
 * It is an ES module (package.json "type": "module"), so top-level await works; test/integration/
 * examples.test.ts runs it against a started server.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';
const agentUrl = process.argv[2] ?? 'http://127.0.0.1:8080';
const token = process.env.TOKEN;
if (token === undefined || token === '') {
  process.stderr.write('Set TOKEN to a token of the agent, e.g. TOKEN=$(cat data/demo-token).\n');
  process.exit(2);
}

const client = await new ClientFactory().createFromUrl(agentUrl); // reads the agent card
const opts = {
  serviceParameters: ServiceParameters.create(withA2AExtensions(EXT), (p) => {
    p['Authorization'] = `Bearer ${token}`;
  }),
};
const result = await client.sendMessage(
  SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [
        {
          data: {
            from: 'billing@origin.example',
            subject: 'Pre-alert PA-2026-0901',
            body: 'Manifest attached.',
          },
        },
      ],
    },
  }),
  opts,
);
if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
console.log(`task ${result.id}: ${TaskState[result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`);
if (result.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
  const question = result.status.message?.parts[0]?.content;
  if (question?.$case === 'text') console.log(question.value);
  const teach = (result.status.message?.metadata?.[EXT] as { teach?: unknown } | undefined)?.teach;
  // Render teach.lessonFields blind, then POST the Lesson to /authority/v1/lessons.
  console.log(JSON.stringify(teach, null, 2));
}
