/**
 * The Agent Card (§6, §15, §16), generated from the learnables' own descriptors and the
 * configuration, never written by hand: the declaration a client renders lessons from is the one
 * the running code decides by.
 *
 * Owns: the card's wire JSON (what `/.well-known/agent-card.json` serves and `agent-card.json` at
 * the repository top repeats), the two skills and the examples that tell a client what to send.
 * Does not own: the descriptors themselves (each learnable phrases its own, §6.2).
 */
import { AgentCard } from '@a2a-js/sdk';
import { EXTENSION_URI, TEACH_METHOD } from '../domain/extension.ts';
import type { LearnableDescriptor } from '../domain/learnables/index.ts';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

export const SKILL_TRIAGE = 'triage_inbound';
export const SKILL_RECHECK = 'recheck_message';

/** The agent's own version, shown on the card. */
const AGENT_VERSION = '0.1.0';

export interface AgentCardInput {
  /** Base URL clients reach this server at, without a trailing slash. */
  readonly baseUrl: string;
  /** §6.2 descriptors, in declaration order (authority.descriptors()). */
  readonly descriptors: readonly LearnableDescriptor[];
  /** Whether this agent owns its definitions and serves the Teach method (§12.2). */
  readonly selfOwning: boolean;
  /** Also declare v0.3 interfaces, served through the SDK's compatibility layer. */
  readonly legacyCompat: boolean;
  /** Push notifications are stored and delivered. Default true. */
  readonly pushNotifications?: boolean;
}

/** The card as wire JSON (A2A v1.0 field names), deterministic for a given input. */
export function agentCardJson(input: AgentCardInput): Record<string, unknown> {
  const interfaces = [
    { url: `${input.baseUrl}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: `${input.baseUrl}${REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ];
  if (input.legacyCompat) {
    interfaces.push(
      { url: `${input.baseUrl}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: `${input.baseUrl}${REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    );
  }
  const params: Record<string, unknown> = { learnables: input.descriptors.map(descriptorJson) };
  if (input.selfOwning) params.teachMethod = TEACH_METHOD; // §12.2
  return {
    name: 'Learnables e-mail triage',
    description:
      'Reads inbound logistics e-mail (pre-alerts, invoices, proofs of delivery) and says whose it is and what kind it is. ' +
      'When it cannot tell, it asks a person and, to clients that activate the Learnables extension, proposes what to teach it so it need not ask again.',
    supportedInterfaces: interfaces,
    provider: { organization: 'RSA Cross Border', url: 'https://www.rsaxb.com/' },
    version: AGENT_VERSION,
    documentationUrl: 'https://rsaxb.com/a2a/learnables/v1',
    capabilities: {
      streaming: true,
      pushNotifications: input.pushNotifications ?? true,
      extendedAgentCard: false,
      extensions: [
        {
          uri: EXTENSION_URI,
          description:
            'Publishes what this agent can be taught (which customer a message belongs to, what kind of message it is, which manifest column holds which field), attaches a teachable proposal to its questions, and shows back what it now makes of a message.',
          required: false, // §6.1, §16
          params,
        },
      ],
    },
    securitySchemes: {
      bearer: {
        httpAuthSecurityScheme: {
          description:
            'A token bound to one tenant; an operator creates one with `npx learnables-triage tokens create`.',
          scheme: 'Bearer',
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['message/rfc822', 'text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: [
      {
        id: SKILL_TRIAGE,
        name: 'Triage an inbound e-mail',
        description:
          'Send one e-mail; the task completes with a reading (customer, kind, manifest fields) and the definition version it was decided under. ' +
          'The mail may be a file part (mediaType "message/rfc822", the raw bytes), the raw RFC 822 text as a text part, or a data part with the message fields ' +
          '(from, to, cc, subject, body, messageId, date, attachments). When the agent cannot tell, the task waits in input-required with a question; ' +
          'answer on the same task with a data part {"entry": "<name>"} (or keyed by the collection or its entry noun) or text naming the entry or its label. ' +
          `With the header "A2A-Extensions: ${EXTENSION_URI}" the question also carries a teach block (metadata["${EXTENSION_URI}"].teach).`,
        tags: ['email', 'triage', 'logistics', 'learnables'],
        examples: [
          '{"parts":[{"raw":"<base64 of the .eml file>","mediaType":"message/rfc822","filename":"pre-alert.eml"}]}',
          '{"parts":[{"text":"From: billing@origin.example\\r\\nTo: imports@warehouse.example\\r\\nSubject: Pre-alert PA-2026-0901\\r\\nMessage-ID: <pa-0901@origin.example>\\r\\n\\r\\nPlease find the manifest attached."}]}',
          '{"parts":[{"data":{"from":"billing@origin.example","subject":"Pre-alert PA-2026-0901","body":"Please find the manifest attached."},"mediaType":"application/json"}]}',
          'Answer a question on the same task: {"taskId":"<the task id>","parts":[{"data":{"entry":"northgate"}}]} or {"taskId":"<the task id>","parts":[{"text":"Northgate Motors Ltd"}]}',
        ],
        inputModes: ['message/rfc822', 'text/plain', 'application/json'],
        outputModes: ['application/json', 'text/plain'],
      },
      {
        id: SKILL_RECHECK,
        name: 'Show back what the agent now makes of a message',
        description:
          'Re-reads a message this agent has already seen under the definition version active now, and reports settled (winner, reads, candidates) or unsettled (reads: what it saw). ' +
          'Read-only: it never asks and never proposes, and every recheck is a new task. ' +
          `Requires the header "A2A-Extensions: ${EXTENSION_URI}" (§7). Send a new message (no taskId) with a data part {"recheck": {"taskId": "<the task that read it>"}} or {"recheck": {"messageId": "<its Message-ID>"}}.`,
        tags: ['email', 'show-back', 'learnables'],
        examples: [
          '{"parts":[{"data":{"recheck":{"taskId":"<id of the triage_inbound task that read the message>"}}}]}',
          '{"parts":[{"data":{"recheck":{"messageId":"pa-0901@origin.example"}}}]}',
        ],
        inputModes: ['application/json'],
        outputModes: ['application/json', 'text/plain'],
      },
    ],
  };
}

/** The same card as the SDK's in-memory (protobuf-shaped) object. */
export function buildAgentCard(input: AgentCardInput): AgentCard {
  return AgentCard.fromJSON(agentCardJson(input));
}

function descriptorJson(d: LearnableDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {
    collection: d.collection,
    entry: d.entry,
    ...(d.skills === undefined ? {} : { skills: [...d.skills] }),
    teaches: d.teaches,
    how: d.how,
    decidedBy: d.decidedBy,
    lessonFields: d.lessonFields.map((f) => ({
      ...f,
      ...(f.choices === undefined ? {} : { choices: [...f.choices] }),
    })),
  };
  return out;
}
