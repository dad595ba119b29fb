import { describe, expect, it } from 'vitest';
import { displayName, initials } from './user-display';

describe('displayName', () => {
  it('joins first and last name when both exist', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'a@x.io' })).toBe(
      'Ada Lovelace',
    );
  });
  it('falls back to the email when a name is missing', () => {
    expect(displayName({ firstName: 'Ada', lastName: null, email: 'a@x.io' })).toBe('a@x.io');
    expect(displayName({ firstName: '', lastName: 'L', email: 'a@x.io' })).toBe('a@x.io');
  });
});

describe('initials', () => {
  it('uses both names upper-cased', () => {
    expect(initials({ firstName: 'ada', lastName: 'lovelace', email: 'z@x.io' })).toBe('AL');
  });
  it('uses the first letter of the email, then U', () => {
    expect(initials({ firstName: 'Ada', email: 'zed@x.io' })).toBe('Z');
    expect(initials({})).toBe('U');
  });
});
