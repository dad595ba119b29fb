import {
  BRAND_GREEN,
  PRODUCT_NAME,
  SUPPORT_ADDRESS,
  SUPPORT_EMAIL,
  SUPPORT_PHONE,
} from '../../shared/brand';

/** A message ready to go: both bodies are made from one template. */
export interface Rendered {
  template: string;
  subject: string;
  text: string;
  html: string;
}

/** A line of a message: text, or a button-like link. */
type Block = { text: string } | { link: string; label: string } | { list: Item[] };
interface Item {
  title: string;
  body: string;
  url: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const FOOTER_TEXT = `${PRODUCT_NAME} · ${SUPPORT_EMAIL} · ${SUPPORT_PHONE}\n${SUPPORT_ADDRESS}`;

/** One layout for every message: greeting, blocks, sign-off, and the footer with our contact. */
function layout(
  template: string,
  subject: string,
  greeting: string,
  blocks: Block[],
  why: string,
): Rendered {
  const text = [
    greeting,
    ...blocks.map((b) =>
      'text' in b
        ? b.text
        : 'link' in b
          ? `${b.label}:\n${b.link}`
          : b.list.map((i) => `• ${i.title}\n  ${i.body}\n  ${i.url}`).join('\n\n'),
    ),
    `— The ${PRODUCT_NAME} team`,
    `--\n${why}\n${FOOTER_TEXT}`,
  ].join('\n\n');

  const paragraph = (content: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.55;color:#1f2937">${content}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#111827">${escapeHtml(PRODUCT_NAME)}</p>
${paragraph(escapeHtml(greeting))}
${blocks
  .map((b) => {
    if ('text' in b) return paragraph(escapeHtml(b.text));
    if ('link' in b) {
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="display:inline-block;background:${BRAND_GREEN};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(b.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#6b7280;word-break:break-all">${escapeHtml(b.link)}</p>`;
    }
    return b.list
      .map(
        (i) =>
          `<p style="margin:0 0 12px;font-size:15px;line-height:1.5;color:#1f2937"><strong>${escapeHtml(i.title)}</strong><br>${escapeHtml(i.body)}<br><a href="${escapeHtml(i.url)}" style="color:${BRAND_GREEN}">Open in ${escapeHtml(PRODUCT_NAME)}</a></p>`,
      )
      .join('\n');
  })
  .join('\n')}
${paragraph(`— The ${escapeHtml(PRODUCT_NAME)} team`)}
</td></tr></table>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;line-height:1.5;color:#6b7280">${escapeHtml(why)}<br>${escapeHtml(PRODUCT_NAME)} · <a href="mailto:${SUPPORT_EMAIL}" style="color:#6b7280">${SUPPORT_EMAIL}</a> · ${escapeHtml(SUPPORT_PHONE)}<br>${escapeHtml(SUPPORT_ADDRESS)}</p>
</td></tr></table>
</body></html>`;
  return { template, subject, text, html };
}

const hello = (firstName: string | null | undefined) => (firstName ? `Hi ${firstName},` : 'Hi,');

/** Each message the product sends, by name; modules ask for one and never build bodies. */
export const templates = {
  'verify-email': (d: { firstName: string | null; link: string }) =>
    layout(
      'verify-email',
      `Confirm your email address for ${PRODUCT_NAME}`,
      hello(d.firstName),
      [
        {
          text: `Welcome to ${PRODUCT_NAME}. Please confirm that this is your email address, so we can reach you about your cards and payouts.`,
        },
        { link: d.link, label: 'Confirm my email address' },
        { text: 'The link works for 48 hours. If you did not sign up, ignore this email.' },
      ],
      `You get this email because this address was used to sign up at ${PRODUCT_NAME}.`,
    ),

  'password-reset': (d: { firstName: string | null; link: string; staff: boolean }) =>
    layout(
      'password-reset',
      `Reset your ${PRODUCT_NAME} password`,
      hello(d.firstName),
      [
        {
          text: `Someone (we hope you) asked to reset the password of your ${PRODUCT_NAME} ${d.staff ? 'staff ' : ''}account.`,
        },
        { link: d.link, label: 'Choose a new password' },
        {
          text: 'The link works once, for 30 minutes. Setting a new password signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.',
        },
      ],
      `You get this email because a password reset was asked for at ${PRODUCT_NAME}.`,
    ),

  'staff-invitation': (d: { link: string; role: string; invitedBy: string }) =>
    layout(
      'staff-invitation',
      `You are invited to join the ${PRODUCT_NAME} staff`,
      hello(null),
      [
        {
          text: `${d.invitedBy} invited you to the ${PRODUCT_NAME} staff portal as ${d.role}. Open the link to choose your name and password; you will then set up two-factor sign-in.`,
        },
        { link: d.link, label: 'Accept the invitation' },
        {
          text: 'The link works once, for 72 hours. If you did not expect this, ignore this email.',
        },
      ],
      `You get this email because a ${PRODUCT_NAME} owner invited this address.`,
    ),

  'signin-link': (d: { firstName: string | null; link: string }) =>
    layout(
      'signin-link',
      `Sign in to ${PRODUCT_NAME} with this link`,
      hello(d.firstName),
      [
        {
          text: 'Someone tried many wrong passwords on your account, so we have paused sign-in with a password for an hour. Your account is safe: nobody got in.',
        },
        { text: 'To sign in now, use this link. It works once, for 15 minutes.' },
        { link: d.link, label: 'Sign me in' },
        {
          text: `If the wrong passwords were not yours, consider changing your password once you are in (Profile → Security). Changing it ends this link too. Questions: ${SUPPORT_EMAIL}.`,
        },
      ],
      `You get this email because of repeated failed sign-ins to your ${PRODUCT_NAME} account.`,
    ),

  'password-changed': (d: { firstName: string | null; how: 'reset' | 'change' }) =>
    layout(
      'password-changed',
      `Your ${PRODUCT_NAME} password was changed`,
      hello(d.firstName),
      [
        {
          text:
            d.how === 'reset'
              ? 'Your password was just reset with a link we emailed you, and every session of your account was signed out.'
              : 'Your password was just changed, and your other sessions were signed out.',
        },
        {
          text: `If this was not you, contact us at once at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}.`,
        },
      ],
      `You get this email because the password of your ${PRODUCT_NAME} account changed.`,
    ),

  'payment-method-changed': (d: {
    firstName: string | null;
    action: 'added' | 'changed' | 'removed';
    method: string;
    holdHours: number;
    url: string;
  }) =>
    layout(
      'payment-method-changed',
      `A payout method was ${d.action} on your ${PRODUCT_NAME} account`,
      hello(d.firstName),
      [
        {
          text: `A payout method was ${d.action} on your account: ${d.method}.${
            d.action !== 'removed' && d.holdHours > 0
              ? ` For your safety, payouts to it wait ${d.holdHours} hours.`
              : ''
          }`,
        },
        {
          text: `If this wasn't you, contact us at once at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}, and change your password.`,
        },
        { link: d.url, label: 'See my payout methods' },
      ],
      `You get this email because the payout methods of your ${PRODUCT_NAME} account changed. It is sent for every change, whatever your notification settings.`,
    ),

  'account-standing': (d: {
    firstName: string | null;
    standing: 'suspended' | 'closed' | 'active';
    reason: string | null;
    url: string;
  }) =>
    layout(
      'account-standing',
      d.standing === 'active'
        ? `Your ${PRODUCT_NAME} account is active again`
        : `Your ${PRODUCT_NAME} account was ${d.standing}`,
      hello(d.firstName),
      [
        {
          text:
            d.standing === 'active'
              ? 'Your account was reinstated: you can submit cards, change payout methods and be paid again.'
              : d.standing === 'suspended'
                ? 'Your account was suspended. You can still sign in, read your history, chat with us and open tickets, but you cannot submit cards, change payout methods or be paid while it is suspended.'
                : 'Your account was closed. You can no longer sign in. Cards already approved and still owed money will be paid.',
        },
        ...(d.reason ? [{ text: `Reason: ${d.reason}` }] : []),
        ...(d.standing === 'active'
          ? []
          : [
              {
                text: `To appeal, reply to ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE}${
                  d.standing === 'suspended' ? ', or open a ticket in the app' : ''
                }.`,
              },
            ]),
        ...(d.standing === 'closed' ? [] : [{ link: d.url, label: `Open ${PRODUCT_NAME}` }]),
      ],
      `You get this email because staff changed the standing of your ${PRODUCT_NAME} account.`,
    ),

  'new-sign-in': (d: {
    firstName: string | null;
    device: string;
    address: string;
    time: string;
    url: string;
  }) =>
    layout(
      'new-sign-in',
      `New sign-in to your ${PRODUCT_NAME} account`,
      hello(d.firstName),
      [
        { text: 'Your account was just signed in to from a browser and address we had not seen:' },
        { text: `Device: ${d.device}\nAddress: ${d.address}\nTime: ${d.time}` },
        {
          text: `If this was you, there is nothing to do. If not, change your password now and end the other sessions (Profile → Security), and tell us at ${SUPPORT_EMAIL}.`,
        },
        { link: d.url, label: 'Review my sessions' },
      ],
      `You get this email because of a sign-in to your ${PRODUCT_NAME} account from somewhere new.`,
    ),

  'staff-alert': (d: { subject: string; lines: string[]; url: string }) =>
    layout(
      'staff-alert',
      d.subject,
      'Hello,',
      [...d.lines.map((text) => ({ text })), { link: d.url, label: 'Open the staff portal' }],
      `You get this email because you are on the staff of ${PRODUCT_NAME}.`,
    ),

  notifications: (d: {
    firstName: string | null;
    items: Item[];
    settingsUrl: string;
    unsubscribeUrl: string;
  }) =>
    layout(
      'notifications',
      d.items.length === 1
        ? `${PRODUCT_NAME}: ${d.items[0]!.title}`
        : `${PRODUCT_NAME}: ${d.items.length} updates on your account`,
      hello(d.firstName),
      [
        {
          text:
            d.items.length === 1
              ? 'There is an update on your account:'
              : 'There are updates on your account:',
        },
        { list: d.items },
      ],
      `You get these emails because status updates by email are on for your account. Unsubscribe from them in one click: ${d.unsubscribeUrl} (or choose in Profile: ${d.settingsUrl}).`,
    ),
  'weekly-digest': (d: {
    firstName: string | null;
    lines: string[];
    historyUrl: string;
    settingsUrl: string;
    unsubscribeUrl: string;
  }) =>
    layout(
      'weekly-digest',
      `${PRODUCT_NAME}: your week`,
      hello(d.firstName),
      [
        { text: 'Here is what happened to your cards in the last 7 days:' },
        { text: d.lines.join('\n') },
        { link: d.historyUrl, label: 'Open my history' },
      ],
      `You get this weekly summary because digests are on for your account. Unsubscribe from them in one click: ${d.unsubscribeUrl} (or choose in Profile: ${d.settingsUrl}).`,
    ),
  'confirm-email-change': (d: { firstName: string | null; email: string; link: string }) =>
    layout(
      'confirm-email-change',
      `Confirm your new ${PRODUCT_NAME} email address`,
      hello(d.firstName),
      [
        {
          text: `You asked to use ${d.email} for your ${PRODUCT_NAME} account. Open the link within 48 hours to confirm it; until then your account keeps its old address.`,
        },
        { link: d.link, label: 'Confirm my new email address' },
      ],
      `You get this email because someone asked to move a ${PRODUCT_NAME} account to this address. If it was not you, ignore it: nothing changes.`,
    ),

  'export-ready': (d: { firstName: string | null; link: string; hours: number }) =>
    layout(
      'export-ready',
      `Your ${PRODUCT_NAME} data export is ready`,
      hello(d.firstName),
      [
        {
          text: `The copy of your data you asked for is ready: your account, payment methods, cards with their history, chat, tickets, notifications, sessions and every photo you uploaded, in one ZIP file.`,
        },
        { link: d.link, label: 'Download it from your profile' },
        {
          text: `Sign in to download it: the link works for ${d.hours} hours, for your account only. If you did not ask for this, change your password and contact us at ${SUPPORT_EMAIL}.`,
        },
      ],
      `You get this email because a data export was asked for from your ${PRODUCT_NAME} account.`,
    ),

  'account-deleted': (d: { firstName: string | null; byStaff: boolean }) =>
    layout(
      'account-deleted',
      `Your ${PRODUCT_NAME} account was deleted`,
      hello(d.firstName),
      [
        {
          text: d.byStaff
            ? `As you asked, our team deleted your ${PRODUCT_NAME} account.`
            : `Your ${PRODUCT_NAME} account was deleted, as you asked.`,
        },
        {
          text: 'Your name, email address, payment details, chat, tickets, notifications and identity documents are erased. The records of cards we bought and what we paid stay, without your name, as the law on financial records requires.',
        },
        {
          text: `This is the last email we send to this address. If you did not ask for this, contact us at once at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}.`,
        },
      ],
      `You get this email because this was the address of a ${PRODUCT_NAME} account.`,
    ),

  'api-key-created': (d: {
    firstName: string | null;
    name: string;
    last4: string;
    scopes: string;
    url: string;
  }) =>
    layout(
      'api-key-created',
      `An API key was created on your ${PRODUCT_NAME} account`,
      hello(d.firstName),
      [
        {
          text: `An API key named "${d.name}" (ending ${d.last4}) was created on your account, with these scopes: ${d.scopes}. It can sell cards and read them as you.`,
        },
        {
          text: `If this wasn't you, revoke it in your profile at once, change your password, and contact us at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}.`,
        },
        { link: d.url, label: 'See my API keys' },
      ],
      `You get this email because an API key was created on your ${PRODUCT_NAME} account. It is sent for every new key, whatever your notification settings.`,
    ),

  'webhook-endpoint-disabled': (d: { firstName: string | null; url: string; profileUrl: string }) =>
    layout(
      'webhook-endpoint-disabled',
      `A webhook endpoint of your ${PRODUCT_NAME} account was turned off`,
      hello(d.firstName),
      [
        {
          text: `For 3 days, ${d.url} did not accept the events we sent it, so we stopped sending to it. Events since then are in its delivery log.`,
        },
        {
          text: 'When it works again, turn it back on by rotating its secret in your profile, and resend what it missed from the log.',
        },
        { link: d.profileUrl, label: 'See my webhooks' },
      ],
      `You get this email because a webhook endpoint of your ${PRODUCT_NAME} account failed.`,
    ),

  'email-changed': (d: { firstName: string | null; email: string }) =>
    layout(
      'email-changed',
      `Your ${PRODUCT_NAME} email address was changed`,
      hello(d.firstName),
      [
        {
          text: `The email address of your ${PRODUCT_NAME} account is now ${d.email}. Emails about your account go there from now on.`,
        },
        {
          text: `If this was not you, contact us at once at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}.`,
        },
      ],
      `You get this email because this was the address of your ${PRODUCT_NAME} account.`,
    ),
} satisfies Record<string, (data: never) => Rendered>;

export type TemplateName = keyof typeof templates;
