#!/usr/bin/env node
'use strict'
// dag-cbor-car: runs the command line tool, lib/commands/cli.js, from the build this package has
// (lib/node/load-bundle.cjs): the packed package's bundle (build/node/, made by npm pack), or in a
// checkout the source, so that a run after an edit runs the edited code, with nothing to rebuild.
// CommonJS (bin/package.json): Node starts a CommonJS entry without setting up its ES module loader
// first, which a run from the bundle does not need.
const { bundled, loadBundle } = require('../lib/node/load-bundle.cjs')

if (bundled()) loadBundle().cli()
else import('../lib/commands/cli.js')
