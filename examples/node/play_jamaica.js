'use strict';
// Plays one game of Jamaica through `rulelang serve`, every seat choosing a random legal
// action, and prints the winners and the scores.
//
//   node examples/node/play_jamaica.js [--players 3|4] [--seed N] [--port P] [--rules PATH]
//
// Without --port it spawns the server (`python -m rulelang.interpreter.hosts.server`, from the
// repository root; RULELANG_PYTHON chooses the Python). With --port it connects to a server
// already running there (`rulelang serve --port P`, started from the repository root).
//
// When a choice is simultaneous (every player picks an action card in secret), `to_act`
// lists several players: each of them answers, and the rules go on when the last has.

const path = require('node:path');
const { RulelangClient } = require('./client.js');

const REPOSITORY = path.resolve(__dirname, '..', '..');

function options(argv) {
  const found = { players: 3, seed: 1, port: null, rules: 'games/jamaica.rules' };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (!['--players', '--seed', '--port', '--rules'].includes(name) || value === undefined) {
      throw new Error(`usage: node play_jamaica.js [--players 3|4] [--seed N] [--port P] [--rules PATH]`);
    }
    found[name.slice(2)] = name === '--rules' ? value : Number(value);
  }
  return found;
}

// A small seeded generator (mulberry32), so that a seed replays the same game.
function generator(seed) {
  let a = seed >>> 0;
  return (count) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * count);
  };
}

// Every player to act answers; their requests go out together (pipelined).
async function playOneDecision(client, state, toAct, pick) {
  const asked = await Promise.all(toAct.map((player) => client.request('decision', { state, player })));
  const answers = asked.map(({ decision }) => {
    const [id] = decision.actions[pick(decision.actions.length)];
    return { player: decision.player, id, simultaneous: decision.kind === 'simultaneous' };
  });
  let progress = null;
  for (const { player, id } of answers) {
    progress = await client.request('apply', { state, action: id, player });
  }
  return { progress, simultaneous: answers.some((answer) => answer.simultaneous) };
}

async function play(client, { players, seed, rules }) {
  const loaded = await client.request('load', { path: rules, players });
  const started = await client.request('new_game', { game: loaded.game, seed });
  const pick = generator(seed);
  let progress = started;
  let decisions = 0;
  let simultaneous = 0;
  while (!progress.terminal) {
    const step = await playOneDecision(client, started.state, progress.to_act, pick);
    progress = step.progress;
    decisions += 1;
    simultaneous += step.simultaneous ? 1 : 0;
  }
  const status = await client.request('status', { state: started.state });
  return { title: loaded.title, decisions, simultaneous, status };
}

function seat(player) {
  return `player ${player + 1}`;
}

async function main() {
  const chosen = options(process.argv.slice(2));
  const client = chosen.port === null
    ? RulelangClient.spawn({ cwd: REPOSITORY })
    : await RulelangClient.connect({ port: chosen.port });
  try {
    const { title, decisions, simultaneous, status } = await play(client, chosen);
    console.log(`${title}, ${chosen.players} players, seed ${chosen.seed}: ${decisions} decisions `
      + `(${simultaneous} simultaneous)`);
    console.log(`scores: ${status.returns.map((score, player) => `${seat(player)} ${score}`).join(', ')}`);
    console.log(`winners: ${status.winners.map(seat).join(', ')}`);
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(`play_jamaica: ${error.message}`);
  process.exitCode = 1;
});
