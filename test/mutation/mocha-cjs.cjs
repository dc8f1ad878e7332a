// Preloaded (NODE_OPTIONS --require) into Stryker's processes by test/mutation/run.js.
// @stryker-mutator/mocha-runner 10.0.0 requires Mocha's CLI helpers without an extension
// (require('mocha/lib/cli/run-helpers')), and Mocha 12 renamed them to .cjs, so the runner
// fails to load ("Cannot find TestRunner plugin mocha"). Letting require() try '.cjs' as it
// tries '.js' makes those requires resolve; nothing else is changed. Remove this file once a
// mocha-runner release resolves the .cjs names itself (stryker-js pull request 6205).
'use strict'
const Module = require('node:module')
// @ts-ignore: _extensions is Node's internal (deprecated but stable) extension table
const extensions = Module._extensions
if (!Object.hasOwn(extensions, '.cjs')) extensions['.cjs'] = extensions['.js']
