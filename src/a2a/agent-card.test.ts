// Invariant: the card declares the Learnables extension as §6 requires, generated from the learnables' own descriptors.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AgentCard } from '@a2a-js/sdk';
import { EXTENSION_URI, TEACH_METHOD } from '../domain/extension.ts';
import { createLearnables } from '../domain/learnables/index.ts';
import { agentCardJson, SKILL_RECHECK, SKILL_TRIAGE } from './agent-card.ts';

const schema = JSON.parse(readFileSync('/work/shared/spec/extension.json', 'utf8')) as Record<
  string,
  unknown
>;
const settings = { identificationMargin: 0.5 };
const descriptors = createLearnables().map((l) => l.descriptor(settings));

function card(selfOwning = true): Record<string, any> {
  return agentCardJson({ baseUrl: 'http://127.0.0.1:8080', descriptors, selfOwning, legacyCompat: true });
}

function validateParams(params: unknown): { ok: boolean; errors: unknown } {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const {
    $schema: _s,
    $id: _i,
    declaration,
    $defs,
  } = schema as { $schema: string; $id: string; declaration: { params: object }; $defs: object };
  const validate = ajv.compile({ ...declaration.params, $defs });
  const ok = validate(params);
  return { ok, errors: validate.errors };
}

describe('agent card', () => {
  it('declares the extension with required: false on the wire (§6.1)', () => {
    const ext = card().capabilities.extensions.find((e: { uri: string }) => e.uri === EXTENSION_URI);
    expect(ext).toBeDefined();
    expect(ext.required).toBe(false);
    expect(JSON.stringify(card())).toContain('"required":false');
  });

  it('carries params that validate against extension.json (§6.2, §6.3, Appendix A)', () => {
    const params = card().capabilities.extensions[0].params;
    const result = validateParams(params);
    expect(result.errors).toBeNull();
    expect(result.ok).toBe(true);
    expect(params.learnables.map((l: { collection: string }) => l.collection)).toEqual([
      'customers',
      'kinds',
      'mappings',
    ]);
  });

  it('a broken declaration fails the same validation (the check can fail)', () => {
    const params = structuredClone(card().capabilities.extensions[0].params);
    delete params.learnables[0].how;
    expect(validateParams(params).ok).toBe(false);
  });

  it('generates params.learnables from the descriptors, how included (§6.2)', () => {
    const params = card().capabilities.extensions[0].params;
    expect(params.learnables).toEqual(JSON.parse(JSON.stringify(descriptors)));
    for (const l of params.learnables) expect(l.how.length).toBeGreaterThan(20);
  });

  it('declares on the card the lesson field by which each learnable creates an entry (issue 12.3, §6.3)', () => {
    const params = card().capabilities.extensions[0].params;
    const declaring = createLearnables().filter((l) => l.creation !== undefined);
    expect(declaring.map((l) => l.collection)).toEqual(['customers', 'kinds', 'mappings']);
    for (const l of declaring) {
      const onCard = params.learnables.find((d: { collection: string }) => d.collection === l.collection);
      const labels = onCard.lessonFields.map((f: { label: string }) => f.label) as string[];
      expect(labels.filter((label) => l.creation!.how.includes(`"${label}"`))).toHaveLength(1);
    }
  });

  it('declares teachMethod only for a self-owning agent (§12.2)', () => {
    expect(card(true).capabilities.extensions[0].params.teachMethod).toBe(TEACH_METHOD);
    expect(card(false).capabilities.extensions[0].params.teachMethod).toBeUndefined();
  });

  it('offers triage_inbound and recheck_message with examples of what to send', () => {
    const skills = card().skills as { id: string; description: string; examples: string[] }[];
    expect(skills.map((s) => s.id)).toEqual([SKILL_TRIAGE, SKILL_RECHECK]);
    for (const s of skills) {
      expect(s.examples.length).toBeGreaterThan(0);
      expect(s.description).toMatch(/send/i);
    }
    expect(skills[1]!.description).toContain(EXTENSION_URI);
  });

  it('is a valid v1.0 card for the SDK, with v1.0 interfaces first and v0.3 for legacy clients', () => {
    const parsed = AgentCard.fromJSON(card());
    expect(parsed.supportedInterfaces.map((i) => `${i.protocolBinding}@${i.protocolVersion}`)).toEqual([
      'JSONRPC@1.0',
      'HTTP+JSON@1.0',
      'JSONRPC@0.3',
      'HTTP+JSON@0.3',
    ]);
    expect(parsed.capabilities?.streaming).toBe(true);
  });
});
