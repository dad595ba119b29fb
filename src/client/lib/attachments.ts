/**
 * A ticket's attachment as people read it (issue 43, item 12): a stored upload is a photo (shown
 * as a thumbnail) or a file named by its kind; a link names its site. Never the raw
 * `/objects/chat/<uuid>.jpg` path.
 */
export interface AttachmentView {
  /** Shown as a thumbnail. */
  image: boolean;
  /** The words of the link. */
  name: string;
}

const IMAGE = /\.(jpe?g|png|gif|webp)$/i;

export function attachmentView(url: string): AttachmentView {
  if (url.startsWith('/objects/')) {
    if (IMAGE.test(url)) return { image: true, name: 'Attached photo' };
    const kind = url.match(/\.([a-z0-9]{1,5})$/i)?.[1]?.toUpperCase();
    return { image: false, name: kind ? `Attached file (${kind})` : 'Attached file' };
  }
  try {
    const { hostname } = new URL(url);
    return { image: false, name: `Link to ${hostname.replace(/^www\./, '')}` };
  } catch {
    return { image: false, name: 'Attached link' };
  }
}
