// The main side's half of shared/confirmations.ts: before a destructive channel runs, the host asks with
// its native box exactly where the table's `native` says so. An action whose `native` is null never asks
// here (the page's dialog is enough) and needs no target; one that may ask must be given its target, so
// making an entry ask natively is a compile error until its handler says what it destroys.
import {
  TABLE,
  type DestructiveAction,
  type HostAsks,
  type Targets,
  whoConfirms,
} from '../../shared/confirmations.js';
import { ContractError } from '../../shared/errors.js';
import type { HostServices } from './host.js';

type TargetArg<A extends DestructiveAction> = A extends HostAsks
  ? [target: () => Targets[A] | Promise<Targets[A]>]
  : [];

/** Ask natively where the table says the host asks; a cancelled box throws the entry's `cancelled`. */
export async function confirmNatively<A extends DestructiveAction>(
  host: Pick<HostServices, 'confirm'>,
  action: A,
  ...target: TargetArg<A>
): Promise<void> {
  const [of] = target as [() => Targets[A] | Promise<Targets[A]>] | [];
  // No target: the table never has the host ask for this action (TargetArg says so), so nothing to ask.
  if (!host.confirm || !of) return;
  const what = await of();
  if (whoConfirms(action, what, true) === 'page') return;
  const entry = TABLE[action];
  const ask = entry.native!(what)!;
  if (!(await host.confirm(ask))) throw new ContractError('invalid_request', entry.cancelled);
}
