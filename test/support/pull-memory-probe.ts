/**
 * Runs `design-sync pull` in this process (its own: started by a test with `node electron/launcher/run-source.mjs`) and prints, as the last
 * line of standard output, its exit code, what it printed, and how much its resident memory grew while it ran:
 * { code, out, err, startRss, peakRss } (bytes). Arguments: the service's address, the profile folder.
 */
import { runCli } from '../../electron/cli/main';

const [serviceUrl, profile] = process.argv.slice(2);
const out: string[] = [];
const err: string[] = [];
const startRss = process.memoryUsage().rss;
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const code = await runCli(['--profile', profile!, '--service', serviceUrl!, 'pull'], {
  out: (text) => out.push(text),
  err: (text) => err.push(text),
  readStdin: async () => '',
});
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
process.stdout.write(`\n${JSON.stringify({ code, out: out.join('\n'), err: err.join('\n'), startRss, peakRss })}\n`);
