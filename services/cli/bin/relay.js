#!/usr/bin/env node
'use strict';
// The npm bin of @relay/cli (`npx relay …` from the repository): the built command, run.
require('../dist/main.js')
  .run(process.argv)
  .then((code) => {
    process.exitCode = code;
  });
