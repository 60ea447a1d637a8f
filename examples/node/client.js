'use strict';
// A small client of `rulelang serve` (docs/protocol.md) for Node.js 18 or later, with no
// npm packages: it spawns the server on stdin/stdout, or connects to one over TCP, sends
// requests (one JSON object per line) and matches each reply to its request by id, so
// requests may be pipelined.
//
//   const { RulelangClient } = require('./client.js');
//   const client = RulelangClient.spawn({ cwd: '/path/to/repo' });   // or: await RulelangClient.connect({ port })
//   const { game } = await client.request('load', { path: 'games/tic_tac_toe.rules', players: 2 });
//   const { state } = await client.request('new_game', { game, seed: 7 });
//   await client.close();
//
// A failed request rejects with a RulelangError whose .code is the protocol's (P001...) or
// the engine's (E607...) code. Set RULELANG_PYTHON to choose the Python that runs the
// server (default: python3).

const { spawn } = require('node:child_process');
const net = require('node:net');

class RulelangError extends Error {
  constructor(error, request) {
    super(`${error.code} ${error.message}`);
    this.code = error.code;
    this.location = error.location;
    this.hint = error.hint;
    this.diagnostics = error.diagnostics;
    this.request = request;
  }
}

class RulelangClient {
  // `input` receives request lines; `output` gives reply lines; `finish` ends the link.
  constructor(input, output, finish) {
    this.input = input;
    this.finish = finish;
    this.nextId = 1;
    this.waiting = new Map();   // id -> { resolve, reject, request }
    this.buffer = '';
    this.closed = false;
    output.setEncoding('utf8');
    output.on('data', (chunk) => this.received(chunk));
    output.on('end', () => this.failAll(new Error('the server closed the connection')));
    output.on('error', (error) => this.failAll(error));
  }

  // Runs `python -m rulelang.interpreter.hosts.server` in `cwd` and talks to it on its stdin/stdout.
  static spawn({ cwd = process.cwd(), python = process.env.RULELANG_PYTHON || 'python3', args = [] } = {}) {
    const child = spawn(python, ['-m', 'rulelang.interpreter.hosts.server', ...args],
      { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    const client = new RulelangClient(child.stdin, child.stdout, () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
    }));
    child.on('error', (error) => client.failAll(error));
    return client;
  }

  // Connects to a server started with `--port`.
  static connect({ host = '127.0.0.1', port }) {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host, port }, () => {
        socket.off('error', reject);
        resolve(new RulelangClient(socket, socket, () => new Promise((done) => {
          socket.once('close', done);
          socket.end();
        })));
      });
      socket.once('error', reject);
    });
  }

  // Sends one request; resolves with its result, or rejects with a RulelangError.
  request(op, fields = {}) {
    if (this.closed) {
      return Promise.reject(new Error('the client is closed'));
    }
    const request = { id: this.nextId++, op, ...fields };
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject, request });
      this.input.write(JSON.stringify(request) + '\n');
    });
  }

  received(chunk) {
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      this.answer(JSON.parse(line));
    }
  }

  answer(reply) {
    const pending = this.waiting.get(reply.id);
    if (pending === undefined) {
      return;   // a reply to no request of ours (the server could not read an id)
    }
    this.waiting.delete(reply.id);
    if (reply.ok) {
      pending.resolve(reply.result);
    } else {
      pending.reject(new RulelangError(reply.error, pending.request));
    }
  }

  failAll(error) {
    for (const { reject } of this.waiting.values()) {
      reject(error);
    }
    this.waiting.clear();
  }

  // Ends the link (the server forgets this session's games and states).
  async close() {
    if (!this.closed) {
      this.closed = true;
      await this.finish();
    }
  }
}

module.exports = { RulelangClient, RulelangError };
