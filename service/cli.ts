import { parseArgs } from 'node:util';
import { findApplication, grantAuthorization, REGISTERED_APPLICATION } from './authorization/integrations';
import { seedDemo } from './seed/demo-seed';
import { seedSynthetic } from './seed/synthetic-seed';
import { openServiceContext, startService } from './server/start-service';
import { findUserByScreenName } from './users/user-accounts';

const USAGE = `Usage:
  npm run service -- --port <p> --data <dir> [--web-port <p>] [--demo] [--synthetic <n>] [--faults] [--log] [--max-upload-bytes <n>]
  npm run service -- token --data <dir> --user <screen_name>

  --web-port <p>    serve the web site (sign-in pages, design pages) on this second port, and only the API on --port
  --demo            seed demo users (demo/demo and others) and 60+ published designs with images and 3D models
  --synthetic <n>   add n synthetic published designs (no files), for benchmarks
  --faults          mount the loopback-only fault-injection endpoint /__admin/faults
  --log             log requests (auth_token is redacted)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function positiveInteger(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) fail(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'web-port': { type: 'string' },
      data: { type: 'string' },
      demo: { type: 'boolean', default: false },
      synthetic: { type: 'string' },
      faults: { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      'max-upload-bytes': { type: 'string' },
      user: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.data) fail('--data <dir> is required: it is where the service keeps its database and files');
  const command = positionals[0] ?? 'serve';

  if (command === 'token') {
    if (!values.user) fail('token needs --user <screen_name>');
    const ctx = openServiceContext({ dataDir: values.data });
    const user = findUserByScreenName(ctx.db, values.user);
    if (!user) fail(`no user with screen name ${JSON.stringify(values.user)} in ${values.data}`);
    const app = findApplication(ctx.db, REGISTERED_APPLICATION)!;
    process.stdout.write(`${grantAuthorization(ctx.db, user.id, app.id, ctx.now()).token}\n`);
    ctx.db.close();
    return;
  }
  if (command !== 'serve') fail(`unknown command ${JSON.stringify(command)}`);

  const port = positiveInteger(values.port, '--port') ?? 0;
  const synthetic = positiveInteger(values.synthetic, '--synthetic');
  const service = await startService({
    dataDir: values.data,
    port,
    ...(values['web-port'] !== undefined ? { webPort: positiveInteger(values['web-port'], '--web-port') } : {}),
    faultInjection: values.faults,
    logRequests: values.log,
    maxUploadBytes: positiveInteger(values['max-upload-bytes'], '--max-upload-bytes'),
  });
  if (values.demo) {
    const seeded = await seedDemo(service.ctx);
    if (seeded.created) process.stdout.write(`seeded ${seeded.users} users and ${seeded.designs} designs\n`);
  }
  if (synthetic) {
    const started = Date.now();
    seedSynthetic(service.ctx, synthetic);
    process.stdout.write(`seeded ${synthetic} synthetic designs in ${Date.now() - started} ms\n`);
  }
  // One write, so that whoever waits for "listening on" has the web site's address with it.
  process.stdout.write(`listening on ${service.url}\n${service.webUrl !== service.url ? `web site on ${service.webUrl}\n` : ''}`);
  const stop = () => void service.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
