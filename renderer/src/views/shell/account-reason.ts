/** Why a new sign-in is needed, and where the sign-in is kept, in the window's language: the shared words (shared/account/). */
export { accountReasonWords, tokenKeptInWords } from '../../../../shared/account/account-reason-words';
