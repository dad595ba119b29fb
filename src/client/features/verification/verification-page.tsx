import { COUNTRY_CODES, countryName, REGION_REQUIRED } from '@shared/countries';
import { formatMoney, fromCents, toCents } from '@shared/money';
import {
  ageOn,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  type DocumentType,
  documentsText,
  HAS_BACK,
  MINIMUM_AGE,
  UNDER_18,
  type VerificationState,
  verificationRejectionLabel,
} from '@shared/verification';
import { REGION_MISSING } from '@shared/verification-submission';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BadgeCheckIcon, ClockIcon, ShieldCheckIcon, XCircleIcon } from 'lucide-react';
import * as React from 'react';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Progress } from '@/components/ui/progress';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/dates';
import { refresh, verificationQuery } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { ACCEPTED_UPLOAD_TYPES, localFileProblem, uploadFile } from '@/lib/upload';
import { useCustomerOnly } from '@/lib/use-customer-only';

const LEVEL_NAMES = ['Level 0: not verified', 'Level 1: identity', 'Level 2: address'];

const refreshVerification = () =>
  Promise.all([refresh(verificationQuery().queryKey), refreshCurrentUser()]);

export function VerificationPage() {
  const allowed = useCustomerOnly('Staff accounts are not verified here');
  const state = useQuery({ ...verificationQuery(), enabled: allowed });
  if (!allowed) return null;
  const data = state.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader
        title="Verification"
        description="Verify who you are to sell more. Your documents are seen only by our review staff."
        backHref="/profile"
        backLabel="Back to Profile"
      />
      {!data ? (
        <p className="text-sm text-muted-foreground">
          {state.isError ? 'Could not load your verification.' : 'Loading...'}
        </p>
      ) : (
        <>
          <LevelCard state={data} />
          <NextStep state={data} />
          <LevelsTable state={data} />
          {data.submissions.length > 0 && <Submissions state={data} />}
        </>
      )}
    </div>
  );
}

const left = (total: string, used: string) =>
  fromCents(Math.max(0, toCents(total) - toCents(used)));
const share = (total: string, used: string) =>
  Math.min(100, (toCents(used) / Math.max(1, toCents(total))) * 100);

function LevelCard({ state }: { state: VerificationState }) {
  const { limits } = state;
  return (
    <Card data-testid="verification-level">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div>
          <CardTitle>Your level</CardTitle>
          <CardDescription>What you can sell now.</CardDescription>
        </div>
        <Badge
          variant={state.level > 0 ? 'default' : 'secondary'}
          data-testid="verification-level-badge"
        >
          {state.level > 0 && <BadgeCheckIcon className="size-3.5" aria-hidden />}
          {LEVEL_NAMES[state.level] ?? `Level ${state.level}`}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-3">
        <Allowance label="Per card" value={formatMoney(limits.perCard)} />
        <Allowance
          label="Left in 24 hours"
          value={formatMoney(left(limits.perDay, limits.usedDay))}
          detail={`of ${formatMoney(limits.perDay)}`}
          progress={share(limits.perDay, limits.usedDay)}
        />
        <Allowance
          label="Left in 30 days"
          value={formatMoney(left(limits.per30Days, limits.used30Days))}
          detail={`of ${formatMoney(limits.per30Days)}`}
          progress={share(limits.per30Days, limits.used30Days)}
        />
      </CardContent>
    </Card>
  );
}

function Allowance({
  label,
  value,
  detail,
  progress,
}: {
  label: string;
  value: string;
  detail?: string;
  progress?: number;
}) {
  return (
    <div className="grid content-start gap-1 rounded-lg border p-3">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <span className="text-xl font-bold tabular-nums">{value}</span>
      {detail && <span className="text-xs text-muted-foreground">{detail}</span>}
      {progress !== undefined && (
        <Progress value={progress} label={`${label}: ${Math.round(progress)}% used`} />
      )}
    </div>
  );
}

function NextStep({ state }: { state: VerificationState }) {
  const pending = state.submissions.find((s) => s.status === 'pending');
  if (pending) {
    return (
      <Card data-testid="verification-pending">
        <CardContent className="flex items-start gap-3 p-5">
          <ClockIcon
            className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400"
            aria-hidden
          />
          <div className="text-sm">
            <p className="font-semibold">
              We are checking your {pending.level === 1 ? 'identity' : 'address'}
            </p>
            <p className="mt-1 text-muted-foreground">
              Sent {formatDateTime(pending.createdAt)}. We will tell you in the app and by email
              when it is decided.
            </p>
          </div>
        </CardContent>
      </Card>
    );
  }
  if (state.level >= 2) {
    return (
      <Card>
        <CardContent className="flex items-center gap-3 p-5 text-sm">
          <ShieldCheckIcon className="size-5 text-green-600 dark:text-green-400" aria-hidden />
          You are fully verified.
        </CardContent>
      </Card>
    );
  }
  return state.level === 0 ? <IdentityForm /> : <AddressForm />;
}

type Errors = Record<string, string | undefined>;

function fileError(file: File | null, label: string) {
  if (!file) return `Add ${label}`;
  return localFileProblem(file) ?? undefined;
}

async function uploadDocument(file: File) {
  const { objectPath } = await uploadFile<{ objectPath: string }>(
    '/api/upload-verification-document',
    file,
    () => {},
  );
  return objectPath;
}

/** Server field errors (`errors`), when the answer carried them. */
function serverErrors(error: unknown): Errors {
  return error instanceof ApiError ? error.errors : {};
}

function useSubmit(onErrors: (errors: Errors) => void) {
  return useMutation({
    mutationFn: async (body: () => Promise<object>) =>
      (await apiRequest('POST', '/api/verification', await body())).json(),
    onSuccess: async () => {
      await refreshVerification();
      toast({ title: 'Sent for review', description: 'We will tell you when it is decided.' });
    },
    onError: (error) => {
      onErrors(serverErrors(error));
      toast({
        title: 'Could not send it',
        description: serverMessage(error) ?? error.message,
        variant: 'destructive',
      });
    },
  });
}

function FileField({
  id,
  label,
  hint,
  error,
  onFile,
  capture,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  onFile: (file: File | null) => void;
  capture?: 'user' | 'environment';
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        id={id}
        type="file"
        accept={ACCEPTED_UPLOAD_TYPES}
        capture={capture}
        aria-invalid={!!error}
        onChange={(e) => onFile(e.target.files?.[0] ?? null)}
        className="file:mr-3 file:rounded-md file:bg-muted file:px-2"
      />
    </Field>
  );
}

/** A form's values and errors, and the props that bind one text field to them. */
function useFormValues<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = React.useState(initial);
  const [errors, setErrors] = React.useState<Errors>({});
  const set = (key: keyof T) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const text = (key: keyof T & string, label: string, autoComplete: string) => ({
    id: key,
    label,
    autoComplete,
    value: values[key],
    onChange: set(key),
    error: errors[key],
  });
  return { values, errors, setErrors, set, text };
}

function CountrySelect({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (e: { target: { value: string } }) => void;
}) {
  return (
    <Field id={id} label="Country" error={error}>
      <NativeSelect id={id} value={value} onChange={onChange}>
        {COUNTRY_CODES.map((code) => (
          <option key={code} value={code}>
            {countryName(code)}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

function SendButton({ pending, testId }: { pending: boolean; testId: string }) {
  return (
    <Button type="submit" className="sm:justify-self-start" data-testid={testId}>
      {pending ? 'Sending...' : 'Send for review'}
    </Button>
  );
}

function IdentityForm() {
  const { values, errors, setErrors, set, text } = useFormValues({
    legalFirstName: '',
    legalLastName: '',
    dateOfBirth: '',
    country: 'US',
    documentType: 'passport' as DocumentType,
  });
  const [front, setFront] = React.useState<File | null>(null);
  const [back, setBack] = React.useState<File | null>(null);
  const [selfie, setSelfie] = React.useState<File | null>(null);
  const submit = useSubmit(setErrors);
  const hasBack = HAS_BACK[values.documentType];

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems: Errors = {
      legalFirstName: values.legalFirstName.trim() ? undefined : 'Legal first name is required',
      legalLastName: values.legalLastName.trim() ? undefined : 'Legal last name is required',
      dateOfBirth: !values.dateOfBirth
        ? 'Date of birth is required'
        : ageOn(values.dateOfBirth, new Date()) < MINIMUM_AGE
          ? UNDER_18
          : undefined,
      front: fileError(front, 'a photo of the front'),
      back: hasBack ? fileError(back, 'a photo of the back') : undefined,
      selfie: fileError(selfie, 'a selfie holding the document'),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    submit.mutate(async () => {
      const documentImages = [await uploadDocument(front!)];
      if (hasBack && back) documentImages.push(await uploadDocument(back));
      return {
        level: 1,
        ...values,
        documentImages,
        selfieImage: await uploadDocument(selfie!),
      };
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Verify your identity</CardTitle>
        <CardDescription>
          Level 1. Your legal name as on the document, your date of birth (you must be {MINIMUM_AGE}{' '}
          or over), photos of the document and a selfie holding it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" noValidate onSubmit={onSubmit} data-testid="identity-form">
          <fieldset disabled={submit.isPending} className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField {...text('legalFirstName', 'Legal first name', 'given-name')} />
              <TextField {...text('legalLastName', 'Legal last name', 'family-name')} />
              <TextField {...text('dateOfBirth', 'Date of birth', 'bday')} type="date" />
              <CountrySelect
                id="country"
                value={values.country}
                error={errors.country}
                onChange={set('country')}
              />
              <Field id="documentType" label="Document" error={errors.documentType}>
                <NativeSelect
                  id="documentType"
                  value={values.documentType}
                  onChange={set('documentType')}
                >
                  {DOCUMENT_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {DOCUMENT_TYPE_LABELS[type]}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
            <div className="grid gap-5 sm:grid-cols-3">
              <FileField
                id="documentFront"
                label={hasBack ? 'Front of the document' : 'Photo page'}
                error={errors.front ?? errors.documentImages}
                onFile={setFront}
                capture="environment"
              />
              {hasBack && (
                <FileField
                  id="documentBack"
                  label="Back of the document"
                  error={errors.back}
                  onFile={setBack}
                  capture="environment"
                />
              )}
              <FileField
                id="selfie"
                label="Selfie holding the document"
                hint="Your face and the document both clearly visible."
                error={errors.selfie ?? errors.selfieImage}
                onFile={setSelfie}
                capture="user"
              />
            </div>
            <SendButton pending={submit.isPending} testId="submit-identity" />
          </fieldset>
        </form>
      </CardContent>
    </Card>
  );
}

function AddressForm() {
  const { values, errors, setErrors, set, text } = useFormValues({
    addressLine1: '',
    addressLine2: '',
    city: '',
    region: '',
    postalCode: '',
    country: 'US',
  });
  const [proof, setProof] = React.useState<File | null>(null);
  const submit = useSubmit(setErrors);
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems: Errors = {
      addressLine1: values.addressLine1.trim() ? undefined : 'Address is required',
      city: values.city.trim() ? undefined : 'City is required',
      region:
        values.region.trim() || !REGION_REQUIRED.includes(values.country)
          ? undefined
          : REGION_MISSING,
      postalCode: values.postalCode.trim() ? undefined : 'Postal code is required',
      proof: fileError(proof, 'a proof of address'),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    submit.mutate(async () => ({
      level: 2,
      ...values,
      addressLine2: values.addressLine2.trim() || null,
      region: values.region.trim() || null,
      proofImages: [await uploadDocument(proof!)],
    }));
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Verify your address</CardTitle>
        <CardDescription>
          Level 2. Your home address and one proof of it issued in the last 3 months: a utility bill
          or a bank statement.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-5" noValidate onSubmit={onSubmit} data-testid="address-form">
          <fieldset disabled={submit.isPending} className="grid gap-5 sm:grid-cols-2">
            <TextField {...text('addressLine1', 'Address', 'address-line1')} />
            <TextField {...text('addressLine2', 'Address line 2 (optional)', 'address-line2')} />
            <TextField {...text('city', 'City', 'address-level2')} />
            <TextField
              {...text(
                'region',
                REGION_REQUIRED.includes(values.country)
                  ? 'State or region'
                  : 'State or region (if your address has one)',
                'address-level1',
              )}
            />
            <TextField {...text('postalCode', 'Postal code', 'postal-code')} />
            <CountrySelect
              id="addressCountry"
              value={values.country}
              error={errors.country}
              onChange={set('country')}
            />
            <FileField
              id="proof"
              label="Proof of address"
              hint="A utility bill or bank statement from the last 3 months."
              error={errors.proof ?? errors.proofImages}
              onFile={setProof}
            />
            <SendButton pending={submit.isPending} testId="submit-address" />
          </fieldset>
        </form>
      </CardContent>
    </Card>
  );
}

function LevelsTable({ state }: { state: VerificationState }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>What each level allows</CardTitle>
        <CardDescription>Card value you may submit; rejected cards do not count.</CardDescription>
      </CardHeader>
      {/* Scrolls sideways on a phone: reachable by keyboard, and named. */}
      <CardContent
        className="overflow-x-auto"
        tabIndex={0}
        role="region"
        aria-label="Limits by level"
      >
        <table className="w-full min-w-[28rem] text-sm">
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th className="py-2 pr-3 font-medium">Level</th>
              <th className="py-2 pr-3 text-right font-medium">Per card</th>
              <th className="py-2 pr-3 text-right font-medium">Per 24 hours</th>
              <th className="py-2 text-right font-medium">Per 30 days</th>
            </tr>
          </thead>
          <tbody>
            {state.levels.map((l) => (
              <tr
                key={l.level}
                className={
                  l.level === state.level ? 'border-b bg-primary/5 font-semibold' : 'border-b'
                }
                aria-current={l.level === state.level ? 'true' : undefined}
              >
                <td className="py-2 pr-3">{LEVEL_NAMES[l.level] ?? l.level}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(l.perCard)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(l.perDay)}</td>
                <td className="py-2 text-right tabular-nums">{formatMoney(l.per30Days)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

function Submissions({ state }: { state: VerificationState }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>What you sent</CardTitle>
        <CardDescription>{documentsText(state.documentRetentionDays)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {state.submissions.map((s) => (
          <div
            key={s.id}
            className="flex flex-wrap items-start justify-between gap-2 rounded-lg border p-3 text-sm"
            data-testid="verification-submission"
          >
            <div>
              <p className="font-medium">
                {s.level === 1 ? 'Identity' : 'Address'}
                {s.documentType
                  ? ` · ${DOCUMENT_TYPE_LABELS[s.documentType as DocumentType] ?? s.documentType}`
                  : ''}
              </p>
              <p className="text-xs text-muted-foreground">Sent {formatDateTime(s.createdAt)}</p>
              {s.status === 'rejected' && s.reason && (
                <p className="mt-1 text-destructive">
                  {s.reason === 'other' && s.note ? s.note : verificationRejectionLabel(s.reason)}
                  {s.reason !== 'other' && s.note ? `: ${s.note}` : ''}
                </p>
              )}
            </div>
            <StatusPill status={s.status} />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

function StatusPill({ status }: { status: string }) {
  if (status === 'approved')
    return (
      <Badge className="bg-green-700 text-white">
        <BadgeCheckIcon className="size-3.5" aria-hidden /> Approved
      </Badge>
    );
  if (status === 'rejected')
    return (
      <Badge className="bg-destructive text-destructive-foreground">
        <XCircleIcon className="size-3.5" aria-hidden /> Not accepted
      </Badge>
    );
  return (
    <Badge variant="secondary">
      <ClockIcon className="size-3.5" aria-hidden /> Waiting for review
    </Badge>
  );
}
