// Invariant: compose.yaml is valid YAML describing PostgreSQL, the authority, two agent replicas and a load balancer in front of both, every app service's environment is one the configuration schema accepts, and all of them share one database.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config.ts';

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
}

const file = new URL('../../compose.yaml', import.meta.url);
const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
};

describe('compose.yaml', () => {
  it('has PostgreSQL, the authority, two agents and a load balancer', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'agent-1',
      'agent-2',
      'authority',
      'lb',
      'postgres',
    ]);
    expect(compose.services.postgres!.image).toMatch(/^postgres:1[5-9]/);
  });

  it('gives every app service an environment the configuration accepts, on the one database', () => {
    const pg = compose.services.postgres!.environment!;
    const url = `postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`;
    for (const name of ['authority', 'agent-1', 'agent-2']) {
      const service = compose.services[name]!;
      expect(service.build, name).toBe('.');
      const config = loadConfig(service.environment ?? {});
      expect(config.databaseUrl, name).toBe(url);
    }
    expect(loadConfig(compose.services.authority!.environment!).role).toBe('authority');
    expect(loadConfig(compose.services['agent-1']!.environment!).role).toBe('all');
  });

  it('starts the agents after the authority, which makes the first start alone', () => {
    for (const name of ['agent-1', 'agent-2']) {
      expect(compose.services[name]!.depends_on).toEqual({ authority: { condition: 'service_healthy' } });
    }
  });

  it('balances across both agents and sends /authority/v1 to the authority', () => {
    const lb = compose.configs['lb-config']!.content;
    expect(lb).toMatch(/upstream agents \{\s*server agent-1:8080;\s*server agent-2:8080;\s*\}/);
    expect(lb).toContain('location /authority/v1/ { proxy_pass http://authority; }');
    const port = loadConfig(compose.services.authority!.environment!).port;
    expect(lb).toContain(`server authority:${port};`);
  });
});
