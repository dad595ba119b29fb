import { countryName } from '@shared/countries';
import {
  type AdminVerification,
  DOCUMENT_TYPE_LABELS,
  type DocumentType,
  dateOfBirthText,
  VERIFICATION_REJECTION_LABELS,
  VERIFICATION_REJECTION_REASONS,
  verificationRejectionLabel,
} from '@shared/verification';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BadgeCheckIcon, CheckIcon, IdCardIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { Pager, useCursorPages } from '@/components/pager';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { apiRequest } from '@/lib/api';
import { formatDate, formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { adminVerificationQuery, adminVerificationsQuery, refreshVerifications } from './queries';

const STATUSES = [
  ['pending', 'Waiting'],
  ['approved', 'Approved'],
  ['rejected', 'Rejected'],
  ['all', 'All'],
] as const;

const name = (v: Pick<AdminVerification, 'userFirstName' | 'userLastName' | 'userEmail'>) =>
  [v.userFirstName, v.userLastName].filter(Boolean).join(' ') || v.userEmail;

/** Identity and address checks, oldest first; staff open one to decide (decision 072). */
export function VerificationsTab() {
  const [status, setStatus] = React.useState('pending');
  const pages = useCursorPages(status);
  const query = useQuery(adminVerificationsQuery(status, pages.cursor));
  const [open, setOpen] = React.useState<string | null>(null);
  const rows = query.data?.items ?? [];
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <Field id="verification-status" label="Show" className="w-44">
          <NativeSelect
            id="verification-status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <p className="pb-2 text-sm text-muted-foreground">Oldest first: the longest wait on top.</p>
      </div>
      {query.isLoading ? (
        <Skeleton className="h-48" />
      ) : rows.length === 0 ? (
        <EmptyState icon={<IdCardIcon />} testId="verifications-empty">
          {status === 'pending' ? 'No verifications waiting' : 'None'}
        </EmptyState>
      ) : (
        <Table data-testid="verifications-table">
          <TableColumns
            columns={['Sent', 'Customer', 'Level', 'Status', { label: 'Actions', srOnly: true }]}
          />
          <TableBody>
            {rows.map((v) => (
              <TableRow key={v.id} data-testid="verification-row">
                <TableCell>
                  <DateTimeStack value={v.createdAt} />
                </TableCell>
                <TableCell>
                  <span className="block font-medium">{name(v)}</span>
                  <span className="block text-xs text-muted-foreground">{v.userEmail}</span>
                </TableCell>
                <TableCell>{v.level === 1 ? 'Identity' : 'Address'}</TableCell>
                <TableCell>
                  <VerificationStatus status={v.status} />
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setOpen(v.id)}
                    data-testid="open-verification"
                    aria-label={`Review the ${v.level === 1 ? 'identity' : 'address'} of ${v.userEmail}`}
                  >
                    Review
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Pager pages={pages} count={rows.length} pageSize={25} nextCursor={query.data?.nextCursor} />
      <VerificationDialog id={open} onClose={() => setOpen(null)} />
    </div>
  );
}

function VerificationStatus({ status }: { status: string }) {
  if (status === 'approved') return <Badge className="bg-green-700 text-white">Approved</Badge>;
  if (status === 'rejected')
    return <Badge className="bg-destructive text-destructive-foreground">Rejected</Badge>;
  return <Badge variant="secondary">Waiting</Badge>;
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children || '—'}</dd>
    </div>
  );
}

/** One submission: its images beside the account's details, and the decision (audited). */
function VerificationDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useQuery(adminVerificationQuery(id));
  const v = query.data;
  const [reason, setReason] = React.useState('');
  const [note, setNote] = React.useState('');
  React.useEffect(() => {
    if (id) {
      setReason('');
      setNote('');
    }
  }, [id]);
  const decide = useMutation({
    mutationFn: async (decision: 'approve' | 'reject') =>
      (
        await apiRequest('POST', `/api/admin/verifications/${id}/decision`, {
          decision,
          ...(decision === 'reject' ? { reason, note: note.trim() || null } : {}),
          ...(decision === 'approve' && note.trim() ? { note: note.trim() } : {}),
        })
      ).json(),
    onSuccess: async (_data, decision) => {
      await refreshVerifications();
      toast({ title: decision === 'approve' ? 'Verification approved' : 'Verification rejected' });
      onClose();
    },
    onError: errorToast('Could not save the decision'),
  });
  const images = v
    ? [
        ...v.documentImages.map((src, i) => ({
          src,
          label:
            v.level === 1 ? (i === 0 ? 'Document, front' : 'Document, back') : `Proof ${i + 1}`,
        })),
        ...(v.selfieImage ? [{ src: v.selfieImage, label: 'Selfie with the document' }] : []),
        ...v.proofImages.map((src, i) => ({ src, label: `Proof of address ${i + 1}` })),
      ]
    : [];
  const pending = v?.status === 'pending';
  const canReject = !!reason && (reason !== 'other' || note.trim() !== '');
  return (
    <DialogFrame
      open={id !== null}
      onOpenChange={(o) => !o && onClose()}
      className="max-w-5xl"
      data-testid="verification-dialog"
      title={v ? `${v.level === 1 ? 'Identity' : 'Address'} of ${name(v)}` : 'Verification'}
      description="Each time a document is opened, it is written in the audit log."
    >
      {!v ? (
        <Skeleton className="h-64" />
      ) : (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
          <div
            className="grid content-start gap-3 sm:grid-cols-2"
            data-testid="verification-images"
          >
            {images.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                The documents were deleted
                {v.documentsDeletedAt ? ` on ${formatDate(v.documentsDeletedAt)}` : ''} (retention).
              </p>
            ) : (
              images.map((image) => (
                <figure key={image.src} className="grid gap-1">
                  <a href={image.src} target="_blank" rel="noreferrer">
                    <img
                      src={image.src}
                      alt={image.label}
                      className="max-h-80 w-full rounded-md border bg-muted object-contain"
                    />
                  </a>
                  <figcaption className="text-xs text-muted-foreground">{image.label}</figcaption>
                </figure>
              ))
            )}
          </div>
          <div className="grid content-start gap-4">
            <dl className="grid gap-3 rounded-lg border p-3" data-testid="verification-details">
              <Detail label="Account">
                {v.userEmail}
                <span className="block text-xs text-muted-foreground">
                  Name on account:{' '}
                  {[v.userFirstName, v.userLastName].filter(Boolean).join(' ') || '—'}
                </span>
                <span className="block text-xs text-muted-foreground">
                  Since {formatDate(v.userCreatedAt)} · level {v.userVerificationLevel}
                </span>
              </Detail>
              {v.level === 1 ? (
                <>
                  <Detail label="Legal name">
                    {[v.legalFirstName, v.legalLastName].filter(Boolean).join(' ')}
                  </Detail>
                  <Detail label="Date of birth">
                    {v.dateOfBirth ? dateOfBirthText(v.dateOfBirth, new Date()) : '—'}
                  </Detail>
                  <Detail label="Document">
                    {DOCUMENT_TYPE_LABELS[v.documentType as DocumentType] ?? v.documentType}
                  </Detail>
                </>
              ) : (
                <Detail label="Address">
                  {[v.addressLine1, v.addressLine2, v.city, v.region, v.postalCode]
                    .filter(Boolean)
                    .join(', ')}
                </Detail>
              )}
              <Detail label="Country">
                {countryName(v.country)} ({v.country})
              </Detail>
              <Detail label="Sent">{formatDateTime(v.createdAt)}</Detail>
              {!pending && (
                <Detail label="Decision">
                  <VerificationStatus status={v.status} />{' '}
                  {v.reason && verificationRejectionLabel(v.reason)}
                  {v.note ? ` · ${v.note}` : ''}
                  <span className="block text-xs text-muted-foreground">
                    {v.decidedBy} · {v.decidedAt ? formatDateTime(v.decidedAt) : ''}
                  </span>
                </Detail>
              )}
            </dl>
            {pending && (
              <div className="grid gap-3">
                <Field id="verification-reason" label="Reason (to reject)">
                  <NativeSelect
                    id="verification-reason"
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                  >
                    <option value="">Choose a reason</option>
                    {VERIFICATION_REJECTION_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {VERIFICATION_REJECTION_LABELS[r]}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field
                  id="verification-note"
                  label={reason === 'other' ? 'Note (required)' : 'Note (optional)'}
                >
                  <Textarea
                    id="verification-note"
                    value={note}
                    maxLength={500}
                    onChange={(e) => setNote(e.target.value)}
                  />
                </Field>
                <div className="flex flex-wrap gap-2">
                  <Button
                    onClick={() => decide.mutate('approve')}
                    disabled={decide.isPending || !!reason}
                    data-testid="approve-verification"
                  >
                    <CheckIcon /> Approve
                  </Button>
                  <Button
                    variant="outline"
                    onClick={() => decide.mutate('reject')}
                    disabled={decide.isPending || !canReject}
                    data-testid="reject-verification"
                  >
                    <XIcon /> Reject
                  </Button>
                </div>
              </div>
            )}
            {v.status === 'approved' && (
              <p className="flex items-center gap-2 text-sm text-green-700 dark:text-green-400">
                <BadgeCheckIcon className="size-4" aria-hidden /> Level {v.level} approved.
              </p>
            )}
          </div>
        </div>
      )}
    </DialogFrame>
  );
}
