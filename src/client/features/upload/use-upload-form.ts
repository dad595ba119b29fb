import { effectiveCardType, type UploadFormValues, uploadFormProblems } from '@shared/card-rules';
import { type BrandRate, OTHER_BRAND, rateFor, termsFor } from '@shared/rates';
import type { Transaction } from '@shared/transactions';
import { LIMIT_REFUSAL_CODE } from '@shared/verification';
import { useMutation, useQuery } from '@tanstack/react-query';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useSearch } from 'wouter';
import { usePaymentMethods } from '@/components/payment-methods/use-payment-methods';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { problemsResolver } from '@/lib/form';
import { ratesQuery, refresh, refreshAfterSubmission, verificationQuery } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { uploadFile } from '@/lib/upload';
import type { PickedFile } from './image-picker';

/**
 * The terms a card is quoted on: a listed brand's own, Other's for a custom type. Undefined when
 * the chosen brand left the list while the form was open (or the list is still loading).
 */
export function termsOf(
  rates: readonly BrandRate[],
  values: Pick<UploadFormValues, 'cardType' | 'customCardType'>,
) {
  if (!values.cardType) return undefined;
  return values.cardType === OTHER_BRAND
    ? termsFor(rates, values.customCardType)
    : rates.find((r) => r.brand === values.cardType);
}

/** The rate on screen: the tier's for the card's format and value, else the brand's. */
const quotedRateOf = (terms: BrandRate | undefined, values: UploadFormValues) =>
  terms ? rateFor(terms, values.cardFormat, values.cardValue) : undefined;

const EMPTY: UploadFormValues = {
  cardType: '',
  customCardType: '',
  cardValue: '',
  cardCondition: undefined,
  cardFormat: undefined,
  paymentMethodId: '',
  notes: '',
  cardCode: '',
};

export type Phase = 'form' | 'uploading' | 'success';
export type ScamAnswer = 'no' | 'yes' | undefined;

/**
 * The upload form's values and the rules they are checked by (shared with the server), the
 * photos picked, the scam question's answer, and the submission: each photo uploaded (once),
 * then the card.
 */
export function useUploadForm(onPhase: (phase: Phase) => void) {
  const methods = usePaymentMethods();
  // The brands and their terms are staff-managed: read from the server, refreshed when changed.
  const rates = useQuery(ratesQuery()).data ?? [];
  const ratesRef = React.useRef(rates);
  ratesRef.current = rates;
  const [files, setFiles] = React.useState<PickedFile[]>([]);
  // The scam question (decision 073): answered before a card is bought; "yes" stops here.
  const [scamCheck, setScamCheck] = React.useState<ScamAnswer>();
  const [scamError, setScamError] = React.useState<string>();
  const form = useForm<UploadFormValues>({
    resolver: problemsResolver((values: UploadFormValues) =>
      uploadFormProblems(values, (type) => termsFor(ratesRef.current, type)?.minimum),
    ),
    defaultValues: EMPTY,
  });

  // A rate alert's link (/upload?brand=Best%20Buy, decision 132) opens the form on that brand.
  const askedBrand = new URLSearchParams(useSearch()).get('brand')?.toLowerCase();
  const listed = rates.find((r) => r.brand !== OTHER_BRAND && r.brand.toLowerCase() === askedBrand);
  React.useEffect(() => {
    if (listed && !form.getValues('cardType')) form.setValue('cardType', listed.brand);
  }, [listed, form]);

  // Preselect the default payment method once the list arrives.
  React.useEffect(() => {
    const preferred = methods.data?.find((m) => m.isDefault) ?? methods.data?.[0];
    if (preferred && !form.getValues('paymentMethodId'))
      form.setValue('paymentMethodId', preferred.id);
  }, [methods.data, form]);

  const submit = useMutation({
    mutationFn: async (values: UploadFormValues) => {
      const imageUrls: string[] = [];
      for (const picked of files) {
        if (!picked.objectPath) {
          const { objectPath } = await uploadFile<{ objectPath: string }>(
            '/api/upload-card-image',
            picked.file,
            (progress) =>
              setFiles((all) => all.map((f) => (f.id === picked.id ? { ...f, progress } : f))),
          ).catch((error: Error) => {
            throw Object.assign(error, { fileUpload: true });
          });
          setFiles((all) => all.map((f) => (f.id === picked.id ? { ...f, objectPath } : f)));
          imageUrls.push(objectPath);
        } else {
          imageUrls.push(picked.objectPath);
        }
      }
      const res = await apiRequest('POST', '/api/transactions', {
        cardType: effectiveCardType(values),
        cardValue: values.cardValue.trim(),
        cardCondition: values.cardCondition,
        cardFormat: values.cardFormat,
        paymentMethodId: values.paymentMethodId,
        notes: values.notes.trim() || null,
        cardCode: values.cardCode.trim() || null,
        imageUrls,
        // The rate on screen: if staff changed it since, the server says so (409) instead.
        quotedRate: quotedRateOf(termsOf(ratesRef.current, values), values),
        scamCheck,
      });
      return (await res.json()) as Transaction;
    },
    onMutate: () => onPhase('uploading'),
    onSuccess: async () => {
      await refreshAfterSubmission();
      void refresh(verificationQuery().queryKey);
      toast({
        title: 'Gift card submitted',
        description: 'Your gift card has been submitted for review.',
      });
      onPhase('success');
    },
    onError: (error: Error & { fileUpload?: boolean }) => {
      onPhase('form');
      if (error instanceof ApiError && error.status === 403) {
        // Over a selling limit, or suspended: the server says which and what to do.
        void refresh(verificationQuery().queryKey);
        toast({
          title:
            error.code === LIMIT_REFUSAL_CODE
              ? 'Over your selling limit'
              : 'You cannot submit cards',
          description: serverMessage(error),
          variant: 'destructive',
        });
        return;
      }
      if (error instanceof ApiError && error.status === 409) {
        // The rate changed since the form showed it: show the new quote and let them decide.
        void refresh(ratesQuery().queryKey);
        toast({
          title: 'The rate changed',
          description: serverMessage(error),
          variant: 'destructive',
        });
        return;
      }
      toast({
        title: 'Upload failed',
        description: error.fileUpload
          ? error.message
          : (serverMessage(error) ?? 'Failed to upload gift card. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    if (!scamCheck) {
      setScamError('Please answer this question');
      document.getElementById('scam-check')?.scrollIntoView({ block: 'center' });
      return;
    }
    if (scamCheck === 'yes') return;
    if (files.length === 0) {
      toast({
        title: 'Missing Image',
        description: 'Please upload at least one gift card image',
        variant: 'destructive',
      });
      return;
    }
    submit.mutate(values);
  });

  const answerScam = (answer: 'no' | 'yes') => {
    setScamCheck(answer);
    setScamError(undefined);
  };

  return { form, methods, rates, files, setFiles, scamCheck, scamError, answerScam, onSubmit };
}
