/** For worker processes: the real authority over a SQLite file (real migrations and learnables). */
import { createAuthority, type Authority } from '../../../src/domain/authority/index.ts';
import { systemClock } from '../../../src/domain/clock.ts';
import { createLearnables } from '../../../src/domain/learnables/index.ts';
import { openDatabase } from '../../../src/store/database.ts';
import { createSqliteDefinitionStore } from '../../../src/store/sqlite-definition-store.ts';

export async function openAuthorityOn(
  file: string,
): Promise<{ authority: Authority; close(): Promise<void> }> {
  const db = await openDatabase({ file });
  const authority = createAuthority({
    store: createSqliteDefinitionStore(db),
    learnables: createLearnables(),
    settings: { identificationMargin: 0.5 },
    clock: systemClock,
  });
  return { authority, close: () => db.destroy() };
}
