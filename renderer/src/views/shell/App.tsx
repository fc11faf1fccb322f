import { useEffect } from 'react';
import { useAccount } from '../../stores/account-store';
import { useSync } from '../../stores/sync-store';
import { useNavigation } from '../../stores/navigation-store';
import { AuthorView } from '../author/AuthorView';
import { DesignView } from '../design/DesignView';
import { LibraryView } from '../library/LibraryView';
import { MyDesignsView } from '../mine/MyDesignsView';
import { SettingsView } from '../settings/SettingsView';
import { SyncView } from '../sync/SyncView';
import { AccountMenu } from './AccountMenu';
import { ConnectionBanner } from './ConnectionBanner';
import { SyncStatusPill } from './SyncStatusPill';

export function App() {
  const route = useNavigation((store) => store.route);
  useEffect(() => {
    void useAccount.getState().load();
    void useSync.getState().load();
  }, []);
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">design-sync</h1>
        <nav className="nav" aria-label="Views">
          <a href="#/" aria-current={route.view === 'library' ? 'page' : undefined}>Library</a>
          <a href="#/mine" aria-current={route.view === 'mine' ? 'page' : undefined}>My designs</a>
          <a href="#/sync" aria-current={route.view === 'sync' ? 'page' : undefined}>Sync</a>
          <a href="#/settings" aria-current={route.view === 'settings' ? 'page' : undefined}>Settings</a>
        </nav>
        <SyncStatusPill />
        <AccountMenu />
      </header>
      <ConnectionBanner />
      <main className="content">
        {route.view === 'design' ? <DesignView id={route.id} /> : route.view === 'author' ? <AuthorView id={route.id} /> : route.view === 'mine' ? <MyDesignsView /> : route.view === 'sync' ? <SyncView /> : route.view === 'settings' ? <SettingsView /> : <LibraryView />}
      </main>
    </div>
  );
}
