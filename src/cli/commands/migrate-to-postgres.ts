/**
 * `migrate-to-postgres`: moves an embedded SQLite data directory into an empty PostgreSQL database
 * (src/store/copy-to-postgres.ts), so a deployment outgrowing one machine keeps its history,
 * versionIds, tokens and tasks. The SQLite file is only read; stop the server first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.ts';
import { copySqliteToPostgres } from '../../store/copy-to-postgres.ts';
import { DATABASE_FILE_NAME, openDatabase } from '../../store/database.ts';
import { isPostgresUrl, openPostgres } from '../../store/postgres-database.ts';
import { describeStore } from '../../store/open-store.ts';
import { UsageError, type Command } from '../command.ts';
import { parseOptions } from '../knowledge.ts';

export const migrateToPostgresCommand: Command = {
  name: 'migrate-to-postgres',
  summary: 'copy a SQLite data directory into an empty PostgreSQL database',
  usage: `learnables-triage migrate-to-postgres [--data-dir DIR] [--to postgres://…]
  --data-dir DIR   the SQLite data directory to copy (default: $DATA_DIR or ./data); only read
  --to URL         the empty PostgreSQL database (default: $DATABASE_URL)
  --json           print the rows copied per table as JSON
Stop the server on DIR first; afterwards start it (and any replicas) with DATABASE_URL=URL.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, { to: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const config = loadConfig(io.env);
    const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : config.dataDir;
    const to = typeof values.to === 'string' ? values.to : config.databaseUrl;
    if (!isPostgresUrl(to)) {
      throw new UsageError(
        'say where to copy to with --to postgres://user:password@host:5432/database (or set DATABASE_URL)',
      );
    }
    const file = join(dataDir, DATABASE_FILE_NAME);
    if (!existsSync(file)) {
      throw new UsageError(
        `there is no ${DATABASE_FILE_NAME} in ${dataDir}; name the data directory with --data-dir`,
      );
    }
    const from = await openDatabase({ file });
    try {
      const target = await openPostgres({ url: to, poolSize: 2 });
      try {
        const report = await copySqliteToPostgres(from, target);
        if (values.json === true) {
          io.out(JSON.stringify(Object.fromEntries(report.tables), null, 2));
          return;
        }
        for (const [table, rows] of report.tables) io.out(`  ${table.padEnd(20)} ${rows} row(s)`);
        io.out(
          `Copied ${file} into ${describeStore({ databaseUrl: to, dataDir })}. Start the server with DATABASE_URL set to it.`,
        );
      } finally {
        await target.destroy();
      }
    } finally {
      await from.destroy();
    }
  },
};
