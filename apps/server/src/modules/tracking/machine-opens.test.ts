import { describe, expect, it } from 'vitest';
import { isTooSoon, machineOpenReason } from './machine-opens.ts';

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';

describe('machineOpenReason', () => {
  it('takes a person’s mail client for a person', () => {
    expect(machineOpenReason(SAFARI, '203.0.113.9')).toBeNull();
    expect(
      machineOpenReason(
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
        '66.249.84.1',
      ),
    ).toBeNull();
  });

  it('tells Apple Mail Privacy Protection by its bare user agent or its addresses', () => {
    expect(machineOpenReason('Mozilla/5.0', '104.28.1.1')).toBe('apple_privacy_proxy');
    expect(machineOpenReason(SAFARI, '17.58.101.3')).toBe('apple_privacy_proxy');
    expect(machineOpenReason(SAFARI, '::ffff:17.1.2.3')).toBe('apple_privacy_proxy');
  });

  it('tells scanners, scripts and a missing user agent', () => {
    expect(machineOpenReason('Barracuda Sentinel (EE)', '198.51.100.2')).toBe('scanner');
    expect(machineOpenReason('python-requests/2.31', '198.51.100.2')).toBe('scanner');
    expect(machineOpenReason(undefined, '198.51.100.2')).toBe('no_user_agent');
    expect(machineOpenReason('  ', '198.51.100.2')).toBe('no_user_agent');
  });
});

describe('isTooSoon', () => {
  it('takes a fetch within two seconds of the send for a prefetch', () => {
    const sent = new Date('2026-07-01T00:00:00Z');
    expect(isTooSoon(sent, new Date('2026-07-01T00:00:01Z'))).toBe(true);
    expect(isTooSoon(sent, new Date('2026-07-01T00:00:05Z'))).toBe(false);
    expect(isTooSoon(null, new Date())).toBe(false);
  });
});
