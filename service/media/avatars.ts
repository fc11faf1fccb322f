import type { ServiceContext } from '../server/service-context';

/**
 * Stores a user's avatar from any accepted image, writes its renditions (medium, span4, span2, span1, mini)
 * and sets users.avatar_image_path. Placeholder until the media work lands.
 */
export async function storeAvatar(_ctx: ServiceContext, _userId: number, _image: Buffer): Promise<void> {}
