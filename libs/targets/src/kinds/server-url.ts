import type { CheckContext } from '../describe/field';
import type { SecretSealer } from '../kind';
import { TargetConfigError } from '../kind';

/** What a queue or stream kind's server URL may be (docs/targets-queues.md). */
export interface ServerUrlRule {
  /** the plain and the TLS scheme, e.g. `amqp:` and `amqps:` */
  schemes: readonly [string, string];
  /** the message for a value that is no URL at all, with an example */
  notAUrl: string;
  /** why the client cannot dial this path; null when it can */
  pathProblem(pathname: string): string | null;
  /** the setting's name in messages (default `url`) */
  name?: string;
}

/**
 * A server URL checked at save: one of the kind's schemes, a host, a path its client dials, no
 * query or fragment (the client's options are Relay's). The messages never echo the URL, which
 * holds the password.
 */
export function checkServerUrl(value: string, ctx: CheckContext, rule: ServerUrlRule): undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.fail(rule.notAUrl);
    return undefined;
  }
  const pathProblem = rule.pathProblem(url.pathname);
  const name = rule.name ?? 'url';
  if (!rule.schemes.includes(url.protocol))
    ctx.fail(`${name} must start with ${rule.schemes.map((s) => `${s}//`).join(' or ')}`);
  else if (url.hostname === '') ctx.fail(`${name} must name a host`);
  else if (pathProblem !== null) ctx.fail(pathProblem);
  else if (url.search !== '' || url.hash !== '') ctx.fail(`${name} must not have a query or fragment`);
  return undefined;
}

/** The target's sealed server URL, opened; one no configured key opens is its configuration's problem. */
export function openServerUrl(secrets: SecretSealer, sealed: string, label: string): string {
  try {
    return secrets.decrypt(sealed);
  } catch {
    throw new TargetConfigError('SECRET_UNREADABLE', `the ${label} URL cannot be opened with any configured key`);
  }
}
