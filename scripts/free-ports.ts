// `node bin/run-ts.js scripts/free-ports.ts N`: prints N distinct free TCP ports on one line, picked below the kernel's
// ephemeral range (src/devstack/net.ts), for scripts that start a stack on ports of their own (scripts/fuzz.sh).
import { freePort } from '../src/devstack/net';

async function main(count: number): Promise<void> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  process.stdout.write(`${ports.join(' ')}\n`);
}

main(Number(process.argv[2] ?? 1)).catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
