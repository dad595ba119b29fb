import {
  ChevronLeftIcon,
  ChevronRightIcon,
  FileTextIcon,
  ImageOffIcon,
  MaximizeIcon,
  RotateCwIcon,
  ZoomInIcon,
  ZoomOutIcon,
} from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

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
      <ImageViewer
        photos={urls.filter((url) => !removed.includes(url) && !url.endsWith('.pdf'))}
        open={large}
        onOpen={setLarge}
      />
    </div>
  );
}

/**
 * The photo viewer (issue 21, item 4): ← and → step through the card's photos; zoom, rotate and
 * full screen for reading a code or a scratched PIN. Its keys are its own (data-no-shortcuts).
 */
function ImageViewer({
  photos,
  open,
  onOpen,
}: {
  photos: string[];
  open: string | null;
  onOpen: (url: string | null) => void;
}) {
  const [zoomed, setZoomed] = React.useState(false);
  const [turns, setTurns] = React.useState(0);
  const frame = React.useRef<HTMLDivElement>(null);
  const index = open ? photos.indexOf(open) : -1;
  const step = (by: number) => {
    if (photos.length < 2 || index < 0) return;
    onOpen(photos[(index + by + photos.length) % photos.length]!);
    setTurns(0);
  };
  return (
    <Dialog
      open={open !== null}
      onOpenChange={(next) => {
        if (next) return;
        onOpen(null);
        setZoomed(false);
        setTurns(0);
      }}
    >
      <DialogContent
        className="max-w-4xl p-3"
        aria-describedby={undefined}
        data-no-shortcuts
        data-testid="image-viewer"
        onKeyDown={(event) => {
          // Zoomed in, the arrows scroll the photo instead.
          if (zoomed) return;
          if (event.key === 'ArrowRight') step(1);
          else if (event.key === 'ArrowLeft') step(-1);
        }}
      >
        <DialogTitle className="sr-only">
          Gift card image {index + 1} of {photos.length}
        </DialogTitle>
        <div className="flex flex-wrap items-center gap-2 pr-8">
          <Button size="sm" variant="outline" onClick={() => step(-1)} disabled={photos.length < 2}>
            <ChevronLeftIcon /> Previous
          </Button>
          <span className="text-sm tabular-nums text-muted-foreground" aria-live="polite">
            {index + 1} / {photos.length}
          </span>
          <Button size="sm" variant="outline" onClick={() => step(1)} disabled={photos.length < 2}>
            Next <ChevronRightIcon />
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-pressed={zoomed}
            onClick={() => setZoomed((z) => !z)}
          >
            {zoomed ? <ZoomOutIcon /> : <ZoomInIcon />} {zoomed ? 'Fit' : 'Zoom'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setTurns((n) => (n + 1) % 4)}>
            <RotateCwIcon /> Rotate
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => void frame.current?.requestFullscreen?.().catch(() => {})}
          >
            <MaximizeIcon /> Full screen
          </Button>
        </div>
        <div
          ref={frame}
          className={cn(
            'max-h-[80dvh] bg-background',
            zoomed ? 'overflow-auto' : 'flex items-center justify-center overflow-hidden',
          )}
          data-testid="image-viewer-frame"
          // Zoomed, the photo scrolls: reachable by keyboard, and named.
          {...(zoomed ? { tabIndex: 0, role: 'region', 'aria-label': 'Zoomed photo' } : {})}
        >
          {open && (
            <img
              src={open}
              alt={`Gift card ${index + 1}, full size`}
              style={{ rotate: `${turns * 90}deg` }}
              className={cn(
                'transition-transform',
                zoomed ? 'max-w-none w-[200%]' : 'max-h-[78dvh] w-full object-contain',
              )}
            />
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
