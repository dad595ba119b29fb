import { PRODUCT_NAME, SUPPORT_ADDRESS, SUPPORT_EMAIL } from '@shared/brand';
import { LegalPage, type LegalSection } from './legal-page';
import { LEGAL_UPDATED } from './terms-page';

const SECTIONS: LegalSection[] = [
  {
    title: 'Information We Collect',
    body: (
      <ul>
        <li>Account details: your name, email address and a hashed form of your password.</li>
        <li>
          Gift card details: brand, value, condition, format, notes and the photos you upload.
        </li>
        <li>
          Payment details: the payout accounts you save (such as a Cash App tag, PayPal email, bank
          account or wallet address).
        </li>
        <li>Messages and support tickets you send us, and their attachments.</li>
        <li>Technical data: IP address, browser type and the times you use the Service.</li>
      </ul>
    ),
  },
  {
    title: 'How We Use Your Information',
    body: (
      <ul>
        <li>To review and verify the cards you submit and to pay you.</li>
        <li>To answer your messages and support tickets.</li>
        <li>To detect and prevent fraud, abuse and security incidents.</li>
        <li>To meet our legal and regulatory obligations.</li>
      </ul>
    ),
  },
  {
    title: 'Password Security',
    body: (
      <p>
        We never store your password. We store only a one-way hash made with bcrypt, so nobody,
        including our staff, can read it. Choose a password of at least 8 characters that you do not
        use elsewhere.
      </p>
    ),
  },
  {
    title: 'Gift Card Images and Data',
    body: (
      <p>
        Card photos show redeemable codes, so we treat them like cash. They are stored privately and
        can be opened only by you and by the staff who review your card. They are never published or
        shared with other users.
      </p>
    ),
  },
  {
    title: 'Information Sharing',
    body: (
      <p>
        We do not sell your personal information. We share it only with the payment providers needed
        to pay you, with card issuers to verify a balance, with service providers who host our
        systems under confidentiality agreements, and with authorities when the law requires it or
        to report fraud.
      </p>
    ),
  },
  {
    title: 'Data Security',
    body: (
      <p>
        We use encrypted connections, access controls that limit every staff member to what their
        work needs, and records of staff actions on your transactions. No system is perfectly
        secure; if a breach affects your data we will tell you as the law requires.
      </p>
    ),
  },
  {
    title: 'Data Retention',
    body: (
      <p>
        We keep account and transaction records for as long as your account is open and afterwards
        for as long as financial and anti-fraud laws require (usually 5 years). Chat messages may be
        cleared earlier.
      </p>
    ),
  },
  {
    title: 'Cookies',
    body: (
      <p>
        We use one essential cookie to keep you signed in, and a preference cookie that remembers
        whether the sidebar is open. Your colour theme is kept in your browser's local storage. We
        use no advertising or tracking cookies.
      </p>
    ),
  },
  {
    title: 'Your Rights',
    body: (
      <>
        <p>Depending on where you live, you have the right to:</p>
        <ul>
          <li>Access the personal information we hold about you.</li>
          <li>Correct information that is inaccurate or incomplete.</li>
          <li>Delete your information, except records the law requires us to keep.</li>
          <li>Opt out of marketing messages and of any sale or sharing of your information.</li>
        </ul>
        <p>To use these rights, contact us at the address below. We answer within 30 days.</p>
      </>
    ),
  },
  {
    title: "Children's Privacy",
    body: (
      <p>
        The Service is only for people aged 18 and over. We do not knowingly collect information
        from anyone under 18; if we learn that we have, we delete it and close the account.
      </p>
    ),
  },
  {
    title: 'Third-Party Services',
    body: (
      <p>
        Payments reach you through third parties such as Cash App, PayPal, banks and blockchain
        networks, each under its own privacy policy. Transactions on public blockchains such as USDT
        transfers are visible to anyone.
      </p>
    ),
  },
  {
    title: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy. The date at the top shows the latest version, and we will tell
        you of material changes by email or in the app before they take effect.
      </p>
    ),
  },
  {
    title: 'Contact Us',
    body: (
      <p>
        Privacy questions and requests: email {SUPPORT_EMAIL} or write to {PRODUCT_NAME} Privacy,{' '}
        {SUPPORT_ADDRESS}.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          This policy explains what information {PRODUCT_NAME} collects, how we use and protect it,
          and the choices you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
