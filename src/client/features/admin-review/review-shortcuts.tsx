import { DialogFrame } from '@/components/ui/dialog';

/** The review keys (issue 21, item 4): listed by `?`, in the queue and in the review dialog. */
export const REVIEW_SHORTCUTS: [keys: string, what: string][] = [
  ['J / K', 'Next / previous card in the queue'],
  ['Enter', 'Open the selected card'],
  ['A', 'Approve: Processing, paid the expected payout'],
  ['R', 'Reject: choose a reason'],
  ['← / →', 'Previous / next photo, in the photo viewer'],
  ['?', 'Show these shortcuts'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <DialogFrame
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Keyboard shortcuts"
      description="They work anywhere in the queue and the review dialog, except while typing in a field."
      data-testid="shortcuts-dialog"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">Keyboard shortcuts</caption>
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Key
            </th>
            <th scope="col" className="py-2 font-medium">
              Does
            </th>
          </tr>
        </thead>
        <tbody>
          {REVIEW_SHORTCUTS.map(([keys, what]) => (
            <tr key={keys} className="border-b last:border-0">
              <td className="py-2 pr-3">
                <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {keys}
                </kbd>
              </td>
              <td className="py-2">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </DialogFrame>
  );
}
