import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** What `relay login` keeps: where the management API is and the API key to call it with. */
export interface StoredLogin {
  api_url: string;
  api_key: string;
}

/**
 * `$XDG_CONFIG_HOME/relay/config.json`, or `~/.config/relay/config.json` when XDG_CONFIG_HOME is
 * unset or not absolute (the XDG Base Directory rule: a relative path is to be ignored).
 */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), '.config');
  return path.join(base, 'relay', 'config.json');
}

export function readLogin(file: string): StoredLogin | null {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<StoredLogin>;
    return typeof parsed.api_url === 'string' && typeof parsed.api_key === 'string'
      ? { api_url: parsed.api_url, api_key: parsed.api_key }
      : null;
  } catch {
    throw new Error(`${file} is not valid JSON: run relay login again`);
  }
}

/**
 * Writes the key readable by its owner alone: the directory 0700, the file created 0600 under a
 * temporary name and renamed over the old one, so no moment exists where another user could
 * read it, and an old file with wider permissions is replaced, not reused.
 */
export function writeLogin(file: string, login: StoredLogin): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
