import { describe, expect, it } from 'vitest';
import { adminLoginPath, adminReturnPath } from './admin-return';

describe('the staff sign-in returns to the link (issue 43, item 10)', () => {
  it('goes back to the portal link it was sent from, with its query', () => {
    const login = adminLoginPath('/admin?tab=payouts');
    expect(login).toBe('/admin/login?next=%2Fadmin%3Ftab%3Dpayouts');
    expect(adminReturnPath(login.slice(login.indexOf('?')))).toBe('/admin?tab=payouts');
  });

  it('follows only links inside the portal', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example/admin',
      '/history',
      '/adminx',
      '/admin/login',
      '/admin/\\\\evil',
    ]) {
      expect(adminReturnPath(`?next=${encodeURIComponent(next)}`)).toBe('/admin');
    }
    expect(adminReturnPath('')).toBe('/admin');
  });
});
