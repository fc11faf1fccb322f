import type { AccountView } from '../../../../shared';
import type { Engine } from '../../runtime/engine';

export function accountView(engine: Engine): AccountView {
  const state = engine.session.state;
  const user = state.status === 'signed-out' ? null : state.user;
  return {
    status: state.status,
    user: user ? { id: user.id, screenName: user.screen_name, realName: user.real_name ?? null, avatarUrl: `/files/avatars/${user.id}` } : null,
    reason: state.status === 'needs-sign-in' ? state.reason : engine.tokenProblem,
    serviceUrl: engine.serviceUrl(),
    tokenKeptIn: engine.session.store.describe(),
    signingIn: engine.signIn.inProgress,
    signInUrl: engine.signIn.address,
  };
}
