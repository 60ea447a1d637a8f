// Tokenizes files with the extension's TextMate grammars, as VS Code does: the real
// vscode-textmate and vscode-oniguruma packages (devDependencies, `npm ci` in editors/vscode).
//
//   node test/tokenize.js FILE...
//
// Prints one JSON object: for each file, its lines, each a list of [start, end, scopes]
// (columns in UTF-16 code units, as the editor counts them). A .tests file is read with
// source.rulelang.tests, any other with source.rulelang. Exits 1, with the reason on stderr,
// when a grammar does not load, a regular expression does not compile or a line's
// tokenizing stops early.
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const SYNTAXES = path.join(__dirname, "..", "syntaxes");
const GRAMMAR_FILES = {
  "source.rulelang": "rulelang.tmLanguage.json",
  "source.rulelang.tests": "rulelang-tests.tmLanguage.json",
};

function registry() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  const onigLib = oniguruma.loadWASM(wasm).then(() => ({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }));
  return new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) => {
      const file = GRAMMAR_FILES[scopeName];
      if (!file) return null;
      const full = path.join(SYNTAXES, file);
      return vsctm.parseRawGrammar(fs.readFileSync(full, "utf8"), full);
    },
  });
}

function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line, index) => {
    const result = grammar.tokenizeLine(line, stack, 0);
    if (result.stoppedEarly) throw new Error(`line ${index + 1}: tokenizing stopped early`);
    stack = result.ruleStack;
    return result.tokens.map((t) => [t.startIndex, t.endIndex, t.scopes]);
  });
}

async function main(files) {
  const found = registry();
  const grammars = {};
  for (const scope of Object.keys(GRAMMAR_FILES)) {
    grammars[scope] = await found.loadGrammar(scope);
    if (!grammars[scope]) throw new Error(`the grammar ${scope} did not load`);
  }
  const out = {};
  for (const file of files) {
    const scope = file.endsWith(".tests") ? "source.rulelang.tests" : "source.rulelang";
    try {
      out[file] = tokenize(grammars[scope], fs.readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`${file}: ${error.message}`);
    }
  }
  process.stdout.write(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`tokenize.js: ${error.stack || error}\n`);
  process.exit(1);
});
