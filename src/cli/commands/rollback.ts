/** `rollback`: activate the content of an earlier definitionVersion as a new history entry (§10.3). */
import { undoCommand } from './undo-command.ts';

export const rollbackCommand = undoCommand({
  name: 'rollback',
  summary: 'make an earlier definitionVersion active again (recorded as a new activation)',
  option: 'to',
  optionHelp: 'the definitionVersion whose content becomes active (0 = nothing learned)',
  missing: 'say which definitionVersion to go back to with --to N',
  lead: '',
  undo: (k, to, writer) => k.authority.rollback(k.tenant, k.principal, { to, ...writer }),
});
