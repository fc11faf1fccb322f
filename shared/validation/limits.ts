/** Spec §8. */
export const LIMITS = {
  designNameMax: 255,
  designExcerptMax: 300,
  imageExtensions: ['jpg', 'jpeg', 'tiff', 'bmp', 'png'] as const,
  refusedDocumentExtensions: ['exe'] as const,
} as const;
