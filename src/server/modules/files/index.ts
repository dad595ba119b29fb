/**
 * The uploads' public entry: what other modules use of them. A card's photos and a chat's
 * attachment are claimed for what they belong to; a verification or a ticket names only the
 * customer's own uploads; an export reads the documents; the jobs sweep and keep files; a bulk
 * card file and a bank statement are read as CSV.
 */
export { csvRows } from './csv';
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
  readFormFile,
} from './uploads';
