import type { Handlers } from '../handler-types';
import { ACCOUNT_HANDLERS } from './account';
import { AUTHOR_HANDLERS } from './author';
import { CATALOGUE_HANDLERS } from './catalogue';
import { DESIGN_HANDLERS } from './design';
import { DIAGNOSTICS_HANDLERS } from './diagnostics';
import { GENERATED_THUMBNAIL_HANDLERS } from './generated-thumbnails';
import { KEEP_OFFLINE_HANDLERS } from './keep-offline';
import { LIBRARY_HANDLERS } from './library';
import { MODEL_FILE_HANDLERS } from './model-files';
import { OWN_DESIGN_HANDLERS } from './own-designs';
import { QUEUE_HANDLERS } from './queue';
import { SAMPLE_SERVICE_HANDLERS } from './sample-service';
import { SETTINGS_HANDLERS } from './settings';
import { SYNC_HANDLERS } from './sync';
import { UPDATES_HANDLERS } from './updates';

/** One handler per request of the contract: the compiler checks that none is missing. */
export const HANDLERS: Handlers = {
  ...ACCOUNT_HANDLERS,
  ...LIBRARY_HANDLERS,
  ...DESIGN_HANDLERS,
  ...MODEL_FILE_HANDLERS,
  ...GENERATED_THUMBNAIL_HANDLERS,
  ...KEEP_OFFLINE_HANDLERS,
  ...AUTHOR_HANDLERS,
  ...OWN_DESIGN_HANDLERS,
  ...SYNC_HANDLERS,
  ...QUEUE_HANDLERS,
  ...CATALOGUE_HANDLERS,
  ...SETTINGS_HANDLERS,
  ...DIAGNOSTICS_HANDLERS,
  ...SAMPLE_SERVICE_HANDLERS,
  ...UPDATES_HANDLERS,
};
