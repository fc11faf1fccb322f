import { useAccount } from '../../stores/account-store';
import { useLibrary } from '../../stores/library-store';
import { useSettings } from '../../stores/settings-store';

/**
 * A service was just chosen from the welcome: the stores read it again (the window goes on to the library, whose Sign
 * in is now offered), and the catalogue is pulled (joined with the engine's own pull when it started one).
 */
export async function serviceChosen(): Promise<void> {
  await Promise.all([useSettings.getState().load(), useAccount.getState().load()]);
  void useLibrary.getState().pullCatalogue();
}
