import type { ChatMessage } from '@shared/support';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import type { ReadyAttachment } from './attachment';

/** POST /api/chat/messages with the spec's payload; staff name the customer in `userId`. */
export function useSendChatMessage(options: {
  senderType: 'user' | 'admin';
  userId?: string | null;
  onSuccess: () => unknown;
  onError: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: async ({
      message,
      attachment,
    }: {
      message: string;
      attachment: ReadyAttachment | null;
    }) =>
      (
        await apiRequest('POST', '/api/chat/messages', {
          message,
          senderType: options.senderType,
          ...(options.senderType === 'admin' ? { userId: options.userId } : {}),
          attachmentUrl: attachment?.url ?? null,
          attachmentType: attachment?.type ?? null,
        })
      ).json() as Promise<ChatMessage>,
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
