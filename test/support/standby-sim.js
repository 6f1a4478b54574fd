// The CLI, started before its arguments are known (spawn-sim.ts standbySim): node started, then one JSON
// line of arguments read from stdin, then the compiled CLI (its path the first argument) run with them.
// The kill -9 trials start the next process this way while the current one takes writes.

const cli = process.argv[2];
const args = await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => {
    text += chunk.toString();
    if (text.includes('\n')) resolve(JSON.parse(text));
  });
});
process.stdin.destroy();
process.argv = [process.argv[0], cli, ...args];
await import(cli);
