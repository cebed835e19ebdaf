// The container image, checked where no Docker daemon runs (this project's machine and CI): the
// Dockerfile's steps are followed in a clean copy of the commit, and its entry command is run as
// an unprivileged user with its environment, then asked for events and the explorer.
//
//   node deploy/check-image.mjs
//
// What it follows: the build stage's RUN lines (in the copy), the final stage's COPY lines (into
// an empty folder standing for the image), its ENV, USER (as "nobody": the image's "node" user
// does not exist here), VOLUME (a temporary folder), ENTRYPOINT and CMD. What it cannot check:
// the base image itself (node:20-bookworm-slim), its user, and the HEALTHCHECK's timing.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createServer } from 'node:net';

const root = join(import.meta.dirname, '..');
const lines = readFileSync(join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const stages = [];
for (const line of lines) {
  const [instruction, ...rest] = line.split(/\s+/);
  if (instruction === 'FROM') stages.push({ from: rest.join(' '), steps: [] });
  else stages.at(-1).steps.push({ instruction, args: line.slice(instruction.length).trim() });
}
if (stages.length !== 2) throw new Error(`expected a build stage and a final stage, found ${stages.length}`);
const [build, final] = stages;
const json = (text) => JSON.parse(text);

const work = mkdtempSync(join(tmpdir(), 'vessel-events-image-'));
// The unprivileged user must reach the image's folder.
chmodSync(work, 0o755);
let server;
const cleanup = () => {
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
try {
  // The build stage, in a clean copy of the commit (what `COPY` would see, less .dockerignore).
  const context = join(work, 'context');
  execFileSync('git', ['clone', '-q', root, context]);
  for (const { instruction, args } of build.steps) {
    if (instruction === 'RUN') {
      console.log(`build: RUN ${args}`);
      execFileSync('sh', ['-c', args], { cwd: context, stdio: 'inherit' });
    }
  }

  // The final stage: only what its COPY lines take, from the build (--from=build) or the context.
  const image = join(work, 'image');
  const data = join(work, 'data');
  let workdir = '/';
  const env = { PATH: process.env.PATH, HOME: work };
  let command = [];
  let entrypoint = [];
  let user = 'root';
  for (const { instruction, args } of final.steps) {
    if (instruction === 'WORKDIR') workdir = args;
    if (instruction === 'COPY') {
      const parts = args.split(/\s+/);
      const fromBuild = parts[0] === '--from=build';
      const [source, target] = fromBuild ? parts.slice(1) : parts;
      const sourcePath = fromBuild ? join(context, source.replace(/^\/app\/?/, '')) : join(context, source);
      // A target ending in "/" (or ".") is a folder the source goes into, as Docker reads it.
      const into = target.endsWith('/') || target === '.' ? basename(source) : '';
      const targetPath = join(image, target.startsWith('/') ? target : join(workdir, target), into);
      mkdirSync(dirname(targetPath), { recursive: true });
      cpSync(sourcePath, targetPath, { recursive: true });
      console.log(`final: COPY ${args}`);
    }
    if (instruction === 'ENV') for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
    if (instruction === 'USER') user = args;
    if (instruction === 'ENTRYPOINT') entrypoint = json(args);
    if (instruction === 'CMD') command = json(args);
  }
  if (user === 'root') throw new Error('the image runs as root: add a USER');
  // The volume and the paths inside it, where the unprivileged user may write.
  mkdirSync(data, { recursive: true });
  chmodSync(data, 0o777);
  chmodSync(image, 0o755);
  for (const key of Object.keys(env)) if (env[key].startsWith('/data/')) env[key] = join(data, env[key].slice('/data/'.length));
  // A free port instead of 8080, and the loopback address: this machine is shared.
  env.VESSEL_EVENTS_PORT = String(await freePort());
  env.VESSEL_EVENTS_HOST = '127.0.0.1';
  env.CI = 'true';
  const cwd = join(image, workdir);
  const argv = [...entrypoint, ...command, '--events', '2000'];
  console.log(`run as nobody in ${workdir}: ${argv.join(' ')}`);
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'] : [];
  server = spawn(asUser[0] ?? argv[0], [...asUser.slice(1), ...(asUser.length ? argv : argv.slice(1))], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in 180 s:\n${out}`)), 180_000);
    server.stdout.on('data', (d) => {
      out += d;
      const url = /^Vessel events API: (http:\/\/[^/\s]+)/m.exec(out)?.[1];
      const token = /^Token \(demo, replaced at each start\): (\S+)/m.exec(out)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolve({ url, token });
      }
    });
    server.on('exit', (code) => reject(new Error(`the entry command exited (${code}):\n${out}`)));
  });
  const res = await fetch(`${ready.url}/v3/events?datasets=public-global-fishing-events:latest&limit=2&offset=0`, { headers: { authorization: `Bearer ${ready.token}` } });
  const body = await res.json();
  if (res.status !== 200 || body.entries.length !== 2) throw new Error(`events: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  for (const path of ['/explorer/', '/explorer/vendor/maplibre-gl.js', '/docs/', '/healthz']) {
    const page = await fetch(`${ready.url}${path}`);
    if (page.status !== 200) throw new Error(`${path}: ${page.status}`);
  }
  console.log(`image check: the entry command, as an unprivileged user with the image's files only, served ${body.total} fishing events, the explorer and the docs`);
} finally {
  cleanup();
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
