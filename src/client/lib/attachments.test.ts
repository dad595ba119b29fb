import { describe, expect, it } from 'vitest';
import { attachmentView } from './attachments';

describe('ticket attachments in words (issue 43, item 12)', () => {
  it('shows an uploaded photo as a thumbnail and names other files by kind, never by path', () => {
    expect(attachmentView('/objects/chat/0b6f3c1e-2a8b-4c1d-9e2f-1a2b3c4d5e6f.jpg')).toEqual({
      image: true,
      name: 'Attached photo',
    });
    expect(attachmentView('/objects/chat/0b6f3c1e.pdf')).toEqual({
      image: false,
      name: 'Attached file (PDF)',
    });
  });

  it('names a link by its site', () => {
    expect(attachmentView('https://www.example.com/receipt/123')).toEqual({
      image: false,
      name: 'Link to example.com',
    });
  });
});
