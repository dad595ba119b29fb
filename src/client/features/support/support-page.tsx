import { zodResolver } from '@hookform/resolvers/zod';
import { type CreateTicketInput, createTicketSchema } from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { InboxIcon, MailIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { PageHeader } from '@/components/page-header';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { TextField } from '@/components/ui/text-field';
import { Textarea } from '@/components/ui/textarea';
import { apiRequest, serverMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/dates';
import { supportTicketsQuery } from '@/lib/queries';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/lib/toast';

type FormValues = { email: string; subject: string; message: string; attachmentUrl: string };

export function SupportPage() {
  const { user } = useAuth();
  const tickets = useQuery(supportTicketsQuery());
  const form = useForm<FormValues, unknown, CreateTicketInput>({
    resolver: zodResolver(createTicketSchema) as never,
    defaultValues: { email: user?.email ?? '', subject: '', message: '', attachmentUrl: '' },
  });
  const { errors } = form.formState;
  const submit = useMutation({
    mutationFn: async (body: CreateTicketInput) =>
      (await apiRequest('POST', '/api/support-tickets', body)).json(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: supportTicketsQuery().queryKey });
      toast({
        title: 'Ticket Submitted',
        description: 'Our support team will get back to you soon',
      });
      form.reset({ email: form.getValues('email'), subject: '', message: '', attachmentUrl: '' });
    },
    onError: (error) =>
      toast({
        title: 'Failed to submit support ticket',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });

  return (
    <div>
      <PageHeader
        title="Contact Support"
        description="Send us a ticket and we will get back to you by email."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>New ticket</CardTitle>
            <CardDescription>
              Tell us what happened. Include the card type and date if it is about a card.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="grid gap-4"
              noValidate
              onSubmit={form.handleSubmit((v) => submit.mutate(v))}
            >
              <TextField
                id="ticket-email"
                label="Email"
                error={errors.email?.message}
                type="email"
                {...form.register('email')}
              />
              <TextField
                id="ticket-subject"
                label="Subject"
                error={errors.subject?.message}
                {...form.register('subject')}
              />
              <Field id="ticket-message" label="Message" error={errors.message?.message}>
                <Textarea
                  id="ticket-message"
                  rows={5}
                  aria-invalid={!!errors.message}
                  {...form.register('message')}
                />
              </Field>
              <TextField
                id="ticket-attachment"
                label="Attachment URL (optional)"
                error={errors.attachmentUrl?.message}
                hint="A link to a screenshot or document, starting with https://"
                type="url"
                placeholder="https://"
                {...form.register('attachmentUrl')}
              />
              <Button type="submit" disabled={submit.isPending} className="justify-self-start">
                <MailIcon /> {submit.isPending ? 'Submitting...' : 'Submit Ticket'}
              </Button>
            </form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Your Tickets</CardTitle>
            <CardDescription>Their status updates here as our team works on them.</CardDescription>
          </CardHeader>
          <CardContent>
            {tickets.isLoading ? (
              <Skeleton className="h-24" />
            ) : tickets.data?.length ? (
              <ul className="grid grid-cols-1 gap-3" data-testid="ticket-list">
                {tickets.data.map((ticket) => (
                  <li key={ticket.id} className="rounded-lg border p-4" data-testid="ticket">
                    <div className="flex items-start justify-between gap-3">
                      <p className="font-semibold">{ticket.subject}</p>
                      <TicketStatusBadge status={ticket.status} />
                    </div>
                    <p className="mt-1 text-xs text-muted-foreground">
                      {formatDate(ticket.createdAt)}
                    </p>
                    <p className="mt-2 line-clamp-3 whitespace-pre-wrap text-sm">
                      {ticket.message}
                    </p>
                  </li>
                ))}
              </ul>
            ) : (
              <div className="py-8 text-center text-sm text-muted-foreground">
                <InboxIcon className="mx-auto mb-2 size-8" />
                No tickets yet.
              </div>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
