import { FileTextIcon, ImageOffIcon } from 'lucide-react';
import * as React from 'react';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';

/**
 * A card's photos as thumbnails that open larger, and its PDFs as download tiles; a photo the
 * retention run deleted (`removed`) as a tile that says so.
 */
export function CardImages({ urls, removed = [] }: { urls: string[]; removed?: string[] }) {
  const [large, setLarge] = React.useState<string | null>(null);
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">Gift card images ({urls.length})</p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {urls.map((url, index) =>
          removed.includes(url) ? (
            <div
              key={url}
              className="flex aspect-[4/3] flex-col items-center justify-center gap-1 rounded-lg border border-dashed bg-muted/40 p-2 text-center text-sm text-muted-foreground"
              data-testid="card-image-removed"
            >
              <ImageOffIcon className="size-6" aria-hidden="true" /> Photo removed (retention)
            </div>
          ) : url.endsWith('.pdf') ? (
            <a
              key={url}
              href={url}
              className="flex aspect-[4/3] flex-col items-center justify-center gap-1 rounded-lg border bg-muted/40 text-sm hover:bg-muted"
            >
              <FileTextIcon className="size-7 text-muted-foreground" /> PDF {index + 1}
            </a>
          ) : (
            <button
              key={url}
              type="button"
              className="overflow-hidden rounded-lg border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => setLarge(url)}
              aria-label={`View image ${index + 1} larger`}
            >
              <img
                src={url}
                alt={`Gift card ${index + 1}`}
                className="aspect-[4/3] w-full object-cover"
                data-testid="card-image"
              />
            </button>
          ),
        )}
      </div>
      <Dialog open={large !== null} onOpenChange={(open) => !open && setLarge(null)}>
        <DialogContent className="max-w-4xl p-3" aria-describedby={undefined}>
          <DialogTitle className="sr-only">Gift card image</DialogTitle>
          {large && (
            <img
              src={large}
              alt="Gift card, full size"
              className="max-h-[80dvh] w-full object-contain"
            />
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
