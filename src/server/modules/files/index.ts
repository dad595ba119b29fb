/**
 * The uploads' public entry: what other modules use of them. A card's photos and a chat's
 * attachment are claimed for what they belong to; a verification or a ticket names only the
 * customer's own uploads; an export reads the documents; the jobs sweep and keep files.
 */
export { openStoredDocument, resealDocuments } from './documents';
export { ownedUploadKeys } from './owned-uploads';
export { applyRetention } from './retention';
export {
  cardImagesHashed,
  claimCardImages,
  claimChatAttachment,
  deleteChatUploads,
  deleteOrphanUploads,
  deleteUnrecordedFiles,
} from './uploads';
