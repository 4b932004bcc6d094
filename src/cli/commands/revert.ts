/** `revert`: undo exactly what one activation taught, keeping every lesson after it (§13.4). */
import { undoCommand } from './undo-command.ts';

export const revertCommand = undoCommand({
  name: 'revert',
  summary: 'take back one lesson, keeping everything taught after it',
  option: 'activation',
  optionHelp: "the lesson's definitionVersion, as shown by history",
  missing: 'say which lesson to take back with --activation N (see history)',
  lead: 'Reverted: ',
  undo: (k, activation, writer) => k.authority.revert(k.tenant, k.principal, { activation, ...writer }),
});
