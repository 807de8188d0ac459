import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configPath, readLogin, writeLogin } from './config-file';

describe('relay login: where the key is kept and who can read it', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'relay-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [{ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/a' }, '/x/cfg/relay/config.json'],
    [{ HOME: '/home/a' }, '/home/a/.config/relay/config.json'],
    // XDG Base Directory: a relative path is invalid and ignored
    [{ XDG_CONFIG_HOME: 'rel/cfg', HOME: '/home/a' }, '/home/a/.config/relay/config.json'],
  ])('%j → %s', (env, want) => {
    expect(configPath(env)).toBe(want);
  });

  it('writes the file 0600 in a 0700 directory, replacing an older file with wider permissions', () => {
    const file = path.join(dir, 'relay', 'config.json');
    writeLogin(file, { api_url: 'http://127.0.0.1:8081', api_key: 'rk_first' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    writeFileSync(file, '{}', { mode: 0o644 });
    writeLogin(file, { api_url: 'http://127.0.0.1:8081', api_key: 'rk_second' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readLogin(file)).toEqual({ api_url: 'http://127.0.0.1:8081', api_key: 'rk_second' });
    expect(JSON.parse(readFileSync(file, 'utf8')).api_key).toBe('rk_second');
  });

  it('no file: no login; a broken file: a clear error', () => {
    expect(readLogin(path.join(dir, 'none.json'))).toBeNull();
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{');
    expect(() => readLogin(broken)).toThrow(/not valid JSON: run relay login again/);
  });
});
