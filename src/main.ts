/**
 * Composition root: configuration, the database, the authority (embedded, or remote through
 * AUTHORITY_URL), the triage service, the token store, and the server. On the first start with an
 * empty data directory it creates the demo tenant and prints a token for it once, also writing it to
 * DATA_DIR/demo-token readable only by its owner.
 *
 * `compose(config)` builds everything without listening (tests and the card check use it);
 * running this file listens and stops cleanly on SIGINT/SIGTERM.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MailReader } from './a2a/ports.ts';
import { createAdmission, type Admission } from './admission/admission.ts';
import { createAuthThrottle } from './admission/auth-throttle.ts';
import { admissionLimitsOf, loadConfig, mailLimitsOf, type Config } from './config/config.ts';
import type { MailLimits } from './domain/mail/limits.ts';
import type { Authority, DirectoryImport } from './domain/authority/authority.ts';
import { createAuthority } from './domain/authority/create-authority.ts';
import { ensureDemoTenant } from './domain/authority/ensure-demo-tenant.ts';
import { displayProvenance } from './domain/authority/attribution.ts';
import { systemClock } from './domain/clock.ts';
import type { Learnable } from './domain/learnables/learnable.ts';
import { createLearnables } from './domain/learnables/registry.ts';
import { createMatcherCache } from './domain/triage/definition-marks.ts';
import { createTriageService } from './domain/triage/triage-service.ts';
import { cacheEraser } from './domain/triage/cache-eraser.ts';
import { consoleFaultLog } from './http/errors.ts';
import { redactForLog } from './domain/log-redaction.ts';
import { createMatchingRuntime, type MarkAnalysisStore } from './domain/matching/index.ts';
import { DEMO_TENANT, type TenantId } from './domain/tenant.ts';
import { createRemoteDefinitionSource, type DefinitionSource } from './http/remote-authority.ts';
import { messageFromFields } from './ingest/mail/from-fields.ts';
import { parseMail } from './ingest/mail/parse.ts';
import { composeMailIngest } from './compose-mail.ts';
import { createServer, type AppServer } from './server.ts';
import { DATABASE_FILE_NAME, openDatabase } from './store/database.ts';
import { SqliteCorpusStore } from './store/sqlite-corpus-store.ts';
import { bytesGone, sqliteErasers } from './store/sqlite-erasure.ts';
import { SqliteIngestStore } from './store/sqlite-ingest-store.ts';
import { failInterruptedTasks } from './store/interrupted-tasks.ts';
import { createRawMailRetention } from './store/raw-mail-retention.ts';
import { createSqliteDefinitionStore } from './store/sqlite-definition-store.ts';
import { createSqliteMarkAnalyses } from './store/sqlite-mark-analyses.ts';
import { createSqliteTaskPins } from './store/sqlite-task-pins.ts';
import { createSqliteTokenStore } from './store/sqlite-token-store.ts';

/** The demo directory imported on first start. */
export const DEMO_DIRECTORY_FILE = fileURLToPath(new URL('../fixtures/directory/demo.json', import.meta.url));
/** The database file under DATA_DIR. */
export { DATABASE_FILE_NAME as DATABASE_FILE } from './store/database.ts';
/** Definition versions kept compiled at once (the active one and those pinned tasks still use). */
const MATCHER_CACHE_VERSIONS = 4;
/** Where the first-start token is written (mode 0600). */
export const DEMO_TOKEN_FILE = 'demo-token';

export interface Composition {
  readonly server: AppServer;
  /** The token created on this (first) start, or null. */
  readonly demoToken: string | null;
  /** The admission gate every mail path shares (src/admission); its load is the operator's to read. */
  readonly admission: Admission;
  close(): Promise<void>;
}

export interface ComposeOptions {
  /** Where the first-start token is announced. Default: stdout. */
  readonly announce?: (line: string) => void;
  /**
   * Learnables declared after this agent's own (customers, kinds, mappings), through the same
   * registry: a new learnable is a deployment, not a release (§9). Default: none.
   */
  readonly learnables?: readonly Learnable[];
}

export async function compose(config: Config, options: ComposeOptions = {}): Promise<Composition> {
  const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase({ file: join(dataDir, DATABASE_FILE_NAME) });
  try {
    // A task a killed process left submitted or working is told so, not left waiting forever.
    await failInterruptedTasks(db, Date.now());
    const tokens = createSqliteTokenStore(db);
    const settings = { identificationMargin: config.identificationMargin };
    const learnables = createLearnables(options.learnables);

    let authority: Authority | null = null;
    let source: DefinitionSource;
    let remoteRulesInForce: Authority['rulesInForce'] | undefined;
    // Readings name who taught each matched mark (§13.4): the handle behind the stable person id (§14).
    let resolvePerson: ((t: TenantId, id: string) => Promise<string | null>) | undefined;
    let tenant = DEMO_TENANT;
    // Kept regex analyses live beside the definitions, whose §14 erase clears them; an agent against
    // a remote authority keeps them in memory only (an erase there could not reach its rows).
    let analyses: MarkAnalysisStore | undefined;
    const corpus = new SqliteCorpusStore(db);
    // The server's matching runtime: its analyses, buffers and matchers, which a §14 erase clears.
    const matchingRuntime = createMatchingRuntime();
    const matcherCache = createMatcherCache({
      maxVersions: MATCHER_CACHE_VERSIONS,
      runtime: matchingRuntime,
    });
    if (config.authorityUrl !== undefined) {
      // §12.1: definitions come from another process; this agent keeps none of its own.
      const remote = await createRemoteDefinitionSource({
        url: config.authorityUrl,
        token: config.authorityToken ?? '',
      });
      source = remote;
      remoteRulesInForce = (t, versionId) => remote.rulesInForce(t, versionId);
      resolvePerson = (t, id) => remote.personHandle(t, id);
      tenant = remote.tenant;
    } else {
      const definitionStore = createSqliteDefinitionStore(db);
      analyses = createSqliteMarkAnalyses(db);
      // A lesson an application wrote for a person reads "dana@…, via app:…" (§13.4).
      resolvePerson = (t, id) => displayProvenance(id, (person) => definitionStore.personHandle(t, person));
      authority = createAuthority({
        store: definitionStore,
        learnables,
        settings,
        clock: systemClock,
        // §9: an application's or service's own name is never a taughtBy.
        isServiceAccount: (t, name) => tokens.isServiceAccount(t, name),
        // §14: an erase reaches every store and cache of this process, then the bytes leave the file.
        erasers: [
          ...sqliteErasers({ db, corpus, ingest: new SqliteIngestStore(db), now: () => systemClock.now() }),
          cacheEraser(matchingRuntime, matcherCache),
          bytesGone(db),
        ],
      });
      source = authority;
      const directory = JSON.parse(readFileSync(DEMO_DIRECTORY_FILE, 'utf8')) as DirectoryImport;
      await ensureDemoTenant(authority, directory);
    }

    // The agent's own callers need a token too when the authority is elsewhere: for the tenant it serves.
    const demoToken = await firstStartToken(tokens, tenant, dataDir, announce);
    const triage = createTriageService({
      definitions: source,
      corpus,
      learnables,
      settings: {
        ...settings,
        rawMailRetentionDays: config.rawMailRetentionDays,
        ...(config.corpusRetentionDays === undefined
          ? {}
          : { corpusRetentionDays: config.corpusRetentionDays }),
      },
      matcherCache,
      ...(analyses === undefined ? {} : { analyses }),
      clock: systemClock,
      ...(resolvePerson === undefined ? {} : { resolvePerson }),
    });
    const agent =
      config.role === 'authority'
        ? null
        : { triage, mail: mailReaderFor(mailLimitsOf(config)), descriptors: () => source.descriptors() };
    // Mail pipelines (MAILBOXES, INBOUND_WEBHOOKS): the same in-process path as triage_inbound.
    let a2a: AppServer['a2a'] = null;
    // One admission gate for every path mail comes in by (issue 16): A2A, webhooks, IMAP.
    const admission = createAdmission(admissionLimitsOf(config));
    const mail = composeMailIngest({
      config,
      db,
      submitMail: () => a2a?.submitMail.bind(a2a) ?? null,
      admission,
    });
    const server = createServer({
      config,
      db,
      verifier: tokens,
      authority,
      taskPins: createSqliteTaskPins(db),
      dryRun: (t, _principal, lesson) => triage.dryRun(t, lesson),
      entryLabels: learnables,
      agent,
      admission,
      authThrottle: createAuthThrottle({
        burst: config.authFailureBurst,
        perMinute: config.authFailuresPerMinute,
      }),
      ...(remoteRulesInForce === undefined ? {} : { remoteRulesInForce }),
      ...(agent === null ? {} : { inbound: mail.router }),
    });
    a2a = server.a2a;
    // §14: raw mail is kept RAW_MAIL_RETENTION_DAYS, then incinerated (swept now and periodically).
    const retention = createRawMailRetention({
      db,
      corpus,
      days: config.rawMailRetentionDays,
      log: consoleFaultLog,
    });
    await retention.start();
    if (agent !== null) await mail.start(); // pollers retry unreachable mailboxes in the background
    return {
      server,
      demoToken,
      admission,
      async close() {
        await retention.stop();
        await mail.stop();
        await server.close();
        await db.destroy();
      },
    };
  } catch (e) {
    await db.destroy();
    throw e;
  }
}

/** The A2A adapter's MailReader over the ingest parsers (mailparser; data-part fields), with the configured limits. */
function mailReaderFor(limits: MailLimits): MailReader {
  return {
    parse: (raw) => parseMail(raw, limits),
    fromFields: (fields) => messageFromFields(fields, limits),
  };
}

/**
 * §13.2 first start: the demo tenant gets one admin token, printed once and written to a file only
 * the owner can read. A later start (the tenant already has tokens) creates nothing.
 */
async function firstStartToken(
  tokens: ReturnType<typeof createSqliteTokenStore>,
  tenant: TenantId,
  dataDir: string,
  announce: (line: string) => void,
): Promise<string | null> {
  if ((await tokens.list(tenant)).length > 0) return null;
  const { token, record } = await tokens.create({
    tenant,
    principal: 'demo-operator',
    // An application (a console) acting for the people it names in taughtBy; a person's token could
    // only write as that person (§13.2, attribution.ts).
    kind: 'application',
    roles: ['admin'],
  });
  const file = join(dataDir, DEMO_TOKEN_FILE);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // in case the file existed with wider permissions
  announce(
    `First start: created an admin token for the "${tenant}" tenant (${record.id}). It is shown only now:\n\n  ${token}\n\n` +
      `It is also saved in ${file} (readable only by you). Create more with \`learnables-triage tokens create\`.`,
  );
  return token;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const composition = await compose(config);
  const { localUrl: url } = await composition.server.listen(config.port, config.host);
  process.stdout.write(
    `learnables-triage ${config.role === 'authority' ? 'authority' : 'agent'} listening on ${url} (data in ${resolve(config.dataDir)})\n`,
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    composition.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('error while stopping', redactForLog(e));
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    console.error(redactForLog(e instanceof Error ? e.message : e));
    process.exit(1);
  });
}
