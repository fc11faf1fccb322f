import ENGLISH from './messages/en.json';

/**
 * The English catalog: the source every other language translates, and the one the window's first script carries.
 * Its keys are the message ids: a `formatMessage({ id })` or `<FormattedMessage id>` naming one it lacks does not
 * compile (the declaration below), in the window and in Node.
 */
export { ENGLISH };

export type MessageId = keyof typeof ENGLISH;

/** A language's messages, by id, in ICU MessageFormat. */
export type Catalog = Record<MessageId, string>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
