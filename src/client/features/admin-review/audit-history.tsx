import type { AuditEntry } from '@shared/admin';
import { HistoryIcon } from 'lucide-react';
import { formatDateTime } from '@/lib/dates';
import { auditWords } from './audit-words';

/** Staff's changes to the card, in words, from the audit log (decision 013; issue 43, item 11). */
export function AuditHistory({ entries }: { entries: AuditEntry[] }) {
  return (
    <section aria-label="History" className="grid gap-2">
      <h3 className="flex items-center gap-1.5 text-sm font-semibold">
        <HistoryIcon className="size-4" /> History
      </h3>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No staff changes yet.</p>
      ) : (
        <ol className="grid gap-2" data-testid="audit-history">
          {entries.map((entry) => {
            const words = auditWords(entry);
            return (
              <li key={entry.id} className="rounded-md border px-3 py-2 text-sm">
                <p className="text-xs text-muted-foreground">
                  {formatDateTime(entry.createdAt)} · {entry.actorEmail}
                </p>
                <p className="mt-1 font-medium">{words.what}</p>
                {words.lines.length > 0 && (
                  <ul className="mt-0.5 grid gap-0.5">
                    {words.lines.map((line) => (
                      <li key={line} className="wrap-anywhere">
                        {line}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
