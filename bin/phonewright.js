#!/usr/bin/env node
// The CLI entry point: the compiled CLI. The package ships it built (npm pack builds through "prepack"); in a
// clone, npm install and npm ci build it through "dependencies", and npm start and npm test build it again.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
