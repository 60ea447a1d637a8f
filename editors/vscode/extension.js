// The rulelang extension's client: it starts the language server (`rulelang lsp`, over stdio)
// for .rules and .tests files through vscode-languageclient, and starts it again when the
// setting rulelang.serverCommand changes. Plain JavaScript: no build step.
"use strict";

const LANGUAGES = ["rulelang", "rulelang-tests"];
const DEFAULT_COMMAND = ["rulelang", "lsp"];

let client = null;

/**
 * The server's executable for vscode-languageclient, from the setting's [program, ...arguments];
 * ${workspaceFolder} in them is the path of the workspace's first folder.
 */
function serverOptions(command, workspaceFolder = "") {
  const words = Array.isArray(command) && command.length && command.every((w) => typeof w === "string")
    ? command : DEFAULT_COMMAND;
  const [program, ...args] = words.map((word) => word.split("${workspaceFolder}").join(workspaceFolder));
  return {command: program, args, transport: 0 /* TransportKind.stdio */};
}

/** What the client asks of the server: the files of both languages, on disk or unsaved. */
function clientOptions() {
  return {
    documentSelector: LANGUAGES.flatMap((language) => [{scheme: "file", language}, {scheme: "untitled", language}]),
  };
}

async function start(vscode) {
  const {LanguageClient} = require("vscode-languageclient/node");
  const command = vscode.workspace.getConfiguration("rulelang").get("serverCommand", DEFAULT_COMMAND);
  const folders = vscode.workspace.workspaceFolders;
  const executable = serverOptions(command, folders && folders.length ? folders[0].uri.fsPath : "");
  client = new LanguageClient("rulelang", "rulelang language server", executable, clientOptions());
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(`rulelang: could not start '${executable.command}' ` +
      `(set rulelang.serverCommand): ${error && error.message ? error.message : error}`);
  }
}

async function stop() {
  if (client) {
    const running = client;
    client = null;
    await running.stop();
  }
}

function activate(context) {
  const vscode = require("vscode");   // here, so that tests can load this file outside VS Code
  context.subscriptions.push(
    vscode.commands.registerCommand("rulelang.restartServer", async () => { await stop(); await start(vscode); }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("rulelang.serverCommand")) { await stop(); await start(vscode); }
    }),
  );
  return start(vscode);
}

function deactivate() {
  return stop();
}

module.exports = {activate, deactivate, serverOptions, clientOptions};
