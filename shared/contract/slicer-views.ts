/** An app that opens model files, as the window shows it: a slicer found installed, or the system's default app. */
export interface SlicerView {
  /** What 'design.openModelFile' takes as `slicer` ('system' for the system's default app). */
  id: string;
  /** "PrusaSlicer", "Bambu Studio (Flatpak)", "System default app". */
  name: string;
  /** The file types it opens (lowercased extensions); every type for the system's default app. */
  types: string[];
}

/** The apps that open a document's type (or all found), the system's default app last, and the one that opens it now. */
export interface SlicersView {
  slicers: SlicerView[];
  /** The id of the one that opens it now: the person's choice for its type, else the last one chosen, else the first found. */
  chosen: string;
  /** The document's type, when one was asked about. */
  type: string | null;
}
