import { BRAND_GREEN, BRAND_GREEN_DARK, PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/brand';
import { OPTIONAL_EMAIL_LABELS, type OptionalEmail } from '../../../shared/email-preferences';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The unsubscribe link's page: a whole HTML document the server writes, since the person opening
 * it may be signed out and the link must work without the app. Light and dark follow the system.
 */
function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(PRODUCT_NAME)}</title>
<style>
:root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--text:#111827;--muted:#4b5563;--accent:${BRAND_GREEN};--border:#e5e7eb}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--card:#111827;--text:#f9fafb;--muted:#9ca3af;--accent:${BRAND_GREEN_DARK};--border:#1f2937}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px 16px;background:var(--bg);color:var(--text);font:16px/1.55 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{width:100%;max-width:440px;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:28px 24px}
.brand{margin:0 0 20px;font-weight:700;font-size:18px}h1{margin:0 0 12px;font-size:22px;line-height:1.3}p{margin:0 0 16px;color:var(--muted)}
button{width:100%;min-height:44px;border:0;border-radius:8px;background:var(--accent);color:#fff;font:inherit;font-weight:600;cursor:pointer}
@media (prefers-color-scheme:dark){button{color:#0b1120}}
button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}a{color:var(--accent)}
</style></head>
<body><main><p class="brand">${escapeHtml(PRODUCT_NAME)}</p>${body}</main></body></html>`;
}

const labelOf = (kind: OptionalEmail) => OPTIONAL_EMAIL_LABELS[kind].title.toLowerCase();
const manage =
  '<p><a href="/profile">Choose all your emails in Profile</a> (after signing in).</p>';

/** GET: says what the link does and asks for the click that does it (a link scanner never does). */
export const confirmPage = (kind: OptionalEmail, token: string) =>
  page(
    `Unsubscribe from ${labelOf(kind)}`,
    `<h1>Unsubscribe from ${escapeHtml(labelOf(kind))}?</h1>
<p>${escapeHtml(OPTIONAL_EMAIL_LABELS[kind].description)} You will still get emails about your account's security and anything that needs your answer.</p>
<form method="post" action="/api/unsubscribe?token=${encodeURIComponent(token)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>
${manage}`,
  );

/** After the POST: what stopped, and what still comes. */
export const donePage = (kind: OptionalEmail) =>
  page(
    'Unsubscribed',
    `<h1>You are unsubscribed from ${escapeHtml(labelOf(kind))}</h1>
<p>We will not send you ${escapeHtml(labelOf(kind))} by email any more. Your other emails stay as they were, and notices still appear in the app.</p>
${manage}`,
  );

export const invalidPage = () =>
  page(
    'Link not valid',
    `<h1>This unsubscribe link is not valid</h1>
<p>It may have been cut short by your mail program. Sign in and choose your emails in Profile, or write to <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a>.</p>
${manage}`,
  );
