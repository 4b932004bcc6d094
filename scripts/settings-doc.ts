/** Writes docs/settings.md from the config schema (src/config/settings-doc.ts). */
import { writeFileSync } from 'node:fs';
import { renderSettingsDoc } from '../src/config/settings-doc.ts';

writeFileSync(new URL('../docs/settings.md', import.meta.url), renderSettingsDoc());
process.stdout.write('wrote docs/settings.md\n');
