import { PRODUCT_NAME, SUPPORT_ADDRESS, SUPPORT_EMAIL, SUPPORT_PHONE } from '@shared/brand';
import { LegalPage, type LegalSection } from './legal-page';

export const LEGAL_UPDATED = 'October 9, 2025';

const SECTIONS: LegalSection[] = [
  {
    title: 'Acceptance of Terms',
    body: (
      <p>
        By creating an account or using {PRODUCT_NAME} (the "Service"), you agree to these Terms of
        Service. If you do not agree, do not use the Service. You must be at least 18 years old and
        able to enter a binding contract to use it.
      </p>
    ),
  },
  {
    title: 'Gift Card Requirements',
    body: (
      <>
        <p>Every gift card you submit must meet all of the following:</p>
        <ul>
          <li>You are the lawful owner of the card, or are authorised by its owner to sell it.</li>
          <li>
            The card was obtained legally and is not stolen, fraudulent or bought with stolen funds.
          </li>
          <li>The card is unused, or its remaining balance is exactly as you state it.</li>
          <li>
            All information you give (brand, value, condition, format and photos) is accurate and
            complete.
          </li>
          <li>
            The card meets the minimum value for its brand: $25 for iTunes, Amazon, Xbox and
            Walmart, and $50 for all other brands.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'Payout Rates',
    body: (
      <>
        <p>
          We pay a percentage of each card's face value that depends on its brand. The expected
          payout is shown before you submit a card.
        </p>
        <ul>
          <li>Rates may change at any time without notice.</li>
          <li>The rate shown when you submit a card is the rate we honour for that card.</li>
          <li>
            We may decline any card, including a card whose balance, validity or ownership cannot be
            verified. A declined card is marked rejected and is not paid.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'Manual Payments',
    body: (
      <p>
        Payouts are made manually by our staff to the payment method you select for each card (for
        example Cash App, PayPal, bank transfer or USDT). Most transactions complete within 2 hours;
        those started after 9pm Central Time may take longer. You are responsible for giving correct
        payment details. We are not liable for payments sent to details you entered incorrectly.
      </p>
    ),
  },
  {
    title: 'Verification',
    body: (
      <p>
        Every card is reviewed before payment. We may check the balance with the issuer, ask you for
        more photos or proof of purchase, and verify your identity. We may hold a payout while a
        review is open. The status of each card is shown in your transaction history.
      </p>
    ),
  },
  {
    title: 'Prohibited Activities',
    body: (
      <>
        <p>You may not:</p>
        <ul>
          <li>Submit stolen, counterfeit, already-redeemed or fraudulently obtained cards.</li>
          <li>Submit the same card more than once, or a card you have also sold elsewhere.</li>
          <li>Use the Service to launder money or for any other unlawful purpose.</li>
          <li>Open accounts for another person or more than one account for yourself.</li>
          <li>Interfere with, probe or attack the Service or its other users.</li>
        </ul>
      </>
    ),
  },
  {
    title: 'Account Termination',
    body: (
      <p>
        We may suspend or close your account at any time if you breach these terms or we suspect
        fraud. Where the law requires it, we will report suspected fraud to the authorities and to
        the card issuer. You may close your account at any time by contacting support; open
        transactions are completed or declined first.
      </p>
    ),
  },
  {
    title: 'Limitation of Liability',
    body: (
      <p>
        The Service is provided "as is". To the fullest extent allowed by law, {PRODUCT_NAME} is not
        liable for indirect, incidental or consequential losses, and our total liability for any
        claim is limited to the payout due on the transaction the claim concerns.
      </p>
    ),
  },
  {
    title: 'Dispute Resolution',
    body: (
      <p>
        If you disagree with a decision about a card or a payout, contact support first; we answer
        every dispute within 5 business days. Disputes we cannot settle together are governed by the
        laws of the State of Texas and resolved by binding individual arbitration in Travis County,
        Texas, except where the law gives you the right to go to court.
      </p>
    ),
  },
  {
    title: 'Changes to Terms',
    body: (
      <p>
        We may update these terms. The date at the top shows the latest version. If a change is
        material we will tell you by email or in the app before it takes effect. Using the Service
        after a change means you accept the new terms.
      </p>
    ),
  },
  {
    title: 'Contact Information',
    body: (
      <p>
        Questions about these terms: email {SUPPORT_EMAIL}, call {SUPPORT_PHONE}, or write to{' '}
        {PRODUCT_NAME}, {SUPPORT_ADDRESS}.
      </p>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          These terms govern your use of {PRODUCT_NAME}, a service for selling unused gift cards for
          money. Please read them carefully.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
