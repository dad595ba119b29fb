import { FileTextIcon, ImagePlusIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { ACCEPTED_UPLOAD_TYPES, localFileProblem } from '@/lib/upload';
import { cn } from '@/lib/utils';

export interface PickedFile {
  id: string;
  file: File;
  previewUrl: string | null;
  progress: number;
  /** Set once the server has stored it, so a retry does not send it again. */
  objectPath?: string;
}

let nextId = 0;

export function ImagePicker({
  files,
  onChange,
  disabled,
}: {
  files: PickedFile[];
  onChange: (files: PickedFile[]) => void;
  disabled?: boolean;
}) {
  const inputRef = React.useRef<HTMLInputElement>(null);
  const [refused, setRefused] = React.useState<string | null>(null);

  const add = (list: FileList | null) => {
    const added: PickedFile[] = [];
    const problems: string[] = [];
    for (const file of Array.from(list ?? [])) {
      const problem = localFileProblem(file);
      if (problem) {
        problems.push(problem);
        continue;
      }
      added.push({
        id: `file-${++nextId}`,
        file,
        previewUrl: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
        progress: 0,
      });
    }
    // Every refused file named in one message under the photos, where the seller is looking: a
    // toast there covered the fields below on a phone (issue 43, 20).
    setRefused(
      problems.length === 0
        ? null
        : `${problems.length === 1 ? 'This file was not added' : `${problems.length} files were not added`}: ${problems.join('. ')}`,
    );
    onChange([...files, ...added]);
    if (inputRef.current) inputRef.current.value = '';
  };

  const remove = (id: string) => {
    const gone = files.find((f) => f.id === id);
    if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
    onChange(files.filter((f) => f.id !== id));
  };

  return (
    <div className="grid gap-3">
      <label
        htmlFor="card-images"
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-input bg-muted/30 px-4 py-8 text-center transition-colors hover:border-primary/50 hover:bg-accent/30 has-[:focus-visible]:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-background',
          disabled && 'pointer-events-none opacity-60',
        )}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault();
          if (!disabled) add(event.dataTransfer.files);
        }}
      >
        <ImagePlusIcon className="size-8 text-muted-foreground" />
        <span className="font-medium">Add photos of the card</span>
        <span className="text-xs text-muted-foreground">
          Front and back, with the code visible. Images or PDF, up to 10MB each.
        </span>
        <input
          ref={inputRef}
          id="card-images"
          type="file"
          multiple
          accept={ACCEPTED_UPLOAD_TYPES}
          className="sr-only"
          disabled={disabled}
          onChange={(event) => add(event.target.files)}
          data-testid="card-images-input"
        />
      </label>
      {refused && (
        <p
          role="alert"
          className="text-sm font-medium text-destructive"
          data-testid="files-refused"
        >
          {refused}
        </p>
      )}
      {files.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="picked-files">
          {files.map((f) => (
            <li
              key={f.id}
              className="relative overflow-hidden rounded-lg border bg-card"
              data-testid="picked-file"
            >
              {f.previewUrl ? (
                <img
                  src={f.previewUrl}
                  // The name is written beside it: the preview itself adds nothing to read out.
                  alt=""
                  className="aspect-[4/3] w-full object-cover"
                />
              ) : (
                <div className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-1 bg-muted/50 p-2">
                  <FileTextIcon className="size-8 text-muted-foreground" />
                  <span className="line-clamp-2 break-all text-center text-xs">{f.file.name}</span>
                </div>
              )}
              <div className="grid gap-1 p-2">
                <span className="truncate text-xs text-muted-foreground">{f.file.name}</span>
                <Progress value={f.progress} label={`Upload of ${f.file.name}`} />
              </div>
              {!disabled && (
                <Button
                  type="button"
                  size="icon"
                  variant="secondary"
                  className="absolute right-1.5 top-1.5 size-7 rounded-full shadow"
                  aria-label={`Remove ${f.file.name}`}
                  onClick={() => remove(f.id)}
                >
                  <XIcon />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
