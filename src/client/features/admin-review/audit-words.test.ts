import type { AuditEntry } from '@shared/admin';
import { describe, expect, it } from 'vitest';
import { auditWords } from './audit-words';

const entry = (action: string, changes: AuditEntry['changes']): AuditEntry => ({
  id: action,
  actorEmail: 'staff@example.com',
  action,
  changes,
  createdAt: '2026-11-27T10:00:00.000Z',
});

/** Everything an entry says, as one text. */
const said = (e: AuditEntry) => {
  const words = auditWords(e);
  return [words.what, ...words.lines].join('\n');
};

describe('the review history in words (issue 43, item 11)', () => {
  it('says a revised offer as a sentence, never [object Object]', () => {
    const text = said(
      entry('offer', {
        offer: {
          from: null,
          to: {
            verifiedValue: '80.00',
            amount: '68.00',
            note: 'Balance was $80',
            expiresAt: '2026-11-30T10:00:00.000Z',
          },
        },
      }),
    );
    expect(text).toContain('Made a revised offer');
    expect(text).toContain('Offered $68.00 for a verified value of $80.00');
    expect(text).toContain('“Balance was $80”');
    expect(text).not.toContain('[object Object]');
    expect(text).not.toMatch(/\boffer:/);
  });

  it('names appeal photos instead of their paths, and uses no raw field name', () => {
    const text = said(
      entry('appeal', {
        appealStatus: { from: null, to: 'pending' },
        appealMessage: { from: null, to: 'The card was unused' },
        appealImageUrls: { from: null, to: ['/objects/cards/a.jpg', '/objects/cards/b.jpg'] },
      }),
    );
    expect(text).toContain('The customer appealed');
    expect(text).toContain('Appeal photos: 2 photos attached');
    expect(text).toContain('Appeal message: — → The card was unused');
    expect(text).not.toContain('/objects/');
    expect(text).not.toMatch(/appeal[A-Z]/);
  });

  it('says a code view is a view, not an edit of the code', () => {
    const words = auditWords(entry('view_card_code', { cardCode: { from: null, to: '••••ZZ3P' } }));
    expect(words).toEqual({ what: 'Viewed the card code (••••ZZ3P)', lines: [] });
  });

  it('writes statuses, reasons and money as the portal shows them', () => {
    const text = said(
      entry('update', {
        status: { from: 'pending', to: 'rejected' },
        rejectionReason: { from: null, to: 'other' },
        paymentAmount: { from: null, to: '91.00' },
        someNewField: { from: 'a', to: 'b' },
      }),
    );
    expect(text).toContain('Changed the card');
    expect(text).toContain('Status: Pending Review → Rejected');
    expect(text).toContain('Rejection reason: — → Other');
    expect(text).toContain('Payment amount: — → $91.00');
    expect(text).toContain('Some new field: a → b');
  });

  it('says money taken back and written off in words', () => {
    expect(
      said(
        entry('clawback', {
          clawback: { from: null, to: { amount: '20.00', reason: 'chargeback', note: null } },
        }),
      ),
    ).toMatch(/Took back \$20\.00: /);
    expect(
      said(
        entry('write_off', {
          writtenOff: { from: null, to: { clawbackId: 'x', amount: '5.00', note: 'Too small' } },
        }),
      ),
    ).toContain('Wrote off $5.00: “Too small”');
  });
});
