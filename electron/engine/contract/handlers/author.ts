import type { Handlers } from '../handler-types';
import { authorView } from '../views/author-view';
import { designCard } from '../views/design-card';

export const AUTHOR_HANDLERS: Handlers<'author.get'> = {
  'author.get': async ({ library }, { id }, signal) => {
    const { user, designs, covers, fromService } = await library.author(id, signal);
    const authors = new Map([[user.id, user.screenName]]);
    return { author: authorView(user.id, user.screenName, user.public), designs: designs.map((summary) => designCard(summary, authors, covers)), fromService };
  },
};
