import { beforeAll, describe, expect, it } from 'vitest';
import { buildExports } from '../../src/server/modules/privacy/jobs';
import { OBJECT_FOLDERS } from '../../src/server/storage/object-storage';
import { STAFF_ROLES, type StaffRole } from '../../src/shared/staff-roles';
import { identityBody } from './builders';
import {
  as,
  fixture,
  multipart,
  reviewCard,
  type SignedIn,
  setUpTestApp,
  signInAs,
  signUp,
  submitCard,
  uploadCardImage,
} from './helpers';

/**
 * Who may fetch each kind of stored file (issue 43, item 5; decision 110): every folder
 * `/objects` serves, and the exports it does not, against each staff role, the customer whose file
 * it is, another customer and a visitor signed out. The rules are OBJECT_ACCESS in
 * src/server/modules/files/access.ts.
 */
const t = setUpTestApp();

type Principal = StaffRole | 'customer' | 'other' | 'signedOut';
const PRINCIPALS: Principal[] = [...STAFF_ROLES, 'customer', 'other', 'signedOut'];
type Row = Record<Principal, number>;

const cardRow: Row = {
  owner: 200,
  reviewer: 200,
  support: 200,
  finance: 200,
  customer: 200,
  other: 404,
  signedOut: 401,
};
const chatRow: Row = { ...cardRow, reviewer: 404, finance: 404 };
const documentRow: Row = { ...cardRow, support: 404, finance: 404, customer: 404 };
const nobody: Row = { ...documentRow, owner: 404, reviewer: 404 };

/** The expected answers, by the file asked for. "customer" is the customer whose file it is. */
const MATRIX: Record<string, Row> = {
  'card photo': cardRow,
  'appeal photo': cardRow,
  "customer's chat attachment": chatRow,
  "staff's chat attachment, to the customer": chatRow,
  'ticket attachment': chatRow,
  'identity document': documentRow,
  'data export at /objects': nobody,
  'data export download': {
    owner: 403,
    reviewer: 403,
    support: 403,
    finance: 403,
    customer: 200,
    other: 404,
    signedOut: 401,
  },
};

const who = {} as Record<Exclude<Principal, 'signedOut'>, SignedIn>;
const urls = {} as Record<keyof typeof MATRIX, string>;

/** The JSON of an answer that must have `status`. */
async function ok(answer: ReturnType<typeof as>, status = 200) {
  const response = await answer;
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

const chatUpload = async (by: SignedIn) =>
  (
    await ok(
      as(t.app, by, {
        method: 'POST',
        url: '/api/chat/upload-attachment',
        ...multipart(fixture('card-back.png'), 'shot.png', 'image/png'),
      }),
    )
  ).url as string;

const sendChat = (by: SignedIn, payload: object) =>
  as(t.app, by, { method: 'POST', url: '/api/chat/messages', payload });

async function identityDocument(customer: SignedIn) {
  const upload = async () =>
    (
      await ok(
        as(t.app, customer, {
          method: 'POST',
          url: '/api/upload-verification-document',
          ...multipart(fixture('card-front.jpg')),
        }),
      )
    ).objectPath as string;
  const document = await upload();
  await ok(
    as(t.app, customer, {
      method: 'POST',
      url: '/api/verification',
      payload: identityBody([document], await upload()),
    }),
    201,
  );
  return document;
}

beforeAll(async () => {
  for (const role of STAFF_ROLES) who[role] = await signInAs(t, role);
  who.customer = await signUp(t.app);
  who.other = await signUp(t.app);
  const customer = who.customer;

  const card = await ok(submitCard(t.app, customer), 201);
  urls['card photo'] = card.imageUrls[0];
  await ok(
    reviewCard(t.app, who.reviewer, card.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
    }),
  );
  urls['appeal photo'] = await uploadCardImage(t.app, customer, 'card-back.png');
  await ok(
    as(t.app, customer, {
      method: 'POST',
      url: `/api/transactions/${card.id}/appeal`,
      payload: { message: 'The code works.', imageUrls: [urls['appeal photo']] },
    }),
    201,
  );

  urls["customer's chat attachment"] = await chatUpload(customer);
  await ok(
    sendChat(customer, {
      message: 'my card',
      attachmentUrl: urls["customer's chat attachment"],
    }),
    201,
  );
  urls["staff's chat attachment, to the customer"] = await chatUpload(who.support);
  await ok(
    sendChat(who.support, {
      message: 'Here it is',
      userId: customer.user.id,
      attachmentUrl: urls["staff's chat attachment, to the customer"],
    }),
    201,
  );
  urls['ticket attachment'] = await chatUpload(customer);
  await ok(
    as(t.app, customer, {
      method: 'POST',
      url: '/api/support-tickets',
      payload: {
        email: customer.user.email,
        subject: 'Card still pending',
        message: 'See the screenshot.',
        attachmentUrl: urls['ticket attachment'],
      },
    }),
    201,
  );

  urls['identity document'] = await identityDocument(customer);

  const asked = await ok(as(t.app, customer, { method: 'POST', url: '/api/account/export' }), 202);
  await buildExports(t.app);
  urls['data export at /objects'] = `/objects/exports/${asked.id}.zip`;
  urls['data export download'] = `/api/account/exports/${asked.id}/download`;
});

describe('stored files (decision 110)', () => {
  it('exercises every folder /objects serves', () => {
    const folders = new Set(
      Object.values(urls)
        .filter((url) => url.startsWith('/objects/'))
        .map((url) => url.split('/')[2]),
    );
    expect([...OBJECT_FOLDERS].filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('answers each principal as the matrix says, for every kind of file', async () => {
    const wrong: string[] = [];
    for (const [file, row] of Object.entries(MATRIX)) {
      for (const principal of PRINCIPALS) {
        const signedIn = principal === 'signedOut' ? undefined : who[principal];
        const response = await as(t.app, signedIn, { method: 'GET', url: urls[file]! });
        if (response.statusCode !== row[principal]) {
          wrong.push(`${file} as ${principal}: ${response.statusCode}, expected ${row[principal]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
