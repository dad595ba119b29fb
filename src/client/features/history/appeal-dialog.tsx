import { brandName } from '@shared/brands';
import {
  APPEAL_MAX_IMAGES,
  APPEAL_MESSAGE_MAX_LENGTH,
  APPEAL_WINDOW_DAYS,
  canAppeal,
} from '@shared/fair-dealing';
import type { Transaction } from '@shared/transactions';
import { useMutation } from '@tanstack/react-query';
import { ScaleIcon } from 'lucide-react';
import * as React from 'react';
import { FormActions } from '@/components/form-actions';
import { DialogFrame } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { apiRequest, serverMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { refreshAfterSubmission } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { ACCEPTED_UPLOAD_TYPES, localFileProblem, uploadFile } from '@/lib/upload';
import { CardActionButton } from './card-action-button';

/**
 * A rejected card's appeal (decision 073): the button while one may still be made (once, within
 * 14 days), the dialog that makes it, and afterwards what became of it.
 */
export function CardAppeal({ transaction: t }: { transaction: Transaction }) {
  const [open, setOpen] = React.useState(false);
  if (t.appeal) {
    const { status, note, decidedAt } = t.appeal;
    return (
      <p className="rounded-md bg-muted/60 px-3 py-2 text-sm" data-testid="appeal-status">
        <span className="font-medium">Appeal: </span>
        {status === 'pending'
          ? 'waiting for a decision. We will let you know.'
          : status === 'overturned'
            ? `accepted${decidedAt ? ` on ${formatDateTime(decidedAt)}` : ''}${
                // Once reviewed again, the old "back in review" would contradict the card's status.
                t.status === 'pending'
                  ? ': the card is back in review.'
                  : ', and the card was reviewed again.'
              }`
            : `the rejection stands${note ? `: ${note}` : '.'}`}
      </p>
    );
  }
  if (!canAppeal(t, Date.now())) return null;
  return (
    <>
      <CardActionButton onClick={() => setOpen(true)} testId="appeal-button">
        <ScaleIcon /> Appeal
      </CardActionButton>
      <AppealDialog transaction={t} open={open} onOpenChange={setOpen} />
    </>
  );
}

function AppealDialog({
  transaction: t,
  open,
  onOpenChange,
}: {
  transaction: Transaction;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [message, setMessage] = React.useState('');
  const [photos, setPhotos] = React.useState<File[]>([]);
  const [error, setError] = React.useState<string>();
  const [photoError, setPhotoError] = React.useState<string>();
  // One appeal per press however fast the clicks come (issue 43, item 20): `isPending` is only
  // seen after a render, so a double click's second submit would send a second appeal.
  const sending = React.useRef(false);
  const send = useMutation({
    mutationFn: async () => {
      // New photos go up as card images first, then the appeal names them.
      const imageUrls: string[] = [];
      for (const photo of photos) {
        const { objectPath } = await uploadFile<{ objectPath: string }>(
          '/api/upload-card-image',
          photo,
          () => {},
        );
        imageUrls.push(objectPath);
      }
      return (
        await apiRequest('POST', `/api/transactions/${t.id}/appeal`, { message, imageUrls })
      ).json();
    },
    onSuccess: async () => {
      await refreshAfterSubmission();
      onOpenChange(false);
      toast({ title: 'Appeal sent', description: 'Staff will look at the card again.' });
    },
    onError: (e) => setError(serverMessage(e) ?? 'Your appeal could not be sent'),
  });
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      data-testid="appeal-dialog"
      title="Appeal the rejection"
      description={`Tell us why the ${brandName(t.cardType)} card should be looked at again. You can appeal once, within ${APPEAL_WINDOW_DAYS} days of the rejection; the decision is final.`}
    >
      <form
        id="appeal-form"
        className="grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!message.trim()) {
            setError('Message is required: tell us why the card should be looked at again');
            return;
          }
          if (sending.current) return;
          sending.current = true;
          send.mutate(undefined, {
            onSettled: () => {
              sending.current = false;
            },
          });
        }}
      >
        <Label htmlFor="appeal-message">Your message</Label>
        <Textarea
          id="appeal-message"
          value={message}
          maxLength={APPEAL_MESSAGE_MAX_LENGTH}
          onChange={(e) => {
            setMessage(e.target.value);
            setError(undefined);
          }}
          aria-invalid={!!error}
          aria-describedby={error ? 'appeal-error' : undefined}
          disabled={send.isPending}
          rows={5}
        />
        {error && (
          <p id="appeal-error" role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
        <Label htmlFor="appeal-photos" className="mt-2">
          New photos (optional, up to {APPEAL_MAX_IMAGES})
        </Label>
        <input
          id="appeal-photos"
          type="file"
          multiple
          accept={ACCEPTED_UPLOAD_TYPES}
          disabled={send.isPending}
          aria-describedby={photoError ? 'appeal-photos-error' : undefined}
          className="text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(e) => {
            const picked = Array.from(e.target.files ?? []);
            const problem =
              picked.length > APPEAL_MAX_IMAGES
                ? `Add at most ${APPEAL_MAX_IMAGES} photos`
                : picked.map(localFileProblem).find((p) => p !== null);
            setPhotoError(problem ?? undefined);
            setPhotos(problem ? [] : picked);
          }}
        />
        {photoError && (
          <p id="appeal-photos-error" role="alert" className="text-sm font-medium text-destructive">
            {photoError}
          </p>
        )}
      </form>
      <FormActions
        label="Send appeal"
        pending={send.isPending}
        pendingLabel="Sending..."
        onCancel={() => onOpenChange(false)}
        form="appeal-form"
      />
    </DialogFrame>
  );
}
