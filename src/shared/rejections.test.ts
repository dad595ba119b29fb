import { describe, expect, it } from 'vitest';
import {
  REJECTION_NOTE_REQUIRED,
  REJECTION_REASON_REQUIRED,
  rejectionProblems,
} from './rejections';

describe('rejectionProblems', () => {
  it('asks nothing of a card that is not rejected', () => {
    expect(rejectionProblems({ status: 'completed', reason: '', note: '' })).toEqual({});
  });

  it('asks a rejection for its reason, and Other for its note', () => {
    expect(rejectionProblems({ status: 'rejected', reason: '', note: null })).toEqual({
      rejectionReason: REJECTION_REASON_REQUIRED,
    });
    expect(rejectionProblems({ status: 'rejected', reason: 'other', note: '   ' })).toEqual({
      rejectionNote: REJECTION_NOTE_REQUIRED,
    });
    expect(rejectionProblems({ status: 'rejected', reason: 'other', note: 'Torn card' })).toEqual(
      {},
    );
    expect(rejectionProblems({ status: 'rejected', reason: 'code_invalid', note: null })).toEqual(
      {},
    );
  });
});
