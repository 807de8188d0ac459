import { ConfigError } from '@relay/config';
import { parseRedriveArgs } from './redrive-command';

describe('redrive command arguments', () => {
  it('--channel webhook --limit 10 --target tg_1', () => {
    expect(parseRedriveArgs(['--channel', 'webhook', '--limit', '10', '--target', 'tg_1'])).toEqual({
      channel: 'webhook',
      limit: 10,
      targetId: 'tg_1',
    });
  });

  it('defaults: the service channel and a limit of 1000', () => {
    expect(parseRedriveArgs([], 'chat')).toEqual({ channel: 'chat', limit: 1000 });
  });

  it('reports every problem at once', () => {
    try {
      parseRedriveArgs(['--channel', 'email', '--limit', '0', '--force']);
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.slice(0, 3)).toEqual([
        'unknown argument --force',
        '--channel must be one of webhook, chat, outputs',
        '--limit must be an integer from 1 to 1000000',
      ]);
    }
  });
});
