import { PRODUCT_NAME, SUPPORT_ADDRESS, SUPPORT_EMAIL, SUPPORT_PHONE } from '@shared/brand';
import { brandName, ratePercent } from '@shared/brands';
import { type BrandRate, byBestRate } from '@shared/rates';
import {
  ArrowRightIcon,
  BadgeCheckIcon,
  BanknoteIcon,
  ClockIcon,
  CoinsIcon,
  DollarSignIcon,
  HeadsetIcon,
  LockIcon,
  MailIcon,
  MapPinIcon,
  PhoneIcon,
  ShieldCheckIcon,
  UploadIcon,
  UserPlusIcon,
  WalletIcon,
  ZapIcon,
} from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { needsSignIn } from '@/lib/signed-in-paths';
import type { AuthTab } from '../auth/auth-dialog';

/** The sign-in dialog (its forms, Radix dialog and tabs) loads when first wanted. */
const loadAuthDialog = () => import('../auth/auth-dialog');
const AuthDialog = React.lazy(async () => ({ default: (await loadAuthDialog()).AuthDialog }));
const preload = { onPointerEnter: loadAuthDialog, onFocus: loadAuthDialog };

const FEATURES = [
  {
    icon: ShieldCheckIcon,
    title: 'Bank-Level Security',
    text: 'Encrypted connections, hashed passwords and card photos that only you and our reviewers can ever open.',
  },
  {
    icon: ZapIcon,
    title: 'Fast Payouts',
    text: 'Most cards are reviewed and paid within 2 hours of submission, straight to the account you choose. A new account’s first payouts, and payouts to a newly added method, wait a short safety hold first: your card says until when.',
  },
  {
    icon: HeadsetIcon,
    title: '24/7 Support',
    text: 'Real people on live chat and email around the clock, for every question about a card or a payout.',
  },
];

const PAYOUTS = [
  { icon: DollarSignIcon, name: 'Cash App', text: 'Paid to your $Cashtag' },
  { icon: WalletIcon, name: 'PayPal', text: 'Paid to your PayPal email' },
  { icon: BanknoteIcon, name: 'Bank Transfer', text: 'ACH to any US bank account' },
  { icon: CoinsIcon, name: 'USDT', text: 'BEP20 or TRC20 wallets' },
];

const STEPS = [
  { icon: UserPlusIcon, title: 'Sign Up', text: 'Create your free account in under a minute.' },
  {
    icon: UploadIcon,
    title: 'Upload Card',
    text: 'Enter the card details and add clear photos of it.',
  },
  {
    icon: BadgeCheckIcon,
    title: 'Get Verified',
    text: 'Our team checks the card balance and validity.',
  },
  { icon: BanknoteIcon, title: 'Receive Payment', text: 'Get paid to your chosen payment method.' },
];

const TOP_RATES_SHOWN = 6;

/**
 * The brands bought today (staff-managed), read once: the public pages carry no query library.
 * Null while loading, or when the request failed (the page then simply does not quote).
 */
function useRates(): BrandRate[] | null {
  const [rates, setRates] = React.useState<BrandRate[] | null>(null);
  React.useEffect(() => {
    let live = true;
    fetch('/api/rates')
      .then((res) => (res.ok ? (res.json() as Promise<BrandRate[]>) : null))
      .then((list) => live && setRates(list))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return rates;
}

export function LandingPage() {
  const rates = useRates();
  const [dialog, setDialog] = React.useState<{ open: boolean; tab: AuthTab }>(() => ({
    // Asked for (?auth=signin), or a signed-in page visited signed out (a link in an email).
    open:
      new URLSearchParams(window.location.search).get('auth') === 'signin' ||
      needsSignIn(window.location.pathname),
    tab: 'signin',
  }));
  const [wanted, setWanted] = React.useState(dialog.open);
  const openDialog = (tab: AuthTab) => {
    setWanted(true);
    setDialog({ open: true, tab });
  };

  return (
    <div className="min-h-svh bg-background">
      <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <BrandLogo className="text-lg" />
          <nav className="flex items-center gap-1 sm:gap-2">
            <a
              href="#how-it-works"
              className="hidden rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground sm:inline"
            >
              How It Works
            </a>
            <ThemeToggle />
            <Button onClick={() => openDialog('signin')} data-testid="header-signin" {...preload}>
              Sign In
            </Button>
          </nav>
        </div>
      </header>

      <main>
        <Hero rates={rates} onSignUp={() => openDialog('signup')} />

        <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <SectionHeading
            title="Why Choose Us"
            text={`${PRODUCT_NAME} is built to handle your cards the way a bank handles cash.`}
          />
          <div className="mt-12 grid gap-6 md:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <div key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                <div className="mb-4 flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon className="size-5" />
                </div>
                <h3 className="text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </div>
            ))}
          </div>
        </section>

        <section className="border-y bg-muted/40">
          <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
            <SectionHeading
              title="Flexible Payment Options"
              text="Choose how you get paid. Save several methods and pick one for each card."
            />
            <div className="mt-12 grid grid-cols-2 gap-4 md:grid-cols-4">
              {PAYOUTS.map(({ icon: Icon, name, text }) => (
                <div
                  key={name}
                  className="flex flex-col items-center rounded-xl border bg-card p-6 text-center shadow-sm"
                >
                  <Icon className="mb-3 size-8 text-primary" />
                  <p className="font-semibold">{name}</p>
                  <p className="mt-1 text-xs text-muted-foreground">{text}</p>
                </div>
              ))}
            </div>
            <p className="mt-6 text-center text-sm text-muted-foreground">
              Also supported: Chime, SoFi and Revolut.
            </p>
          </div>
        </section>

        <section id="how-it-works" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-20 sm:px-6">
          <SectionHeading
            title="How It Works"
            text="Four steps from a card in your drawer to money in your account."
          />
          <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {STEPS.map(({ icon: Icon, title, text }, index) => (
              <li key={title} className="relative rounded-xl border bg-card p-6 shadow-sm">
                <span className="absolute -top-3 left-6 flex size-7 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
                  {index + 1}
                </span>
                <Icon className="mb-3 mt-2 size-6 text-primary" />
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1.5 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section className="px-4 pb-20 sm:px-6">
          <div className="mx-auto max-w-4xl rounded-2xl bg-hero px-6 py-14 text-center text-white shadow-lg">
            <h2 className="text-3xl font-bold tracking-tight">Ready to sell your gift cards?</h2>
            <p className="mx-auto mt-3 max-w-xl text-slate-300">
              Create your free account and see exactly what your card is worth before you send it.
            </p>
            <Button
              size="lg"
              className="mt-8"
              onClick={() => openDialog('signup')}
              data-testid="cta-signup"
              {...preload}
            >
              Sign Up Now <ArrowRightIcon />
            </Button>
          </div>
        </section>
      </main>

      <LandingFooter />

      {wanted && (
        <React.Suspense fallback={null}>
          <AuthDialog
            open={dialog.open}
            tab={dialog.tab}
            onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
            onTabChange={(tab) => setDialog((d) => ({ ...d, tab }))}
          />
        </React.Suspense>
      )}
    </div>
  );
}

/** The promise, the two ways in, and today's best rates. */
function Hero({ rates, onSignUp }: { rates: BrandRate[] | null; onSignUp: () => void }) {
  const listed = rates ? byBestRate(rates) : [];
  return (
    <section className="relative overflow-hidden bg-hero text-white">
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,oklch(0.6_0.13_163/0.35),transparent_60%)]" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
        <div>
          <p className="mb-4 inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-medium text-emerald-200">
            <LockIcon className="size-3.5" /> Trusted gift card exchange
          </p>
          <h1 className="text-4xl font-bold leading-tight tracking-tight sm:text-5xl">
            Turn unused gift cards into <span className="text-emerald-300">real money</span>
          </h1>
          <p className="mt-5 max-w-lg text-lg text-slate-300">
            {listed.length > 0
              ? `Sell gift cards from ${listed.length} brands at up to ${ratePercent(listed[0]!.best)}% of their value.`
              : 'Sell gift cards from dozens of brands for most of their value.'}{' '}
            See your payout before you submit, and get paid by Cash App, PayPal, bank transfer or
            USDT.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button size="lg" onClick={onSignUp} data-testid="get-started" {...preload}>
              Get Started Free <ArrowRightIcon />
            </Button>
            <Button
              size="lg"
              variant="outline"
              asChild
              className="border-white/25 bg-transparent text-white hover:bg-white/10 hover:text-white"
            >
              <a href="#how-it-works">How It Works</a>
            </Button>
          </div>
          <div className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-300">
            <span className="flex items-center gap-1.5">
              <ClockIcon className="size-4 text-emerald-300" /> Most cards paid within 2 hours
            </span>
            <span className="flex items-center gap-1.5">
              <ShieldCheckIcon className="size-4 text-emerald-300" /> Rate locked at submission
            </span>
          </div>
        </div>
        <RateCard rates={rates} />
      </div>
    </section>
  );
}

/** Contact details and the legal pages (and the staff's way in). */
function LandingFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div>
          <BrandLogo />
          <p className="mt-3 text-sm text-muted-foreground">
            The simple, secure way to sell unused gift cards for cash.
          </p>
        </div>
        <div>
          <h3 className="text-sm font-semibold">Contact</h3>
          <ul className="mt-3 grid gap-2 text-sm text-muted-foreground">
            <li className="flex items-center gap-2">
              <MailIcon className="size-4 shrink-0" />
              <a href={`mailto:${SUPPORT_EMAIL}`} className="hover:text-foreground">
                {SUPPORT_EMAIL}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <PhoneIcon className="size-4 shrink-0" /> {SUPPORT_PHONE}
            </li>
            <li className="flex items-start gap-2">
              <MapPinIcon className="mt-0.5 size-4 shrink-0" /> {SUPPORT_ADDRESS}
            </li>
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold">Legal</h3>
          <ul className="mt-3 grid gap-2 text-sm text-muted-foreground">
            <li>
              <Link href="/terms" className="hover:text-foreground">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link href="/privacy" className="hover:text-foreground">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link href="/admin/login" className="hover:text-foreground">
                Staff sign-in
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <p className="border-t py-6 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved. You must be 18 or older to
        use {PRODUCT_NAME}.
      </p>
    </footer>
  );
}

function SectionHeading({ title, text }: { title: string; text: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 className="text-3xl font-bold tracking-tight">{title}</h2>
      <p className="mt-3 text-muted-foreground">{text}</p>
    </div>
  );
}

/** Today's best rates, from the staff-managed table (placeholders of the same size meanwhile). */
function RateCard({ rates }: { rates: BrandRate[] | null }) {
  const top = rates ? byBestRate(rates).slice(0, TOP_RATES_SHOWN) : undefined;
  return (
    <div className="mx-auto w-full max-w-sm rounded-2xl border border-white/10 bg-white/[0.06] p-6 shadow-2xl backdrop-blur">
      <p className="text-sm font-medium text-slate-300">Today's top rates</p>
      <ul className="mt-4 grid gap-2.5">
        {(top ?? Array.from({ length: TOP_RATES_SHOWN }, () => null)).map((terms, i) => (
          <li
            key={terms?.brand ?? i}
            className="flex items-center justify-between rounded-lg bg-white/[0.06] px-4 py-2.5"
            data-testid={terms ? 'top-rate' : undefined}
          >
            <span className="font-medium">{terms ? brandName(terms.brand) : '\u00a0'}</span>
            <span className="rounded-full bg-emerald-400/15 px-2.5 py-0.5 text-sm font-semibold text-emerald-300">
              {terms
                ? `${terms.best === terms.rate ? '' : 'up to '}${ratePercent(terms.best)}%`
                : '\u00a0'}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-xs text-slate-400">
        Share of face value paid to you. The rate at submission is honoured.
      </p>
    </div>
  );
}
