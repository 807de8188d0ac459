import { allows, mayManage, roleOfStored } from './roles';

describe('API key roles (docs/management-api.md "Roles")', () => {
  it.each([
    ['viewer', 'viewer', true],
    ['viewer', 'editor', false],
    ['editor', 'editor', true],
    ['editor', 'admin', false],
    ['admin', 'editor', true],
    ['admin', 'owner', false],
    ['owner', 'admin', true],
    ['owner', 'owner', true],
  ] as const)('a %s key may do what needs %s: %s', (role, least, expected) => {
    expect(allows(role, least)).toBe(expected);
  });

  it.each([
    ['owner', 'owner', true],
    ['owner', 'viewer', true],
    ['admin', 'admin', true],
    ['admin', 'viewer', true],
    ['admin', 'owner', false],
    ['editor', 'viewer', false],
    ['viewer', 'viewer', false],
  ] as const)('a %s key may create or revoke a %s key: %s', (actor, subject, expected) => {
    expect(mayManage(actor, subject)).toBe(expected);
  });

  it('a key stored before roles existed is an owner key', () => {
    expect(roleOfStored(undefined)).toBe('owner');
    expect(roleOfStored(null)).toBe('owner');
    expect(roleOfStored('viewer')).toBe('viewer');
    expect(roleOfStored('superuser')).toBe('viewer'); // never more than a known role
  });
});
