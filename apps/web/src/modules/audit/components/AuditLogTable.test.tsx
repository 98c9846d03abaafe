import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { AuditLogTable } from './AuditLogTable';

const entry = {
  id: 7,
  at: '2026-11-24T12:00:00.000Z',
  actorEmail: 'admin@sakura.example.jp',
  actingHostName: 'さくらホテルズ',
  actingHostLevel: 'brand',
  actingRole: 'admin',
  action: 'update',
  targetType: 'segment',
  targetId: null,
  targetName: '冬の常連',
  changes: null,
  hostNames: {},
  objectNames: {},
};

describe('audit log table', () => {
  it('names the one time zone its times are shown in', async () => {
    mockFetch((_method, url) => (url.pathname === '/v1/audit' ? { body: { data: [entry] } } : undefined));
    renderWithProviders(<AuditLogTable hostId={null} />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('audit-table', {}, { timeout: 15_000 });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(screen.getByTestId('audit-time-zone').textContent).toBe(`Times on this page are in ${zone}.`);
    expect(screen.getAllByTestId('audit-entry')).toHaveLength(1);
  }, 30_000);
});
