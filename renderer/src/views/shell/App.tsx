import { lazy, Suspense, useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAccount } from '../../stores/account-store';
import { useSettings } from '../../stores/settings-store';
import { useSync } from '../../stores/sync-store';
import { useNavigation } from '../../stores/navigation-store';
import { LibraryView } from '../library/LibraryView';
import { useWindowState } from '../use-availability';
import { SampleServiceNotice } from '../welcome/SampleServiceNotice';
import { WelcomeView } from '../welcome/WelcomeView';
import { AccountMenu } from './AccountMenu';
import { ConnectionBanner } from './ConnectionBanner';
import { SyncStatusPill } from './SyncStatusPill';

// The library is the first view: it comes with the window's first script. The others load when first opened (a chunk
// each, fetched from the host in a few milliseconds), so that the first script parses quickly.
const DesignView = lazy(() => import('../design/DesignView').then((module) => ({ default: module.DesignView })));
const AuthorView = lazy(() => import('../author/AuthorView').then((module) => ({ default: module.AuthorView })));
const MyDesignsView = lazy(() => import('../mine/MyDesignsView').then((module) => ({ default: module.MyDesignsView })));
const SyncView = lazy(() => import('../sync/SyncView').then((module) => ({ default: module.SyncView })));
const SettingsView = lazy(() => import('../settings/SettingsView').then((module) => ({ default: module.SettingsView })));

export function App() {
  const intl = useIntl();
  const route = useNavigation((store) => store.route);
  // No service chosen yet (a first run): the library's place is the welcome's, where one is chosen.
  const welcome = useWindowState().serviceChosen === false && route.view === 'library';
  useEffect(() => {
    void useAccount.getState().load();
    void useSync.getState().load();
    void useSettings.getState().load();
  }, []);
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand"><FormattedMessage id="shell.brand" /></h1>
        <nav className="nav" aria-label={intl.formatMessage({ id: 'shell.nav.label' })}>
          <a href="#/" aria-current={route.view === 'library' ? 'page' : undefined}><FormattedMessage id="shell.nav.library" /></a>
          <a href="#/mine" aria-current={route.view === 'mine' ? 'page' : undefined}><FormattedMessage id="shell.nav.mine" /></a>
          <a href="#/sync" aria-current={route.view === 'sync' ? 'page' : undefined}><FormattedMessage id="shell.nav.sync" /></a>
          <a href="#/settings" aria-current={route.view === 'settings' ? 'page' : undefined}><FormattedMessage id="shell.nav.settings" /></a>
        </nav>
        <SyncStatusPill />
        <AccountMenu />
      </header>
      <ConnectionBanner />
      <SampleServiceNotice />
      <main className="content">
        <Suspense fallback={<p className="view-loading" role="status"><FormattedMessage id="shell.loading" /></p>}>
          {route.view === 'design' ? <DesignView id={route.id} /> : route.view === 'author' ? <AuthorView id={route.id} /> : route.view === 'mine' ? <MyDesignsView /> : route.view === 'sync' ? <SyncView /> : route.view === 'settings' ? <SettingsView /> : welcome ? <WelcomeView /> : <LibraryView />}
        </Suspense>
      </main>
    </div>
  );
}
