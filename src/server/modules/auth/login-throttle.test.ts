import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  it('blocks an address after the limit until the window ends', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(3, 60_000, () => now);
    for (let i = 0; i < 2; i++) throttle.recordFailure('1.2.3.4');
    expect(throttle.retryAfter('1.2.3.4')).toBe(0);
    throttle.recordFailure('1.2.3.4');
    expect(throttle.retryAfter('1.2.3.4')).toBe(60);
    expect(throttle.retryAfter('5.6.7.8')).toBe(0);
    now += 30_000;
    expect(throttle.retryAfter('1.2.3.4')).toBe(30);
    now += 30_001;
    expect(throttle.retryAfter('1.2.3.4')).toBe(0);
    throttle.recordFailure('1.2.3.4');
    expect(throttle.retryAfter('1.2.3.4')).toBe(0);
  });
});
