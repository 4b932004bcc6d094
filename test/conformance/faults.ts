/**
 * The faults the kit must catch (issues 30 and 42): one at least for every MUST it checks, each as
 * the wire of a build that has it, for fault-proxy.ts. A fault is named by the checks it must fail,
 * and only those sections may fail under it.
 */
import type { Fault } from './fault-proxy.ts';
import { cardFaults } from './faults-card.ts';
import { lessonFaults } from './faults-lessons.ts';
import { questionFaults } from './faults-questions.ts';
import { tenantFaults } from './faults-tenants.ts';

export interface NamedFault {
  readonly name: string;
  readonly fault: Fault;
  /** Check ids (prefixes) that must fail, and the section each names. */
  readonly fails: readonly { readonly id: string; readonly section: string }[];
}

export interface FaultContext {
  /** The first tenant's token, and the second's (§13.2). */
  readonly token: string;
  readonly secondToken: string;
  /** The person the kit teaches as. */
  readonly taughtBy: string;
}

/** Every fault, new for each call (some remember what they saw). */
export function wireFaults(context: FaultContext): readonly NamedFault[] {
  return [...cardFaults, ...questionFaults(), ...lessonFaults(context.taughtBy), ...tenantFaults(context)];
}
